"""16 and 12: 大于五 小于五 (tiles), 三色双龙会 全带五 三暗刻 (sets).  清龙 一色三步高 三同刻 三风刻 come
from :mod:`majiang.mcr.combos`; 全不靠 and 组合龙 are special readings."""

from __future__ import annotations

from collections.abc import Sequence

from majiang.mcr.fans import Fan
from majiang.mcr.reading import WHOLE, FanTable, HandContext, Reading, put
from majiang.mcr.shapes import CHOW, Pack
from majiang.tiles import Tile

F = Fan


def tiles(t: FanTable, unique: Sequence[Tile]) -> None:
    if unique[-1] >= 27:
        return
    ranks = {u % 9 + 1 for u in unique}
    if max(ranks) <= 4 and 4 in ranks:
        put(t, F.LOWER_FOUR, (WHOLE,))
    elif min(ranks) >= 6 and 6 in ranks:
        put(t, F.UPPER_FOUR, (WHOLE,))


def sets(t: FanTable, r: Reading) -> None:
    if len(r.dark) == 3:
        put(t, F.THREE_CONCEALED_PUNGS, r.dark)
    if all(p.tile < 27 and p.tile % 9 + 1 in ((4, 5, 6) if p.kind == CHOW else (5,)) for p in r.packs):
        put(t, F.ALL_FIVE, (WHOLE,))


def win(t: FanTable, h: HandContext) -> None:
    pass


def three_suited_terminal_chows(packs: Sequence[Pack], chows: list[int], pair: Tile) -> bool:
    """三色双龙会: 123+789 in two suits, 5 pair in the third."""
    if len(chows) != 4 or pair >= 27 or pair % 9 != 4:
        return False
    found = set()
    for i in chows:
        tile = packs[i].tile
        if tile // 9 == pair // 9 or tile % 9 + 1 not in (2, 8):
            return False
        found.add((tile // 9, tile % 9))
    return len(found) == 4 and len({s for s, _ in found}) == 2
