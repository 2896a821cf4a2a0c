"""Prove the compiled hand core equal to the Python engine on many hands: every hand is played on both
engines by the same bots (fresh, seeded alike) and the two logs must be the same, byte for byte.

    .venv/bin/python scripts/core_equal.py --hands 1000000 --workers 2
    .venv/bin/python scripts/core_equal.py --hands 20000 --rules botzone --mixes chaos

Hand ``i`` takes its ruleset and bot mix in turn from ``--rules`` and ``--mixes`` and its wall, dealer
and wind from ``i`` (so any mismatch is reproduced by its number: ``--start I --hands 1``).  The mixes:
``rand`` (four random bots, which the core plays in C), ``eff`` (four efficiency bots, in C), ``mixed``
(eff, rand, eff, rand), ``chaos`` (random Python bots that now and then declare a false win or answer
with an illegal move, against rand and eff), ``fan`` (the fan bot with three random ones), and, not
in the default list as the reference plays it slowly, ``ev`` (ev, fan, eff, rand: all four bots the
core plays itself; the reference's ev without its CPU-time deadline, as the core's).
It prints what the hands covered (claims, kongs, robbed kongs, flowers, false wins, faults, draws) so
a run shows it met the rare paths, and exits 1 on the first mismatches (their hand numbers and first
differing events).  tests/engine/test_core_equal.py runs the same comparison on a few thousand hands.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from typing import Any

from majiang.bots.base import Bot, RandomBot, make_bot
from majiang.bots.ev import EVBot
from majiang.bots.incore import CoreSeats
from majiang.engine.compiled import CompiledHand, core_rules
from majiang.engine.hand import Hand
from majiang.engine.log import dumps_event
from majiang.engine.protocol import DISCARD, WIN, Action, Ruleset
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.rulesets.mcr import MCR
from majiang.sim import play_hand

RULES = ("gb", "botzone", "pymahjonggb")
MIXES = ("rand", "eff", "mixed", "chaos", "fan", "ev")
DEFAULT_MIXES = MIXES[:-1]
COVERED = ("chow", "pung", "kong", "robbed", "flower", "false_win", "fault", "win", "exhausted")


class Chaos:
    """Random play, and now and then a false win or an illegal answer (the engines' penalty paths)."""

    name = "chaos"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        r = self.rng.random()
        if r < 0.02:
            return Action(WIN, self.rng.randrange(34))
        if r < 0.03:
            return Action(DISCARD, self.rng.randrange(34))
        return self.rng.choice(legal)


def ruleset(name: str) -> Ruleset:
    return MCR("pymahjonggb") if name == "pymahjonggb" else make_ruleset(name)


def bots(mix: str, seed: int, rules: str) -> list[Bot]:
    kind = "gb" if rules == "pymahjonggb" else rules
    if mix == "chaos":
        return [Chaos(seed), RandomBot(seed + 1), Chaos(seed + 2), make_bot("eff", seed + 3, rules=kind)]
    specs = {"rand": ["rand"] * 4, "eff": ["eff"] * 4, "mixed": ["eff", "rand", "eff", "rand"]}
    specs["fan"] = ["fan", "rand", "rand", "rand"]
    specs["ev"] = ["ev", "fan", "eff", "rand"]
    players = [make_bot(spec, seed + k, rules=kind) for k, spec in enumerate(specs[mix])]
    for p in players:
        if isinstance(p, EVBot):
            p.budget_s = math.inf
    return players


def play(i: int, rules: tuple[str, ...], mixes: tuple[str, ...]) -> tuple[list[str], list[str], str]:
    """Hand ``i`` on both engines: (the reference's log, the core's log, a label)."""
    name, mix = rules[i % len(rules)], mixes[(i // len(rules)) % len(mixes)]
    seed = hashlib.sha256(f"core-equal:{i}".encode()).digest()
    kw: dict[str, Any] = {"dealer": i % 4, "prevalent": i // 4 % 4, "hand_no": i % 16}
    rs = ruleset(name)
    ref = Hand(rs, seed, **kw)
    play_hand(ref, bots(mix, i, name), lambda s, kind: None)
    core = CompiledHand(rs, seed, **kw)
    CoreSeats(bots(mix, i, name)).play(core, on_fault=lambda s, kind: None)
    return [dumps_event(e) for e in ref.events], [dumps_event(e) for e in core.events], f"{name}/{mix}"


def run_chunk(job: tuple[int, int, tuple[str, ...], tuple[str, ...]]) -> tuple[int, Counter[str], list[str]]:
    start, n, rules, mixes = job
    seen: Counter[str] = Counter()
    bad: list[str] = []
    for i in range(start, start + n):
        want, got, label = play(i, rules, mixes)
        seen["events"] += len(want)
        for line in want:
            t = line[9 : line.index('"', 9)]  # {"type":"…"
            if t in COVERED:
                seen[t] += 1
        if want != got:
            k = next((k for k, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), min(len(want), len(got)))
            a = want[k] if k < len(want) else "(none)"
            b = got[k] if k < len(got) else "(none)"
            bad.append(f"hand {i} ({label}), event {k}:\n  python {a}\n  core   {b}")
    return n, seen, bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10000, help="hands to compare (default 10,000)")
    ap.add_argument("--start", type=int, default=0, help="the first hand's number")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--rules", default=",".join(RULES), help=f"rulesets in turn (default {','.join(RULES)})")
    ap.add_argument(
        "--mixes",
        default=",".join(DEFAULT_MIXES),
        help=f"bot mixes in turn (default {','.join(DEFAULT_MIXES)}; also ev)",
    )
    ap.add_argument("--chunk", type=int, default=500, help="hands per unit of work")
    args = ap.parse_args()
    rules, mixes = tuple(args.rules.split(",")), tuple(args.mixes.split(","))
    for r in rules:
        if r not in RULES:
            sys.exit(f"--rules: {r!r} is not one the core plays (use {', '.join(RULES)})")
    for m in mixes:
        if m not in MIXES:
            sys.exit(f"--mixes: {m!r} is unknown (use {', '.join(MIXES)})")
    if core_rules(make_ruleset("gb")) is None:
        sys.exit("the compiled core is not built (or MAJIANG_PURE=1): pip install -e . with a C compiler")
    jobs = [
        (s, min(args.chunk, args.start + args.hands - s), rules, mixes)
        for s in range(args.start, args.start + args.hands, args.chunk)
    ]
    total: Counter[str] = Counter()
    mismatches: list[str] = []
    done = 0
    t0 = time.perf_counter()
    pool = multiprocessing.get_context("fork").Pool(args.workers) if args.workers > 1 else None
    results = pool.imap_unordered(run_chunk, jobs) if pool else map(run_chunk, jobs)
    try:
        for n, seen, bad in results:
            done += n
            total.update(seen)
            mismatches.extend(bad)
            rate = done / (time.perf_counter() - t0)
            eta = (args.hands - done) / rate if rate else 0.0
            print(
                f"\r{done:,}/{args.hands:,} hands · {rate:,.0f}/s · {len(mismatches)} mismatch(es) · eta {eta:,.0f} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
            if len(mismatches) >= 5:
                break
    finally:
        if pool:
            pool.terminate()
    print(file=sys.stderr)
    seconds = time.perf_counter() - t0
    print(
        f"{done:,} hands ({', '.join(rules)}; mixes {', '.join(mixes)}) in {seconds:,.0f} s: {total['events']:,} events"
    )
    print("covered: " + ", ".join(f"{t} {total[t]:,}" for t in COVERED))
    if mismatches:
        print(f"{len(mismatches)} hand(s) differ:\n" + "\n".join(mismatches[:5]))
        sys.exit(1)
    print("every log equal, byte for byte")


if __name__ == "__main__":
    main()
