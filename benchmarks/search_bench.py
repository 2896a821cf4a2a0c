"""The search bot's look-ahead: play-outs per CPU second of the compiled core (``CompiledHand.rollouts``), and
the worlds a decision gets and the time it takes, on hands dealt from a seed.

    .venv/bin/python benchmarks/search_bench.py --hands 40 --samples 64

For each hand, at the dealer's first turn, the core plays ``--samples`` sampled worlds of five
candidate discards (every world: each candidate played out by the ``eff`` bot at every seat); the
rate is play-outs per CPU second of this process (``time.process_time``: a busy machine slows the
wall clock, not this).  Then ``--decision-hands`` hands of ``search`` against three ``ev`` bots, and
the wall-clock time of each of its decisions at its default budget (p50, p99, max).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import math
import os
import platform
import time

from majiang.bots.search import SearchBot
from majiang.engine.compiled import CompiledHand, new_hand
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.sim import simulate


class Clocked(SearchBot):
    """The search bot with the wall time of every decision kept."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.times: list[float] = []

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        t0 = time.perf_counter()
        try:
            return super().choose(view, legal)
        finally:
            self.times.append(time.perf_counter() - t0)


def rate(hands: int, samples: int, rules: str) -> tuple[float, int]:
    ruleset = make_ruleset(rules)
    playouts = 0
    cpu = 0.0
    for h in range(hands):
        hand = new_hand(ruleset, hashlib.sha256(f"search bench {h}".encode()).digest())
        assert isinstance(hand, CompiledHand), "the compiled core is not built"
        seat = hand.current
        actions = hand.legal(seat)[:5]
        t0 = time.process_time()
        done, _ = hand.rollouts(seat, actions, samples, h, 1e9)
        cpu += time.process_time() - t0
        playouts += done * len(actions)
    return playouts / cpu, playouts


def rank(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--samples", type=int, default=64)
    p.add_argument("--decision-hands", type=int, default=8)
    p.add_argument("--rules", default="botzone")
    a = p.parse_args()
    per_s, n = rate(a.hands, a.samples, a.rules)
    bot = Clocked(1)
    simulate(a.decision_hands, 5, [bot, "ev", "ev", "ev"], rules=a.rules)
    ms = [1000 * t for t in bot.times]
    print(f"{datetime.date.today()} · {platform.node()} · {os.cpu_count()} cores · load {os.getloadavg()[0]:.1f}")
    print(f"play-outs: {n} in {n / per_s:.1f} CPU s = {per_s:,.0f} per CPU second ({a.rules})")
    print(
        f"search decisions: {len(ms)} ({bot.searched} searched, {bot.overruled} overruled, "
        f"{bot.worlds / max(bot.searched, 1):.0f} worlds each); wall ms p50 {rank(ms, 0.5):.0f}, "
        f"p99 {rank(ms, 0.99):.0f}, max {max(ms):.0f}"
    )


if __name__ == "__main__":
    main()
