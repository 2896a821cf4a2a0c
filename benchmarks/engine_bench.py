"""Hands per CPU second on one core, the compiled hand core against the Python engine (its reference)
in the same run: four random bots, four efficiency bots, four fan bots, four ``ev`` bots (all four
kinds played inside the core), and one Python bot (``net-planes``, asked through a seat view) with three
random ones; the scaling of ``simulate`` from 1 to 2 workers; and, optionally, the duplicate strength
tables (fan vs eff vs rand, and best — the ``ev`` bot — vs fan vs eff vs rand).

    .venv/bin/python benchmarks/engine_bench.py --hands 20000 --eff-hands 3000 --fan-hands 2000 \
        --ev-hands 400 --python-bot-hands 2000
    .venv/bin/python benchmarks/engine_bench.py --strength 960 --best-strength 960   # the strength tables too

Rates are hands per CPU second of this process (``time.process_time``: a busy machine slows the wall
clock, not this); each line is the best of ``--repeat`` runs of the same hands, after warm-up hands.
The Python engine plays ``--hands / --python-share`` hands of each line (it is that much slower).
``benchmarks/engine_icount.py`` counts instructions instead, for a machine too busy for timings.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager

from host import cpu_name

from majiang.sim import simulate

WARMUP = 100


@contextmanager
def engine(name: str) -> Iterator[None]:
    before = os.environ.get("MAJIANG_ENGINE")
    os.environ["MAJIANG_ENGINE"] = name
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("MAJIANG_ENGINE", None)
        else:
            os.environ["MAJIANG_ENGINE"] = before


def rate(bots: list[str], hands: int, seed: int, repeat: int, name: str) -> tuple[float, float]:
    """(best hands per CPU second, draw rate) of ``hands`` hands on engine ``name``."""
    with engine(name):
        simulate(WARMUP, seed + 1, bots)  # lazily built tables, first-call costs
        best, draws = 0.0, 0.0
        for _ in range(repeat):
            t = time.process_time()
            r = simulate(hands, seed, bots).to_dict()
            best = max(best, hands / (time.process_time() - t))
            draws = r["draw_rate"]
    return best, draws


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20000, help="hands with four random bots on the core")
    ap.add_argument("--eff-hands", type=int, default=3000, help="hands with four efficiency bots on the core")
    ap.add_argument("--fan-hands", type=int, default=2000, help="hands with four fan bots on the core")
    ap.add_argument("--ev-hands", type=int, default=400, help="hands with four ev (best) bots on the core")
    ap.add_argument("--python-bot-hands", type=int, default=2000, help="hands of net-planes,rand,rand,rand on the core")
    ap.add_argument("--python-share", type=int, default=10, help="the Python engine plays 1/N of each line's hands")
    ap.add_argument("--workers-hands", type=int, default=40000, help="hands for the 1 → 2 workers line (0 = skip)")
    ap.add_argument("--strength", type=int, default=0, help="duplicate hands fan,eff,rand,rand (0 = skip)")
    ap.add_argument("--best-strength", type=int, default=0, help="duplicate hands best,fan,eff,rand (0 = skip)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of the same hands (the best is shown)")
    args = ap.parse_args()
    print(
        f"# engine benchmark · {datetime.date.today()} · {cpu_name()} · {os.cpu_count()} cores · "
        f"Python {platform.python_version()} · load {os.getloadavg()[0]:.1f}"
    )
    print(f"(hands per CPU second, best of {args.repeat}, after {WARMUP} warm-up hands; the same seeds on both)")
    print("| bots | core: hands | core: hands/s | Python: hands | Python: hands/s | core ÷ Python | draw rate |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    lines = (
        (["rand"] * 4, args.hands),
        (["eff"] * 4, args.eff_hands),
        (["fan"] * 4, args.fan_hands),
        (["ev"] * 4, args.ev_hands),
        (["net-planes", "rand", "rand", "rand"], args.python_bot_hands),
    )
    for bots, n in lines:
        if not n:
            continue
        m = max(n // args.python_share, 24)
        core, draws = rate(bots, n, args.seed, args.repeat, "core")
        ref, _ = rate(bots, m, args.seed, args.repeat, "python")
        print(
            f"| {','.join(bots)} | {n} | {core:,.0f} | {m} | {ref:,.0f} | {core / ref:.1f} | {draws:.2f} |",
            flush=True,
        )
    if args.workers_hands:
        workers_table(args.workers_hands, args.seed)
    tables = ((["fan", "eff", "rand", "rand"], args.strength), (["best", "fan", "eff", "rand"], args.best_strength))
    for bots, n in tables:
        if n:
            strength_table(n, args.seed, bots)


def workers_table(hands: int, seed: int) -> None:
    """``simulate --workers`` 1 and 2 on the core, wall clock (each worker is a process of its own)."""
    print(f"\n`simulate` on the core, {hands} hands of four random bots, wall clock (load {os.getloadavg()[0]:.1f})")
    print("| workers | seconds | hands/s | speed-up |\n|---:|---:|---:|---:|")
    first = None
    for workers in (1, 2):
        with engine("core"):
            t = time.perf_counter()
            simulate(hands, seed, ["rand"] * 4, workers=workers)
            dt = time.perf_counter() - t
        first = first or dt
        print(f"| {workers} | {dt:.2f} | {hands / dt:,.0f} | {first / dt:.2f} |", flush=True)


def strength_table(hands: int, seed: int, bots: list[str]) -> None:
    r = simulate(hands, seed, bots, duplicate=True).to_dict()
    print(
        f"\nduplicate, {r['hands']} hands ({r['hands_per_s']:.1f} hands/s); illegal {r['illegal_actions']}, "
        f"false wins {r['false_wins']}, zero-sum violations {r['zero_sum_violations']}"
    )
    print("| bot | win rate | deal-in rate | fan on win | score/hand | 95% CI |\n|---|---:|---:|---:|---:|---|")
    for s in r["seats"]:
        lo, hi = s["avg_score_ci95"]
        print(
            f"| {s['bot']} | {s['win_rate']:.3f} | {s['deal_in_rate']:.3f} | {s['avg_fan_on_win']:.1f} | "
            f"{s['avg_score']:+.2f} | [{lo:+.2f}, {hi:+.2f}] |"
        )


if __name__ == "__main__":
    main()
