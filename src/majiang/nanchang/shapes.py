"""Winning shapes with wild tiles, on count vectors (§2.7).

Everything here works on a 34-slot vector of *natural* tiles plus a number of wilds (精 in the
concealed hand), never on wild assignments.  A wild may stand for any kind, so a shape is reachable
iff the naturals can be completed into it with at most that many wilds:

* 平胡 / 碰碰胡: :func:`sets_need` — the fewest wilds that complete the naturals into sets (+ one
  pair).  Suits, winds and dragons never share a set, so each group is solved on its own by a
  memoised search over its counts and the groups are added; leftover wilds form sets of their own.
* 小七对: :func:`singles` — every odd count needs one wild (四归 = two pairs).
* 十三烂: :func:`lan_capacity` — how many more kinds the naturals leave room for.
* 七星十三烂 / 七星七对: the seven honours must be present as their own kind (a jing of an honour
  kind may stand for itself).

Why the search may take the naturals greedily (a pung takes ``min(c, 3)`` copies, a chow takes a
natural wherever it has one): if a wild stands for kind X in one set while a natural X sits in
another set, swapping the two keeps both sets valid at the same cost.

>>> from majiang.tiles import counts_of, parse_tiles
>>> sets_need(counts_of(parse_tiles("123m 456p 789s 22s 7m")), pair=True)
2
>>> sets_need(counts_of(parse_tiles("ESW NNN CFP 55m")), pair=True)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise

from majiang.tiles import HONORS, NUM_KINDS

_SUIT, _WIND, _DRAGON = 0, 1, 2
#: (start, end, group kind) of the five groups that never share a set
GROUPS: tuple[tuple[int, int, int], ...] = (
    (0, 9, _SUIT),
    (9, 18, _SUIT),
    (18, 27, _SUIT),
    (27, 31, _WIND),
    (31, 34, _DRAGON),
)
_NEVER = 99


class Shape(StrEnum):
    """The winning shapes of §2.7 (value = a stable ASCII id)."""

    PINGHU = "pinghu"  # 平胡: 4 sets + pair
    PENGPENG = "pengpeng"  # 碰碰胡 / 大七对: no sequences
    QIDUI = "xiaoqidui"  # 小七对
    SHISANLAN = "shisanlan"  # 十三烂
    QIXING_SHISANLAN = "qixing_shisanlan"  # 七星十三烂
    QIXING_QIDUI = "qixing_qidui"  # 七星七对 (option)


def _windows() -> dict[tuple[int, int], tuple[tuple[int, ...], ...]]:
    """The chows containing position ``i`` of a group: suit runs, any three winds, 中发白."""
    out: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}
    for i in range(9):
        out[_SUIT, i] = tuple((s, s + 1, s + 2) for s in range(max(0, i - 2), min(i, 6) + 1))
    for i in range(4):
        out[_WIND, i] = tuple(c for c in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)) if i in c)
    for i in range(3):
        out[_DRAGON, i] = ((0, 1, 2),)
    return out


_WINDOWS = _windows()


@lru_cache(maxsize=1 << 17)
def group_need(kind: int, counts: tuple[int, ...], pair: bool, chows: bool) -> int:
    """Fewest wilds completing one group's naturals into sets (+ one pair if ``pair``).

    The lowest natural tile must belong to some set: try a pung, the pair, and every chow through
    it, each taking as many naturals as it can; recurse on what is left.
    """
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return 2 if pair else 0  # the pair made of two wilds
    c = list(counts)
    u = min(c[i], 3)
    c[i] -= u
    best = 3 - u + group_need(kind, tuple(c), pair, chows)
    c[i] += u
    if pair:
        u = min(c[i], 2)
        c[i] -= u
        best = min(best, 2 - u + group_need(kind, tuple(c), False, chows))
        c[i] += u
    if chows:
        for window in _WINDOWS[kind, i]:
            cost = 0
            d = list(counts)
            for j in window:
                if d[j]:
                    d[j] -= 1
                else:
                    cost += 1
            if cost < best:
                best = min(best, cost + group_need(kind, tuple(d), pair, chows))
    return best


def sets_need(naturals: Sequence[int], pair: bool, chows: bool = True) -> int:
    """Fewest wilds completing the naturals into sets, plus exactly one pair if ``pair``.

    ``chows=False`` allows pungs only (碰碰胡).  The caller checks the tile count; with a count of
    ``3k + 2`` (``3k`` without a pair) the wilds left over always form whole sets.
    """
    base = 0
    gains = 2  # the pair as two wilds
    for start, end, kind in GROUPS:
        part = tuple(naturals[start:end])
        if not any(part):
            continue
        without = group_need(kind, part, False, chows)
        base += without
        if pair:
            gains = min(gains, group_need(kind, part, True, chows) - without)
    return base + gains if pair else base


def singles(naturals: Sequence[int]) -> int:
    """小七对: the kinds with an odd count, each needing one wild (四归 counts as two pairs)."""
    return sum([c & 1 for c in naturals])


def _lan_table() -> list[int]:
    """For each set of ranks 1–9 (bit mask): the largest 十三烂-valid superset size, −1 if invalid."""

    def valid(mask: int) -> bool:
        ranks = [r for r in range(9) if mask >> r & 1]
        return all(b - a >= 3 for a, b in pairwise(ranks))

    best = [-1] * 512
    for mask in range(511, -1, -1):
        if not valid(mask):
            continue
        size = bin(mask).count("1")
        for r in range(9):
            if not mask >> r & 1 and valid(mask | 1 << r):
                size = max(size, best[mask | 1 << r])
        best[mask] = size
    return best


_LAN_MAX = _lan_table()


def lan_capacity(naturals: Sequence[int]) -> int:
    """十三烂: how many wilds the naturals leave room for (−1 if the naturals already break it).

    Naturals must be distinct kinds, suited ones at least 3 apart within a suit; a wild may then
    become any kind that keeps the hand valid, so the room is per suit (1-4-7 style) plus the
    honours not yet present.
    """
    room = 0
    for start in (0, 9, 18):
        mask = 0
        for r in range(9):
            c = naturals[start + r]
            if c > 1:
                return -1
            if c:
                mask |= 1 << r
        best = _LAN_MAX[mask]
        if best < 0:
            return -1
        room += best - bin(mask).count("1")
    for h in HONORS:
        if naturals[h] > 1:
            return -1
        room += 1 - naturals[h]
    return room


def _honours_as_themselves(
    naturals: Sequence[int], wilds: int, jing_kinds: Sequence[int], jing_counts: Sequence[int]
) -> int:
    """Wilds left once every honour has one tile of its own kind (a held jing of that kind standing
    for itself fills a missing one); −1 if some honour cannot be present."""
    for h in HONORS:
        if naturals[h] == 0:
            held = sum(c for k, c in zip(jing_kinds, jing_counts, strict=True) if k == h)
            if held == 0:
                return -1
            wilds -= 1
    return wilds


def qixing_lan_ok(naturals: Sequence[int], wilds: int, jing_kinds: Sequence[int], jing_counts: Sequence[int]) -> bool:
    """七星十三烂: a 十三烂 whose seven honours are all present as themselves (never a wild)."""
    room = lan_capacity(naturals)
    if room < 0:
        return False
    left = _honours_as_themselves(naturals, wilds, jing_kinds, jing_counts)
    if left < 0:
        return False
    suit_room = room - sum(1 for h in HONORS if naturals[h] == 0)
    return left <= suit_room


def qixing_qidui_ok(naturals: Sequence[int], wilds: int, jing_kinds: Sequence[int], jing_counts: Sequence[int]) -> bool:
    """七星七对 (option): a pair of each of the seven honours; every honour present as itself at
    least once, wilds completing the pairs."""
    if any(naturals[t] for t in range(27)) or any(naturals[h] > 2 for h in HONORS):
        return False
    left = _honours_as_themselves(naturals, wilds, jing_kinds, jing_counts)
    if left < 0:
        return False
    missing = sum(2 - max(naturals[h], 1) for h in HONORS)
    return missing == left


def empty_counts() -> list[int]:
    return [0] * NUM_KINDS
