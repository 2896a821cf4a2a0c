"""Before / after: the fan, shanten and engine benchmarks of two checkouts, in one run, taking turns.

Each checkout runs with its own ``.venv`` (its own C speedups) and its own sources; the probe below uses
only the public calls both sides have (``score``, ``score_many``, ``majiang fan --jsonl``,
``shanten_of_counts``, ``simulate``).  Every round runs one probe process per checkout, in alternating
order, so a loaded machine slows both alike; the table gives each line's median over the rounds and
the after / before ratio of the medians.

    .venv/bin/python benchmarks/before_after.py --before ../before --after . --rounds 7

The probe of one side: ``python benchmarks/before_after.py --probe`` (JSON on stdout).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

#: (key, label, unit, higher is better)
LINES: tuple[tuple[str, str, str, bool], ...] = (
    ("score_one_us", "fan: score one hand, in process", "µs", False),
    ("score_many_us", "fan: `score_many`, per hand", "µs", False),
    ("jsonl_us", "fan: `--jsonl`, per line after start-up", "µs", False),
    ("shanten_per_s", "shanten (C), hands/s", "/s", True),
    ("engine_rand_per_s", "engine, 4 random bots, hands/s", "/s", True),
    ("engine_eff_per_s", "engine, 4 efficiency bots, hands/s", "/s", True),
)
CLEAN = ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "MAJIANG_PURE", "PYTHONPYCACHEPREFIX", "PYTHONPATH")


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def probe(fan_hands: int, shanten_hands: int, rand_hands: int, eff_hands: int, repeat: int) -> dict[str, float]:
    """One side's figures (best of ``repeat`` within this process)."""
    from majiang.mcr import score, score_many
    from majiang.mcr.generate import random_winning_hand
    from majiang.shanten import shanten_of_counts
    from majiang.sim import simulate
    from majiang.tiles import counts_of

    out: dict[str, float] = {}
    rng = random.Random(2026)
    hands = [random_winning_hand(rng, "botzone") for _ in range(fan_hands)]
    out["score_one_us"] = best_of(repeat, lambda: [score(h) for h in hands]) / fan_hands * 1e6
    out["score_many_us"] = best_of(repeat, lambda: score_many(hands)) / fan_hands * 1e6

    env = {k: v for k, v in os.environ.items() if k not in CLEAN}
    exe = Path(sys.executable).with_name("majiang")
    cmd = [str(exe), "fan", "--jsonl"] if exe.exists() else [sys.executable, "-m", "majiang.cli", "fan", "--jsonl"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.jsonl"
        path.write_text("".join(json.dumps(h.to_dict(), ensure_ascii=False) + "\n" for h in hands), encoding="utf-8")

        def wall(stdin: str) -> float:
            with open(stdin, "rb") as inp:
                t = time.perf_counter()
                subprocess.run(cmd, stdin=inp, stdout=subprocess.DEVNULL, env=env, check=True)
                return time.perf_counter() - t

        wall(str(path))  # warm-up: bytecode cache, page cache
        full = min(wall(str(path)) for _ in range(repeat))
        empty = min(wall(os.devnull) for _ in range(repeat))
    out["jsonl_us"] = (full - empty) / fan_hands * 1e6

    srng = random.Random(20261129)
    wall_tiles = [t for t in range(34) for _ in range(4)]
    counts = []
    for _ in range(shanten_hands):
        srng.shuffle(wall_tiles)
        counts.append(counts_of(sorted(wall_tiles[:13])))
    for c in counts[:200]:
        shanten_of_counts(c, 0)  # lazily built tables
    out["shanten_per_s"] = shanten_hands / best_of(repeat, lambda: [shanten_of_counts(c, 0) for c in counts])

    for key, bot, n in (("engine_rand_per_s", "rand", rand_hands), ("engine_eff_per_s", "eff", eff_hands)):
        simulate(100, 2, [bot] * 4)  # warm-up, as engine_bench.py
        out[key] = n / best_of(repeat, lambda b=bot, n=n: simulate(n, 1, [b] * 4))  # type: ignore[misc]
    return out


def run_side(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    py = tree / ".venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in CLEAN}
    cmd = [str(py), str(Path(__file__).resolve()), "--probe"]
    cmd += ["--fan-hands", str(args.fan_hands), "--shanten-hands", str(args.shanten_hands)]
    cmd += ["--rand-hands", str(args.rand_hands), "--eff-hands", str(args.eff_hands), "--repeat", str(args.repeat)]
    text = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(text.strip().splitlines()[-1])
    return result


def fmt(value: float, unit: str) -> str:
    return f"{value:.2f} µs" if unit == "µs" else f"{value:,.0f}/s"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, help="checkout with a built .venv (the old code)")
    ap.add_argument("--after", type=Path, default=Path("."), help="checkout with a built .venv (default .)")
    ap.add_argument("--rounds", type=int, default=5, help="turns each side takes (default 5)")
    ap.add_argument("--only", default="", help="comma-separated line keys to print (default all)")
    ap.add_argument("--probe", action="store_true", help="measure this interpreter's majiang, print JSON")
    ap.add_argument("--fan-hands", type=int, default=10000)
    ap.add_argument("--shanten-hands", type=int, default=20000)
    ap.add_argument("--rand-hands", type=int, default=1000)
    ap.add_argument("--eff-hands", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3, help="best of, within one probe (default 3)")
    args = ap.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(args.fan_hands, args.shanten_hands, args.rand_hands, args.eff_hands, args.repeat)))
        return 0
    if args.before is None:
        ap.error("--before is required (a checkout of the old code with its own .venv)")
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    start = datetime.datetime.now(datetime.UTC)
    for r in range(args.rounds):
        order = ("before", "after") if r % 2 == 0 else ("after", "before")
        for side in order:
            runs[side].append(run_side(sides[side], args))
            print(f"round {r + 1} {side}: {json.dumps(runs[side][-1])}", file=sys.stderr, flush=True)
    end = datetime.datetime.now(datetime.UTC)
    load = os.getloadavg()
    print(
        f"{start:%Y-%m-%d %H:%M}–{end:%H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f}; "
        f"{args.rounds} rounds in alternating order, median of the rounds (each the best of {args.repeat})"
    )
    print()
    print("| | before (median) | after (median) | after / before | before, range | after, range |")
    print("|---|---:|---:|---:|---:|---:|")
    only = set(filter(None, args.only.split(",")))
    for key, label, unit, higher in LINES:
        if only and key not in only:
            continue
        b = [x[key] for x in runs["before"]]
        a = [x[key] for x in runs["after"]]
        mb, ma = statistics.median(b), statistics.median(a)
        ratio = f"{ma / mb:.2f} × the {'rate' if higher else 'time'}"
        print(
            f"| {label} | {fmt(mb, unit)} | {fmt(ma, unit)} | {ratio} | "
            f"{fmt(min(b), unit)}–{fmt(max(b), unit)} | {fmt(min(a), unit)}–{fmt(max(a), unit)} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
