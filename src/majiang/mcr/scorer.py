"""The MCR fan calculator: decomposition → fans per reading → principles → the highest reading.

This is the readable reference implementation, and it only orchestrates: the decompositions come from
:mod:`majiang.mcr.shapes`, the fans of a reading from the fan families (:mod:`majiang.mcr.families`)
and the set combinations (:mod:`majiang.mcr.combos`); the special shapes (七对, 十三幺, 全不靠, 组合龙,
九莲宝灯) are readings of their own here.  Every counted fan remembers the sets (or tiles) it was
counted from, so :meth:`ScoreResult.to_dict` can explain *why* a hand scores what it does.

The five principles of mcr.md §5:

* 不重复 — :mod:`majiang.mcr.exclusions` (the only place one fan removes another), applied to every
  reading by :func:`_final_adjust`, and the 幺九刻 deductions of 圈风刻/门风刻/三风刻;
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
from dataclasses import fields
from functools import lru_cache
from typing import Any

from majiang.mcr.combos import Inst, chow_fans, pung_fans
from majiang.mcr.exclusions import not_counted, table_for
from majiang.mcr.families import FAMILIES, fans_4_1, fans_16_12, fans_88_64
from majiang.mcr.fans import POINTS, REPORT_ORDER, Fan
from majiang.mcr.fast import Calculator, bind
from majiang.mcr.hand import InvalidHandError, MeldKind, WinningHand
from majiang.mcr.highest import replaces
from majiang.mcr.reading import WHOLE, WIN, FanTable, HandContext, Reading, add, put
from majiang.mcr.result import Explanation
from majiang.mcr.result import FanCount as FanCount  # re-exported: the old home of the result classes
from majiang.mcr.result import ScoreResult as ScoreResult
from majiang.mcr.rules import Rules, get_rules
from majiang.mcr.shapes import (
    CHOW,
    KNITTED,
    KNITTED_STRAIGHTS,
    KONG,
    PUNG,
    REF_KEY,
    THIRTEEN_ORPHANS,
    Pack,
    regular_and_pairs_waits,
    regular_divisions,
)
from majiang.tiles import (
    NUM_KINDS,
    RED,
    Tile,
    format_compact,
    is_terminal,
    tile_str,
)

F = Fan


class _Explanation(Explanation):
    """The reference behind a fast-path result (see :class:`~majiang.mcr.result.Explanation`)."""

    __slots__ = ()

    def score(self, hand: WinningHand, rules: Rules) -> ScoreResult:
        return score_reference(hand, rules)


# ---------------------------------------------------------------------------------------------
# context of one hand


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
            raise InvalidHandError(
                "抢杠和 (kong on a discard win) cannot coexist with 海底捞月 (last_tile): "
                "the last tile of the wall cannot be added to a kong"
            )
        if standing[w] != 1 or fixed_counts[w] != 0:
            raise InvalidHandError(
                f"抢杠和: the robbed {tile_str(w)} completes another player's kong, so this hand "
                "cannot hold another copy of it"
            )
    if hand.kong and hand.self_drawn and not any(m.kind is MeldKind.KONG for m in hand.melds):
        raise InvalidHandError("杠上开花 (kong + self_drawn) needs a kong among the melds")
    last = hand.fourth_tile
    if last and standing[w] != 1 and rules.last_tile_needs_visible:
        raise InvalidHandError(
            f"和绝张 (fourth_tile) needs the other three {tile_str(w)} visible on the table, "
            "but the hand holds another copy concealed"
        )
    if fixed_counts[w] == 3:
        last = True  # the other three lie in this hand's own melds: necessarily the last tile
    return last


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


def _win(t: FanTable, h: HandContext) -> None:
    for family in FAMILIES:
        family.win(t, h)


def _tiles(t: FanTable, unique: Sequence[Tile]) -> None:
    for family in FAMILIES:
        family.tiles(t, unique)


def _regular(packs: list[Pack], h: HandContext, unique_wait: bool) -> FanTable:
    """Fans of one regular decomposition (4 sets + pair): the combinations of its sets, every
    family's fans, then 不重复."""
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
    # A pung completed by a discard is an exposed pung (明刻) — unless the winning tile can be read
    # as part of a concealed chow instead.
    if not h.self_drawn and not any(
        not packs[i].exposed and packs[i].tile - 1 <= win <= packs[i].tile + 1 for i in chows
    ):
        concealed_pungs = [i for i in concealed_pungs if packs[i].tile != win]
    r = Reading(h, packs, chows, pungs, concealed_pungs, melded_kongs, concealed_kongs, pair)

    t: FanTable = {}
    _win(t, h)
    pair_tile = packs[pair].tile
    if fans_16_12.three_suited_terminal_chows(packs, chows, pair_tile):
        put(t, F.THREE_SUITED_TERMINAL_CHOWS, tuple(chows) + (pair,))
    elif fans_88_64.pure_terminal_chows(packs, chows, pair_tile):
        put(t, F.PURE_TERMINAL_CHOWS, tuple(chows) + (pair,))
    else:  # 套算一次: the two terminal-chow fans are the whole combination of their chows
        if len(chows) >= 2:
            order = sorted(((packs[i].tile, i) for i in chows), key=lambda x: REF_KEY[x[0]])
            for fan, inst in chow_fans(order):
                add(t, fan, inst)
        if len(pungs) >= 2:
            pung_list = [(packs[i].tile, i) for i in pungs]
            if len(pungs) >= 3:
                pung_list.sort(key=lambda x: REF_KEY[x[0]])
            for fan, inst in pung_fans(pung_list):
                add(t, fan, inst)
    for family in FAMILIES:
        family.sets(t, r)
    _tiles(t, h.unique)
    if unique_wait:
        fans_4_1.waiting_form(t, packs, len(h.fixed), win)
    fans_4_1.wind_pungs(t, r)
    _final_adjust(t, h.rules)
    if not t:
        t[F.CHICKEN_HAND] = [(WHOLE,)]
    return t


def _points(t: Mapping[Fan, list[Inst]]) -> int:
    return sum(POINTS[f] * len(v) for f, v in t.items())


# ---------------------------------------------------------------------------------------------
# special shapes


def _special(h: HandContext) -> FanTable | None:
    """七对 / 连七对, 全不靠 / 七星不靠, 十三幺 (a concealed hand of 14 tiles)."""
    st = h.standing
    unique = h.unique
    whole: Inst = (WHOLE,)
    if all(c % 2 == 0 for c in st):
        t: FanTable = {}
        s = h.win // 9 if h.win < 27 else -1
        if s >= 0 and _seven_shifted_pairs(st, s):
            put(t, F.SEVEN_SHIFTED_PAIRS, whole)
            if st[s * 9] == 0 and st[s * 9 + 8] == 0:
                put(t, F.ALL_SIMPLES, whole)
            _win(t, h)
            _final_adjust(t, h.rules)
            return t
        put(t, F.SEVEN_PAIRS, whole)
        _tiles(t, unique)
        fans_4_1.tile_hog(t, st, ())
        _win(t, h)
        _final_adjust(t, h.rules)
        return t
    if len(unique) == 14:
        numbered = [u for u in unique if u < 27]
        if 7 <= len(numbered) <= 9 and any(set(numbered) <= set(ks) for ks in KNITTED_STRAIGHTS):
            t = {}
            if len(numbered) == 7:
                put(t, F.GREATER_HONORS_AND_KNITTED_TILES, whole)
            else:
                put(t, F.LESSER_HONORS_AND_KNITTED_TILES, whole)
                if len(numbered) == 9:
                    put(t, F.KNITTED_STRAIGHT, (format_compact(numbered),))
            _win(t, h)
            _final_adjust(t, h.rules)
            return t
    if len(unique) == 13 and tuple(unique) == THIRTEEN_ORPHANS:
        t = {}
        put(t, F.THIRTEEN_ORPHANS, whole)
        _win(t, h)
        _final_adjust(t, h.rules)
        return t
    return None


def _seven_shifted_pairs(st: list[int], s: int) -> bool:
    ranks = [r for r in range(9) if st[s * 9 + r]]
    return len(ranks) == 7 and ranks[-1] - ranks[0] == 6 and all(st[s * 9 + r] == 2 for r in ranks)


def _knitted_straight(h: HandContext) -> tuple[FanTable, list[Pack]] | None:
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
    put(t, F.KNITTED_STRAIGHT, (ks_text,))
    if involved.kind == CHOW:
        if pair_tile < 27:
            put(t, F.ALL_CHOWS, (ks_text, 3, 4))
        if st[pair_tile] + _fixed_count(h, pair_tile) == 4:
            put(t, F.TILE_HOG, (format_compact([pair_tile] * 4),))
    else:
        it = involved.tile
        if it >= 27:
            if it <= 30:
                put(t, F.PUNG_OF_TERMINALS_OR_HONORS, (3,))
                fans_4_1.winds(t, 3, it, h)
                if pair_tile >= RED:
                    put(t, F.ALL_TYPES, (ks_text, 3, 4))
            else:
                put(t, F.DRAGON_PUNG, (3,))
                if 27 <= pair_tile <= 30:
                    put(t, F.ALL_TYPES, (ks_text, 3, 4))
        else:
            if is_terminal(it):
                put(t, F.PUNG_OF_TERMINALS_OR_HONORS, (3,))
            if pair_tile < 27:
                put(t, F.NO_HONORS, (WHOLE,))
            if involved.kind != KONG and st[it] + _fixed_count(h, it) == 4:
                put(t, F.TILE_HOG, (format_compact([it] * 4),))
    _win(t, h)
    if involved.exposed:
        if involved.kind == KONG:
            put(t, F.MELDED_KONG, (3,))
    else:
        if involved.kind == KONG:
            put(t, F.CONCEALED_KONG, (3,))
        if h.self_drawn:
            put(t, F.FULLY_CONCEALED_HAND, (WIN,))
        else:
            put(t, F.CONCEALED_HAND, (WIN,))
    win = h.win
    if fixed_cnt == 0:
        if (h.rules.knitted_straight_wait_fans or win not in seq) and rest[win] >= 1:
            rest[win] -= 1
            waits = _waits(rest, 4, h)
            rest[win] += 1
            if len(waits) == 1:
                fans_4_1.waiting_form(t, packs, 3, win)
    else:
        if win not in seq or (h.rules.knitted_straight_wait_fans and st[win] == 3):
            put(t, F.SINGLE_WAIT, (4, WIN))
    _final_adjust(t, h.rules)
    return t, packs


def _fixed_count(h: HandContext, tile: Tile) -> int:
    return h.merged[tile] - h.standing[tile]


def _nine_gates(h: HandContext) -> FanTable | None:
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
    put(t, F.NINE_GATES, whole)
    rank = r + 1
    if rank in (1, 9):
        put(t, F.PURE_STRAIGHT, whole)
        put(t, F.TILE_HOG, (format_compact([w] * 4),))
    elif rank in (2, 8):
        put(t, F.TWO_CONCEALED_PUNGS, whole)
        put(t, F.SHORT_STRAIGHT, whole)
        put(t, F.PUNG_OF_TERMINALS_OR_HONORS, whole)
    elif rank == 5:
        put(t, F.TWO_CONCEALED_PUNGS, whole)
        put(t, F.PUNG_OF_TERMINALS_OR_HONORS, whole)
    else:
        put(t, F.SHORT_STRAIGHT, whole)
    _win(t, h)
    _final_adjust(t, h.rules)
    return t


def _waits(counts: list[int], n_tiles: int, h: HandContext) -> list[Tile]:
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
    h = HandContext(
        win=hand.win_tile,
        self_drawn=hand.self_drawn,
        last_tile=last,
        kong=hand.kong,
        wall_last=hand.last_tile,
        seat=hand.seat_wind,
        prevalent=hand.prevalent_wind,
        fixed=fixed,
        standing=standing,
        merged=merged,
        unique=[x for x in range(NUM_KINDS) if merged[x]],
        rules=r,
    )
    table, packs = _best_reading(h)
    if table is None:
        raise InvalidHandError(f"not a winning hand: {hand.to_string()}")
    return _result(table, packs, hand, r)


def _best_reading(h: HandContext) -> tuple[FanTable | None, list[Pack] | None]:
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
        for f in REPORT_ORDER
        if f in table
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
        return score_reference(hand, _switched(hand, d)).to_dict(explain=explain)
    except ValueError as e:
        return {"error": str(e)}


def _switched(hand: WinningHand, d: Mapping[str, Any]) -> Rules | None:
    """The hand's profile with the hand-json ``switches`` applied (None: no switches)."""
    switches = d.get("switches")
    if switches is None:
        return None
    if not isinstance(switches, Mapping) or not all(isinstance(k, str) for k in switches):
        raise InvalidHandError(f"'switches' must be an object {{name: value}}, got {switches!r}")
    if "name" in switches:  # a profile's name is no switch
        raise InvalidHandError(f"unknown rule switch(es) ['name']; known: {switches_known()}")
    return get_rules(hand.rules).with_switches(**switches)


def switches_known() -> list[str]:
    """The names hand-json ``switches`` may set."""
    return sorted(f.name for f in fields(Rules) if f.name != "name")


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
    if _FAST is not None and not explain:  # C leaves a line with its own ``switches`` to the reference
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
