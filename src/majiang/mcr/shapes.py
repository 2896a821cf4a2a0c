"""Winning shapes and their decompositions (划分).

A *pack* is one set of a decomposition: ``(kind, tile, exposed)`` with ``kind`` one of
:data:`CHOW` / :data:`PUNG` / :data:`KONG` / :data:`PAIR`; ``tile`` is the middle tile of a chow
and the tile of anything else; ``exposed`` is True for a declared (claimed) meld.

The order in which regular decompositions are listed matters only for ties between equal totals;
it is the order the community-standard calculators use (suits m, s, p, then honours; pungs before
chows), so both profiles pick the same reading as the Botzone judge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import NamedTuple

from majiang._speedups import load
from majiang.tiles import NUM_KINDS, Tile, format_compact, tile_str

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4
KNITTED = 5  # the nine tiles of a 组合龙 (tile = index into KNITTED_STRAIGHTS)


class Pack(NamedTuple):
    kind: int
    tile: Tile  # middle tile for a chow
    exposed: bool = False

    def tiles(self) -> list[Tile]:
        if self.kind == KNITTED:
            return list(KNITTED_STRAIGHTS[self.tile])
        if self.kind == CHOW:
            return [self.tile - 1, self.tile, self.tile + 1]
        return [self.tile] * {PUNG: 3, KONG: 4, PAIR: 2}[self.kind]

    def compact(self) -> str:
        body = format_compact(self.tiles())
        if self.exposed:
            return f"[{body}]"
        if self.kind == KONG:
            return "{" + body + "}"
        return body


# Reference order of tiles: 1m–9m, 1s–9s, 1p–9p, E S W N C F P.
REF_ORDER: tuple[Tile, ...] = tuple(range(0, 9)) + tuple(range(18, 27)) + tuple(range(9, 18)) + tuple(range(27, 34))
REF_KEY: tuple[int, ...] = tuple(REF_ORDER.index(t) for t in range(NUM_KINDS))

THIRTEEN_ORPHANS: tuple[Tile, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
#: The six 组合龙 (knitted straights): 147/258/369 spread over the three suits, in reference order.
KNITTED_STRAIGHTS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(sorted([a, a + 3, a + 6, 18 + b, 18 + b + 3, 18 + b + 6, 9 + c, 9 + c + 3, 9 + c + 6]))
    for a, b, c in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)


def regular_divisions(counts: list[int], fixed: Sequence[Pack]) -> list[list[Pack]]:
    """Every way to split the concealed tiles (``counts``, the winning tile included) into sets and
    one pair, after the declared ``fixed`` packs.  Each division lists the fixed packs, then the
    concealed sets, then the pair."""
    need = 4 - len(fixed)
    if need < 0 or not any(c >= 2 for c in counts):
        return []
    out: list[list[Pack]] = []
    work: list[Pack] = list(fixed)

    def rec(step: int, prev_pos: int) -> None:
        if step == need:
            for t in REF_ORDER:
                if counts[t] == 2:
                    out.append(work + [Pack(PAIR, t)])
                    return
            return
        for pos in range(prev_pos, NUM_KINDS):
            t = REF_ORDER[pos]
            c = counts[t]
            if c == 0:
                continue
            # sets are listed in non-decreasing order (pung before chow at a tile), so each
            # multiset of sets is found once; a pung cannot repeat the previous set
            if c >= 3 and (step == 0 or pos > prev_pos):
                counts[t] -= 3
                work.append(Pack(PUNG, t))
                rec(step + 1, pos)
                work.pop()
                counts[t] += 3
            if t < 27 and t % 9 <= 6 and counts[t + 1] and counts[t + 2]:
                counts[t] -= 1
                counts[t + 1] -= 1
                counts[t + 2] -= 1
                work.append(Pack(CHOW, t + 1))
                rec(step + 1, pos)
                work.pop()
                counts[t] += 1
                counts[t + 1] += 1
                counts[t + 2] += 1

    rec(0, 0)
    return out


def is_regular_win(counts: list[int], sets_needed: int) -> bool:
    """Whether ``counts`` is ``sets_needed`` sets and a pair."""
    for t in range(NUM_KINDS):
        if counts[t] >= 2:
            counts[t] -= 2
            ok = _all_sets(counts, 0, sets_needed)
            counts[t] += 2
            if ok:
                return True
    return False


def _all_sets(counts: list[int], start: int, left: int) -> bool:
    t = start
    while t < NUM_KINDS and counts[t] == 0:
        t += 1
    if t == NUM_KINDS:
        return left == 0
    if left == 0:
        return False
    if counts[t] >= 3:
        counts[t] -= 3
        ok = _all_sets(counts, t, left - 1)
        counts[t] += 3
        if ok:
            return True
    if t < 27 and t % 9 <= 6 and counts[t + 1] and counts[t + 2]:
        counts[t] -= 1
        counts[t + 1] -= 1
        counts[t + 2] -= 1
        ok = _all_sets(counts, t, left - 1)
        counts[t] += 1
        counts[t + 1] += 1
        counts[t + 2] += 1
        return ok
    return False


def is_seven_pairs(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def regular_and_pairs_waits(counts: list[int], n_tiles: int) -> list[Tile]:
    """Tiles that complete ``counts`` (``n_tiles`` concealed tiles, no winning tile) as a regular
    hand, or as seven pairs when ``n_tiles`` is 13.  A fifth copy is not excluded: a tile the hand
    already holds four of still counts as a wait (see Rules.exhausted_tile_is_wait)."""
    sets = (n_tiles - 1) // 3
    waits = []
    for t in range(NUM_KINDS):
        counts[t] += 1
        if is_regular_win(counts, sets) or (n_tiles == 13 and all(c % 2 == 0 for c in counts)):
            waits.append(t)
        counts[t] -= 1
    return waits


def describe(packs: Sequence[Pack]) -> str:
    return " ".join(p.compact() for p in packs)


def pack_tile_str(p: Pack) -> str:
    return tile_str(p.tile)


# ---------------------------------------------------------------------------------------------
# fast shape tests (the engine asks them on every draw and discard)


@cache
def _suit_splits(suit: tuple[int, ...]) -> bool:
    """Whether one suit's counts split into sets, plus one pair when its tile count is 3k+2."""
    n = sum(suit)
    if n % 3 == 1:
        return False
    c = list(suit)
    if n % 3 == 0:
        return _sets_only(c, 0)
    for i in range(9):
        if c[i] >= 2:
            c[i] -= 2
            ok = _sets_only(c, 0)
            c[i] += 2
            if ok:
                return True
    return False


def _sets_only(c: list[int], i: int) -> bool:
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_only(c, i)
        c[i] += 3
        if ok:
            return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _sets_only(c, i)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


def is_regular_shape(counts: Sequence[int]) -> bool:
    """Sets and exactly one pair (any number of declared sets)."""
    pairs = 0
    for base in (0, 9, 18):
        suit = tuple(counts[base : base + 9])
        n = sum(suit)
        if n == 0:
            continue
        r = n % 3
        if r == 1 or not _suit_splits(suit):
            return False
        if r == 2:
            pairs += 1
    for t in range(27, 34):
        c = counts[t]
        if c == 2:
            pairs += 1
        elif c == 1 or c == 4:
            return False
    return pairs == 1


def is_win_shape_py(counts: Sequence[int], n_melds: int) -> bool:
    """Whether the concealed ``counts`` (3k+2 tiles, winning tile included) with ``n_melds``
    declared sets form any MCR winning shape."""
    if is_regular_shape(counts):
        return True
    if n_melds == 0:
        if not any(c & 1 for c in counts):
            return True  # 七对 (four of a kind = two pairs)
        kinds = [t for t in range(NUM_KINDS) if counts[t]]
        if len(kinds) == 13 and tuple(kinds) == THIRTEEN_ORPHANS:
            return True
        if len(kinds) == 14:
            numbered = {t for t in kinds if t < 27}
            if 7 <= len(numbered) <= 9 and any(numbered <= set(ks) for ks in KNITTED_STRAIGHTS):
                return True  # 全不靠 / 七星不靠
    if n_melds <= 1:
        for ks in KNITTED_STRAIGHTS:
            if all(counts[t] for t in ks):
                rest = list(counts)
                for t in ks:
                    rest[t] -= 1
                return is_regular_shape(rest)
    return False


def is_win_shape_with_py(counts: Sequence[int], n_melds: int, tile: Tile) -> bool:
    c = list(counts)
    c[tile] += 1
    return is_win_shape_py(c, n_melds)


_fast = load("winshape")
#: the compiled twins when built (tested equal to the Python reference)
is_win_shape: Callable[[Sequence[int], int], bool] = _fast.is_win_shape if _fast else is_win_shape_py
is_win_shape_with: Callable[[Sequence[int], int, Tile], bool] = (
    _fast.is_win_shape_with if _fast else is_win_shape_with_py
)
