"""The bots the compiled hand core plays itself, and a hand played with them.

:meth:`CompiledHand.play <majiang.engine.compiled.CompiledHand.play>` decides for a seat in C when its
bot is a plain :class:`~majiang.bots.base.RandomBot` (``rand``: the same draws from the same
``random.Random`` stream), :class:`~majiang.bots.efficiency.EfficiencyBot` (``eff``: the same
shanten tables and tie-breaks), :class:`~majiang.bots.fan.FanBot` (``fan``: the same distances,
scored by the same fan calculator) or :class:`~majiang.bots.ev.EVBot` as configured by default or
searching three steps from ready (``ev``, ``ev@3``: the same values in the same floating-point order,
bounded by the same node count but not by CPU time); any other bot or policy is asked in Python at its own seat's
decisions only, through a :class:`~majiang.engine.view.SeatView`.  The choices are the same either
way, which the equality tests check hand log by hand log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from majiang.bots.base import Bot, RandomBot, seat_decides
from majiang.bots.efficiency import EfficiencyBot
from majiang.bots.ev import LOOK_ROWS, EVBot
from majiang.bots.fan import FanBot
from majiang.engine.compiled import (
    BOT_EFF,
    BOT_EV,
    BOT_EV3,
    BOT_FAN,
    BOT_PYTHON,
    BOT_RAND,
    CompiledHand,
    core_random,
)
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.rulesets import lookup


def core_kind(bot: object) -> int:
    """How the core plays ``bot``: ``BOT_RAND``, ``BOT_EFF``, ``BOT_FAN``, ``BOT_EV``, ``BOT_EV3`` or
    ``BOT_PYTHON`` (asked in Python).  Only the classes themselves, not subclasses, which may decide
    otherwise, and ``ev`` only with the settings the core has (depth 2 or 3, defence, 200,000 nodes)."""
    if type(bot) is RandomBot:
        return BOT_RAND
    if type(bot) is EfficiencyBot:
        return BOT_EFF
    if type(bot) is FanBot:
        return BOT_FAN
    if type(bot) is EVBot and (bot.defence, bot.max_nodes) == (True, 200_000) and bot.depth in (2, 3):
        return BOT_EV if bot.depth == 2 else BOT_EV3
    return BOT_PYTHON


def core_choice(bot: Any, view: SeatView, legal: list[Action]) -> Action:
    """``bot.choose(view, legal)``, decided by the core's twin of the bot where the view is of a
    :class:`CompiledHand` and the core has one (``eff``, ``fan``, ``ev``, ``ev@3``): the same choice at C speed."""
    kind = core_kind(bot)
    hand = view._hand
    if kind in (BOT_EFF, BOT_FAN, BOT_EV, BOT_EV3) and isinstance(hand, CompiledHand):
        return hand.bot_choice(view.seat, kind)
    choice: Action = bot.choose(view, legal)
    return choice


_LOOKER = EVBot(budget_s=float("inf"))  # the ev bot the core twins (its settings: core_kind's)


def has_look_rows(rules: str) -> bool:
    """Whether ``rules``' own ``ev`` bot is the MCR :class:`EVBot`, whose look-ahead rows exist."""
    entry = lookup(rules)
    return entry is not None and entry.bots.get("ev") == EVBot.__module__


def look_rows(view: SeatView, legal: list[Action]) -> tuple[np.ndarray, Action]:
    """The ``ev`` bot's look-ahead rows for this decision and its choice (:meth:`EVBot.look`), from
    the core where the view is of a :class:`CompiledHand`, else from the Python bot: the same rows."""
    hand = view._hand
    if isinstance(hand, CompiledHand):
        rows = np.zeros((LOOK_ROWS, 34), dtype=np.float32)
        return rows, hand.ev_look(view.seat, rows)
    return _LOOKER.look(view, legal)


class CoreSeats:
    """The players of a run as the core plays them: their kinds, and the ``rand`` bots' generators,
    kept in the core for as many hands as are played and handed back to the Python bots by
    :meth:`sync` (so a bot goes on with the same stream wherever it plays next)."""

    def __init__(self, bots: Sequence[Bot]) -> None:
        self.bots = list(bots)
        self.kinds = [core_kind(b) for b in self.bots]
        self.rngs: list[Any] = [
            core_random(b.rng.getstate()) if k == BOT_RAND else None  # type: ignore[attr-defined]
            for b, k in zip(self.bots, self.kinds, strict=True)
        ]

    def play(
        self,
        hand: CompiledHand,
        order: Sequence[int] = (0, 1, 2, 3),
        on_fault: Callable[[int, str], None] | None = None,
    ) -> None:
        """Play ``hand`` to its end with player ``order[seat]`` at each seat, as
        :func:`majiang.sim.play_hand` does (a fault is reported to ``on_fault(seat, kind)`` and
        scored by the ruleset's fault rule, or replaced: :func:`~majiang.bots.base.seat_decides`)."""
        bots = [self.bots[i] for i in order]

        def decide(seat: int) -> None:
            seat_decides(hand, seat, bots[seat], on_fault)

        hand.play([self.kinds[i] for i in order], [self.rngs[i] for i in order], decide)

    def sync(self) -> None:
        """Hand the ``rand`` bots' generators back to their Python ``random.Random``."""
        for bot, rng in zip(self.bots, self.rngs, strict=True):
            if rng is not None:
                bot.rng.setstate(rng.getstate())  # type: ignore[attr-defined]
