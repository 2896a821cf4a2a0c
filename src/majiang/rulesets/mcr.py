"""MCR as an engine ruleset: 144 tiles with flowers, 18-stack walls, the 8-fan minimum, base-8
payments, false wins per profile, and the deal passing after every hand (mcr.md §1–§6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from majiang.engine.events import FLAG, NUMBER, fields, register_fields
from majiang.engine.protocol import CoreSpec, FalseWin, HandState, Settlement, Win, WinContext
from majiang.engine.wall import SeatWalls, Wall
from majiang.mcr.hand import InvalidHandError, WinningHand
from majiang.mcr.payment import FalseWin as FalseWinKind
from majiang.mcr.payment import false_win_deltas, hand_deltas
from majiang.mcr.result import ScoreResult
from majiang.mcr.rules import Rules, get_rules
from majiang.mcr.scorer import score
from majiang.mcr.shapes import is_win_shape, is_win_shape_with
from majiang.rulebook import FAULT_RULES
from majiang.tiles import NUM_KINDS, Tile, full_set

_TILE_SET = tuple(full_set(flowers=True))

# what MCR adds to the event log (majiang.engine.events): the win's summary (MCR.check_win)
register_fields("win", fields(total=NUMBER, self_drawn=FLAG))


def make(options: dict[str, Any] | None = None) -> MCR:
    """The registry's factory: MCR with the ``gb`` profile; its one option is ``faults`` (a log header's
    ``ruleset`` carries it when it is not the default)."""
    return MCR("gb", fault_option(options))


def fault_option(options: dict[str, Any] | None) -> str | None:
    value = (options or {}).get("faults")
    return None if value is None else str(value)


#: how a bot's fault (no answer in time, an illegal answer, a crash) is scored: ``substitute`` — a
#: legal move is played in its place and the score is unchanged; ``botzone`` — Botzone's judge: the
#: hand ends, the offender pays :data:`FAULT_PENALTY`, each other seat gets :data:`FAULT_REWARD`
FAULTS = FAULT_RULES
FAULT_PENALTY, FAULT_REWARD = -30, 10


def check_faults(faults: object) -> str:
    if faults not in FAULTS:
        raise ValueError(f"faults must be one of {', '.join(FAULTS)}, got {faults!r}")
    return str(faults)


class MCR:
    """Chinese Official Mahjong; ``profile`` is ``gb`` (1998, default) or ``botzone``; ``faults`` how a
    bot's fault is scored (:data:`FAULTS`)."""

    stacks_per_wall = 18
    dead_wall = 0
    seat_changes = True
    default_faults = "substitute"

    def __init__(self, profile: str | Rules = "gb", faults: str | None = None) -> None:
        self.rules = get_rules(profile)
        self.name = self.rules.name
        self.min_fan: int | None = self.rules.min_fan
        self.faults = check_faults(faults or self.default_faults)
        self._summary = asdict(self.rules)
        if self.faults != self.default_faults:  # logs of the default keep their header
            self._summary["faults"] = self.faults

    def tile_set(self) -> list[Tile]:
        return list(_TILE_SET)  # a fresh list each hand, without rebuilding it

    def is_bonus(self, tile: Tile) -> bool:
        return tile >= NUM_KINDS

    def build_wall(self, seed: bytes) -> Wall | SeatWalls:
        return Wall.build(self.tile_set(), seed, self.stacks_per_wall, self.dead_wall)

    def fault(self, hand: HandState, seat: int, kind: str) -> FalseWin | None:
        if self.faults != "botzone":
            return None
        deltas = [FAULT_PENALTY if s == seat else FAULT_REWARD for s in range(4)]
        return FalseWin(kind=kind, deltas=deltas, ends_hand=True, barred=False)

    def setup(self, hand: HandState) -> None:
        return None

    def chows(self, counts: Sequence[int], tile: Tile) -> list[tuple[Tile, Tile, Tile]]:
        if tile >= 27:
            return []
        r = tile % 9
        out = []
        for low in (tile - 2, tile - 1, tile):
            lr = r - (tile - low)
            if lr < 0 or lr > 6:
                continue
            trio = (low, low + 1, low + 2)
            if all(counts[t] for t in trio if t != tile):
                out.append(trio)
        return out

    def can_kong(self, hand: HandState) -> bool:
        return hand.wall.live > 0

    def winning_hand(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> WinningHand:
        st = hand.seats[seat]
        concealed = st.concealed()
        if ctx.discarder is None:
            concealed.remove(tile)
        return WinningHand(
            melds=tuple(st.melds),
            hand=tuple(concealed),
            win_tile=tile,
            self_drawn=ctx.discarder is None,
            fourth_tile=ctx.fourth_tile,
            kong=ctx.kong,
            last_tile=ctx.last,
            seat_wind=hand.seat_wind(seat),
            prevalent_wind=hand.prevalent,
            flowers=len(st.flowers),
            rules=self.name,
        )

    def could_win(self, hand: HandState, seat: int, tile: Tile, self_drawn: bool) -> bool:
        st = hand.seats[seat]
        if self_drawn:
            return is_win_shape(st.counts, len(st.melds))
        return is_win_shape_with(st.counts, len(st.melds), tile)

    def _score(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> ScoreResult | None:
        if not self.could_win(hand, seat, tile, ctx.discarder is None):
            return None
        try:
            return score(self.winning_hand(hand, seat, tile, ctx), self.rules)
        except InvalidHandError:
            return None

    def check_win(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> Win | None:
        if hand.seats[seat].barred:
            return None
        r = self._score(hand, seat, tile, ctx)
        if r is None or r.below_minimum:
            return None
        return Win(
            seat=seat,
            tile=tile,
            discarder=ctx.discarder,
            points=r.total,
            names=[fc.to_dict() for fc in r.fans],
            detail=r,
            summary={"total": r.total, "self_drawn": ctx.discarder is None},
        )

    def win_refusal(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> dict[str, Any] | None:
        r = self._score(hand, seat, tile, ctx)
        if r is None or not r.below_minimum:
            return None
        return {"fan": r.fan_points, "min": self.rules.min_fan}

    def false_win(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> FalseWin | None:
        st = hand.seats[seat]
        r = self._score(hand, seat, tile, ctx)
        if r is not None:
            kind = FalseWinKind.WRONG  # a complete hand below 8 fan
        else:
            counts = list(st.counts)
            if ctx.discarder is None:
                counts[tile] -= 1
            ready = False
            for t in range(NUM_KINDS):
                counts[t] += 1
                ready = is_win_shape(counts, len(st.melds))
                counts[t] -= 1
                if ready:
                    break
            kind = FalseWinKind.WRONG if ready else FalseWinKind.SHORT  # 错和 / 诈和
        ends = self.rules.false_win == "end_hand"
        return FalseWin(
            kind=kind.value, deltas=false_win_deltas(seat, kind, self.rules), ends_hand=ends, barred=not ends
        )

    def kong_bonus(self, hand: HandState, seat: int, tile: Tile, kind: str) -> list[int] | None:
        return None

    def settle(self, hand: HandState, win: Win | None) -> Settlement:
        if win is None:
            return Settlement([0, 0, 0, 0])  # 荒牌: no score
        return Settlement(hand_deltas(win.seat, win.discarder, win.points))

    def next_dealer(self, dealer: int, win: Win | None) -> tuple[int, bool]:
        return (dealer + 1) % 4, True  # no 连庄: the deal passes after every hand

    def summary(self) -> dict[str, Any]:
        return dict(self._summary)

    def public(self, hand: HandState) -> dict[str, Any]:
        return {}

    def core(self) -> CoreSpec | None:
        """The compiled core plays MCR itself; a subclass changes hooks the core does not call, so it
        opts in on its own (as :class:`~majiang.rulesets.botzone.Botzone` does)."""
        if type(self) is not MCR:
            return None
        return CoreSpec(
            quarters=False,
            flowers=True,
            stacks=self.stacks_per_wall,
            false_win_ends=self.rules.false_win == "end_hand",
            fault=(FAULT_PENALTY, FAULT_REWARD) if self.faults == "botzone" else None,
            fan_rules=self.rules,
        )
