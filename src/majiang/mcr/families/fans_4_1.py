"""5, 4, 2 and 1: 明暗杠 (botzone), 全带幺 不求人 双明杠 和绝张, 箭刻 圈风刻 门风刻 门前清 平和 四归一 双暗刻
暗杠 断幺, 幺九刻 明杠 缺一门 无字 边张 坎张 单钓将 自摸.  双同刻 一般高 喜相逢 连六 老少副 come from
:mod:`majiang.mcr.combos`; 花牌 is counted by the scorer."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from majiang.mcr.combos import Inst
from majiang.mcr.exclusions import PUNGS_ALREADY_DEDUCTED
from majiang.mcr.fans import Fan
from majiang.mcr.reading import WHOLE, WIN, FanTable, HandContext, Reading, add, put
from majiang.mcr.shapes import CHOW, PAIR, Pack
from majiang.tiles import NUM_KINDS, RED, Tile, format_compact, is_terminal, is_terminal_or_honor

F = Fan


def tiles(t: FanTable, unique: Sequence[Tile]) -> None:
    if unique[-1] < 27:
        put(t, F.NO_HONORS, (WHOLE,))
    voided = 3 - len({u // 9 for u in unique if u < 27})
    if voided in (1, 3):  # 3: 字一色, which takes them away
        t[F.ONE_VOIDED_SUIT] = [(WHOLE,)] * voided
    if not any(is_terminal_or_honor(u) for u in unique):
        put(t, F.ALL_SIMPLES, (WHOLE,))


def sets(t: FanTable, r: Reading) -> None:
    h = r.h
    kongs, melded, concealed = r.kongs, r.melded_kongs, r.concealed_kongs
    if len(kongs) == 1:
        put(t, F.MELDED_KONG if melded else F.CONCEALED_KONG, kongs)
    elif len(kongs) == 2 and not concealed:
        put(t, F.TWO_MELDED_KONGS, kongs)
    elif len(kongs) == 2 and len(concealed) == 1:
        if h.rules.concealed_and_melded_kong:
            put(t, F.CONCEALED_KONG_AND_MELDED_KONG, kongs)
        else:
            put(t, F.MELDED_KONG, tuple(melded))
            put(t, F.CONCEALED_KONG, tuple(concealed))
    if len(r.dark) == 2:
        put(t, F.TWO_CONCEALED_PUNGS, r.dark)
    for i in r.pungs:
        tile = r.packs[i].tile
        if tile >= RED:
            add(t, F.DRAGON_PUNG, (i,))
        elif tile >= 27 or is_terminal(tile):
            add(t, F.PUNG_OF_TERMINALS_OR_HONORS, (i,))
    if not any(p.exposed for p in h.fixed):
        put(t, F.FULLY_CONCEALED_HAND if h.self_drawn else F.CONCEALED_HAND, (WIN,))
    if len(r.chows) == 4 and r.pair_tile < 27:
        put(t, F.ALL_CHOWS, tuple(r.chows) + (r.pair,))
    if all(_has_terminal_or_honor(p) for p in r.packs):
        put(t, F.OUTSIDE_HAND, (WHOLE,))
    tile_hog(t, h.merged, (r.packs[i].tile for i in r.kongs))


def win(t: FanTable, h: HandContext) -> None:
    if h.last_tile:
        put(t, F.LAST_TILE, (WIN,))
    if h.self_drawn:
        put(t, F.SELF_DRAWN, (WIN,))


def _has_terminal_or_honor(p: Pack) -> bool:
    if p.tile >= 27:
        return True
    return p.tile % 9 + 1 in ((2, 8) if p.kind == CHOW else (1, 9))


def tile_hog(t: FanTable, merged: Sequence[int], kong_tiles: Iterable[Tile]) -> None:
    """四归一: four of a kind used without declaring a kong."""
    kongs = set(kong_tiles)
    hogs: list[Inst] = [(format_compact([x] * 4),) for x in range(NUM_KINDS) if merged[x] == 4 and x not in kongs]
    if hogs:
        t[F.TILE_HOG] = hogs


def winds(t: FanTable, idx: int, tile: Tile, h: HandContext) -> None:
    """圈风刻 and 门风刻; the pung's 幺九刻 is then not counted again (unless a bigger wind fan already
    took the 幺九刻 of its pungs away)."""
    deducted = any(f in t for f in PUNGS_ALREADY_DEDUCTED)
    wind = tile - 27

    def drop_terminal_pung() -> None:
        lst = t.get(F.PUNG_OF_TERMINALS_OR_HONORS, [])
        if (idx,) in lst:
            lst.remove((idx,))
            if not lst:
                del t[F.PUNG_OF_TERMINALS_OR_HONORS]

    if wind == h.prevalent:
        put(t, F.PREVALENT_WIND, (idx,))
        if not deducted:
            drop_terminal_pung()
    if wind == h.seat:
        put(t, F.SEAT_WIND, (idx,))
        if h.seat != h.prevalent and not deducted:
            drop_terminal_pung()


def wind_pungs(t: FanTable, r: Reading) -> None:
    """圈风刻/门风刻 of every wind pung: after the bigger families, which may have deducted already."""
    for i in r.pungs:
        tile = r.packs[i].tile
        if 27 <= tile <= 30:
            winds(t, i, tile, r.h)


def waiting_form(t: FanTable, packs: Sequence[Pack], first: int, win: Tile) -> None:
    """边张, 坎张, 单钓将 — only for a unique wait; the position of the winning tile in this reading."""
    edge = closed = single = None
    for i in range(first, len(packs)):
        p = packs[i]
        if p.kind == CHOW:
            if p.tile == win:
                closed = i
            elif p.tile + 1 == win or p.tile - 1 == win:
                edge = i
        elif p.kind == PAIR and p.tile == win:
            single = i
    if edge is not None:
        put(t, F.EDGE_WAIT, (edge, WIN))
    elif closed is not None:
        put(t, F.CLOSED_WAIT, (closed, WIN))
    elif single is not None:
        put(t, F.SINGLE_WAIT, (single, WIN))
