"""Full MCR hands per second on one core: random bots and efficiency bots, in one run, with every
win scored by the real fan calculator; and the duplicate strength tables (fan vs eff vs rand, and best
— the ``ev`` bot — vs fan vs eff vs rand).

    .venv/bin/python benchmarks/engine_bench.py --hands 2000 --eff-hands 400 --strength 960 --best-strength 960
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform

from majiang.sim import simulate

WARMUP = 100


def cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000, help="hands with four random bots")
    ap.add_argument("--eff-hands", type=int, default=400, help="hands with four efficiency bots")
    ap.add_argument("--strength", type=int, default=960, help="duplicate hands fan,eff,rand,rand (0 = skip)")
    ap.add_argument(
        "--best-strength",
        type=int,
        default=960,
        help="duplicate hands best,fan,eff,rand (0 = skip; benchmarks/bot_duel.py has the margin's CI)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of the same hands (default 3)")
    args = ap.parse_args()
    print(
        f"# engine benchmark · {datetime.date.today()} · {cpu()} · {os.cpu_count()} cores · "
        f"Python {platform.python_version()}"
    )
    print(f"(after {WARMUP} warm-up hands; the same hands timed {args.repeat} times: first run and best)")
    print("| bots | hands | hands/s (first) | hands/s (best) | draw rate | goal |\n|---|---:|---:|---:|---:|---:|")
    for bots, n, goal in ((["rand"] * 4, args.hands, 1000), (["eff"] * 4, args.eff_hands, 200)):
        simulate(WARMUP, args.seed + 1, bots)  # lazily built tables, first-call costs
        runs = [simulate(n, args.seed, bots).to_dict() for _ in range(args.repeat)]
        r = runs[0]
        best = max(x["hands_per_s"] for x in runs)
        print(f"| {bots[0]} ×4 | {r['hands']} | {r['hands_per_s']:.0f} | {best:.0f} | {r['draw_rate']:.2f} | {goal} |")
    tables = ((["fan", "eff", "rand", "rand"], args.strength), (["best", "fan", "eff", "rand"], args.best_strength))
    for bots, n in tables:
        if n:
            strength_table(n, args.seed, bots)


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
