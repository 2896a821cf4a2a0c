"""Helpers for the Nanchang tests: build hand-json tables with filler tiles, and a natural-only oracle."""

from __future__ import annotations

from itertools import combinations_with_replacement, pairwise, product
from typing import Any

from majiang.nanchang import JingPair
from majiang.tiles import NUM_KINDS, parse_tile, parse_tiles, tile_str


def chow(tiles: str, claimed: int | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "chow", "tiles": [tile_str(t) for t in parse_tiles(tiles)]}
    if claimed is not None:
        d["claimed"] = claimed
    return d


def pung(tile: str, source: int | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "pung", "tiles": [tile] * 3}
    if source is not None:
        d["from"] = source
    return d


def kong(tile: str, concealed: bool = False, source: int | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "kong", "tiles": [tile] * 4, "concealed": concealed}
    if source is not None:
        d["from"] = source
    return d


def _meld_tiles(m: dict[str, Any]) -> list[int]:
    return [parse_tile(t) for t in m["tiles"]]


def table(
    indicator: str,
    seats: dict[int, dict[str, Any]] | None = None,
    *,
    dealer: int = 0,
    winner: int | None = None,
    win_tile: str | None = None,
    method: str | None = None,
    discarder: int | None = None,
    options: dict[str, Any] | None = None,
    avoid: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """A hand-json object.  Seats not given, and given seats whose ``concealed`` is short, are topped
    up with filler tiles that are never jing (nor in ``avoid``), respecting four copies per kind."""
    seats = seats or {}
    pair = JingPair.from_indicator(parse_tile(indicator))
    used = [0] * NUM_KINDS
    used[parse_tile(indicator)] += 1
    if win_tile is not None:
        used[parse_tile(win_tile)] += 1
    hands: list[dict[str, Any]] = []
    for s in range(4):
        spec = dict(seats.get(s, {}))
        spec.setdefault("concealed", "")
        spec.setdefault("melds", [])
        for t in parse_tiles(spec["concealed"]):
            used[t] += 1
        for m in spec["melds"]:
            for t in _meld_tiles(m):
                used[t] += 1
        for t in parse_tiles(spec.get("discards", "") if isinstance(spec.get("discards", ""), str) else ""):
            used[t] += 1
        hands.append(spec)
    banned = set(pair.kinds) | set(parse_tiles(avoid))
    pool = [t for t in range(NUM_KINDS) if t not in banned for _ in range(4)]
    for s, spec in enumerate(hands):
        need = 13 - 3 * len(spec["melds"])
        if s == winner and win_tile is None:
            need += 1
        have = parse_tiles(spec["concealed"])
        while len(have) < need:
            # spread the filler over kinds so that no filler hand is accidentally special
            for t in pool:
                if used[t] < 4 and have.count(t) < 1:
                    break
            else:
                raise AssertionError("filler ran out")
            used[t] += 1
            have.append(t)
        spec["concealed"] = [tile_str(t) for t in have]
    d: dict[str, Any] = {
        "rules": "nanchang",
        "jing_indicator": indicator,
        "dealer": dealer,
        "winner": winner,
        "win_tile": win_tile,
        "method": method,
        "discarder": discarder,
        "hands": hands,
    }
    if options:
        d["options"] = options
    d.update(extra)
    return d


# ---- natural-only oracle (no wilds): an independent, slow reference -------------------------------


def _runs(counts: list[int], sets: int, chows: bool) -> bool:
    if sets == 0:
        return not any(counts)
    i = next((k for k in range(NUM_KINDS) if counts[k]), None)
    if i is None:
        return False
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _runs(counts, sets - 1, chows)
        counts[i] += 3
        if ok:
            return True
    if not chows:
        return False
    candidates: list[tuple[int, int, int]] = []
    if i < 27 and i % 9 <= 6:
        candidates.append((i, i + 1, i + 2))
    elif 27 <= i <= 30:
        candidates += [c for c in ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30)) if c[0] == i]
    elif i == 31:
        candidates.append((31, 32, 33))
    for c in candidates:
        if all(counts[k] for k in c):
            for k in c:
                counts[k] -= 1
            ok = _runs(counts, sets - 1, chows)
            for k in c:
                counts[k] += 1
            if ok:
                return True
    return False


def natural_standard(counts: list[int], sets: int, chows: bool = True) -> bool:
    for p in range(NUM_KINDS):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = _runs(counts, sets, chows)
            counts[p] += 2
            if ok:
                return True
    return False


def natural_sets_only(counts: list[int], sets: int, chows: bool = True) -> bool:
    return _runs(list(counts), sets, chows)


def natural_qidui(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def natural_lan(counts: list[int]) -> bool:
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return False
    for s in (0, 9, 18):
        ranks = [r for r in range(9) if counts[s + r]]
        if any(b - a < 3 for a, b in pairwise(ranks)):
            return False
    return True


def natural_qixing_lan(counts: list[int]) -> bool:
    return natural_lan(counts) and all(counts[h] for h in range(27, 34))


def assignments(naturals: list[int], wild_kinds: list[int]) -> Any:
    """Every way to give the wilds kinds: yields ``(counts, honour_ok)``, where ``honour_ok`` says no
    wild stands for an honour other than its own kind (the 七星 condition).  Wilds are interchangeable
    except for that, so: choose which wilds stand for their own kind, the rest take any multiset."""
    seen: set[tuple[tuple[int, ...], bool]] = set()
    n = len(wild_kinds)
    for own in product((False, True), repeat=n):
        c0 = list(naturals)
        for k, is_own in zip(wild_kinds, own, strict=True):
            if is_own:
                c0[k] += 1
        free = n - sum(own)
        for choice in combinations_with_replacement(range(NUM_KINDS), free):
            c = list(c0)
            for k in choice:
                c[k] += 1
            key = (tuple(c), all(k < 27 for k in choice))
            if key not in seen:
                seen.add(key)
                yield list(key[0]), key[1]
