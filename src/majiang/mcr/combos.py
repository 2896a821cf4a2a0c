"""Fans formed by combining sets: chows with chows, pungs with pungs (mcr.md §5).

Each function takes middle tiles (chows) or pung tiles in reference order and returns a
:class:`Fan` or ``None``.  The 套算一次 / 不得相同 principles for several chows live in
:func:`chow_fans`.
"""

from __future__ import annotations

from itertools import combinations

from majiang.mcr.fans import Fan
from majiang.tiles import EAST, GREEN, NORTH, RED, SOUTH, WEST, WHITE, Tile

Inst = tuple[int | str, ...]  # what one counted fan was formed from: pack indices or a description


def _suit(t: Tile) -> int:
    return t // 9


def _rank(t: Tile) -> int:
    return t % 9 + 1


def _shifted(r0: int, r1: int, r2: int, step: int) -> bool:
    return r0 + step == r1 and r1 + step == r2


def _mixed(a: Tile, b: Tile, c: Tile) -> bool:
    sa, sb, sc = _suit(a), _suit(b), _suit(c)
    return sa != sb and sa != sc and sb != sc


def _shifted_any_order(r0: int, r1: int, r2: int) -> bool:
    lo, mid, hi = sorted((r0, r1, r2))
    return lo + 1 == mid and mid + 1 == hi


def four_chows_fan(t0: Tile, t1: Tile, t2: Tile, t3: Tile) -> Fan | None:
    """一色四步高 / 一色四同顺 (t sorted)."""
    if _suit(t0) == _suit(t1) == _suit(t2) == _suit(t3):
        r = [_rank(t) for t in (t0, t1, t2, t3)]
        if r[0] + 2 == r[1] and r[1] + 2 == r[2] and r[2] + 2 == r[3]:
            return Fan.FOUR_PURE_SHIFTED_CHOWS
        if r[0] + 1 == r[1] and r[1] + 1 == r[2] and r[2] + 1 == r[3]:
            return Fan.FOUR_PURE_SHIFTED_CHOWS
        if t0 == t1 == t2 == t3:
            return Fan.QUADRUPLE_CHOW
    return None


def three_chows_fan(t0: Tile, t1: Tile, t2: Tile) -> Fan | None:
    """三色三步高, 三色三同顺, 花龙; 清龙, 一色三步高, 一色三同顺 (t in reference order)."""
    r0, r1, r2 = _rank(t0), _rank(t1), _rank(t2)
    if _mixed(t0, t1, t2):
        if _shifted_any_order(r0, r1, r2):
            return Fan.MIXED_SHIFTED_CHOWS
        if r0 == r1 == r2:
            return Fan.MIXED_TRIPLE_CHOW
        if sorted((r0, r1, r2)) == [2, 5, 8]:
            return Fan.MIXED_STRAIGHT
    elif _suit(t0) == _suit(t1) == _suit(t2):
        if (r0, r1, r2) == (2, 5, 8):
            return Fan.PURE_STRAIGHT
        if _shifted(r0, r1, r2, 2) or _shifted(r0, r1, r2, 1):
            return Fan.PURE_SHIFTED_CHOWS
        if r0 == r1 == r2:
            return Fan.PURE_TRIPLE_CHOW
    return None


def two_chows_fan(t0: Tile, t1: Tile) -> Fan | None:
    """喜相逢, 连六, 老少副, 一般高."""
    if _suit(t0) != _suit(t1):
        return Fan.MIXED_DOUBLE_CHOW if _rank(t0) == _rank(t1) else None
    d = abs(t0 - t1)
    if d == 3:
        return Fan.SHORT_STRAIGHT
    if {_rank(t0), _rank(t1)} == {2, 8}:
        return Fan.TWO_TERMINAL_CHOWS
    if d == 0:
        return Fan.PURE_DOUBLE_CHOW
    return None


def four_pungs_fan(t0: Tile, t1: Tile, t2: Tile, t3: Tile) -> Fan | None:
    if t3 < 27 and _suit(t0) == _suit(t3) and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return Fan.FOUR_PURE_SHIFTED_PUNGS
    if (t0, t1, t2, t3) == (EAST, SOUTH, WEST, NORTH):
        return Fan.BIG_FOUR_WINDS
    return None


def three_pungs_fan(t0: Tile, t1: Tile, t2: Tile) -> Fan | None:
    if t0 < 27 and t1 < 27 and t2 < 27:
        r0, r1, r2 = _rank(t0), _rank(t1), _rank(t2)
        if _mixed(t0, t1, t2):
            if _shifted_any_order(r0, r1, r2):
                return Fan.MIXED_SHIFTED_PUNGS
            if r0 == r1 == r2:
                return Fan.TRIPLE_PUNG
        elif _suit(t0) == _suit(t1) == _suit(t2) and t0 + 1 == t1 and t1 + 1 == t2:
            return Fan.PURE_SHIFTED_PUNGS
        return None
    winds = {(EAST, SOUTH, WEST), (EAST, SOUTH, NORTH), (EAST, WEST, NORTH), (SOUTH, WEST, NORTH)}
    if (t0, t1, t2) in winds:
        return Fan.BIG_THREE_WINDS
    if (t0, t1, t2) == (RED, GREEN, WHITE):
        return Fan.BIG_THREE_DRAGONS
    return None


def two_pungs_fan(t0: Tile, t1: Tile) -> Fan | None:
    if t0 < 27 and t1 < 27:
        return Fan.DOUBLE_PUNG if _rank(t0) == _rank(t1) else None
    if t0 >= RED and t1 >= RED:
        return Fan.TWO_DRAGON_PUNGS
    return None


# 套算一次: a chow left over from a three-chow fan combines once, in this order of preference.
_EXTRA_PREFERENCE = (Fan.PURE_DOUBLE_CHOW, Fan.MIXED_DOUBLE_CHOW, Fan.SHORT_STRAIGHT, Fan.TWO_TERMINAL_CHOWS)
_PAIR_FANS = _EXTRA_PREFERENCE


def _trim(found: list[tuple[Fan, Inst]], max_cnt: int) -> list[tuple[Fan, Inst]]:
    """套算一次 and 不得相同 for chow pairs: at most ``max_cnt`` pair fans; when there are more, drop
    repeats first (从重复的开始削减), starting from 老少副 and working up to 一般高."""
    by_fan: dict[Fan, list[Inst]] = {f: [] for f in _PAIR_FANS}
    for fan, inst in found:
        by_fan[fan].append(inst)
    cnt = len(found)
    for limit in (1, 0):
        for fan in reversed(_PAIR_FANS):
            while len(by_fan[fan]) > limit and cnt > max_cnt:
                by_fan[fan].pop()
                cnt -= 1
            if cnt <= max_cnt:
                break
        if cnt <= max_cnt:
            break
    return [(f, i) for f in _PAIR_FANS for i in by_fan[f]]


def chow_fans(chows: list[tuple[Tile, int]]) -> list[tuple[Fan, Inst]]:
    """Fans among the chows of one decomposition.  ``chows`` = (middle tile, pack index), sorted in
    reference order."""
    n = len(chows)
    tiles = [c[0] for c in chows]
    idx = [c[1] for c in chows]
    if n == 4:
        fan = four_chows_fan(*tiles)
        if fan is not None:
            return [(fan, tuple(idx))]
        for a, b, c, extra in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = three_chows_fan(tiles[a], tiles[b], tiles[c])
            if fan is not None:
                out: list[tuple[Fan, Inst]] = [(fan, (idx[a], idx[b], idx[c]))]
                partners = {p: two_chows_fan(tiles[p], tiles[extra]) for p in (a, b, c)}
                for pref in _EXTRA_PREFERENCE:
                    hit = [p for p in (a, b, c) if partners[p] is pref]
                    if hit:
                        out.append((pref, tuple(sorted((idx[hit[0]], idx[extra])))))
                        break
                return out
        pairs = list(combinations(range(4), 2))
        found = [(two_chows_fan(tiles[i], tiles[j]), (idx[i], idx[j])) for i, j in pairs]
        max_cnt = 3
        for k in range(4):  # a chow that combines with none of the others lowers the cap
            if all(f is None for (f, _), (i, j) in zip(found, pairs, strict=True) if k in (i, j)):
                max_cnt -= 1
        if max_cnt <= 0:
            return []
        return _trim([(f, i) for f, i in found if f is not None], max_cnt)
    if n == 3:
        fan = three_chows_fan(*tiles)
        if fan is not None:
            return [(fan, tuple(idx))]
        found3 = [(two_chows_fan(tiles[i], tiles[j]), (idx[i], idx[j])) for i, j in ((0, 1), (0, 2), (1, 2))]
        return _trim([(f, i) for f, i in found3 if f is not None], 2)
    if n == 2:
        fan = two_chows_fan(tiles[0], tiles[1])
        return [(fan, (idx[0], idx[1]))] if fan is not None else []
    return []


def pung_fans(pungs: list[tuple[Tile, int]]) -> list[tuple[Fan, Inst]]:
    """Fans among the pungs/kongs of one decomposition, (tile, pack index) sorted in reference order
    (two pungs are unordered)."""
    n = len(pungs)
    tiles = [p[0] for p in pungs]
    idx = [p[1] for p in pungs]
    out: list[tuple[Fan, Inst]] = []
    if n == 4:
        fan = four_pungs_fan(*tiles)
        if fan is not None:
            return [(fan, tuple(idx))]
        for a, b, c, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = three_pungs_fan(tiles[a], tiles[b], tiles[c])
            if fan is not None:
                out.append((fan, (idx[a], idx[b], idx[c])))
                for p in range(4):
                    if p == free:
                        continue
                    f2 = two_pungs_fan(tiles[p], tiles[free])
                    if f2 is not None:
                        out.append((f2, tuple(sorted((idx[p], idx[free])))))
                        break
                return out
        for i, j in combinations(range(4), 2):
            f2 = two_pungs_fan(tiles[i], tiles[j])
            if f2 is not None:
                out.append((f2, (idx[i], idx[j])))
        return out
    if n == 3:
        fan = three_pungs_fan(*tiles)
        if fan is not None:
            return [(fan, tuple(idx))]
        for i, j in ((0, 1), (0, 2), (1, 2)):
            f2 = two_pungs_fan(tiles[i], tiles[j])
            if f2 is not None:
                out.append((f2, (idx[i], idx[j])))
        return out
    if n == 2:
        f2 = two_pungs_fan(tiles[0], tiles[1])
        return [(f2, (idx[0], idx[1]))] if f2 is not None else []
    return []
