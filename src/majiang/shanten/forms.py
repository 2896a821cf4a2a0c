"""向听数 (shanten) of each MCR winning form (mcr.md §4), written to be read.

These are the definitions; the table-driven path (``_tables.py``) and the compiled one
(``majiang._speedups.shanten``) are tested equal to them.  They agree with PyMahjongGB 1.4, the
Botzone judge's library.

Everything works on a count vector (34 slots, ``counts[t]`` = copies of tile ``t`` among the
concealed tiles) and ``melds``, the number of declared sets (副露; a kong counts as one set).  A
hand is ``13 - 3·melds`` concealed tiles (waiting to draw) or one tile more (about to discard).
Shanten is how many tiles must still be exchanged before the hand is ready: 0 = ready (听牌),
-1 = complete (和了, only for a hand that holds one tile more).  A form that cannot be made with
that many concealed tiles has no shanten (``None``): seven pairs, thirteen orphans and 全不靠 need
all 13/14 tiles concealed, 组合龙 at most one declared set.

The regular form counts *blocks* the usual way: a set (面子) is worth 2, a partner (搭子: a pair
or two tiles of a chow) 1, the pair (雀头) 1, and at most four sets and partners count, declared
sets included; shanten = 8 − best total.

>>> from majiang.tiles import counts_of, parse_tiles
>>> c = counts_of(parse_tiles("123m 456p 789s 11s 5m 6m"))
>>> regular_shanten(c), seven_pairs_shanten(c)
(0, 5)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import permutations

from majiang.tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS, Tile

Counts = Sequence[int]
FormFunction = Callable[[Counts, int], "int | None"]

#: the five winning forms, in the order of every per-form tuple
FORMS = ("regular", "seven_pairs", "thirteen_orphans", "knitted", "honors_knitted")
FORM_ZH = {
    "regular": "基本和型",
    "seven_pairs": "七对",
    "thirteen_orphans": "十三幺",
    "knitted": "组合龙",
    "honors_knitted": "全不靠",
}
FORM_EN = {
    "regular": "4 sets + pair",
    "seven_pairs": "Seven Pairs",
    "thirteen_orphans": "Thirteen Orphans",
    "knitted": "Knitted Straight + set + pair",
    "honors_knitted": "Honors and Knitted Tiles",
}

#: 147/258/369 given to the suits m, p, s: the six 组合龙, as ranks-mod-3 per suit
KNITTED_PATTERNS: tuple[tuple[int, int, int], ...] = tuple((a, b, c) for a, b, c in permutations(range(3)))
KNITTED_TILES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(9 * suit + r for suit, start in enumerate(pattern) for r in range(start, 9, 3))
    for pattern in KNITTED_PATTERNS
)

MAX_BLOCKS = 4  # four sets (declared or concealed) and a pair make a hand
_NONE = -99  # "impossible" in a best-value table


def hand_size_ok(counts: Counts, melds: int) -> bool:
    """``counts`` and ``melds`` make a hand of 13 or 14 tiles (kongs as three)."""
    return len(counts) == NUM_KINDS and 0 <= melds <= MAX_BLOCKS and sum(counts) + 3 * melds in (13, 14)


# ---- regular form: four sets and a pair ----------------------------------------------------------


@cache
def _cuts(group: tuple[int, ...], suited: bool) -> frozenset[tuple[int, int, int]]:
    """Every way to cut one suit (or the honours) into blocks, as (sets, partners, pair) with pair
    0 or 1.  Tiles left over are simply isolated, so every subset of a cut is a cut too.

    The lowest tile present either stays isolated or starts a block; nothing else can hold it."""
    i = next((i for i, n in enumerate(group) if n), None)
    if i is None:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()

    def rest(take: dict[int, int], sets: int, partners: int, pair: int) -> None:
        g = list(group)
        for j, n in take.items():
            g[j] -= n
        for m, d, p in _cuts(tuple(g), suited):
            if p + pair <= 1:
                out.add((m + sets, d + partners, p + pair))

    rest({i: 1}, 0, 0, 0)  # isolated
    if group[i] >= 3:
        rest({i: 3}, 1, 0, 0)  # 刻子
    if group[i] >= 2:
        rest({i: 2}, 0, 1, 0)  # 对子 as a partner
        rest({i: 2}, 0, 0, 1)  # 对子 as the pair
    if suited:
        nxt = group[i + 1] if i + 1 < len(group) else 0
        nxt2 = group[i + 2] if i + 2 < len(group) else 0
        if nxt and nxt2:
            rest({i: 1, i + 1: 1, i + 2: 1}, 1, 0, 0)  # 顺子
        if nxt:
            rest({i: 1, i + 1: 1}, 0, 1, 0)  # 两面 / 边张
        if nxt2:
            rest({i: 1, i + 2: 1}, 0, 1, 0)  # 嵌张
    return frozenset(out)


@cache
def _group_best(group: tuple[int, ...], suited: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """best[pair][k]: the most a group is worth (2·sets + partners + pair) using at most k blocks,
    without (pair=0) or with (pair=1) the hand's pair cut from it."""
    best = [[_NONE] * (MAX_BLOCKS + 1) for _ in range(2)]
    for m, d, p in _cuts(group, suited):
        value = 2 * m + d + p
        for k in range(m + d, MAX_BLOCKS + 1):
            best[p][k] = max(best[p][k], value)
    return tuple(best[0]), tuple(best[1])


def _groups(counts: Counts) -> list[tuple[tuple[int, ...], bool]]:
    return [
        (tuple(counts[0:9]), True),
        (tuple(counts[9:18]), True),
        (tuple(counts[18:27]), True),
        (tuple(counts[27:34]), False),
    ]


def regular_value(counts: Counts, blocks: int) -> int:
    """The best 2·sets + partners + pair of the tiles, using at most ``blocks`` sets and partners."""
    # (blocks used, pair used) → best value so far; the groups are independent but for these two
    states = {(0, 0): 0}
    for group, suited in _groups(counts):
        best = _group_best(group, suited)
        nxt: dict[tuple[int, int], int] = {}
        for (k, p), v in states.items():
            for q in (0, 1):
                if p + q > 1:
                    continue
                for extra in range(blocks - k + 1):
                    w = best[q][extra]
                    if w > _NONE and nxt.get((k + extra, p + q), _NONE) < v + w:
                        nxt[(k + extra, p + q)] = v + w
        states = nxt
    return max(states.values())


def regular_shanten_from(counts: Counts, sets_done: int) -> int:
    """Regular-form shanten of concealed ``counts`` after ``sets_done`` finished sets."""
    blocks = max(MAX_BLOCKS - sets_done, 0)
    return 8 - 2 * sets_done - regular_value(counts, blocks)


def regular_shanten(counts: Counts, melds: int = 0) -> int | None:
    """基本和型: four sets and a pair; any hand size."""
    if not hand_size_ok(counts, melds):
        return None
    return regular_shanten_from(counts, melds)


# ---- special forms ------------------------------------------------------------------------------------


def seven_pairs_shanten(counts: Counts, melds: int = 0) -> int | None:
    """七对: seven pairs; four of a kind is two pairs."""
    if melds or not hand_size_ok(counts, melds):
        return None
    return 6 - sum(n // 2 for n in counts)


def thirteen_orphans_shanten(counts: Counts, melds: int = 0) -> int | None:
    """十三幺: one of each terminal and honour, and a pair of one of them."""
    if melds or not hand_size_ok(counts, melds):
        return None
    kinds = sum(1 for t in TERMINALS_AND_HONORS if counts[t])
    pair = any(counts[t] >= 2 for t in TERMINALS_AND_HONORS)
    return 13 - kinds - pair


def honors_knitted_shanten(counts: Counts, melds: int = 0) -> int | None:
    """全不靠 / 七星不靠: fourteen different tiles from one 组合龙's nine and the seven honours."""
    if melds or not hand_size_ok(counts, melds):
        return None
    honors = sum(1 for t in HONORS if counts[t])
    return 13 - honors - max(sum(1 for t in knit if counts[t]) for knit in KNITTED_TILES)


def knitted_shanten(counts: Counts, melds: int = 0) -> int | None:
    """组合龙 + a set + a pair (at most one declared set): the straight's missing tiles plus the
    regular shanten of the other tiles, for the best of the six straights."""
    if melds > 1 or not hand_size_ok(counts, melds):
        return None
    best = 99
    for knit in KNITTED_TILES:
        rest = list(counts)
        missing = 0
        for t in knit:
            if rest[t]:
                rest[t] -= 1
            else:
                missing += 1
        best = min(best, missing + regular_shanten_from(rest, melds + 3))
    return best


#: per-form shanten functions, in :data:`FORMS` order
FORM_FUNCTIONS: tuple[FormFunction, ...] = (
    regular_shanten,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
    knitted_shanten,
    honors_knitted_shanten,
)


def form_shanten(counts: Counts, melds: int = 0) -> tuple[int | None, ...]:
    """Shanten of each form, in :data:`FORMS` order (``None`` where the form does not apply)."""
    return tuple(f(counts, melds) for f in FORM_FUNCTIONS)


def shanten(counts: Counts, melds: int = 0) -> int:
    """The lowest shanten over all forms."""
    values = [s for s in form_shanten(counts, melds) if s is not None]
    if not values:
        raise ValueError(f"not a hand: {sum(counts)} concealed tiles and {melds} melds")
    return min(values)


def useful_tiles(counts: Counts, melds: int = 0, form: int | None = None) -> list[Tile]:
    """有效牌: the tiles whose draw lowers the shanten (of one form, or overall when ``form`` is
    None), for a hand of 13 tiles.  A fifth copy of a tile the hand holds four of cannot be drawn,
    so it is useful only as a wait of a ready hand (mcr.md §4: such a tile still counts as a wait)."""
    evaluate: Callable[[Counts, int], int | None] = shanten if form is None else FORM_FUNCTIONS[form]
    if sum(counts) + 3 * melds != 13:
        raise ValueError("useful tiles are defined for a hand of 13 tiles (kongs as three)")
    now = evaluate(counts, melds)
    if now is None:
        return []
    out = []
    c = list(counts)
    for t in range(NUM_KINDS):
        if c[t] >= 4 and now > 0:
            continue
        c[t] += 1
        after = evaluate(c, melds)
        c[t] -= 1
        if after is not None and after < now:
            out.append(t)
    return out
