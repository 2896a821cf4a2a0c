"""One hand (盘) as an authoritative state machine.

The engine deals, draws, asks the prompted seats for decisions and applies them.  At any moment
:meth:`Hand.prompted` lists the seats that must decide and :meth:`Hand.legal` their options;
:meth:`Hand.act` applies one decision (an illegal one raises :class:`IllegalAction` and changes
nothing).  Every change is an event appended to :attr:`Hand.events` — the hand's single source of
truth, from which replays, views and settlements are derived.

Claims (mcr.md §3): after a discard every other seat may win, pung, kong, or (the next seat only)
chow; when all have answered, 和 beats 碰/杠 beats 吃 and of several wins the first seat after the
discarder takes it.  Only an added kong (加杠) can be robbed.  After a chow or pung the claimer
discards without kong or self-draw.  The last discard can be won but not claimed otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from itertools import compress
from typing import Any

from majiang.engine.events import VERSION, moqie
from majiang.engine.events import check as check_event
from majiang.engine.protocol import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    DISCARDS,
    KONG,
    KONGS,
    PASS,
    PASS_ACTION,
    PUNG,
    PUNGS,
    WIN,
    WINS,
    Action,
    Ruleset,
    Settlement,
    Win,
    WinContext,
)
from majiang.engine.wall import seed_hash
from majiang.melds import CHOW as CHOW_SET
from majiang.melds import KONG as KONG_SET
from majiang.melds import PUNG as PUNG_SET
from majiang.melds import Meld
from majiang.tiles import NUM_KINDS, Tile, tile_str


class IllegalAction(ValueError):
    """A decision the engine refuses; the message says why.  Nothing changed."""


class Phase(Enum):
    TURN = "turn"  # the current seat discards (or kongs / wins after a draw)
    CLAIM = "claim"  # a discard waits for the other seats' claims
    ROB = "rob"  # an added kong waits for robbing wins
    OVER = "over"


# the members as plain names: an Enum attribute costs ~100 ns in Python 3.11, and the state machine
# asks for the phase several times an action
TURN, CLAIM, ROB, OVER = Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.OVER


@dataclass(slots=True)
class Seat:
    counts: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    melds: list[Meld] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)  # the pond, in order
    claimed: list[bool] = field(default_factory=list)  # discards taken by a claim (shown sideways)
    moqie: list[bool] = field(default_factory=list)  # 摸切: the discard was the tile just drawn (events.moqie)
    drawn: Tile | None = None  # the tile drawn this turn
    barred: bool = False  # a false win lost the right to win this hand
    passed_win: bool = False  # passed a winning discard since the last own draw (过手胡)

    def concealed(self) -> list[Tile]:
        c = self.counts
        return [t for t in range(NUM_KINDS) for _ in range(c[t])]

    @property
    def n_concealed(self) -> int:
        return sum(self.counts)


def hand_start(
    rules: Ruleset,
    seed: bytes,
    dealer: int,
    prevalent: int,
    hand_no: int,
    scores: list[int],
    extra: dict[str, Any] | None,
    arrange: list[tuple[int, int]] | None,
) -> dict[str, Any]:
    """A hand's first event, ``hand_start``: the same from both engines (:class:`Hand`, the compiled
    core's :class:`~majiang.engine.compiled.CompiledHand`), whose arguments these are."""
    head: dict[str, Any] = {
        "type": "hand_start",
        "version": VERSION,
        "rules": rules.name,
        "ruleset": rules.summary(),
        "seed": seed.hex(),
        "seed_hash": seed_hash(seed),
        "dealer": dealer,
        "prevalent": prevalent,
        "hand_no": hand_no,
        "scores": list(scores),
        **(extra or {}),
    }
    if arrange:
        head["arrange"] = [list(p) for p in arrange]
    return head


class Hand:
    """One hand of four seats (absolute seats 0–3; seat wind = (seat − dealer) mod 4)."""

    def __init__(
        self,
        rules: Ruleset,
        seed: bytes,
        dealer: int = 0,
        prevalent: int = 0,
        scores: list[int] | None = None,
        hand_no: int = 0,
        extra: dict[str, Any] | None = None,
        arrange: list[tuple[int, int]] | None = None,
    ) -> None:
        """``arrange``: swaps of wall positions applied after the shuffle (recorded in the log, so
        the hand still replays exactly) — for test scenarios and start-of-hand items."""
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.prevalent = prevalent
        self.hand_no = hand_no
        self.scores_before = list(scores) if scores is not None else [0, 0, 0, 0]
        self.deltas = [0, 0, 0, 0]
        self.events: list[dict[str, Any]] = []
        self.seats = [Seat() for _ in range(4)]
        self.phase = TURN
        self.current = dealer
        self.turn_drawn = True  # the current seat drew this turn (so may kong or self-draw)
        self.after_kong = False  # the current draw is a kong replacement (杠上开花)
        self.first_turn = True  # no claim, kong or second draw yet
        self.pending: tuple[int, Tile] | None = None  # (seat, tile) discarded or added to a kong
        self.options: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        # a copy that shows the hand as players saw it (majiang.engine.log.replay_shown): a discard's claim
        # window (an added kong's robbing window) stays open even when nobody may claim (rob), instead of
        # the engine going on at once
        self.hold_claims = False
        self.win: Win | None = None
        self.settlement: Settlement | None = None
        self.ruleset_state: dict[str, Any] = {}
        self.visible = [0] * NUM_KINDS  # copies in ponds (unclaimed) and exposed melds
        self.wall = rules.build_wall(seed)
        if arrange:
            tiles = self.wall.tiles
            for i, j in arrange:
                tiles[i], tiles[j] = tiles[j], tiles[i]
        self.emit(hand_start(rules, seed, dealer, prevalent, hand_no, self.scores_before, extra, arrange))
        w = self.wall
        opening = w.opening(dealer)
        if opening is not None:
            self.emit(opening)
        hands = w.deal(dealer)
        for s, tiles in enumerate(hands):
            for t in tiles:
                self._receive(s, t)
        self.emit({"type": "deal", "hands": [sorted(h) for h in hands]})
        for k in range(4):  # 补花: dealer first, each replaces until none
            s = (dealer + k) % 4
            for f in list(self.seats[s].flowers):
                self._replace_flower(s, f)
        rules.setup(self)
        last = hands[dealer][-1]
        self.seats[dealer].drawn = None if rules.is_bonus(last) else last
        self._enter_turn()

    # ---- events ------------------------------------------------------------------------------
    def emit(self, event: dict[str, Any]) -> None:
        """Append an event of a declared type (:mod:`majiang.engine.events`; the hot draws and
        discards append theirs directly)."""
        check_event(event)
        self.events.append(event)

    # ---- tiles in and out ----------------------------------------------------------------------
    def _receive(self, seat: int, tile: Tile) -> None:
        if self.rules.is_bonus(tile):
            self.seats[seat].flowers.append(tile)
        else:
            self.seats[seat].counts[tile] += 1

    def _replace_flower(self, seat: int, flower: Tile) -> Tile | None:
        """Show a flower and draw its replacement from the tail (repeating for more flowers)."""
        while True:
            if self.wall.left(seat) == 0:
                self.emit({"type": "flower", "seat": seat, "tile": flower, "replacement": None})
                return None
            t = self.wall.draw(seat, tail=True)
            self.emit({"type": "flower", "seat": seat, "tile": flower, "replacement": t})
            if not self.rules.is_bonus(t):
                self.seats[seat].counts[t] += 1
                return t
            self.seats[seat].flowers.append(t)
            flower = t

    def _draw(self, seat: int, tail: bool = False) -> None:
        """Draw for ``seat`` (head, or tail after a kong); nothing left for ``seat`` to draw ends the hand."""
        w = self.wall
        if (w.live if w.shared else w.left(seat)) == 0:
            self._finish(None)
            return
        t = w.draw(seat, tail)
        st = self.seats[seat]
        self.first_turn = False
        self.events.append({"type": "draw", "seat": seat, "tile": t, "tail": tail})
        if t >= NUM_KINDS and self.rules.is_bonus(t):
            st.flowers.append(t)
            r = self._replace_flower(seat, t)
            if r is None:
                self._finish(None)
                return
            t = r
        else:
            st.counts[t] += 1
        st.drawn = t
        st.passed_win = False
        self.current = seat
        self.turn_drawn = True
        self.phase = TURN
        self._enter_turn()

    # ---- queries -------------------------------------------------------------------------------
    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def visible_count(self, tile: Tile) -> int:
        """Copies of ``tile`` anyone can see: ponds (unclaimed) and exposed melds."""
        return self.visible[tile]

    def win_context(self, seat: int, tile: Tile, discarder: int | None, robbing: bool = False) -> WinContext:
        # 和绝张: the other three copies are visible (a robbed kong's pung shows them)
        visible = self.visible[tile]
        if discarder is not None and not robbing:
            visible -= 1  # the discard itself is the winning tile
        # 海底: the seat that would draw next (after the winner's or the discarder's turn) has nothing left
        w = self.wall
        left = w.live if w.shared else w.left(((seat if discarder is None else discarder) + 1) % 4)
        return WinContext(
            discarder=discarder,
            kong=robbing or (discarder is None and self.after_kong),
            last=left == 0,
            first_turn=self.first_turn,
            fourth_tile=visible == 3,
        )

    def _try_win(self, seat: int, tile: Tile, discarder: int | None, robbing: bool = False) -> Win | None:
        if self.seats[seat].barred or not self.rules.could_win(self, seat, tile, discarder is None):
            return None
        return self.rules.check_win(self, seat, tile, self.win_context(seat, tile, discarder, robbing))

    def win_refusal(self, seat: int) -> dict[str, Any] | None:
        """Why ``seat``, whose hand is complete in shape with the tile it may take now (its own draw on
        its turn, or the discard it is asked about), may not declare the win — the ruleset's
        :meth:`~majiang.engine.protocol.Ruleset.win_refusal` — or None."""
        st = self.seats[seat]
        if st.barred:
            return None
        if self.phase is TURN and seat == self.current and self.turn_drawn and st.drawn is not None:
            tile, discarder = st.drawn, None
        elif self.phase is CLAIM and self.pending is not None and seat in self.options:
            discarder, tile = self.pending
        else:
            return None
        if WINS[tile] in self.legal(seat) or not self.rules.could_win(self, seat, tile, discarder is None):
            return None
        return self.rules.win_refusal(self, seat, tile, self.win_context(seat, tile, discarder))

    def prompted(self) -> list[int]:
        if self.phase is TURN:
            return [self.current]
        if self.phase in (CLAIM, ROB):
            return [s for s in self.options if s not in self.responses]
        return []

    def legal(self, seat: int) -> list[Action]:
        if self.phase is TURN:
            return self.options.get(seat, []) if seat == self.current else []
        if self.phase in (CLAIM, ROB) and seat not in self.responses:
            return self.options.get(seat, [])
        return []

    @property
    def over(self) -> bool:
        return self.phase is OVER

    # ---- the turn ------------------------------------------------------------------------------
    def _enter_turn(self) -> None:
        s = self.current
        st = self.seats[s]
        c = st.counts
        opts: list[Action] = []
        if self.turn_drawn:
            tile = st.drawn if st.drawn is not None else max(t for t in range(NUM_KINDS) if c[t])
            rules = self.rules
            if (
                not st.barred
                and rules.could_win(self, s, tile, True)
                and rules.check_win(self, s, tile, self.win_context(s, tile, None)) is not None
            ):
                opts.append(WINS[tile])
            # a kong needs a replacement for the konger and a draw for the seat after it
            w = self.wall
            if rules.can_kong(self) and (w.live if w.shared else w.left(s) and w.left((s + 1) % 4)):
                if 4 in c:
                    opts.extend(Action(CONCEALED_KONG, t) for t in range(NUM_KINDS) if c[t] == 4)
                if st.melds:
                    # m.tiles[0]: m.tile, without the property call
                    opts.extend(
                        Action(ADDED_KONG, m.tiles[0]) for m in st.melds if m.kind == PUNG_SET and c[m.tiles[0]]
                    )
        opts.extend(compress(DISCARDS, c))
        self.options = {s: opts}
        self.responses = {}
        self.phase = TURN

    def act(self, seat: int, action: Action) -> None:
        """Apply one decision of ``seat``.  Raises :class:`IllegalAction` (state unchanged)."""
        if self.phase is OVER:
            raise IllegalAction("the hand is over")
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if self.phase is TURN and action.type == DISCARD and seat == self.current:
            t = action.tile
            if 0 <= t < NUM_KINDS and self.seats[seat].counts[t] and not action.tiles and len(action) == 3:
                self._discard(seat, t)  # the common case, without a list search
                return
        opts = self.legal(seat)
        if action not in opts:
            if action.type == WIN and self._may_declare(seat):
                self._false_win(seat, action)
                return
            raise IllegalAction(self._why_illegal(seat, action))
        if self.phase is TURN:
            self._turn_action(seat, action)
        else:
            self.responses[seat] = action
            if len(self.responses) == len(self.options):
                self._resolve()

    def _may_declare(self, seat: int) -> bool:
        if self.phase is TURN:
            return seat == self.current and self.turn_drawn
        return (
            self.phase in (CLAIM, ROB)
            and self.pending is not None
            and seat != self.pending[0]
            and seat not in self.responses
        )

    def _why_illegal(self, seat: int, action: Action) -> str:
        if seat not in (0, 1, 2, 3):
            return f"no seat {seat!r}"
        if seat not in self.prompted():
            return f"seat {seat} is not to act now (waiting for {self.prompted()})"
        if action.type == DISCARD and 0 <= action.tile < NUM_KINDS and not self.seats[seat].counts[action.tile]:
            return f"seat {seat} holds no {tile_str(action.tile)} to discard"
        return f"{action.type} {_tile_text(action.tile)} is not a legal choice now; legal: " + ", ".join(
            f"{a.type} {_tile_text(a.tile)}".strip() for a in self.legal(seat)
        )

    def _discard(self, seat: int, tile: Tile) -> None:
        st = self.seats[seat]
        st.counts[tile] -= 1
        st.discards.append(tile)
        st.claimed.append(False)
        thrown_drawn = moqie(self.events, seat, tile)
        st.moqie.append(thrown_drawn)
        st.drawn = None
        self.after_kong = False
        self.visible[tile] += 1
        self.events.append({"type": "discard", "seat": seat, "tile": tile, "moqie": thrown_drawn})
        self._open_claims(seat, tile)

    def _turn_action(self, seat: int, a: Action) -> None:
        st = self.seats[seat]
        if a.type == DISCARD:
            self._discard(seat, a.tile)
        elif a.type == WIN:
            win = self._try_win(seat, a.tile, None)
            assert win is not None
            self._finish(win)
        elif a.type == CONCEALED_KONG:
            st.counts[a.tile] -= 4
            st.melds.append(Meld(KONG_SET, (a.tile,) * 4, concealed=True))
            self._kong_done(seat, a.tile, "concealed")
        elif a.type == ADDED_KONG:
            self.pending = (seat, a.tile)
            robbers: dict[int, list[Action]] = {}
            for k in (1, 2, 3):
                s = (seat + k) % 4
                if self._try_win(s, a.tile, seat, robbing=True) is not None:
                    robbers[s] = [Action(WIN, a.tile), Action(PASS)]
            self.emit({"type": "add_kong_declared", "seat": seat, "tile": a.tile})
            if robbers or self.hold_claims:
                self.phase = ROB
                self.options = robbers
                self.responses = {}
            else:
                self._complete_added_kong(seat, a.tile)

    def _complete_added_kong(self, seat: int, tile: Tile) -> None:
        st = self.seats[seat]
        st.counts[tile] -= 1
        i = next(i for i, m in enumerate(st.melds) if m.kind == PUNG_SET and m.tile == tile)
        st.melds[i] = Meld(KONG_SET, (tile,) * 4, source=st.melds[i].source, added=True)
        self.visible[tile] += 1
        self.pending = None
        self._kong_done(seat, tile, "added")

    def _kong_done(self, seat: int, tile: Tile, kind: str) -> None:
        self.first_turn = False
        self.emit({"type": "kong", "seat": seat, "tile": tile, "kind": kind})
        bonus = self.rules.kong_bonus(self, seat, tile, kind)
        if bonus:
            self._pay(bonus, "kong")
        self.after_kong = True
        self._draw(seat, tail=True)

    def _pay(self, deltas: list[int], reason: str) -> None:
        for i in range(4):
            self.deltas[i] += deltas[i]
        self.emit({"type": "payment", "reason": reason, "deltas": list(deltas)})

    # ---- claims --------------------------------------------------------------------------------
    def _open_claims(self, discarder: int, tile: Tile) -> None:
        rules = self.rules
        w = self.wall
        live = (w.live if w.shared else w.left((discarder + 1) % 4)) > 0  # the next seat can still draw
        could_win = rules.could_win
        seats = self.seats
        # a chow needs a neighbour in the suit (honour chows, where a ruleset has them, are its own check)
        r = tile % 9
        nc = seats[(discarder + 1) % 4].counts
        chow_maybe = tile >= 27 or (r and nc[tile - 1]) or (r < 8 and nc[tile + 1])
        opts: dict[int, list[Action]] = {}
        for k in (1, 2, 3):
            s = (discarder + k) % 4
            st = seats[s]
            c = st.counts
            mine: list[Action] = []
            if (
                not st.barred
                and could_win(self, s, tile, False)
                and rules.check_win(self, s, tile, self.win_context(s, tile, discarder)) is not None
            ):
                mine.append(WINS[tile])
            if live:
                n = c[tile]
                if n >= 2:
                    mine.append(PUNGS[tile])
                    if n == 3 and rules.can_kong(self):
                        mine.append(KONGS[tile])
                if k == 1 and chow_maybe:
                    for tiles in rules.chows(c, tile):
                        mine.append(Action(CHOW, tile, tiles))
            if mine:
                mine.append(PASS_ACTION)
                opts[s] = mine
        self.pending = (discarder, tile)
        if opts or self.hold_claims:
            self.phase = CLAIM
            self.options = opts
            self.responses = {}
        else:
            self.pending = None
            self._draw((discarder + 1) % 4)

    def _resolve(self) -> None:
        assert self.pending is not None
        src, tile = self.pending
        order = [(src + k) % 4 for k in (1, 2, 3)]
        resp = self.responses
        for s in order:  # the seats that let a win go by: 过手胡 for rulesets that use it
            if s in resp and resp[s].type != WIN and any(a.type == WIN for a in self.options[s]):
                self.seats[s].passed_win = True
        robbing = self.phase is ROB
        for s in order:
            if s in resp and resp[s].type == WIN:
                win = self._try_win(s, tile, src, robbing=robbing)
                assert win is not None
                if robbing:
                    self.seats[src].counts[tile] -= 1  # the robbed tile goes to the winner
                    self.emit({"type": "robbed", "seat": s, "from": src, "tile": tile})
                else:
                    self.seats[src].claimed[-1] = True
                self._finish(win)
                return
        if robbing:
            self._complete_added_kong(src, tile)
            return
        for s in order:
            a = resp.get(s)
            if a is not None and a.type in (PUNG, KONG):
                self._claim_set(s, src, tile, a)
                return
        for s in order:
            a = resp.get(s)
            if a is not None and a.type == CHOW:
                self._claim_set(s, src, tile, a)
                return
        self.pending = None
        self._draw((src + 1) % 4)

    def _claim_set(self, seat: int, src: int, tile: Tile, a: Action) -> None:
        st = self.seats[seat]
        self.seats[src].claimed[-1] = True
        self.pending = None
        self.first_turn = False
        source = {3: 1, 2: 2, 1: 3}[(src - seat) % 4]  # where the tile came from: 1 上家, 2 对家, 3 下家
        if a.type == CHOW:
            for t in a.tiles:
                self.visible[t] += 1
            self.visible[tile] -= 1  # the claimed discard was already visible in the pond
            for t in a.tiles:
                if t != tile:
                    st.counts[t] -= 1
            st.melds.append(Meld(CHOW_SET, a.tiles, claimed=a.tiles.index(tile)))
            self.emit({"type": "chow", "seat": seat, "from": src, "tile": tile, "tiles": list(a.tiles)})
        elif a.type == PUNG:
            st.counts[tile] -= 2
            self.visible[tile] += 2
            st.melds.append(Meld(PUNG_SET, (tile,) * 3, source=source))
            self.emit({"type": "pung", "seat": seat, "from": src, "tile": tile})
        else:
            st.counts[tile] -= 3
            self.visible[tile] += 3
            st.melds.append(Meld(KONG_SET, (tile,) * 4, source=source))
            self.current = seat
            self._kong_done(seat, tile, "exposed")
            return
        self.current = seat
        self.turn_drawn = False
        st.drawn = None
        self._enter_turn()

    # ---- false wins and the end ----------------------------------------------------------------
    def _false_win(self, seat: int, a: Action) -> None:
        if self.phase is TURN:
            st = self.seats[seat]
            tile = st.drawn if st.drawn is not None else a.tile
            if not (isinstance(tile, int) and 0 <= tile < NUM_KINDS and st.counts[tile]):
                raise IllegalAction(f"seat {seat} cannot win on a tile it does not hold ({tile!r})")
            ctx = self.win_context(seat, tile, None)
        else:
            assert self.pending is not None
            tile = self.pending[1]
            ctx = self.win_context(seat, tile, self.pending[0], robbing=self.phase is ROB)
        ruling = self.rules.false_win(self, seat, tile, ctx)
        if ruling is None:
            raise IllegalAction(f"seat {seat} cannot win with {tile_str(tile)} now")
        self.emit({"type": "false_win", "seat": seat, "tile": tile, "kind": ruling.kind, "ends_hand": ruling.ends_hand})
        self._pay(ruling.deltas, "false_win")
        if ruling.barred:
            self.seats[seat].barred = True
        if ruling.ends_hand:
            self._end({"type": "hand_end", "result": "false_win", "seat": seat})
            return
        if seat not in self.options:
            return  # a seat that was not asked: the penalty is all there is
        self.options[seat] = [o for o in self.options[seat] if o.type != WIN]
        if self.phase in (CLAIM, ROB) and self.options[seat] == [PASS_ACTION]:
            # nothing left to claim: the seat's answer counts as a pass
            self.responses[seat] = PASS_ACTION
            if len(self.responses) == len(self.options):
                self._resolve()

    def fault(self, seat: int, kind: str) -> None:
        """``seat`` failed to answer with a legal decision (``kind``: ``WA``, ``TLE`` …): the ruleset's
        penalty (:meth:`Ruleset.fault`).  Raises :class:`IllegalAction` when the ruleset has none."""
        if self.phase is OVER:
            raise IllegalAction("the hand is over")
        if seat not in (0, 1, 2, 3):
            raise IllegalAction(f"no seat {seat!r}")
        ruling = self.rules.fault(self, seat, kind)
        if ruling is None:
            raise IllegalAction(f"the ruleset has no penalty for {kind!r}")
        self.emit({"type": "fault", "seat": seat, "kind": kind, "ends_hand": ruling.ends_hand})
        self._pay(ruling.deltas, "fault")
        if ruling.ends_hand:
            self._end({"type": "hand_end", "result": "fault", "seat": seat})

    def _finish(self, win: Win | None) -> None:
        self.win = win
        if win is not None:
            self.emit(
                {
                    "type": "win",
                    "seat": win.seat,
                    "tile": win.tile,
                    "from": win.discarder,
                    "points": win.points,
                    "fans": win.names,
                    **win.summary,
                }
            )
        else:
            self.emit({"type": "exhausted"})
        settlement = self.rules.settle(self, win)
        self.settlement = settlement
        self._pay(settlement.deltas, "settlement")
        self._end(
            {"type": "hand_end", "result": "win" if win else "draw", "parts": settlement.parts, **settlement.detail}
        )

    def _end(self, event: dict[str, Any]) -> None:
        self.phase = OVER
        self.options = {}
        self.responses = {}
        event["deltas"] = list(self.deltas)
        event["seed"] = self.seed.hex()
        self.emit(event)

    # ---- the hook for items -------------------------------------------------------------------------
    def intervene(self, seat: int, event: dict[str, Any], exchange: tuple[Tile, int] | None = None) -> None:
        """The one hook through which items (:mod:`majiang.engine.items`) act, between two decisions
        on ``seat``'s turn: optionally exchange the concealed tile ``exchange[0]`` with the wall tile
        at position ``exchange[1]`` (the wall tile goes into the hand, the given tile takes its place
        in the wall: the tile multiset never changes), append ``event`` (the log records the use, and
        the replay re-applies it) and offer the turn again (the legal actions follow the new hand).
        Raises :class:`IllegalAction` (nothing changed) when it is not ``seat``'s turn."""
        if self.phase is not TURN or seat != self.current:
            raise IllegalAction(f"seat {seat} is not on its turn")
        if exchange is not None:
            give, index = exchange
            st, w = self.seats[seat], self.wall
            if not (0 <= give < NUM_KINDS and st.counts[give]):
                raise IllegalAction(f"seat {seat} holds no {_tile_text(give)} to exchange")
            if not 0 <= index < len(w.tiles) or w.taken[index] or index in w.reserved:
                raise IllegalAction(f"wall position {index} cannot be exchanged")
            take = w.tiles[index]
            if self.rules.is_bonus(take):
                raise IllegalAction("a bonus tile cannot be exchanged into a hand")
            w.tiles[index] = give
            st.counts[give] -= 1
            st.counts[take] += 1
            if st.drawn == give and not st.counts[give]:
                st.drawn = take  # the drawn tile itself was given back: its replacement counts as drawn
        self.emit(event)
        if exchange is not None:
            self._enter_turn()

    # ---- helpers for rulesets and bots -----------------------------------------------------------
    def default_action(self, seat: int) -> Action:
        """托管: discard the drawn tile (else the last concealed tile), pass every claim, never
        declare anything."""
        opts = self.legal(seat)
        if not opts:
            raise IllegalAction(f"seat {seat} has nothing to decide")
        if self.phase is TURN:
            st = self.seats[seat]
            if st.drawn is not None and st.counts[st.drawn]:
                return Action(DISCARD, st.drawn)
            return [o for o in opts if o.type == DISCARD][-1]
        return PASS_ACTION


def _tile_text(t: Tile) -> str:
    return tile_str(t) if 0 <= t < NUM_KINDS else ""
