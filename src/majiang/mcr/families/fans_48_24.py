"""48, 32 and 24: 混幺九 清一色 全大 全中 全小 (tiles), 三杠 全双刻 (sets).  一色四同顺 一色四节高
一色四步高 一色三同顺 一色三节高 come from :mod:`majiang.mcr.combos`; 七对 七星不靠 are special readings."""

from __future__ import annotations

from collections.abc import Sequence

from majiang.mcr.fans import Fan
from majiang.mcr.reading import WHOLE, FanTable, HandContext, Reading, put
from majiang.mcr.shapes import CHOW
from majiang.tiles import Tile, is_terminal, is_terminal_or_honor

F = Fan


def tiles(t: FanTable, unique: Sequence[Tile]) -> None:
    if unique[0] < 27 and not all(is_terminal(u) for u in unique) and all(is_terminal_or_honor(u) for u in unique):
        put(t, F.ALL_TERMINALS_AND_HONORS, (WHOLE,))
    if unique[-1] >= 27:
        return
    if len({u // 9 for u in unique}) == 1:
        put(t, F.FULL_FLUSH, (WHOLE,))
    ranks = {u % 9 + 1 for u in unique}
    if max(ranks) <= 3:
        put(t, F.LOWER_TILES, (WHOLE,))
    elif min(ranks) >= 7:
        put(t, F.UPPER_TILES, (WHOLE,))
    elif min(ranks) >= 4 and max(ranks) <= 6 and max(ranks) > 4 and min(ranks) < 6:
        put(t, F.MIDDLE_TILES, (WHOLE,))


def sets(t: FanTable, r: Reading) -> None:
    if len(r.kongs) == 3:
        put(t, F.THREE_KONGS, r.kongs)
    even = sum(1 for p in r.packs if p.tile < 27 and p.kind != CHOW and (p.tile % 9 + 1) % 2 == 0)
    if even == 5:
        put(t, F.ALL_EVEN_PUNGS, (WHOLE,))


def win(t: FanTable, h: HandContext) -> None:
    pass
