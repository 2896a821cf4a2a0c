"""``majiang fan --jsonl`` done with PyMahjongGB 1.4 (the Botzone judge's C++ calculator): the
reference process of the whole-process benchmark in ``benchmarks/fan_bench.py``.

Reads hand-json lines (docs/hand-json.md, canonical tile spellings) from stdin, converts each to
PyMahjongGB's arguments, calls ``MahjongFanCalculator`` and prints one result line in the same shape
as majiang's (``total``, ``fans`` with name/zh/points/count, ``valid``, ``below_minimum``; or
``error``).  Written to be as quick as plain Python allows, so the comparison is fair to it.

    python benchmarks/pmgb_jsonl.py < hands.jsonl > results.jsonl
"""

from __future__ import annotations

import json
import sys
from typing import Any

import MahjongGB  # type: ignore[import-not-found]

_CODE: dict[str, str] = {}
for _i in range(1, 10):
    _CODE[f"{_i}m"], _CODE[f"{_i}p"], _CODE[f"{_i}s"] = f"W{_i}", f"B{_i}", f"T{_i}"
for _letter, _code in zip("ESWNCFP", ("F1", "F2", "F3", "F4", "J1", "J2", "J3"), strict=True):
    _CODE[_letter] = _code
_WIND = {"E": 0, "S": 1, "W": 2, "N": 3}
_FLOWER_POINTS = 1


def _args(d: dict[str, Any]) -> tuple[Any, ...]:
    code = _CODE
    packs = []
    for m in d.get("melds", ()):
        tiles = sorted(m["tiles"])
        kind = m["kind"]
        if kind == "chow":
            packs.append(("CHI", code[tiles[1]], (m.get("claimed") or 0) + 1))
        elif kind == "pung":
            packs.append(("PENG", code[tiles[0]], m.get("from") or 1))
        else:
            packs.append(("GANG", code[tiles[0]], 0 if m.get("concealed") else (m.get("from") or 1)))
    flowers = d.get("flowers", 0)
    return (
        tuple(packs),
        tuple(code[t] for t in d["hand"]),
        code[d["win_tile"]],
        len(flowers) if isinstance(flowers, list) else flowers,
        d.get("self_drawn", False),
        d.get("fourth_tile", False),
        d.get("kong", False),
        d.get("last_tile", False),
        _WIND[d.get("seat_wind", "E")],
        _WIND[d.get("prevalent_wind", "E")],
        True,
    )


def main() -> int:
    calc = MahjongGB.MahjongFanCalculator
    loads = json.loads
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    write = sys.stdout.write
    for line in sys.stdin:
        try:
            fans = calc(*_args(loads(line)))
        except (TypeError, KeyError, ValueError) as e:
            write(dumps({"error": str(e)}))
            write("\n")
            continue
        total = 0
        flower_points = 0
        out = []
        for points, count, zh, en in fans:
            total += points * count
            if en == "Flower Tiles":
                flower_points = points * count
            out.append({"name": en, "zh": zh, "points": points, "count": count})
        below = total - flower_points < 8
        write(dumps({"total": total, "fans": out, "valid": not below, "below_minimum": below}))
        write("\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
