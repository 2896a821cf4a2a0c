"""The AI review's speed: a 16-hand session (fan, eff, eff, rand) reviewed at seat 1, with the
reviewer of ``majiang review`` (best, fan until it exists) — the target is well under a minute.

    .venv/bin/python benchmarks/review_bench.py --hands 16 --repeat 3
"""

from __future__ import annotations

import argparse
import hashlib
import time

from majiang.bots import make_bot
from majiang.engine.hand import Hand
from majiang.review import SessionReview, review_hand, reviewer_spec
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand


def session_logs(hands: int, seed: int) -> list[list[dict[str, object]]]:
    rules = make_ruleset("gb")
    logs = []
    for k in range(hands):
        hand = Hand(rules, hashlib.sha256(b"bench %d %d" % (seed, k)).digest(), dealer=k % 4)
        play_hand(hand, [make_bot(b, seed * 10 + i) for i, b in enumerate(("fan", "eff", "eff", "rand"))])
        logs.append(hand.events)
    return logs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seat", type=int, default=1)
    ap.add_argument("--bot", help="the reviewer (default: as majiang review)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    spec = reviewer_spec(args.bot)
    logs = session_logs(args.hands, args.seed)
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        session = SessionReview(spec, tuple(review_hand(e, args.seat, spec) for e in logs))
        times.append(time.perf_counter() - t0)
    s = session.summary
    print(
        f"review of {args.hands} hands at seat {args.seat} by {spec}: {s.decisions} decisions, "
        f"{s.agreement:.0%} agreed · first {times[0]:.2f} s, best {min(times):.2f} s "
        f"({1000 * min(times) / max(s.decisions, 1):.1f} ms a decision)"
    )


if __name__ == "__main__":
    main()
