"""The bot interface and the registry of bot kinds."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol

from majiang.engine.hand import IllegalAction
from majiang.engine.protocol import WIN, Action
from majiang.engine.view import SeatView
from majiang.rulesets import info


class Bot(Protocol):
    """A player behind :meth:`choose`.  Optional, looked up with ``getattr`` by the runners
    (:func:`majiang.sim.play_hand`, ``simulate``, ``majiang play``):

    - ``hand_over(view: SeatView) -> None``: the seat's view of the finished hand (result, seed);
    - ``close() -> None``: at the end of a run (an external bot ends its program);
    - ``faults: int``: bad choices the bot already replaced by a legal one itself; ``simulate``
      counts them as illegal actions;
    - ``last_fault: str | None``: set by :meth:`choose` when the action it returns replaces a fault
      of that kind (:data:`FAULT_KINDS`), so that the runner can score it (:func:`seat_decides`).
    """

    name: str

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """One decision from ``legal`` (the engine refuses anything else)."""
        ...


#: a bot's faults by Botzone's verdicts, and what the reports call them: no answer in time (TLE), an
#: answer that is not a legal move (WA: a false 和, a wrong tile, unreadable output), a program that
#: crashed or could not run (RE)
FAULT_KINDS = {"TLE": "timeout", "WA": "illegal", "RE": "crash"}


def take_fault(bot: object) -> str | None:
    """The fault kind the bot's last choice replaced (its ``last_fault``), cleared; None if none."""
    kind: str | None = getattr(bot, "last_fault", None)
    if kind is not None:
        bot.last_fault = None  # type: ignore[attr-defined]
    return kind


def seat_decides(hand: Any, seat: int, bot: Bot, on_fault: Callable[[int, str], None] | None = None) -> None:
    """Ask ``bot`` for ``seat``'s decision and apply it.  A fault — the bot's own (``last_fault``:
    late, crashed, an unreadable or illegal answer it replaced) or an action the engine refuses
    (``WA``) — is reported to ``on_fault(seat, kind)`` and scored by the ruleset's fault rule
    (:meth:`~majiang.engine.hand.Hand.fault`; Botzone's: the hand ends, the offender −30 and each
    other seat +10); where the ruleset has none the bot's replacement (else the 托管 default) is
    played and the score is unchanged.  Both engines go through here, so they score faults alike."""
    view = SeatView(hand, seat)
    action = bot.choose(view, view.legal)
    kind = take_fault(bot)
    if kind is None:
        try:
            hand.act(seat, action)
            return
        except IllegalAction:
            kind = "WA"
            action = hand.default_action(seat)
    if on_fault is not None:
        on_fault(seat, kind)
    try:
        hand.fault(seat, kind)
    except IllegalAction:  # no fault rule: the replacement is played (the 托管 default if it is not legal)
        try:
            hand.act(seat, action)
        except IllegalAction:
            hand.act(seat, hand.default_action(seat))


class RandomBot:
    """A uniformly random legal action."""

    name = "rand"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class TurnOrClaim:
    """The template of the heuristic bots: win whenever the engine offers a win (their rulesets'
    minimum is already checked), else decide the turn (discard or kong) or the claim (chow, pung,
    kong or pass).  Subclasses write :meth:`turn` and :meth:`claim`."""

    name = ""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        for a in legal:
            if a.type == WIN:
                return a
        return self.turn(view, legal) if view.phase == "turn" else self.claim(view, legal)

    def turn(self, view: SeatView, legal: list[Action]) -> Action:
        raise NotImplementedError

    def claim(self, view: SeatView, legal: list[Action]) -> Action:
        raise NotImplementedError


BOT_KINDS = ("rand", "eff", "fan", "ev", "search", "best", "net", "net-planes")
#: what each kind is, for ``--help``
BOT_HELP = {
    "rand": "random legal",
    "eff": "tile efficiency",
    "fan": "MCR fan-aware",
    "ev": "expected value over the unseen tiles, docs/bots.md; ev@3 searches three steps from ready, not two",
    "search": "ev checked by determinised play-outs on the compiled core; search@SECONDS[/SAMPLES[/Z[/PLAYOUT]]] "
    "sets its budget a decision, default 0.5 s, 256 worlds, z 2, played out by eff (or fan)",
    "best": "the strongest",
    "net": "the learned policy over the planes and the ev bot's look-ahead rows, numpy only "
    "(net:WEIGHTS.npz for other weights), docs/rl.md",
    "net-planes": "the learned policy over the observation planes alone, docs/rl.md",
}


def kinds_help() -> str:
    """Every bot kind :func:`make_bot` knows, for ``--help`` (from the registry, so none is left out)."""
    kinds = ", ".join(f"{k} ({BOT_HELP[k]}{': ' + BEST if k == 'best' else ''})" for k in BOT_KINDS)
    return (
        f"{kinds}, ext:COMMAND (external program, docs/bot-protocol.md), botzone:COMMAND / "
        "botzone-simple:COMMAND (a Botzone bot, docs/botzone.md)"
    )


NET_BOT = "majiang.bots.net"  # the learned policy's module (imported by name: see make_bot)
SEARCH_BOT = "majiang.bots.search"

#: what ``best`` stands for: the strongest bot majiang ships (docs/bots.md has the measurements)
BEST = "ev"


def make_bot(spec: str, seed: int | None = None, rules: str = "gb") -> Bot:
    """``rand``, ``eff``, ``fan``, ``ev``, ``search`` (``search@SECONDS``: its budget a decision),
    ``best`` (the strongest: :data:`BEST`), ``net`` (the learned policy; ``net:WEIGHTS.npz`` for other
    weights), ``net-planes`` (the learned policy without look-ahead rows) or ``ext:COMMAND`` (an
    external program).  ``eff``, ``fan``, ``ev`` and ``search`` are the ruleset's own bots
    (:attr:`majiang.rulesets.RulesetInfo.bots`: for Nanchang all four are the jing-aware Nanchang bot)."""
    if spec == "best":
        spec = BEST
    if spec == "rand":
        return RandomBot(seed)
    if spec in ("eff", "fan", "ev", "search"):
        module = importlib.import_module(info(rules).bots[spec])
        bot: Bot = module.make(seed)
        return bot
    if spec == "net" or spec.startswith("net:"):  # the learned policy (numpy), or other weights
        # named as data: the net reads the RL package's planes, and the RL package plays the bots
        make_net = importlib.import_module(NET_BOT).make
        net: Bot = make_net(seed, *([spec[4:]] if spec.startswith("net:") else []))
        return net
    if spec == "net-planes":
        planes: Bot = importlib.import_module(NET_BOT).make_planes(seed)
        return planes
    if spec.startswith("ev@"):  # the ev bot searching 1, 2 (= ev) or 3 steps from ready
        if spec[3:] not in ("1", "2", "3"):
            raise ValueError(f"{spec!r}: ev@DEPTH searches 1, 2 or 3 steps from ready, e.g. ev@3")
        deep: Bot = importlib.import_module(info(rules).bots["ev"]).make(seed, depth=int(spec[3:]))
        return deep
    if spec.startswith("search@"):
        search = importlib.import_module(SEARCH_BOT)  # by name: the search bot builds on the ev bot
        seconds, _, rest = spec[7:].partition("/")
        samples, _, rest = rest.partition("/")
        z, _, playout = rest.partition("/")
        try:
            searcher: Bot = search.SearchBot(
                seed,
                budget_s=float(seconds),
                samples=int(samples) if samples else search.SAMPLES,
                z=float(z) if z else search.Z,
                playout=playout or search.PLAYOUT,
            )
            return searcher
        except ValueError:
            raise ValueError(
                f"{spec!r}: search@SECONDS[/SAMPLES[/Z[/PLAYOUT]]] takes the wall-time budget of a decision, the "
                "most sampled worlds, the standard errors a change must clear and the bot that plays the worlds "
                "out (eff or fan), e.g. search@0.2, search@1/64/1.5 or search@1/64/2/fan"
            ) from None
    if spec.startswith("ext:"):
        from majiang.bots.external import ExternalBot

        return ExternalBot(spec[4:])
    if spec.startswith(("botzone:", "botzone@", "botzone-simple:", "botzone-simple@")):  # docs/botzone.md
        import majiang.bots.botzone as botzone

        return botzone.make(spec)
    raise ValueError(
        f"unknown bot {spec!r}: use {', '.join(BOT_KINDS)}, ev@DEPTH, net:WEIGHTS.npz, search@SECONDS, ext:COMMAND, "
        "botzone:COMMAND or botzone-simple:COMMAND"
    )
