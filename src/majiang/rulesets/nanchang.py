"""Nanchang as an engine ruleset (:class:`majiang.engine.protocol.Ruleset`): 136 tiles, 17-stack
walls, the 34-tile dead wall, the jing flip after the deal, honour chows, wild-tile wins with
过手胡 and the 精钓 restrictions, kong bonuses paid as the kong is made, and the hand-end
settlement (win payment and jing rounds) computed by the same code as the calculator.  The rules
themselves are the core's (:mod:`majiang.nanchang.table`, :mod:`~majiang.nanchang.payment`,
:mod:`~majiang.nanchang.win`, :mod:`~majiang.nanchang.settle`): this module only reads the engine's
hand for them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from majiang.engine.events import (
    NUMBER,
    TEXT,
    TILE,
    EventSpec,
    Record,
    fields,
    register_event,
    register_fields,
    register_public,
)
from majiang.engine.protocol import CoreSpec, FalseWin, HandState, Settlement, Win, WinContext
from majiang.engine.wall import Wall
from majiang.melds import Meld, MeldKind
from majiang.nanchang.jing import JingPair
from majiang.nanchang.options import Options, options_from_dict
from majiang.nanchang.payment import SEATS, kong_bonus, kong_deltas
from majiang.nanchang.settle import HandRecord, SeatHand, settle
from majiang.nanchang.table import chows, flip_jing, jing_dice, may_declare_kong, pass_hu_blocks
from majiang.nanchang.terms import WinMethod
from majiang.nanchang.win import Win as NanchangWin
from majiang.nanchang.win import WinSituation, best_win, can_win
from majiang.tiles import Tile, full_set

#: a gain no hand reaches: ``pass_hu_blocks(passed, ANY_GAIN)`` = every discard win is barred
ANY_GAIN = sys.maxsize
#: the claims that break the first go-round (抄庄 needs four uninterrupted first discards)
CLAIM_EVENTS = ("chow", "pung")

# what Nanchang adds to the event log (majiang.engine.events): the jing flip, the win's summary and
# the settlement's detail (Nanchang.check_win, Nanchang.settle), the jing in the public state
register_event(EventSpec("jing", fields(dice=NUMBER, indicator=TILE, zheng=TILE, fu=TILE), dealing=True))
register_fields("win", fields(hu=TEXT, multiplier=NUMBER, method=TEXT))
register_fields("hand_end", fields(hu=TEXT, next_dealer=NUMBER))
register_public("jing", Record(fields(indicator=TILE, zheng=TILE, fu=TILE)))


def first_discards(events: Sequence[dict[str, Any]], dealer: int) -> tuple[Tile, ...] | None:
    """抄庄's four first discards: each seat's first discard in turn from the dealer, or None when
    the hand ended before four discards or a claim (吃, 碰, 明杠) broke the first go-round."""
    tiles: list[Tile] = []
    for e in events:
        kind = e["type"]
        if kind in CLAIM_EVENTS or (kind == "kong" and e["kind"] == "exposed"):
            return None
        if kind == "discard":
            if e["seat"] != (dealer + len(tiles)) % SEATS:
                return None
            tiles.append(e["tile"])
            if len(tiles) == SEATS:
                return tuple(tiles)
    return None


def hand_value(win: NanchangWin, options: Options) -> int:
    """The size 过手胡 compares (``pass_hu_allows_bigger``): the multiplier M, on the flat base for
    天胡/地胡 (whose M is only the 精钓 factor)."""
    method = win.situation.method
    if method is WinMethod.HEAVENLY:
        return options.tian_hu_base * win.multiplier
    if method is WinMethod.EARTHLY:
        return options.di_hu_base * win.multiplier
    return win.multiplier


def previous_indicator(hand: HandState) -> Tile | None:
    """回头一笑: the previous hand's 上精 indicator, as the hand's header carries it (``previous``:
    the previous hand's :meth:`Nanchang.public` state); None for a first hand."""
    previous = hand.events[0].get("previous") or {}
    indicator: Tile | None = previous.get("jing", {}).get("indicator")
    return indicator


class Nanchang:
    name = "nanchang"
    stacks_per_wall = 17
    #: no seat changes between rounds: the deal passes counter-clockwise to the dealer's 下家 and
    #: the players keep their chairs (seed 004 "庄家逆时针旋转，庄家胡牌后即可连庄"; nanchang.md §2.2)
    seat_changes = False
    #: wins are counted in 倍 (multipliers), not fans: no fan minimum
    min_fan: int | None = None

    def __init__(self, options: dict[str, Any] | Options | None = None) -> None:
        self.options = options if isinstance(options, Options) else options_from_dict(options or {})
        self.dead_wall = self.options.dead_wall_tiles
        # (dealer, win, next dealer) of the hand settled last: 抄庄 passes the deal, which
        # next_dealer(dealer, win) alone cannot see
        self._settled: tuple[int, Win | None, int] | None = None

    def tile_set(self) -> list[Tile]:
        return full_set(flowers=False)

    def is_bonus(self, tile: Tile) -> bool:
        return False

    def build_wall(self, seed: bytes) -> Wall:
        return Wall.build(self.tile_set(), seed, self.stacks_per_wall, self.dead_wall)

    def fault(self, hand: HandState, seat: int, kind: str) -> FalseWin | None:
        return None

    # ---- the jing --------------------------------------------------------------------------------
    def setup(self, hand: HandState) -> None:
        """翻精 (:func:`~majiang.nanchang.table.flip_jing`) on the engine's wall.  The indicator stays in
        the (dead) wall; replacement draws skip it unless ``indicator_drawable``."""
        self._settled = None  # a new hand: the last hand's next dealer has been asked for
        dice = jing_dice(hand.seed)
        flip = flip_jing(hand.wall.tiles, sum(dice))
        if not self.options.indicator_drawable:
            hand.wall.reserved.add(flip.position)
        pair = flip.pair
        hand.ruleset_state.update(jing=pair, indicator=flip.indicator, indicator_pos=flip.position, under=flip.under)
        hand.emit({"type": "jing", "dice": list(dice), "indicator": flip.indicator, "zheng": pair.zheng, "fu": pair.fu})

    def jing(self, hand: HandState) -> JingPair:
        pair: JingPair = hand.ruleset_state["jing"]
        return pair

    def public(self, hand: HandState) -> dict[str, Any]:
        if "jing" not in hand.ruleset_state:
            return {}
        pair = self.jing(hand)
        return {"jing": {"indicator": hand.ruleset_state["indicator"], "zheng": pair.zheng, "fu": pair.fu}}

    def core(self) -> CoreSpec | None:
        return None  # wild jing tiles, honour chows, a dead wall: the Python engine plays Nanchang

    # ---- claims and kongs ----------------------------------------------------------------------
    def chows(self, counts: Sequence[int], tile: Tile) -> list[tuple[Tile, Tile, Tile]]:
        return chows(counts, tile)

    def can_kong(self, hand: HandState) -> bool:
        return may_declare_kong(hand.wall.remaining, self.options)  # more than the dead wall remains

    def kong_bonus(self, hand: HandState, seat: int, tile: Tile, kind: str) -> list[int] | None:
        kong = Meld(MeldKind.KONG, (tile,) * 4, concealed=kind == "concealed")
        return kong_deltas([kong_bonus(seat, kong, self.jing(hand), self.options)])

    # ---- winning -------------------------------------------------------------------------------
    def _method(self, hand: HandState, seat: int, ctx: WinContext) -> WinMethod:
        if ctx.discarder is None:
            if ctx.first_turn and seat == hand.dealer:
                return WinMethod.HEAVENLY
            return WinMethod.KONG_REPLACEMENT if ctx.kong else WinMethod.SELF_DRAWN
        if ctx.kong:
            return WinMethod.ROBBED_KONG
        if ctx.first_turn and ctx.discarder == hand.dealer:
            return WinMethod.EARTHLY
        return WinMethod.DISCARD

    def could_win(self, hand: HandState, seat: int, tile: Tile, self_drawn: bool) -> bool:
        st = hand.seats[seat]
        if not self_drawn and pass_hu_blocks(self._passed_gain(hand, seat), ANY_GAIN, self.options):
            return False  # 过手胡 barring every discard win until the next own draw
        concealed = st.concealed()
        if self_drawn:
            concealed.remove(tile)
        method = WinMethod.SELF_DRAWN if self_drawn else WinMethod.DISCARD
        melds = tuple(st.melds)
        if can_win(concealed, melds, self.jing(hand), win_tile=tile, method=method, options=self.options):
            return True
        # 地胡 may use wilds even where discard wins may not
        return (
            not self_drawn
            and hand.first_turn
            and can_win(
                concealed, melds, self.jing(hand), win_tile=tile, method=WinMethod.EARTHLY, options=self.options
            )
        )

    def _situation(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> WinSituation:
        st = hand.seats[seat]
        concealed = st.concealed()
        if ctx.discarder is None:
            concealed.remove(tile)
        pair = self.jing(hand)
        others = any(
            o.counts[pair.zheng]
            or o.counts[pair.fu]
            or any(t in (pair.zheng, pair.fu) for m in o.melds for t in m.tiles)
            for i, o in enumerate(hand.seats)
            if i != seat
        )
        return WinSituation(
            concealed=tuple(concealed),
            melds=tuple(st.melds),
            win_tile=tile,
            jing=pair,
            method=self._method(hand, seat, ctx),
            winner=seat,
            dealer=hand.dealer,
            discarder=ctx.discarder,
            others_hold_jing=others,
        )

    # ---- 过手胡 (pass_hu_furiten / pass_hu_allows_bigger) ------------------------------------------
    # The engine sets ``passed_win`` on a seat that lets an offered discard win go by and clears it
    # on the seat's draw.  What it does not keep is the size of the win let go by, which
    # ``pass_hu_allows_bigger`` compares with: the :func:`hand_value` of every discard win offered is kept
    # in the hand's ruleset state (``offered``: seat → the largest offered since the seat's last draw).
    def _passed_gain(self, hand: HandState, seat: int) -> int | None:
        """The :func:`hand_value` of the biggest discard win ``seat`` let go by since its last draw, or
        None."""
        if not hand.seats[seat].passed_win:
            return None
        offered: dict[int, int] = hand.ruleset_state.get("offered", {})
        return offered.get(seat, ANY_GAIN)  # unknown size: count it as the biggest (bars every win)

    def _offer(self, hand: HandState, seat: int, gain: int) -> None:
        """Note a discard win offered to ``seat`` (it becomes the passed win if the seat passes)."""
        offered: dict[int, int] = hand.ruleset_state.setdefault("offered", {})
        offered[seat] = max(offered.get(seat, 0), gain) if hand.seats[seat].passed_win else gain

    def win_refusal(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> dict[str, Any] | None:
        return None  # Nanchang has no fan minimum: a complete hand is a win (or a rule the table shows)

    def check_win(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> Win | None:
        win = best_win(self._situation(hand, seat, tile, ctx), self.options)
        if win is None:
            return None
        if ctx.discarder is not None:
            gain = hand_value(win, self.options)
            if pass_hu_blocks(self._passed_gain(hand, seat), gain, self.options):
                return None
            self._offer(hand, seat, gain)
        names = [{"zh": h.zh, "name": h.en, "factor": h.factor} for h in win.hu]
        return Win(
            seat=seat,
            tile=tile,
            discarder=ctx.discarder,
            points=win.multiplier,
            names=names,
            detail=win,
            summary={"hu": win.hu_names, "multiplier": win.multiplier, "method": win.situation.method.value},
        )

    def false_win(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> FalseWin | None:
        return None  # no false-win penalty in Nanchang: the declaration is refused

    # ---- the end -------------------------------------------------------------------------------
    def record(self, hand: HandState, win: Win | None) -> HandRecord:
        seats = []
        for i, st in enumerate(hand.seats):
            concealed = st.concealed()
            if win is not None and win.seat == i and win.discarder is None and win.tile in concealed:
                concealed.remove(win.tile)
            dealt = hand.events[next(j for j, e in enumerate(hand.events) if e["type"] == "deal")]["hands"][i]
            seats.append(
                SeatHand(
                    concealed=tuple(concealed),
                    melds=tuple(st.melds),
                    discards=tuple(t for t, c in zip(st.discards, st.claimed, strict=True) if not c),
                    dealt=tuple(dealt),
                )
            )
        method = None
        if win is not None:
            detail = win.detail
            method = detail.situation.method
        return HandRecord(
            jing_indicator=hand.ruleset_state["indicator"],
            hands=tuple(seats),
            dealer=hand.dealer,
            winner=win.seat if win else None,
            win_tile=win.tile if win else None,
            method=method,
            discarder=win.discarder if win else None,
            xia_jing_indicator=hand.ruleset_state.get("under"),
            previous_jing_indicator=previous_indicator(hand),
            first_discards=first_discards(hand.events, hand.dealer),
        )

    def settle(self, hand: HandState, win: Win | None) -> Settlement:
        s = settle(self.record(hand, win), self.options)
        # kong bonuses were paid as the kongs were made; the settlement brings the hand to the
        # calculator's total for this final position (voiding them on a draw where the option says so)
        paid = [0, 0, 0, 0]
        for e in hand.events:
            if e["type"] == "payment" and e["reason"] == "kong":
                paid = [a + b for a, b in zip(paid, e["deltas"], strict=True)]
        deltas = [s.deltas[i] - paid[i] for i in range(4)]
        parts = {"win": list(s.win_deltas), "kong": list(s.kong_deltas), "jing": list(s.jing_deltas)}
        if s.chao_zhuang:
            parts["penalty"] = list(s.penalty_deltas)  # 抄庄
        self._settled = (hand.dealer, win, s.next_dealer)
        return Settlement(
            deltas, parts=parts, detail={"hu": s.win.hu_names if s.win else [], "next_dealer": s.next_dealer}
        )

    def next_dealer(self, dealer: int, win: Win | None) -> tuple[int, bool]:
        settled = self._settled
        if settled is not None and settled[0] == dealer and settled[1] is win:
            return settled[2], settled[2] != dealer  # the settled hand's answer (抄庄 passes the deal)
        if win is None:
            keep = self.options.dealer_keeps_on_draw
        else:
            keep = win.seat == dealer
        return (dealer, False) if keep else ((dealer + 1) % 4, True)

    def summary(self) -> dict[str, Any]:
        return asdict(self.options)
