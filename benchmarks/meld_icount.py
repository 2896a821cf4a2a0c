"""Instruction-count probe for code that builds or reads melds: run it under cachegrind twice, with
N = 1 and N = 2, and the difference is one pass with imports and first-call warm-up left out.

    valgrind --tool=cachegrind --cache-sim=no .venv/bin/python benchmarks/meld_icount.py fan N
    valgrind --tool=cachegrind --cache-sim=no .venv/bin/python benchmarks/meld_icount.py engine N

``fan``: per pass, build 5,000 random winning hands (seed 2026, ``botzone``: the melds are made by
``mcr.generate``) and score each with ``score``, then all with ``score_many``.  ``engine``: per pass,
60 hands of four random bots and 15 of four efficiency bots (``majiang.sim.simulate``, seed 1; every
meld is built by the table and every win scored from the table's melds).  Only public calls, so the
probe runs on older checkouts too (``PYTHONPATH=<checkout>/src``).
"""

from __future__ import annotations

import random
import sys


def fan_pass() -> None:
    from majiang.mcr import score, score_many
    from majiang.mcr.generate import random_winning_hand

    rng = random.Random(2026)
    hands = [random_winning_hand(rng, "botzone") for _ in range(5000)]
    for h in hands:
        score(h, "botzone")
    score_many(hands, "botzone")


def engine_pass() -> None:
    from majiang.sim import simulate

    simulate(60, 1, ["rand"] * 4)
    simulate(15, 1, ["eff"] * 4)


def main() -> None:
    work = {"fan": fan_pass, "engine": engine_pass}[sys.argv[1]]
    for _ in range(int(sys.argv[2])):
        work()


if __name__ == "__main__":
    main()
