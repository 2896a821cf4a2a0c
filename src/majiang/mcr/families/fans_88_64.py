"""88 and 64: 绿一色 清幺九 字一色 (tiles), 四杠 四暗刻 小三元 小四喜 一色双龙会 (sets).  大四喜 and 大三元
come from :mod:`majiang.mcr.combos`; 九莲宝灯 连七对 十三幺 are special readings (the scorer)."""

from __future__ import annotations

from collections.abc import Sequence

from majiang.mcr.fans import Fan
from majiang.mcr.reading import WHOLE, FanTable, HandContext, Reading, put
from majiang.mcr.shapes import Pack
from majiang.tiles import GREEN_TILES, RED, Tile, is_terminal

F = Fan


def tiles(t: FanTable, unique: Sequence[Tile]) -> None:
    if all(u in GREEN_TILES for u in unique):
        put(t, F.ALL_GREEN, (WHOLE,))
    if unique[0] >= 27:
        put(t, F.ALL_HONORS, (WHOLE,))
    elif all(is_terminal(u) for u in unique):
        put(t, F.ALL_TERMINALS, (WHOLE,))


def sets(t: FanTable, r: Reading) -> None:
    if len(r.kongs) == 4:
        put(t, F.FOUR_KONGS, r.kongs)
    if len(r.dark) == 4:
        put(t, F.FOUR_CONCEALED_PUNGS, r.dark)
    pair = r.pair_tile
    if F.TWO_DRAGON_PUNGS in t and pair >= RED:
        put(t, F.LITTLE_THREE_DRAGONS, t[F.TWO_DRAGON_PUNGS][0] + (r.pair,))
    if F.BIG_THREE_WINDS in t and 27 <= pair <= 30:
        put(t, F.LITTLE_FOUR_WINDS, t[F.BIG_THREE_WINDS][0] + (r.pair,))


def win(t: FanTable, h: HandContext) -> None:
    pass


def pure_terminal_chows(packs: Sequence[Pack], chows: list[int], pair: Tile) -> bool:
    """一色双龙会: 123 123 789 789 + 55 in one suit."""
    if len(chows) != 4 or pair >= 27 or pair % 9 != 4:
        return False
    ranks = sorted(packs[i].tile % 9 + 1 for i in chows)
    return all(packs[i].tile // 9 == pair // 9 for i in chows) and ranks == [2, 2, 8, 8]
