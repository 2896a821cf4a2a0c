"""The hand-json contract for Nanchang (``docs/hand-json.md`` "Nanchang hand settlement").

Input::

    {"rules": "nanchang", "jing_indicator": "5p", "dealer": 0,
     "winner": 1, "win_tile": "2s", "method": "self_drawn", "discarder": null,
     "hands": [{"concealed": [...], "melds": [...]}, ... 4 seats],
     "options": {"dianpao_pay": "three"}}

Optional extras, read only by the options that need them: per hand ``discards`` (打出精牌算分) and
``dealt`` (上下翻, 回头一笑); top level ``xia_jing_indicator`` (下精), ``previous_jing_indicator``
(回头一笑), ``first_discards`` (抄庄).  ``concealed`` may also be a compact string such as
``"123m456pEE"``.

Output: ``{"hu": [...], "multiplier": M, "deltas": [4 ints], "parts": {"win", "kong", "jing"}}``
(``parts.penalty`` too when ``chao_zhuang`` is on); any problem gives ``{"error": "reason"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from majiang.nanchang.melds import InvalidHandError, meld_from_dict
from majiang.nanchang.options import OptionError, Options, options_from_dict
from majiang.nanchang.settle import HandRecord, SeatHand, Settlement, settle
from majiang.nanchang.terms import WinMethod
from majiang.tiles import NotationError, Tile, is_flower, parse_tile, parse_tiles

_TOP_KEYS = frozenset(
    {
        "rules",
        "jing_indicator",
        "dealer",
        "winner",
        "win_tile",
        "method",
        "discarder",
        "hands",
        "options",
        "xia_jing_indicator",
        "previous_jing_indicator",
        "first_discards",
    }
)
_HAND_KEYS = frozenset({"concealed", "melds", "discards", "dealt"})


def _tile(v: Any, what: str) -> Tile:
    if not isinstance(v, str):
        raise InvalidHandError(f"{what} must be a tile string such as '5p', got {v!r}")
    t = parse_tile(v)
    if is_flower(t):
        raise InvalidHandError(f"{what}: Nanchang is played without flowers, got {v!r}")
    return t


def _opt_tile(d: Mapping[str, Any], key: str) -> Tile | None:
    v = d.get(key)
    return None if v is None else _tile(v, f"'{key}'")


def _tiles(v: Any, what: str) -> tuple[Tile, ...]:
    if isinstance(v, str):
        tiles = parse_tiles(v)
    elif isinstance(v, list) and all(isinstance(t, str) for t in v):
        tiles = [parse_tile(t) for t in v]
    else:
        raise InvalidHandError(f'{what} must be a list of tile strings such as ["1m", "E"], got {v!r}')
    if any(is_flower(t) for t in tiles):
        raise InvalidHandError(f"{what}: Nanchang is played without flowers")
    return tuple(tiles)


def _seat(d: Mapping[str, Any], key: str, default: int | None) -> int | None:
    v = d.get(key, default)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or v not in range(4):
        raise InvalidHandError(f"'{key}' must be a seat 0–3 (0 = first in turn order), got {v!r}")
    return v


def _hand(d: Any, seat: int) -> SeatHand:
    if not isinstance(d, Mapping):
        raise InvalidHandError(f"hands[{seat}] must be an object with 'concealed' and 'melds'")
    unknown = sorted(set(d) - _HAND_KEYS)
    if unknown:
        raise InvalidHandError(f"hands[{seat}]: unknown field {unknown[0]!r} (known: {', '.join(sorted(_HAND_KEYS))})")
    if "concealed" not in d:
        raise InvalidHandError(f"hands[{seat}]: 'concealed' is missing")
    melds_raw = d.get("melds", [])
    if not isinstance(melds_raw, list):
        raise InvalidHandError(f"hands[{seat}]: 'melds' must be a list")
    try:
        melds = tuple(meld_from_dict(m) for m in melds_raw)
        concealed = _tiles(d["concealed"], "'concealed'")
        discards = _tiles(d.get("discards", []), "'discards'")
        dealt = None if d.get("dealt") is None else _tiles(d["dealt"], "'dealt'")
    except (InvalidHandError, NotationError) as e:
        raise InvalidHandError(f"hands[{seat}]: {e}") from None
    return SeatHand(concealed, melds, discards, dealt)


def record_from_dict(d: Mapping[str, Any]) -> tuple[HandRecord, Options]:
    """Parse a Nanchang hand-json object; raises ``InvalidHandError``/``NotationError``/``OptionError``."""
    if not isinstance(d, Mapping):
        raise InvalidHandError("a Nanchang hand must be a JSON object (see docs/hand-json.md)")
    rules = d.get("rules", "nanchang")
    if rules != "nanchang":
        raise InvalidHandError(f"'rules' must be 'nanchang' here, got {rules!r}")
    unknown = sorted(set(d) - _TOP_KEYS)
    if unknown:
        raise InvalidHandError(f"unknown field {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})")
    options = options_from_dict(d.get("options"))
    if "jing_indicator" not in d:
        raise InvalidHandError("'jing_indicator' is missing (the tile turned up for the jing, e.g. \"5p\")")
    if "winner" not in d:
        raise InvalidHandError("'winner' is missing: a seat 0–3, or null for an exhaustive draw (荒庄)")
    hands_raw = d.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != 4:
        raise InvalidHandError('\'hands\' must be a list of the 4 seats\' {"concealed": [...], "melds": [...]}')
    method_raw = d.get("method")
    method = None
    if method_raw is not None:
        try:
            method = WinMethod(method_raw)
        except ValueError:
            raise InvalidHandError(
                f"unknown method {method_raw!r}: use " + ", ".join(m.value for m in WinMethod)
            ) from None
    first = d.get("first_discards")
    rec = HandRecord(
        jing_indicator=_tile(d["jing_indicator"], "'jing_indicator'"),
        hands=tuple(_hand(h, i) for i, h in enumerate(hands_raw)),
        dealer=_seat(d, "dealer", 0) or 0,
        winner=_seat(d, "winner", None),
        win_tile=_opt_tile(d, "win_tile"),
        method=method,
        discarder=_seat(d, "discarder", None),
        xia_jing_indicator=_opt_tile(d, "xia_jing_indicator"),
        previous_jing_indicator=_opt_tile(d, "previous_jing_indicator"),
        first_discards=None if first is None else _tiles(first, "'first_discards'"),
    )
    return rec, options


def settlement_to_dict(s: Settlement, options: Options) -> dict[str, Any]:
    parts: dict[str, list[int]] = {"win": list(s.win_deltas), "kong": list(s.kong_deltas), "jing": list(s.jing_deltas)}
    if options.chao_zhuang:
        parts["penalty"] = list(s.penalty_deltas)
    return {
        "hu": s.win.hu_names if s.win else [],
        "multiplier": s.win.multiplier if s.win else 0,
        "deltas": list(s.deltas),
        "parts": parts,
    }


def settle_dict(d: Mapping[str, Any]) -> dict[str, Any]:
    """Settle one hand-json object; every problem becomes ``{"error": "reason"}``."""
    try:
        rec, options = record_from_dict(d)
        return settlement_to_dict(settle(rec, options), options)
    except (InvalidHandError, NotationError, OptionError) as e:
        return {"error": str(e)}
