"""8 and 6: 推不倒 混一色 五门齐 (tiles), 碰碰和 全求人 双暗杠 (sets), 妙手回春 海底捞月 杠上开花 抢杠和
(the win).  花龙 三色三同顺 三色三节高 三色三步高 双箭刻 come from :mod:`majiang.mcr.combos`; 无番和 is
what the scorer counts when nothing else is."""

from __future__ import annotations

from collections.abc import Sequence

from majiang.mcr.fans import Fan
from majiang.mcr.reading import WHOLE, WIN, FanTable, HandContext, Reading, put
from majiang.tiles import RED, REVERSIBLE_TILES, Tile

F = Fan


def tiles(t: FanTable, unique: Sequence[Tile]) -> None:
    if all(u in REVERSIBLE_TILES for u in unique):
        put(t, F.REVERSIBLE_TILES, (WHOLE,))
    suits = len({u // 9 for u in unique if u < 27})
    if suits == 1 and unique[-1] >= 27:
        put(t, F.HALF_FLUSH, (WHOLE,))
    if suits == 3 and any(27 <= u <= 30 for u in unique) and any(u >= RED for u in unique):
        put(t, F.ALL_TYPES, (WHOLE,))


def sets(t: FanTable, r: Reading) -> None:
    if len(r.pungs) == 4:
        put(t, F.ALL_PUNGS, tuple(r.pungs))
    if sum(1 for p in r.h.fixed if p.exposed) == 4 and not r.h.self_drawn:
        put(t, F.MELDED_HAND, (WIN,))
    if len(r.kongs) == 2 and len(r.concealed_kongs) == 2:
        put(t, F.TWO_CONCEALED_KONGS, r.kongs)


def win(t: FanTable, h: HandContext) -> None:
    if h.self_drawn:
        if h.wall_last:
            put(t, F.LAST_TILE_DRAW, (WIN,))
        if h.kong:
            put(t, F.OUT_WITH_REPLACEMENT_TILE, (WIN,))
    else:
        if h.wall_last:
            put(t, F.LAST_TILE_CLAIM, (WIN,))
        if h.kong:
            put(t, F.ROBBING_THE_KONG, (WIN,))
