"""The look-ahead bot (``search``): the ``ev`` bot's choice, checked by determinised play-outs on the
compiled hand core and overruled where they show a better one with confidence (docs/bots.md).

At each own turn with a choice to make (a discard or a kong; a win is always taken), and at each
claim offered on a discard (chow, pung, kong or pass):

1. the ``ev`` bot (:class:`~majiang.bots.ev.EVBot`) decides as it would — its expected value over the
   unseen tiles, discounted by the opponents' danger read from the public information (their ponds,
   筋, melds, the wall left);
2. the candidates are its choice, every kong, and the discards that keep the hand as close to ready as
   the best one does (at most :data:`MAX_CANDIDATES`); on a claim, its choice and every other answer;
3. :meth:`~majiang.engine.compiled.CompiledHand.rollouts` (C: ``search_core.h``) deals everything
   the seat cannot see again — the other seats' concealed tiles and the wall, each in the same numbers and
   places — consistently with everything public (on a claim the other seats' options are those of
   their sampled tiles, their answers not yet given), applies each candidate in the same sampled worlds
   and plays the hand out with one of the core's bots at every seat (``playout``: the efficiency bot,
   or the fan bot, which aims at 8 fan), until the budget is spent;
4. a candidate replaces the ``ev`` choice only when its mean gain over it in the same worlds is above
   :data:`MARGIN` points by ``Z`` standard errors: the play-outs see the deal-ins and the races the
   one-step estimate does not, but they are played by a weaker policy, so the ``ev`` choice is the
   default and the look-ahead the exception.

A kong robbed is the ``ev`` bot's.  The look-ahead needs the compiled core:
on the Python engine (``MAJIANG_ENGINE=python``, Nanchang, the hall) the bot plays as ``ev``.

The budget is wall time per decision, ``budget_s`` (default :data:`BUDGET_S`), the ``ev`` step
included; the play-outs stop at whichever comes first of the budget and ``samples`` worlds.  The
worlds are drawn from the bot's own seeded generator, so a run is reproducible when the budget, not
the clock, is what stops the play-outs (``samples`` reached first).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from majiang.bots.ev import EVBot
from majiang.bots.incore import core_choice
from majiang.engine.compiled import PLAYOUT_POLICIES, CompiledHand
from majiang.engine.protocol import ADDED_KONG, CONCEALED_KONG, DISCARD, WIN, Action
from majiang.engine.view import SeatView
from majiang.shanten.efficiency import _fast

#: wall seconds a decision (the ``ev`` step and the play-outs), inside Botzone's 1 s with room to spare
BUDGET_S = 0.5
#: sampled worlds at most per decision
SAMPLES = 256
#: candidates played out at most (the ``ev`` choice and the kongs first)
MAX_CANDIDATES = 6
#: points a hand a candidate must gain over the ``ev`` choice …
MARGIN = 0.5
#: … by this many standard errors of the paired difference
Z = 2.0
#: fewer sampled worlds than this and the ``ev`` choice stands
MIN_SAMPLES = 16
#: the core's bot that plays the worlds out (:data:`majiang.engine.compiled.PLAYOUT_POLICIES`)
PLAYOUT = "eff"


class SearchBot:
    """The ``search`` bot; ``budget_s`` wall seconds and ``samples`` worlds at most a decision, played
    out by the core's ``playout`` bot."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        budget_s: float = BUDGET_S,
        samples: int = SAMPLES,
        z: float = Z,
        playout: str = PLAYOUT,
    ) -> None:
        if not budget_s > 0 or samples < 1:
            raise ValueError("the search bot needs a positive budget_s and at least one sample")
        if playout not in PLAYOUT_POLICIES:
            raise ValueError(f"play-out policy: one of {', '.join(PLAYOUT_POLICIES)}, not {playout!r}")
        self.ev = EVBot(seed, budget_s=0.4 * budget_s)
        self.rng = random.Random(seed)
        self.budget_s = budget_s
        self.samples = samples
        self.z = z
        self.playout = playout
        self.searched = 0  # decisions with play-outs
        self.overruled = 0  # of them, where the play-outs changed the ev bot's choice
        self.worlds = 0  # sampled worlds in all

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        start = time.perf_counter()
        base = core_choice(self.ev, view, legal)
        hand = view._hand
        if view.phase not in ("turn", "claim") or base.type == WIN or not isinstance(hand, CompiledHand):
            return base
        candidates = self.candidates(view, legal, base)
        if len(candidates) < 2:
            return base
        left = self.budget_s - (time.perf_counter() - start)
        if left <= 0:
            return base
        done, values = hand.rollouts(view.seat, candidates, self.samples, self.rng.getrandbits(63), left, self.playout)
        self.searched += 1
        self.worlds += done
        best = pick(values, self.z)
        if best:
            self.overruled += 1
        return candidates[best]

    def candidates(self, view: SeatView, legal: Sequence[Action], base: Action) -> list[Action]:
        """The ``ev`` choice first; on a turn the kongs, then the discards that keep the hand as close
        to ready as the best discard does (most unseen useful tiles first); on a claim every other
        answer but a win (a win is always taken)."""
        out = [base]
        if view.phase == "claim":
            return out + [a for a in legal if a != base and a.type != WIN][: MAX_CANDIDATES - 1]
        for a in legal:
            if a.type in (CONCEALED_KONG, ADDED_KONG) and a not in out:
                out.append(a)
        rows = _fast.discards(list(view.counts), len(view.melds[view.seat]))
        if rows:
            least = min(r[1] for r in rows)
            for t, _, _ in sorted((r for r in rows if r[1] == least), key=lambda r: -bin(r[2]).count("1")):
                a = Action(DISCARD, t)
                if a in legal and a not in out:
                    out.append(a)
        return out[:MAX_CANDIDATES]


def pick(values: Sequence[Sequence[int]], z: float = Z) -> int:
    """The candidate to play: index 0 (the default) unless another gains more than :data:`MARGIN`
    over it in the same worlds by ``z`` standard errors; then the one with the largest such bound."""
    base = values[0]
    n = len(base)
    if n < MIN_SAMPLES:
        return 0
    best, best_bound = 0, MARGIN
    for k in range(1, len(values)):
        diffs = [v - b for v, b in zip(values[k], base, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        bound = mean - z * math.sqrt(var / n)
        if bound > best_bound:
            best, best_bound = k, bound
    return best


def make(seed: int | None) -> SearchBot:
    return SearchBot(seed)
