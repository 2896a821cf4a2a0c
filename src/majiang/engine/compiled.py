"""The compiled hand core as the engine's hand: :class:`CompiledHand`, and :func:`new_hand`, which
picks the engine for a ruleset.

``majiang._speedups.core`` (C: ``hand_core.h``, glue ``core.c``) is the twin of
:class:`~majiang.engine.hand.Hand` for the rulesets that opt in through :meth:`Ruleset.core
<majiang.engine.protocol.Ruleset.core>` — MCR with any fan profile, and Botzone's game.  It keeps the
hand in arrays, scores wins with the configured fan calculator and plays the ``rand`` and ``eff`` bots
without a Python call per decision (:meth:`CompiledHand.play`); everything else about a hand —
:meth:`~CompiledHand.prompted`, :meth:`~CompiledHand.legal`, :meth:`~CompiledHand.act`,
:attr:`~CompiledHand.events`, the seats a :class:`~majiang.engine.view.SeatView` reads — answers as
:class:`Hand` does, built from the arrays when asked.  The Python engine stays the reference:
``tests/engine/test_core_equal.py`` holds the two equal, hand log by hand log, byte for byte.

Which engine plays (:func:`new_hand`): the core where the ruleset opts in and the module is built;
``MAJIANG_ENGINE=python`` selects the reference (the other compiled paths stay on), ``MAJIANG_PURE=1``
turns every compiled path off, ``MAJIANG_ENGINE=core`` insists on the core (an error where it cannot
play).  Items (道具) act through :meth:`Hand.intervene`, which only the Python engine has: the hall,
which sells them, plays on the reference.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import majiang.mcr.scorer  # noqa: F401  (configures the fan calculator before the core imports its C API)
from majiang._speedups import load
from majiang.engine.events import check as check_event
from majiang.engine.hand import CLAIM, OVER, ROB, TURN, Hand, IllegalAction, Phase, hand_start
from majiang.engine.protocol import (
    ACTION_TYPES,
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    DISCARDS,
    KONGS,
    PASS_ACTION,
    PUNGS,
    WIN,
    WINS,
    Action,
    Ruleset,
    Settlement,
    Win,
    WinContext,
)
from majiang.melds import Meld, MeldKind
from majiang.tiles import NUM_KINDS, Tile, tile_str

_core: Any = load("core")

#: ``MAJIANG_ENGINE``: unset or ``auto`` (the core where it plays), ``python`` (the reference), ``core``
ENGINES = ("auto", "python", "core")

_PHASES = (TURN, CLAIM, ROB, OVER)
_TYPE_INDEX = {t: i for i, t in enumerate(ACTION_TYPES)}
_MELD_KINDS = {1: MeldKind.CHOW, 2: MeldKind.PUNG, 3: MeldKind.KONG}  # hand_core.h MELD_*
#: the core's event types by number (``hand_core.h``: E_DICE …)
_EVENT_TYPES = (
    "dice",
    "deal",
    "flower",
    "draw",
    "discard",
    "chow",
    "pung",
    "add_kong_declared",
    "kong",
    "robbed",
    "payment",
    "false_win",
    "fault",
    "win",
    "exhausted",
    "hand_end",
)
#: canonical action → the core's code (``hand_core.h``: type | (tile + 1) << 3 | chow position << 9)
_CODES: dict[Action, int] = {}


def _configure() -> None:
    actions: list[Action | None] = [None] * _core.CODES
    for t in range(NUM_KINDS):
        for a in (DISCARDS[t], PUNGS[t], KONGS[t], WINS[t], Action(ADDED_KONG, t), Action(CONCEALED_KONG, t)):
            actions[_core.code(_TYPE_INDEX[a.type], t, 0)] = a
        if t < 27:
            for pos in range(3):
                low = t - pos
                if low >= t - t % 9 and low % 9 <= 6:
                    actions[_core.code(_TYPE_INDEX[CHOW], t, pos)] = Action(CHOW, t, (low, low + 1, low + 2))
    actions[_core.code(_TYPE_INDEX[PASS_ACTION.type], -1, 0)] = PASS_ACTION
    _core.configure(tuple(actions))
    _CODES.update((a, code) for code, a in enumerate(actions) if a is not None)


if _core is not None:
    _configure()


def engine_choice() -> str:
    """``MAJIANG_ENGINE`` (see the module)."""
    choice = os.environ.get("MAJIANG_ENGINE", "auto") or "auto"
    if choice not in ENGINES:
        raise ValueError(f"MAJIANG_ENGINE={choice!r}: use one of {', '.join(ENGINES)}")
    return choice


_RULES: dict[int, tuple[Ruleset, Any]] = {}  # id(ruleset) → (ruleset, its core.Rules)


def core_rules(rules: Ruleset) -> Any:
    """The core's form of ``rules`` (a ``majiang._speedups.core.Rules``), or None where the core does not
    play it: not built, ``MAJIANG_PURE=1``, or the ruleset does not opt in."""
    if _core is None:
        return None
    hit = _RULES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    spec = rules.core()
    made = None
    if spec is not None:
        offender, other = spec.fault if spec.fault is not None else (0, 0)
        try:
            made = _core.Rules(
                spec.quarters,
                spec.flowers,
                spec.stacks,
                spec.false_win_ends,
                spec.fault is not None,
                offender,
                other,
                spec.fan_rules,
            )
        except ValueError:
            made = None  # the fan calculator runs on the reference: so does the hand
    if len(_RULES) > 64:
        _RULES.clear()
    _RULES[id(rules)] = (rules, made)
    return made


def new_hand(
    rules: Ruleset,
    seed: bytes,
    dealer: int = 0,
    prevalent: int = 0,
    scores: list[int] | None = None,
    hand_no: int = 0,
    extra: dict[str, Any] | None = None,
    arrange: list[tuple[int, int]] | None = None,
) -> Hand | CompiledHand:
    """A hand of ``rules`` on the engine that plays it: the compiled core where the ruleset opts in and
    ``MAJIANG_ENGINE`` allows, else the Python reference.  The arguments are :class:`Hand`'s."""
    choice = engine_choice()
    if choice != "python" and core_rules(rules) is not None:
        return CompiledHand(rules, seed, dealer, prevalent, scores, hand_no, extra, arrange)
    if choice == "core":
        why = "it is not built (or MAJIANG_PURE=1)" if _core is None else f"{rules.name} does not opt in"
        raise ValueError(f"MAJIANG_ENGINE=core, but the compiled core cannot play this hand: {why}")
    return Hand(rules, seed, dealer, prevalent, scores, hand_no, extra, arrange)


class CoreSeat:
    """One seat of a compiled hand, read from the arrays (what :class:`~majiang.engine.hand.Seat` holds)."""

    __slots__ = ("barred", "claimed", "counts", "discards", "drawn", "flowers", "melds", "moqie", "passed_win")

    def __init__(self, state: tuple[Any, ...]) -> None:
        counts, melds, flowers, discards, claimed, drawn, barred, passed_win, moqie = state
        self.counts: list[int] = counts
        self.melds: list[Meld] = [_meld(m) for m in melds]
        self.flowers: list[Tile] = flowers
        self.discards: list[Tile] = discards
        self.claimed: list[bool] = claimed
        self.moqie: list[bool] = moqie
        self.drawn: Tile | None = drawn
        self.barred: bool = barred
        self.passed_win: bool = passed_win

    def concealed(self) -> list[Tile]:
        c = self.counts
        return [t for t in range(NUM_KINDS) for _ in range(c[t])]

    @property
    def n_concealed(self) -> int:
        return sum(self.counts)


_MELDS: dict[tuple[Any, ...], Meld] = {}


def _meld(m: tuple[Any, ...]) -> Meld:
    """(kind, lowest tile, concealed, claimed, source, added) → the engine's Meld (shared: frozen)."""
    made = _MELDS.get(m)
    if made is None:
        kind, tile, concealed, claimed, source, added = m
        made = _MELDS[m] = Meld.of(_MELD_KINDS[kind], tile, concealed, claimed, source, added)
    return made


class CoreWall:
    """The wall of a compiled hand as a ruleset sees it (:class:`~majiang.engine.protocol.WallState`)."""

    def __init__(self, hand: CompiledHand) -> None:
        self._c = hand._c
        self.shared = not hand._spec.quarters
        self.reserved: set[int] = set()

    @property
    def live(self) -> int:
        return int(self._c.state()[6])

    @property
    def remaining(self) -> int:
        return int(self._c.state()[7])

    def left(self, seat: int) -> int:
        return int(self._c.left(seat))

    @property
    def tiles(self) -> list[Tile]:
        tiles: list[Tile] = self._c.wall()[0]
        return tiles

    @property
    def taken(self) -> list[bool]:
        taken: list[bool] = self._c.wall()[1]
        return taken


class CompiledHand:
    """One hand on the compiled core, with :class:`~majiang.engine.hand.Hand`'s interface (see the
    module); the arguments are Hand's.  Items (:meth:`intervene`) need the Python engine."""

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
        made = core_rules(rules)
        if made is None:
            raise ValueError(f"the compiled core does not play {rules.name}: use Hand (or new_hand)")
        spec = rules.core()
        assert spec is not None
        self._spec = spec
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.prevalent = prevalent
        self.hand_no = hand_no
        self.scores_before = list(scores) if scores is not None else [0, 0, 0, 0]
        self.ruleset_state: dict[str, Any] = {}
        self._c = _core.Hand(made, seed, dealer, prevalent, arrange, hand_no, tuple(self.scores_before))
        head = hand_start(rules, seed, dealer, prevalent, hand_no, self.scores_before, extra, arrange)
        check_event(head)
        self._events: list[dict[str, Any]] = [head]
        self._fault_kinds: list[str] = []
        self._win: Win | None = None
        self._seats: list[CoreSeat] | None = None
        self.wall = CoreWall(self)

    # ---- the log ----------------------------------------------------------------------------------
    @property
    def events(self) -> list[dict[str, Any]]:
        """The hand's events, as :class:`Hand` logs them (converted from the core's when asked)."""
        ev = self._events
        c = self._c
        if len(ev) <= c.nevents:
            win = self.win
            ev.extend(c.events(len(ev) - 1, win.names if win is not None else None, self._fault_kinds, self.seed.hex()))
        return ev

    def emit(self, event: dict[str, Any]) -> None:
        raise NotImplementedError("a compiled hand logs its own events (the core's rulesets add none)")

    # ---- state ------------------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return _PHASES[self._c.phase]

    @property
    def over(self) -> bool:
        return bool(self._c.phase == 3)

    @property
    def current(self) -> int:
        return int(self._c.state()[1])

    @property
    def pending(self) -> tuple[int, Tile] | None:
        pending: tuple[int, Tile] | None = self._c.state()[2]
        return pending

    @property
    def turn_drawn(self) -> bool:
        return bool(self._c.state()[3])

    @property
    def after_kong(self) -> bool:
        return bool(self._c.state()[4])

    @property
    def first_turn(self) -> bool:
        return bool(self._c.state()[5])

    @property
    def deltas(self) -> list[int]:
        deltas: list[int] = self._c.deltas
        return deltas

    @property
    def visible(self) -> list[int]:
        visible: list[int] = self._c.visible
        return visible

    @property
    def seats(self) -> list[CoreSeat]:
        if self._seats is None:
            self._seats = [CoreSeat(self._c.seat(s)) for s in range(4)]
        return self._seats

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def visible_count(self, tile: Tile) -> int:
        return self.visible[tile]

    @property
    def win(self) -> Win | None:
        """The win as the ruleset scores it (:meth:`Ruleset.check_win` on the winner's tiles, which no
        longer change once the hand is won); its points are the core's."""
        if self._win is None:
            w = self._c.win()
            if w is None:
                return None
            seat, tile, discarder, points, kong, last, fourth = w
            ctx = WinContext(discarder=discarder, kong=kong, last=last, first_turn=False, fourth_tile=fourth)
            win = self.rules.check_win(self, seat, tile, ctx)  # type: ignore[arg-type]
            if win is None or win.points != points:
                raise RuntimeError(f"the core's win ({points} points) is not the ruleset's ({win and win.points})")
            self._win = win
        return self._win

    def win_facts(self) -> tuple[int, int | None, int] | None:
        """(winner, discarder or None, points) without building the :class:`Win` (the simulator's tally)."""
        w = self._c.win()
        return None if w is None else (w[0], w[2], w[3])

    def count(self, event_type: str) -> int:
        """How many events of ``event_type`` the hand has logged, without building them."""
        return int(self._c.count(_EVENT_TYPES.index(event_type)))

    @property
    def settlement(self) -> Settlement | None:
        """As :class:`Hand`: the ruleset's settlement once the hand was won or drawn (not after a
        penalty ended it)."""
        if not self.over or self.events[-1].get("result") not in ("win", "draw"):
            return None
        return self.rules.settle(self, self.win)  # type: ignore[arg-type]

    # ---- decisions --------------------------------------------------------------------------------
    def prompted(self) -> list[int]:
        prompted: list[int] = self._c.prompted()
        return prompted

    def legal(self, seat: int) -> list[Action]:
        legal: list[Action] = self._c.legal(seat)
        return legal

    def act(self, seat: int, action: Action) -> None:
        """Apply one decision of ``seat``.  Raises :class:`IllegalAction` (state unchanged)."""
        if self.over:
            raise IllegalAction("the hand is over")
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        code = _CODES.get(action, -1)
        tile = action.tile if isinstance(action.tile, int) else -1000
        self._seats = None
        if not self._c.act(seat, code, _TYPE_INDEX.get(action.type, -1), tile):
            raise IllegalAction(self._why_illegal(seat, action))

    def _why_illegal(self, seat: int, action: Action) -> str:
        if seat not in (0, 1, 2, 3):
            return f"no seat {seat!r}"
        if action.type == WIN and self.phase is TURN and seat == self.current and self.turn_drawn:
            return f"seat {seat} cannot win on a tile it does not hold ({action.tile!r})"
        if seat not in self.prompted():
            return f"seat {seat} is not to act now (waiting for {self.prompted()})"
        t = action.tile
        if action.type == DISCARD and isinstance(t, int) and 0 <= t < NUM_KINDS and not self.seats[seat].counts[t]:
            return f"seat {seat} holds no {tile_str(t)} to discard"
        return f"{action.type} {_tile_text(t)} is not a legal choice now; legal: " + ", ".join(
            f"{a.type} {_tile_text(a.tile)}".strip() for a in self.legal(seat)
        )

    def fault(self, seat: int, kind: str) -> None:
        """As :meth:`Hand.fault`."""
        if self.over:
            raise IllegalAction("the hand is over")
        if seat not in (0, 1, 2, 3):
            raise IllegalAction(f"no seat {seat!r}")
        if self._spec.fault is None:
            raise IllegalAction(f"the ruleset has no penalty for {kind!r}")
        if kind not in self._fault_kinds:
            self._fault_kinds.append(kind)
        self._seats = None
        self._c.fault(seat, self._fault_kinds.index(kind))

    def default_action(self, seat: int) -> Action:
        """托管, as :meth:`Hand.default_action`."""
        action: Action | None = self._c.default_action(seat)
        if action is None:
            raise IllegalAction(f"seat {seat} has nothing to decide")
        return action

    def bot_choice(self, seat: int, kind: int) -> Action:
        """What the core's bot ``kind`` (``BOT_EFF``, ``BOT_FAN``, ``BOT_EV``, ``BOT_EV3``) chooses for
        ``seat`` now: the choice of the Python bot it twins, at C speed.  The hand is not changed."""
        action: Action | None = self._c.bot_choice(seat, kind)
        if action is None:
            raise IllegalAction(f"seat {seat} has nothing to decide")
        return action

    def ev_look(self, seat: int, rows: Any) -> Action:
        """The core's ``ev`` bot's choice for ``seat`` now, its look-ahead rows written into ``rows`` (a
        C-contiguous float32 buffer of 3 × 34): ``majiang.bots.ev.EVBot.look``'s twin."""
        action: Action | None = self._c.ev_look(seat, rows)
        if action is None:
            raise IllegalAction(f"seat {seat} has nothing to decide")
        return action

    # ---- RL: the observation planes and the 109 action codes, in C ---------------------------------
    def observe(self, seat: int, obs: Any, mask: Any) -> None:
        """``majiang.rl.features.encode(SeatView(self, seat))`` into ``obs`` (a C-contiguous float32
        buffer of 204 × 34) and the action mask into ``mask`` (int8, 109): the same planes."""
        self._c.observe(seat, obs, mask)

    def rl_action(self, seat: int, code: int) -> Action | None:
        """The legal action of ``seat`` with RL action code ``code`` (:mod:`majiang.rl.actions`), or None."""
        action: Action | None = self._c.rl_action(seat, code)
        return action

    # ---- look-ahead (search_core.h) -------------------------------------------------------------------
    def rollouts(
        self, seat: int, actions: Sequence[Action], samples: int, seed: int, seconds: float, policy: str = "eff"
    ) -> tuple[int, list[list[int]]]:
        """Determinised play-outs for ``seat``'s decision: in each of up to ``samples`` worlds (what the
        seat cannot see dealt again from the hidden tiles alone, the same worlds for every action), each
        of ``actions`` applied and the hand played out by the core's ``policy`` bot (``"eff"`` or
        ``"fan"``) at every seat.  Returns (worlds played, per action the seat's score change world by
        world); stops after ``seconds`` of wall time (one world at least).  This hand is not changed.
        Raises ValueError for an action that is not a legal choice of the seat, or another policy."""
        if policy not in PLAYOUT_POLICIES:
            raise ValueError(f"play-out policy: one of {', '.join(PLAYOUT_POLICIES)}, not {policy!r}")
        codes = [_CODES.get(a, -1) for a in actions]
        done, values = self._c.rollouts(seat, codes, samples, seed, seconds, PLAYOUT_POLICIES[policy])
        return int(done), values

    def intervene(self, seat: int, event: dict[str, Any], exchange: tuple[Tile, int] | None = None) -> None:
        raise IllegalAction("items act on the Python engine (majiang.engine.hand.Hand)")

    def play(self, kinds: Sequence[int], rngs: Sequence[Any], decide: Callable[[int], None]) -> None:
        """Play the hand to its end as :func:`majiang.sim.play_hand` does: the seats asked in turn,
        ``kinds[s]`` saying who decides — the core's ``rand`` bot (``BOT_RAND``, on the generator
        ``rngs[s]``, a ``Random``), its ``eff``, ``fan``, ``ev`` or ``ev@3`` bot (``BOT_EFF``, ``BOT_FAN``,
        ``BOT_EV``, ``BOT_EV3``) or Python (``BOT_PYTHON``: ``decide(seat)`` decides and acts for the seat through
        :meth:`act`)."""
        self._seats = None
        try:
            self._c.play(tuple(kinds), tuple(rngs), self._python_decides(decide))
        finally:
            self._seats = None

    def _python_decides(self, decide: Callable[[int], None]) -> Callable[[int], None]:
        def turn(seat: int) -> None:
            self._seats = None
            decide(seat)
            self._seats = None

        return turn


def _tile_text(t: Any) -> str:
    return tile_str(t) if isinstance(t, int) and 0 <= t < NUM_KINDS else ""


#: the core's bot kinds (``majiang._speedups.core``): Python, ``rand``, ``eff``, ``fan``, ``ev``, ``ev@3``
BOT_PYTHON, BOT_RAND, BOT_EFF, BOT_FAN, BOT_EV, BOT_EV3 = 0, 1, 2, 3, 4, 5
#: the bots :meth:`CompiledHand.rollouts` plays out with
PLAYOUT_POLICIES = {"eff": BOT_EFF, "fan": BOT_FAN}  # not ev: ≈ 24 play-outs a CPU second, too slow to sample


def core_batch(rules: Ruleset, n: int, kinds: tuple[int, int, int, int] = (BOT_PYTHON,) * 4) -> Any:
    """``n`` hands of ``rules`` stepped together in C (``majiang._speedups.core.Batch``: the vector
    environment's core), the seats of kind ``BOT_RAND`` / ``BOT_EFF`` / ``BOT_FAN`` / ``BOT_EV`` / ``BOT_EV3`` played by
    the core's bots, or None where the core does not play ``rules``."""
    made = core_rules(rules)
    return None if made is None else _core.Batch(made, n, kinds)


def core_random(state: Any) -> Any:
    """A core generator continuing ``random.Random.getstate()``'s stream (the ``rand`` bots')."""
    return _core.Random(state)
