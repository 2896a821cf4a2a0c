"""Shanten speed: majiang.shanten against PyMahjongGB 1.4's MahjongShanten on the same random hands.

Hands: 13-tile draws from a shuffled wall, and hands with 1–4 declared melds (the concealed tiles drawn
after the melds' tiles).  Both libraries get their input pre-built — count vectors for majiang, tuples
of tile codes for PyMahjongGB — and only the shanten calls are timed.  The contenders take turns on chunks of
the hands (in rotating order), so that a busy machine slows them alike; a pass covers every hand once
for each.  The first pass includes filling majiang's lazily built tables; the best of ``--repeat``
passes is reported too.

    .venv/bin/python benchmarks/shanten_bench.py --hands 20000
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from host import cpu_name

from majiang.shanten import BACKEND, _tables, shanten_of_counts
from majiang.tiles import counts_of

_SUIT = "WBT"
_HONOR = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def code(t: int) -> str:
    """PyMahjongGB's tile code."""
    return f"{_SUIT[t // 9]}{t % 9 + 1}" if t < 27 else _HONOR[t - 27]


def random_hands(n: int, seed: int) -> list[tuple[list[int], int, tuple[Any, ...], tuple[str, ...]]]:
    """(counts, melds, PyMahjongGB packs, PyMahjongGB hand): half with no melds, half with 1–4."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        packs: list[tuple[str, str, int]] = []
        n_melds = 0 if i % 2 == 0 else rng.randint(1, 4)
        while len(packs) < n_melds:
            t = rng.choice(wall)
            tiles = [t, t, t] if t >= 27 or rng.random() < 0.5 else [t, t + 1, t + 2]
            if t < 27 and tiles[1] != t and t % 9 > 6:
                continue
            if all(wall.count(x) >= tiles.count(x) for x in set(tiles)):
                for x in tiles:
                    wall.remove(x)
                packs.append(("PENG", code(t), 1) if tiles[1] == t else ("CHI", code(t + 1), 1))
        hand = sorted(wall[: 13 - 3 * n_melds])
        out.append((counts_of(hand), n_melds, tuple(packs), tuple(code(t) for t in hand)))
    return out


Contender = tuple[str, Callable[[Any, Any], int], list[tuple[Any, Any]]]


def timed_passes(
    contenders: Sequence[Contender], passes: int, chunk: int
) -> tuple[dict[str, list[float]], dict[str, list[int]]]:
    """Seconds per pass for each contender, and each one's results from the first pass."""
    seconds = {name: [0.0] * passes for name, _, _ in contenders}
    results: dict[str, list[int]] = {name: [] for name, _, _ in contenders}
    n = len(contenders[0][2])
    for p in range(passes):
        for i, start in enumerate(range(0, n, chunk)):
            for k in range(len(contenders)):
                name, fn, data = contenders[(i + k) % len(contenders)]
                part = data[start : start + chunk]
                out: list[int] = []
                append = out.append
                t = time.perf_counter()
                for a, b in part:
                    append(fn(a, b))
                seconds[name][p] += time.perf_counter() - t
                if p == 0:
                    results[name].extend(out)
    return seconds, results


def rss_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def import_seconds() -> float:
    code_ = "import time; t = time.perf_counter(); import majiang.shanten; print(time.perf_counter() - t)"
    best = float("inf")
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code_], capture_output=True, text=True, check=True).stdout
        best = min(best, float(out))
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20000, help="number of random hands (default 20000)")
    parser.add_argument("--seed", type=int, default=20261129, help="random seed")
    parser.add_argument("--repeat", type=int, default=5, help="passes for the best-of figure (default 5)")
    parser.add_argument("--chunk", type=int, default=500, help="hands per turn (default 500)")
    args = parser.parse_args(argv)

    try:
        import MahjongGB  # type: ignore[import-not-found]
    except ImportError:
        print("PyMahjongGB is not installed (pip install PyMahjongGB==1.4.0)", file=sys.stderr)
        return 1

    rss0 = rss_mb()
    hands = random_hands(args.hands, args.seed)
    ours_in = [(h[0], h[1]) for h in hands]
    theirs_in = [(h[2], h[3]) for h in hands]
    rss1 = rss_mb()

    contenders: list[Contender] = [
        ("PyMahjongGB MahjongShanten", MahjongGB.MahjongShanten, theirs_in),
        (f"majiang shanten_of_counts ({BACKEND})", shanten_of_counts, ours_in),
    ]
    if BACKEND != "python":
        contenders.append(("majiang pure-Python tables", _tables.shanten, ours_in))
    seconds, results = timed_passes(contenders, args.repeat, args.chunk)
    rows = [(name, seconds[name][0], min(seconds[name])) for name, _, _ in contenders]
    rss2 = rss_mb()

    reference = results[contenders[0][0]]
    n = len(hands)
    print(f"# majiang shanten benchmark — {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")
    print(
        f"machine: {cpu_name()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(f"hands: {n} ({sum(1 for h in hands if h[1] == 0)} with no melds, the rest 1–4 melds), seed {args.seed}")
    print()
    print(
        f"| implementation | first pass calls/s | best of {args.repeat} calls/s | µs/call (best) "
        "| ratio vs PyMahjongGB (first, best) | agrees |"
    )
    print("|---|---:|---:|---:|---:|---|")
    base_first, base_best = rows[0][1], rows[0][2]
    for name, first, best in rows:
        agree = "yes" if results[name] == reference else "NO"
        print(
            f"| {name} | {n / first:,.0f} | {n / best:,.0f} | {best / n * 1e6:.2f} | "
            f"{base_first / first:.2f}, {base_best / best:.2f} | {agree} |"
        )
    print()
    print(
        f"memory (VmRSS): {rss0:.1f} MB after imports, {rss1:.1f} MB with the hands built, "
        f"{rss2:.1f} MB after the runs → tables and caches ≈ {rss2 - rss1:.1f} MB"
    )
    print(f"import majiang.shanten: {import_seconds() * 1000:.0f} ms (best of 3, fresh interpreter)")
    return 0 if all(results[name] == reference for name in results) else 1


if __name__ == "__main__":
    sys.exit(main())
