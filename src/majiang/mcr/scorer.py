"""The MCR fan calculator: decomposition → fans per reading → principles → the highest reading.

This is the readable reference implementation.  Every counted fan remembers the sets (or tiles)
it was counted from, so :meth:`ScoreResult.to_dict` can explain *why* a hand scores what it does.

The five principles of mcr.md §5 live here and in :mod:`majiang.mcr.exclusions`:

* 不重复 — :mod:`majiang.mcr.exclusions` (the only place one fan removes another) and the pung
  deductions of 圈风刻/门风刻/三风刻 below;
* 不拆移 / 不得相同 / 套算一次 — :func:`~majiang.mcr.combos.chow_fans` and
  :func:`~majiang.mcr.combos.pung_fans` combine each decomposition's sets once;
* 就高不就低 — :func:`score` keeps the highest-scoring decomposition; between equal ones the rule of
  :mod:`majiang.mcr.highest` decides.

:func:`score`, :func:`score_dict` and :func:`score_many` use the compiled port of this module when it
is built (``majiang._speedups.fan``, glue and design in :mod:`majiang.mcr.fast`) and fall back to
:func:`score_reference` & co. for everything it hands back (errors included).  A fast-path result is
the same :class:`ScoreResult`; its fans' ``sources`` and its ``reading`` are filled on first access
by running the reference on the hand once (:class:`~majiang.mcr.result.Explanation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from majiang.mcr.combos import Inst, chow_fans, pung_fans
from majiang.mcr.exclusions import PUNGS_ALREADY_DEDUCTED, not_counted, table_for
from majiang.mcr.fans import POINTS, REPORT_ORDER, Fan
from majiang.mcr.fast import Calculator, bind
from majiang.mcr.hand import InvalidHandError, MeldKind, WinningHand
from majiang.mcr.highest import replaces
from majiang.mcr.result import Explanation
from majiang.mcr.result import FanCount as FanCount  # re-exported: the old home of the result classes
from majiang.mcr.result import ScoreResult as ScoreResult
from majiang.mcr.rules import Rules, get_rules
from majiang.mcr.shapes import (
    CHOW,
    KNITTED,
    KNITTED_STRAIGHTS,
    KONG,
    PAIR,
    PUNG,
    REF_KEY,
    THIRTEEN_ORPHANS,
    Pack,
    regular_and_pairs_waits,
    regular_divisions,
)
from majiang.tiles import (
    GREEN_TILES,
    NUM_KINDS,
    RED,
    REVERSIBLE_TILES,
    Tile,
    format_compact,
    is_terminal,
    is_terminal_or_honor,
    tile_str,
)

FanTable = dict[Fan, list[Inst]]
F = Fan

# special instance markers (besides pack indices 0–4)
WHOLE = "whole hand"
WIN = "winning tile"


class _Explanation(Explanation):
    """The reference behind a fast-path result (see :class:`~majiang.mcr.result.Explanation`)."""

    __slots__ = ()

    def score(self, hand: WinningHand, rules: Rules) -> ScoreResult:
        return score_reference(hand, rules)


# ---------------------------------------------------------------------------------------------
# context of one hand


@dataclass(slots=True)
class _Hand:
    win: Tile
    self_drawn: bool
    last_tile: bool  # 和绝张
    kong: bool  # 杠上开花 / 抢杠和
    wall_last: bool  # 妙手回春 / 海底捞月
    seat: int
    prevalent: int
    fixed: list[Pack]
    standing: list[int]  # concealed tiles incl. the winning tile
    merged: list[int]  # standing + declared (kongs as four)
    unique: list[Tile]  # kinds present, ascending
    rules: Rules


def _fixed_packs(hand: WinningHand) -> list[Pack]:
    out = []
    for m in hand.melds:
        if m.kind is MeldKind.CHOW:
            out.append(Pack(CHOW, m.tile + 1, True))
        elif m.kind is MeldKind.PUNG:
            out.append(Pack(PUNG, m.tile, True))
        else:
            out.append(Pack(KONG, m.tile, not m.concealed))
    return out


def _check_flags(hand: WinningHand, rules: Rules, standing: list[int], fixed_counts: list[int]) -> bool:
    """Reject contradictory flags; returns the effective 和绝张 flag."""
    w = hand.win_tile
    if hand.kong and not hand.self_drawn:
        if hand.last_tile:
            raise InvalidHandError("抢杠和 (kong on a discard win) cannot coexist with 海底捞月 (last_tile): "
                                   "the last tile of the wall cannot be added to a kong")
        if standing[w] != 1 or fixed_counts[w] != 0:
            raise InvalidHandError(f"抢杠和: the robbed {tile_str(w)} completes another player's kong, so this hand "
                                   "cannot hold another copy of it")
    if hand.kong and hand.self_drawn and not any(m.kind is MeldKind.KONG for m in hand.melds):
        raise InvalidHandError("杠上开花 (kong + self_drawn) needs a kong among the melds")
    last = hand.fourth_tile
    if last and standing[w] != 1 and rules.last_tile_needs_visible:
        raise InvalidHandError(f"和绝张 (fourth_tile) needs the other three {tile_str(w)} visible on the table, "
                               "but the hand holds another copy concealed")
    if fixed_counts[w] == 3:
        last = True  # the other three lie in this hand's own melds: necessarily the last tile
    return last


def _win_flags(t: FanTable, h: _Hand) -> None:
    if h.last_tile:
        t[F.LAST_TILE] = [(WIN,)]
    if h.self_drawn:
        t[F.SELF_DRAWN] = [(WIN,)]
        if h.wall_last:
            t[F.LAST_TILE_DRAW] = [(WIN,)]
        if h.kong:
            t[F.OUT_WITH_REPLACEMENT_TILE] = [(WIN,)]
    else:
        if h.wall_last:
            t[F.LAST_TILE_CLAIM] = [(WIN,)]
        if h.kong:
            t[F.ROBBING_THE_KONG] = [(WIN,)]


def _add(t: FanTable, fan: Fan, inst: Inst) -> None:
    t.setdefault(fan, []).append(inst)


def _set(t: FanTable, fan: Fan, inst: Inst) -> None:
    t[fan] = [inst]


def _suits(t: FanTable, unique: Sequence[Tile], whole: Inst) -> None:
    """无字, 缺一门, 混一色, 清一色, 五门齐."""
    present = {u // 9 for u in unique if u < 27}
    has_honor = unique[-1] >= 27
    if not has_honor:
        _set(t, F.NO_HONORS, whole)
    voided = 3 - len(present)
    if voided == 2:
        if has_honor:
            _set(t, F.HALF_FLUSH, whole)
        else:
            _set(t, F.FULL_FLUSH, whole)
    elif voided:
        t[F.ONE_VOIDED_SUIT] = [whole] * voided
    if voided == 0 and any(27 <= u <= 30 for u in unique) and any(u >= RED for u in unique):
        _set(t, F.ALL_TYPES, whole)


def _tile_traits(t: FanTable, unique: Sequence[Tile], whole: Inst) -> None:
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九."""
    simples = not any(is_terminal_or_honor(u) for u in unique)
    if simples:
        _set(t, F.ALL_SIMPLES, whole)
    if all(u in REVERSIBLE_TILES for u in unique):
        _set(t, F.REVERSIBLE_TILES, whole)
    if all(u in GREEN_TILES for u in unique):
        _set(t, F.ALL_GREEN, whole)
    if simples:
        return
    if unique[0] >= 27:
        _set(t, F.ALL_HONORS, whole)
    elif all(is_terminal(u) for u in unique):
        _set(t, F.ALL_TERMINALS, whole)
    elif all(is_terminal_or_honor(u) for u in unique):
        _set(t, F.ALL_TERMINALS_AND_HONORS, whole)


def _rank_range(t: FanTable, unique: Sequence[Tile], whole: Inst) -> None:
    """全小/小于五, 全大/大于五, 全中."""
    if unique[-1] >= 27:
        return
    ranks = {u % 9 + 1 for u in unique}
    if max(ranks) <= 4:
        _set(t, F.LOWER_FOUR if 4 in ranks else F.LOWER_TILES, whole)
    elif min(ranks) >= 6:
        _set(t, F.UPPER_FOUR if 6 in ranks else F.UPPER_TILES, whole)
    elif min(ranks) >= 4 and max(ranks) <= 6:
        _set(t, F.MIDDLE_TILES, whole)


def _pack_traits(t: FanTable, packs: Sequence[Pack], whole: Inst) -> None:
    """全带幺, 全带五, 全双刻."""
    terminal = honor = five = even = 0
    for p in packs:
        if p.tile >= 27:
            honor += 1
            continue
        r = p.tile % 9 + 1
        if p.kind == CHOW:
            if r in (2, 8):
                terminal += 1
            elif r in (4, 5, 6):
                five += 1
        else:
            if r in (1, 9):
                terminal += 1
            elif r == 5:
                five += 1
            elif r % 2 == 0:
                even += 1
    if terminal + honor == 5:
        _set(t, F.OUTSIDE_HAND, whole)
    elif five == 5:
        _set(t, F.ALL_FIVE, whole)
    elif even == 5:
        _set(t, F.ALL_EVEN_PUNGS, whole)


def _tile_hog(t: FanTable, merged: Sequence[int], kong_tiles: Iterable[Tile]) -> None:
    """四归一: four of a kind used without declaring a kong."""
    kongs = set(kong_tiles)
    hogs: list[Inst] = [(format_compact([x] * 4),) for x in range(NUM_KINDS) if merged[x] == 4 and x not in kongs]
    if hogs:
        t[F.TILE_HOG] = hogs


def _kongs(t: FanTable, packs: Sequence[Pack], concealed_pungs: list[int], melded_kongs: list[int],
           concealed_kongs: list[int], rules: Rules) -> None:
    """明杠 暗杠 双明杠 双暗杠 明暗杠 三杠 四杠, and 双暗刻 三暗刻 四暗刻 (concealed kongs count)."""
    kongs = len(melded_kongs) + len(concealed_kongs)
    ck = len(concealed_kongs)
    dark = tuple(concealed_pungs + concealed_kongs)  # 暗刻 incl. 暗杠
    all_kongs = tuple(melded_kongs + concealed_kongs)
    if kongs == 1:
        if melded_kongs:
            _set(t, F.MELDED_KONG, all_kongs)
        else:
            _set(t, F.CONCEALED_KONG, all_kongs)
    elif kongs == 2:
        if ck == 0:
            _set(t, F.TWO_MELDED_KONGS, all_kongs)
        elif ck == 1:
            if rules.concealed_and_melded_kong:
                _set(t, F.CONCEALED_KONG_AND_MELDED_KONG, all_kongs)
            else:
                _set(t, F.MELDED_KONG, tuple(melded_kongs))
                _set(t, F.CONCEALED_KONG, tuple(concealed_kongs))
        else:
            _set(t, F.TWO_CONCEALED_KONGS, all_kongs)
    elif kongs == 3:
        _set(t, F.THREE_KONGS, all_kongs)
    elif kongs == 4:
        _set(t, F.FOUR_KONGS, all_kongs)
    n = len(dark)
    if n >= 2:
        _set(t, {2: F.TWO_CONCEALED_PUNGS, 3: F.THREE_CONCEALED_PUNGS, 4: F.FOUR_CONCEALED_PUNGS}[n], dark)


@lru_cache(maxsize=64)
def _exclusions(rules: Rules) -> dict[Fan, tuple[Fan, ...]]:
    return table_for({f.name: getattr(rules, f.name) for f in fields(rules)})


def _final_adjust(t: FanTable, rules: Rules) -> None:
    """不重复: apply the exclusion table, then the pung deductions of 三风刻."""
    for g in not_counted(t, _exclusions(rules)):
        del t[g]
    if F.BIG_THREE_WINDS in t and F.ALL_HONORS not in t and F.ALL_TERMINALS_AND_HONORS not in t:
        used = set(t[F.BIG_THREE_WINDS][0])
        t[F.PUNG_OF_TERMINALS_OR_HONORS] = [i for i in t.get(F.PUNG_OF_TERMINALS_OR_HONORS, []) if i[0] not in used]
    for f in list(t):
        if not t[f]:
            del t[f]


def _winds(t: FanTable, idx: int, tile: Tile, h: _Hand) -> None:
    """圈风刻 and 门风刻; the pung's 幺九刻 is then not counted again."""
    deducted = any(f in t for f in PUNGS_ALREADY_DEDUCTED)
    wind = tile - 27

    def drop_terminal_pung() -> None:
        lst = t.get(F.PUNG_OF_TERMINALS_OR_HONORS, [])
        if (idx,) in lst:
            lst.remove((idx,))
            if not lst:
                del t[F.PUNG_OF_TERMINALS_OR_HONORS]

    if wind == h.prevalent:
        _set(t, F.PREVALENT_WIND, (idx,))
        if not deducted:
            drop_terminal_pung()
    if wind == h.seat:
        _set(t, F.SEAT_WIND, (idx,))
        if h.seat != h.prevalent and not deducted:
            drop_terminal_pung()


def _waiting_form(t: FanTable, packs: Sequence[Pack], first: int, win: Tile) -> None:
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
        _set(t, F.EDGE_WAIT, (edge, WIN))
    elif closed is not None:
        _set(t, F.CLOSED_WAIT, (closed, WIN))
    elif single is not None:
        _set(t, F.SINGLE_WAIT, (single, WIN))


def _regular(packs: list[Pack], h: _Hand, unique_wait: bool) -> FanTable:
    """Fans of one regular decomposition (4 sets + pair)."""
    t: FanTable = {}
    chows: list[int] = []
    pungs: list[int] = []
    concealed_pungs: list[int] = []
    melded_kongs: list[int] = []
    concealed_kongs: list[int] = []
    pair = -1
    for i, p in enumerate(packs):
        if p.kind == CHOW:
            chows.append(i)
        elif p.kind == PUNG:
            pungs.append(i)
            if not p.exposed:
                concealed_pungs.append(i)
        elif p.kind == KONG:
            pungs.append(i)
            (melded_kongs if p.exposed else concealed_kongs).append(i)
        else:
            pair = i
    win = h.win
    _win_flags(t, h)

    # A pung completed by a discard is an exposed pung (明刻) — unless the winning tile can be read
    # as part of a concealed chow instead.
    if not h.self_drawn and not any(
            not packs[i].exposed and packs[i].tile - 1 <= win <= packs[i].tile + 1 for i in chows):
        concealed_pungs = [i for i in concealed_pungs if packs[i].tile != win]

    if pungs:
        _kongs(t, packs, concealed_pungs, melded_kongs, concealed_kongs, h.rules)
        if len(pungs) == 4:
            _set(t, F.ALL_PUNGS, tuple(pungs))
        for i in pungs:
            tile = packs[i].tile
            if tile >= RED:
                _add(t, F.DRAGON_PUNG, (i,))
            elif tile >= 27 or is_terminal(tile):
                _add(t, F.PUNG_OF_TERMINALS_OR_HONORS, (i,))

    pair_tile = packs[pair].tile
    n_chows = len(chows)
    if n_chows == 4 and _three_suited_terminal_chows(packs, chows, pair_tile):
        _set(t, F.THREE_SUITED_TERMINAL_CHOWS, tuple(chows) + (pair,))
    elif n_chows == 4 and _pure_terminal_chows(packs, chows, pair_tile):
        _set(t, F.PURE_TERMINAL_CHOWS, tuple(chows) + (pair,))
    else:
        if n_chows >= 2:
            order = sorted(((packs[i].tile, i) for i in chows), key=lambda x: REF_KEY[x[0]])
            for fan, inst in chow_fans(order):
                _add(t, fan, inst)
        if len(pungs) >= 2:
            pung_list = [(packs[i].tile, i) for i in pungs]
            if len(pungs) >= 3:
                pung_list.sort(key=lambda x: REF_KEY[x[0]])
            for fan, inst in pung_fans(pung_list):
                _add(t, fan, inst)

    # 不求人 / 门前清 / 全求人 / 自摸
    fixed_cnt = len(h.fixed)
    melded = sum(1 for p in h.fixed if p.exposed)
    if melded == 0:
        _set(t, F.FULLY_CONCEALED_HAND if h.self_drawn else F.CONCEALED_HAND, (WIN,))
    elif melded == 4 and not h.self_drawn:
        _set(t, F.MELDED_HAND, (WIN,))

    # the pair: 平和, 小三元, 小四喜
    if n_chows == 4:
        if pair_tile < 27:
            _set(t, F.ALL_CHOWS, tuple(chows) + (pair,))
    elif F.TWO_DRAGON_PUNGS in t:
        if pair_tile >= RED:
            _set(t, F.LITTLE_THREE_DRAGONS, t[F.TWO_DRAGON_PUNGS][0] + (pair,))
    elif F.BIG_THREE_WINDS in t and 27 <= pair_tile <= 30:
        _set(t, F.LITTLE_FOUR_WINDS, t[F.BIG_THREE_WINDS][0] + (pair,))

    whole: Inst = (WHOLE,)
    _pack_traits(t, packs, whole)
    _suits(t, h.unique, whole)
    _tile_traits(t, h.unique, whole)
    _rank_range(t, h.unique, whole)
    _tile_hog(t, h.merged, (packs[i].tile for i in melded_kongs + concealed_kongs))
    if unique_wait:
        _waiting_form(t, packs, fixed_cnt, win)
    for i in pungs:
        if 27 <= packs[i].tile <= 30:
            _winds(t, i, packs[i].tile, h)
    _final_adjust(t, h.rules)
    if not t:
        t[F.CHICKEN_HAND] = [whole]
    return t


def _three_suited_terminal_chows(packs: Sequence[Pack], chows: list[int], pair: Tile) -> bool:
    """三色双龙会: 123+789 in two suits, 5 pair in the third."""
    if pair >= 27 or pair % 9 != 4:
        return False
    found = set()
    for i in chows:
        tile = packs[i].tile
        if tile // 9 == pair // 9 or tile % 9 + 1 not in (2, 8):
            return False
        found.add((tile // 9, tile % 9))
    return len(found) == 4 and len({s for s, _ in found}) == 2


def _pure_terminal_chows(packs: Sequence[Pack], chows: list[int], pair: Tile) -> bool:
    """一色双龙会: 123 123 789 789 + 55 in one suit."""
    if pair >= 27 or pair % 9 != 4:
        return False
    ranks = sorted(packs[i].tile % 9 + 1 for i in chows)
    return all(packs[i].tile // 9 == pair // 9 for i in chows) and ranks == [2, 2, 8, 8]


def _points(t: Mapping[Fan, list[Inst]]) -> int:
    return sum(POINTS[f] * len(v) for f, v in t.items())


# ---------------------------------------------------------------------------------------------
# special shapes


def _special(h: _Hand) -> FanTable | None:
    """七对 / 连七对, 全不靠 / 七星不靠, 十三幺 (a concealed hand of 14 tiles)."""
    st = h.standing
    unique = h.unique
    whole: Inst = (WHOLE,)
    if all(c % 2 == 0 for c in st):
        t: FanTable = {}
        s = h.win // 9 if h.win < 27 else -1
        if s >= 0 and _seven_shifted_pairs(st, s):
            _set(t, F.SEVEN_SHIFTED_PAIRS, whole)
            if st[s * 9] == 0 and st[s * 9 + 8] == 0:
                _set(t, F.ALL_SIMPLES, whole)
            _win_flags(t, h)
            _final_adjust(t, h.rules)
            return t
        _set(t, F.SEVEN_PAIRS, whole)
        _suits(t, unique, whole)
        _tile_traits(t, unique, whole)
        _rank_range(t, unique, whole)
        _tile_hog(t, st, ())
        _win_flags(t, h)
        _final_adjust(t, h.rules)
        return t
    if len(unique) == 14:
        numbered = [u for u in unique if u < 27]
        if 7 <= len(numbered) <= 9 and any(set(numbered) <= set(ks) for ks in KNITTED_STRAIGHTS):
            t = {}
            if len(numbered) == 7:
                _set(t, F.GREATER_HONORS_AND_KNITTED_TILES, whole)
            else:
                _set(t, F.LESSER_HONORS_AND_KNITTED_TILES, whole)
                if len(numbered) == 9:
                    _set(t, F.KNITTED_STRAIGHT, (format_compact(numbered),))
            _win_flags(t, h)
            _final_adjust(t, h.rules)
            return t
    if len(unique) == 13 and tuple(unique) == THIRTEEN_ORPHANS:
        t = {}
        _set(t, F.THIRTEEN_ORPHANS, whole)
        _win_flags(t, h)
        _final_adjust(t, h.rules)
        return t
    return None


def _seven_shifted_pairs(st: list[int], s: int) -> bool:
    ranks = [r for r in range(9) if st[s * 9 + r]]
    return len(ranks) == 7 and ranks[-1] - ranks[0] == 6 and all(st[s * 9 + r] == 2 for r in ranks)


def _knitted_straight(h: _Hand) -> tuple[FanTable, list[Pack]] | None:
    """组合龙 + one set + a pair (0 or 1 declared meld)."""
    st = h.standing
    if not any(c >= 2 for c in st):
        return None
    seq = next((ks for ks in KNITTED_STRAIGHTS if all(st[x] for x in ks)), None)
    if seq is None:
        return None
    rest = list(st)
    for x in seq:
        rest[x] -= 1
    fixed_cnt = len(h.fixed)
    divisions = regular_divisions(rest, [Pack(CHOW, 0)] * 3 + list(h.fixed))
    if len(divisions) != 1:
        return None
    # 0–2 stand for the knitted straight, 3 is the fourth set, 4 the pair
    ks_pack = Pack(KNITTED, KNITTED_STRAIGHTS.index(seq))
    packs = [ks_pack] * 3 + divisions[0][3:]
    ks_text = ks_pack.compact()
    involved = packs[3]
    pair_tile = packs[4].tile
    t: FanTable = {}
    _set(t, F.KNITTED_STRAIGHT, (ks_text,))
    if involved.kind == CHOW:
        if pair_tile < 27:
            _set(t, F.ALL_CHOWS, (ks_text, 3, 4))
        if st[pair_tile] + _fixed_count(h, pair_tile) == 4:
            _set(t, F.TILE_HOG, (format_compact([pair_tile] * 4),))
    else:
        it = involved.tile
        if it >= 27:
            if it <= 30:
                _set(t, F.PUNG_OF_TERMINALS_OR_HONORS, (3,))
                _winds(t, 3, it, h)
                if pair_tile >= RED:
                    _set(t, F.ALL_TYPES, (ks_text, 3, 4))
            else:
                _set(t, F.DRAGON_PUNG, (3,))
                if 27 <= pair_tile <= 30:
                    _set(t, F.ALL_TYPES, (ks_text, 3, 4))
        else:
            if is_terminal(it):
                _set(t, F.PUNG_OF_TERMINALS_OR_HONORS, (3,))
            if pair_tile < 27:
                _set(t, F.NO_HONORS, (WHOLE,))
            if involved.kind != KONG and st[it] + _fixed_count(h, it) == 4:
                _set(t, F.TILE_HOG, (format_compact([it] * 4),))
    _win_flags(t, h)
    if involved.exposed:
        if involved.kind == KONG:
            _set(t, F.MELDED_KONG, (3,))
    else:
        if involved.kind == KONG:
            _set(t, F.CONCEALED_KONG, (3,))
        if h.self_drawn:
            _set(t, F.FULLY_CONCEALED_HAND, (WIN,))
        else:
            _set(t, F.CONCEALED_HAND, (WIN,))
    win = h.win
    if fixed_cnt == 0:
        if (h.rules.knitted_straight_wait_fans or win not in seq) and rest[win] >= 1:
            rest[win] -= 1
            waits = _waits(rest, 4, h)
            rest[win] += 1
            if len(waits) == 1:
                _waiting_form(t, packs, 3, win)
    else:
        if win not in seq or (h.rules.knitted_straight_wait_fans and st[win] == 3):
            _set(t, F.SINGLE_WAIT, (4, WIN))
    _final_adjust(t, h.rules)
    return t, packs


def _fixed_count(h: _Hand, tile: Tile) -> int:
    return h.merged[tile] - h.standing[tile]


def _nine_gates(h: _Hand) -> FanTable | None:
    """九莲宝灯: 1112345678999 + any tile of the suit, fully concealed."""
    w = h.win
    if w >= 27:
        return None
    s0 = (w // 9) * 9
    st = h.standing
    base = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    r = w % 9
    base[r] += 1
    if any(st[s0 + i] != base[i] for i in range(9)):
        return None
    t: FanTable = {}
    whole: Inst = (WHOLE,)
    _set(t, F.NINE_GATES, whole)
    rank = r + 1
    if rank in (1, 9):
        _set(t, F.PURE_STRAIGHT, whole)
        _set(t, F.TILE_HOG, (format_compact([w] * 4),))
    elif rank in (2, 8):
        _set(t, F.TWO_CONCEALED_PUNGS, whole)
        _set(t, F.SHORT_STRAIGHT, whole)
        _set(t, F.PUNG_OF_TERMINALS_OR_HONORS, whole)
    elif rank == 5:
        _set(t, F.TWO_CONCEALED_PUNGS, whole)
        _set(t, F.PUNG_OF_TERMINALS_OR_HONORS, whole)
    else:
        _set(t, F.SHORT_STRAIGHT, whole)
    _win_flags(t, h)
    _final_adjust(t, h.rules)
    return t


def _waits(counts: list[int], n_tiles: int, h: _Hand) -> list[Tile]:
    waits = regular_and_pairs_waits(counts, n_tiles)
    if not h.rules.exhausted_tile_is_wait:
        fixed = [h.merged[x] - h.standing[x] for x in range(NUM_KINDS)]
        waits = [w for w in waits if counts[w] + fixed[w] < 4]
    return waits


# ---------------------------------------------------------------------------------------------
# public entry points


def score_reference(hand: WinningHand, rules: str | Rules | None = None) -> ScoreResult:
    """:func:`score` in pure Python: the reference implementation."""
    r = get_rules(rules if rules is not None else hand.rules)
    hand.check_structure()
    standing = [0] * NUM_KINDS
    for x in hand.hand:
        standing[x] += 1
    standing[hand.win_tile] += 1
    fixed = _fixed_packs(hand)
    merged = list(standing)
    fixed_counts = [0] * NUM_KINDS
    for m in hand.melds:
        for x in m.tiles:
            merged[x] += 1
            fixed_counts[x] += 1
    last = _check_flags(hand, r, standing, fixed_counts)
    h = _Hand(win=hand.win_tile, self_drawn=hand.self_drawn, last_tile=last, kong=hand.kong,
              wall_last=hand.last_tile, seat=hand.seat_wind, prevalent=hand.prevalent_wind, fixed=fixed,
              standing=standing, merged=merged, unique=[x for x in range(NUM_KINDS) if merged[x]], rules=r)
    table, packs = _best_reading(h)
    if table is None:
        raise InvalidHandError(f"not a winning hand: {hand.to_string()}")
    return _result(table, packs, hand, r)


def _best_reading(h: _Hand) -> tuple[FanTable | None, list[Pack] | None]:
    best: FanTable | None = None
    best_packs: list[Pack] | None = None
    max_fan = 0
    special: FanTable | None = None
    if len(h.fixed) == 0:
        special = _special(h)
    if special is None and len(h.fixed) <= 1:
        knitted = _knitted_straight(h)
        if knitted is not None:
            special, best_packs = knitted
    if special is None and len(h.fixed) == 0:
        special = _nine_gates(h)
    if special is not None:
        best = special
        max_fan = _points(special)
    seven_pairs = special is not None and F.SEVEN_PAIRS in special
    if max_fan == 0 or seven_pairs:
        n = 13 - 3 * len(h.fixed)
        h.standing[h.win] -= 1
        waits = _waits(h.standing, n, h)
        h.standing[h.win] += 1
        unique_wait = len(waits) == 1
        for packs in regular_divisions(list(h.standing), h.fixed):
            t = _regular(packs, h, unique_wait)
            f = _points(t)
            if replaces(f, max_fan, t, seven_pairs):
                max_fan = f
                best = t
                best_packs = packs
    if max_fan == 0:
        return None, None
    return best, best_packs


def _result(table: FanTable, packs: list[Pack] | None, hand: WinningHand, rules: Rules) -> ScoreResult:
    if hand.flowers:
        table[F.FLOWER_TILES] = [("flower",)] * hand.flowers
    names = _inst_names(packs, hand)
    fans = tuple(
        FanCount(f, len(table[f]), tuple(tuple(names(x) for x in inst) for inst in table[f]))
        for f in REPORT_ORDER if f in table
    )
    total = sum(fc.points * fc.count for fc in fans)
    return ScoreResult(total=total, fans=fans, rules=rules, reading=_reading(packs, hand))


def _reading(packs: list[Pack] | None, hand: WinningHand) -> str:
    if not packs:
        return format_compact(sorted(hand.all_tiles()))
    if packs[0].kind == KNITTED:  # the three slots of a knitted straight are one pack for people
        packs = packs[2:]
    return " ".join(p.compact() for p in packs)


def _inst_names(packs: list[Pack] | None, hand: WinningHand) -> Any:
    def name(x: int | str) -> str:
        if isinstance(x, int):
            if packs is None:
                return str(x)
            return packs[x].compact()
        if x == WIN:
            how = "self-drawn" if hand.self_drawn else "discard"
            return f"{tile_str(hand.win_tile)} ({how})"
        if x == WHOLE:
            return _reading(packs, hand)
        return x
    return name


def score_dict_reference(d: Mapping[str, Any], explain: bool = False) -> dict[str, Any]:
    """:func:`score_dict` in pure Python: the reference implementation."""
    try:
        hand = WinningHand.from_dict(d)
        return score_reference(hand).to_dict(explain=explain)
    except ValueError as e:
        return {"error": str(e)}


def score_many_reference(hands: Iterable[WinningHand], rules: str | Rules | None = None) -> list[ScoreResult]:
    """:func:`score_many` in pure Python: the reference implementation."""
    return [score_reference(h, rules) for h in hands]


# ---------------------------------------------------------------------------------------------
# the public entry points: the compiled calculator when built, the reference for what it hands back


def score(hand: WinningHand, rules: str | Rules | None = None) -> ScoreResult:
    """Score a winning hand.  ``rules`` overrides ``hand.rules`` (``gb`` default, ``botzone``).

    Raises :class:`InvalidHandError` when the tiles are not a legal win or the flags contradict."""
    if _FAST is not None:
        result = _FAST.score(hand, rules)
        if result is not None:
            return result
    return score_reference(hand, rules)


def score_dict(d: Mapping[str, Any], explain: bool = False) -> dict[str, Any]:
    """What one ``majiang fan --jsonl`` line does: a hand-json object in, a result (or error) out."""
    if _FAST is not None and not explain:
        result = _FAST.score_dict(d)
        if result is not None:
            return result
    return score_dict_reference(d, explain)


def score_many(hands: Iterable[WinningHand], rules: str | Rules | None = None) -> list[ScoreResult]:
    """Score many hands (same results as :func:`score` one by one)."""
    if _FAST is not None:
        return _FAST.score_many(hands, rules, score_reference)
    return score_many_reference(hands, rules)


#: the compiled calculator (majiang._speedups.fan), or None: not built, or MAJIANG_PURE=1
_FAST: Calculator | None = bind(FanCount, ScoreResult, _Explanation)
