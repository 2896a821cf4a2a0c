"""The bot interface and the registry of bot kinds."""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from majiang.engine.protocol import WIN, Action
from majiang.engine.view import SeatView
from majiang.rulesets import info


class Bot(Protocol):
    """A player behind :meth:`choose`.  Optional, looked up with ``getattr`` by the runners
    (:func:`majiang.sim.play_hand`, ``simulate``, ``majiang play``):

    - ``hand_over(view: SeatView) -> None``: the seat's view of the finished hand (result, seed);
    - ``close() -> None``: at the end of a run (an external bot ends its program);
    - ``faults: int``: bad choices the bot already replaced by a legal one itself; ``simulate``
      counts them as illegal actions.
    """

    name: str

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """One decision from ``legal`` (the engine refuses anything else)."""
        ...


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


BOT_KINDS = ("rand", "eff", "fan", "ev", "best", "net")
#: what ``best`` stands for: the strongest bot majiang ships (docs/bots.md has the measurements)
BEST = "ev"


def make_bot(spec: str, seed: int | None = None, rules: str = "gb") -> Bot:
    """``rand``, ``eff``, ``fan``, ``ev``, ``best`` (the strongest: :data:`BEST`), ``net`` (the learned
    policy; ``net:WEIGHTS.npz`` for other weights) or ``ext:COMMAND``
    (an external program).  ``eff``, ``fan`` and ``ev`` are the ruleset's own bots
    (:attr:`majiang.rulesets.RulesetInfo.bots`: for Nanchang all three are the jing-aware Nanchang bot)."""
    if spec == "best":
        spec = BEST
    if spec == "rand":
        return RandomBot(seed)
    if spec in ("eff", "fan", "ev"):
        module = importlib.import_module(info(rules).bots[spec])
        bot: Bot = module.make(seed)
        return bot
    if spec == "net" or spec.startswith("net:"):  # the learned policy (numpy), or other weights
        from majiang.bots.net import make as make_net

        return make_net(seed, *([spec[4:]] if spec.startswith("net:") else []))
    if spec.startswith("ext:"):
        from majiang.bots.external import ExternalBot

        return ExternalBot(spec[4:])
    if spec.startswith(("botzone:", "botzone@", "botzone-simple:", "botzone-simple@")):  # docs/botzone.md
        import majiang.bots.botzone as botzone

        return botzone.make(spec)
    raise ValueError(
        f"unknown bot {spec!r}: use rand, eff, fan, ev, best, net, net:WEIGHTS.npz, ext:COMMAND, "
        "botzone:COMMAND or botzone-simple:COMMAND"
    )
