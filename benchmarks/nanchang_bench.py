"""Benchmark the Nanchang win evaluation on worst-case hands: 4–7 jing (精) wild in the hand.

    .venv/bin/python benchmarks/nanchang_bench.py [--hands 2000] [--seed 1]

For each jing count it draws random 14-tile concealed hands (jing 5p/6p: at most 3 正精 + 4 副精)
and times, per call:

* ``can_win``        — the engine's yes/no on a self-draw;
* ``can_win discard`` — the same on a discard (adds the 精钓-shape legality check);
* ``best_win``       — the full evaluation: every interpretation, 精钓 credit, payments, the best;
* ``best_win cold``  — ``best_win`` with the shape memo cleared before every call (first-sight cost).

It prints a table (mean and 99th-percentile µs per call; the garbage collector is paused while
timing) with the machine, date and command.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from host import cpu_name

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from majiang.nanchang import (
    JingPair,
    WinMethod,
    WinSituation,
    best_win,
    can_win,
)
from majiang.nanchang.shapes import group_need
from majiang.tiles import NUM_KINDS, format_compact, parse_tile

JING = JingPair.from_indicator(parse_tile("5p"))


def hands_with_jing(n_jing: int, count: int, rng: random.Random) -> list[list[int]]:
    """Random 14-tile hands holding exactly ``n_jing`` jing (正精 first, at most 3 of them)."""
    out = []
    pool = [t for t in range(NUM_KINDS) if t not in JING for _ in range(4)]
    for _ in range(count):
        z = min(3, n_jing)
        jing = [JING.zheng] * z + [JING.fu] * (n_jing - z)
        out.append(jing + rng.sample(pool, 14 - n_jing))
    return out


def cold_best_win(sit: WinSituation) -> object:
    group_need.cache_clear()
    return best_win(sit)


def per_call(fn: Callable[[], object], repeat: int) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t0) / repeat


def machine() -> str:
    return f"{cpu_name()}; {platform.system()} {platform.release()}; Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000, help="random hands per jing count (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"machine: {machine()}")
    print(f"date:    {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print()
    header = (
        f"{'jing':>4}  {'wins':>5}  {'can_win µs':>17}  {'can_win discard µs':>18}  "
        f"{'best_win µs':>17}  {'best_win cold µs':>17}"
    )
    print(header)
    print(
        f"{'':>4}  {'':>5}  {'mean':>8} {'p99':>8}  {'mean':>8} {'p99':>9}  {'mean':>8} {'p99':>8}  "
        f"{'mean':>8} {'p99':>8}"
    )
    worst = ("", 0.0)
    for h in hands_with_jing(7, 50, random.Random(0)):  # warm the interpreter, not the memo
        best_win(WinSituation(tuple(h[1:]), (), h[0], JING))
    group_need.cache_clear()
    gc.disable()
    for n_jing in (0, 4, 5, 6, 7):
        hands = hands_with_jing(n_jing, args.hands, rng)
        stats: dict[str, list[float]] = {"can": [], "disc": [], "best": [], "cold": []}
        wins = 0
        for h in hands:
            # self-draw: the first tile (a jing when there are any) is the draw; discard: the last (natural)
            concealed, win = tuple(h[1:]), h[0]
            sit = WinSituation(concealed, (), win, JING, WinMethod.SELF_DRAWN, winner=1)
            stats["can"].append(per_call(partial(can_win, concealed, (), JING, win_tile=win), 20))
            stats["disc"].append(
                per_call(partial(can_win, tuple(h[:13]), (), JING, win_tile=h[13], method=WinMethod.DISCARD), 20)
            )
            stats["best"].append(per_call(partial(best_win, sit), 5))
            stats["cold"].append(per_call(partial(cold_best_win, sit), 1))
            wins += best_win(sit) is not None
            if stats["best"][-1] > worst[1]:
                worst = (format_compact(sorted(h)), stats["best"][-1])
        cells = []
        for key in ("can", "disc", "best", "cold"):
            xs = stats[key]
            p99 = statistics.quantiles(xs, n=100)[98]
            cells.append(f"{statistics.mean(xs) * 1e6:8.1f} {p99 * 1e6:8.1f}")
        print(f"{n_jing:>4}  {wins:>5}  {cells[0]}  {cells[1]} {cells[2]}  {cells[3]}")
    gc.enable()
    print()
    print(f"slowest best_win (warm): {worst[0]} — {worst[1] * 1e6:.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
