"""合法听 speed: the waits' fans and the legal waits of a ready hand, majiang.shanten.legal against the naive way.

Hands: random ready hands nobody wrote — a random MCR win (``majiang.mcr.generate``) less one concealed
tile, with random seat and prevalent winds (about two thirds have declared melds).  Every contender
answers the same question for each hand: every wait with its fan total on a discard win and on a
self-draw, and the legal waits (discard win ≥ 8), flowers not counted.

* ``majiang wait_fans`` — :func:`majiang.shanten.legal.wait_fans` (fresh context per hand, so nothing
  is remembered between hands): the shanten tables give the waits, then only those are scored.
* ``naive: majiang.mcr.score × 34`` — score all 34 tiles as winning tiles, twice (discard, self-draw),
  with the project's calculator (compiled fast path), a non-win answered by its InvalidHandError.
* ``naive: PyMahjongGB × 34`` — the same with PyMahjongGB 1.4's MahjongFanCalculator (the test oracle),
  when installed.

The ``botzone`` profile is scored (``--rules``), the one PyMahjongGB computes exactly; ``gb`` differs
from it only by 明暗杠 and costs the same.  Inputs are pre-built for each (counts and meld tuples;
PyMahjongGB's packs and codes), and all must give the same answer on every hand.  The contenders take
turns on chunks of the hands in rotating order, so a busy machine slows them alike; the best of
``--repeat`` passes is reported.

    .venv/bin/python benchmarks/waits_bench.py --hands 2000
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from host import cpu_name

from majiang.mcr import InvalidHandError, Meld, WinningHand, score
from majiang.mcr.generate import random_winning_hand
from majiang.shanten import BACKEND
from majiang.shanten.legal import FanContext, fan_shanten, wait_fans
from majiang.tiles import NUM_KINDS, counts_of

Answer = tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]  # ((tile, discard, self-drawn), …), legal
Hand = tuple[tuple[Meld, ...], tuple[int, ...], int, int]  # melds, concealed tiles, seat, prevalent
RULES = "botzone"


def ready_hands(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        win = random_winning_hand(rng)
        tiles = [*win.hand, win.win_tile]
        tiles.pop(rng.randrange(len(tiles)))
        out.append((win.melds, tuple(sorted(tiles)), rng.randrange(4), rng.randrange(4)))
    return out


def ours(h: Hand) -> Answer:
    melds, tiles, seat, prevalent = h
    waits = wait_fans(counts_of(tiles), FanContext(melds=melds, seat_wind=seat, prevalent_wind=prevalent, rules=RULES))
    return (tuple((w.tile, w.discard, w.self_drawn) for w in waits), tuple(w.tile for w in waits if w.discard >= 8))


def naive(h: Hand) -> Answer:
    melds, tiles, seat, prevalent = h
    held = counts_of([*tiles, *(t for m in melds for t in m.tiles)])
    out = []
    for w in range(NUM_KINDS):
        if held[w] >= 4:
            continue
        fans = []
        for self_drawn in (False, True):
            try:
                fans.append(
                    score(
                        WinningHand(
                            melds=melds,
                            hand=tiles,
                            win_tile=w,
                            self_drawn=self_drawn,
                            seat_wind=seat,
                            prevalent_wind=prevalent,
                            rules=RULES,
                        )
                    ).fan_points
                )
            except InvalidHandError:
                break
        else:
            out.append((w, fans[0], fans[1]))
    return tuple(out), tuple(w for w, d, _s in out if d >= 8)


_SUIT = "WBT"
_HONOR = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def code(t: int) -> str:
    return f"{_SUIT[t // 9]}{t % 9 + 1}" if t < 27 else _HONOR[t - 27]


def pmgb_input(h: Hand) -> tuple[Any, ...]:
    melds, tiles, seat, prevalent = h
    packs = []
    for m in melds:
        if m.kind == "chow":
            packs.append(("CHI", code(m.tile + 1), (m.claimed or 0) + 1))
        elif m.kind == "pung":
            packs.append(("PENG", code(m.tile), m.source or 1))
        else:
            packs.append(("GANG", code(m.tile), 0 if m.concealed else (m.source or 1)))
    in_melds = counts_of([t for m in melds for t in m.tiles])
    held = [a + b for a, b in zip(counts_of(tiles), in_melds, strict=True)]
    # 和绝张 when the other three copies are this hand's own meld (majiang's scorer infers it)
    fourth = [held[t] == 3 == in_melds[t] for t in range(NUM_KINDS)]
    return tuple(packs), tuple(code(t) for t in tiles), held, fourth, seat, prevalent


def pmgb_naive(calc: Callable[..., Any]) -> Callable[[tuple[Any, ...]], Answer]:
    def run(x: tuple[Any, ...]) -> Answer:
        packs, hand, held, fourth, seat, prevalent = x
        out = []
        for w in range(NUM_KINDS):
            if held[w] >= 4:
                continue
            fans = []
            for self_drawn in (False, True):
                try:
                    res = calc(
                        pack=packs,
                        hand=hand,
                        winTile=code(w),
                        flowerCount=0,
                        isSelfDrawn=self_drawn,
                        is4thTile=fourth[w],
                        isAboutKong=False,
                        isWallLast=False,
                        seatWind=seat,
                        prevalentWind=prevalent,
                        verbose=True,
                    )
                except TypeError:  # ERROR_NOT_WIN
                    break
                fans.append(sum(pts * cnt for pts, cnt, *_ in res))
            else:
                out.append((w, fans[0], fans[1]))
        return tuple(out), tuple(w for w, d, _s in out if d >= 8)

    return run


Contender = tuple[str, Callable[[Any], Answer], list[Any]]


def timed_passes(
    contenders: Sequence[Contender], passes: int, chunk: int
) -> tuple[dict[str, list[float]], dict[str, list[Answer]]]:
    seconds = {name: [0.0] * passes for name, _, _ in contenders}
    results: dict[str, list[Answer]] = {name: [] for name, _, _ in contenders}
    n = len(contenders[0][2])
    for p in range(passes):
        for i, start in enumerate(range(0, n, chunk)):
            for k in range(len(contenders)):
                name, fn, data = contenders[(i + k) % len(contenders)]
                part = data[start : start + chunk]
                t = time.perf_counter()
                out = [fn(x) for x in part]
                seconds[name][p] += time.perf_counter() - t
                if p == 0:
                    results[name].extend(out)
    return seconds, results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000, help="number of random ready hands (default 2000)")
    parser.add_argument("--seed", type=int, default=20261201, help="random seed")
    parser.add_argument("--repeat", type=int, default=3, help="passes for the best-of figure (default 3)")
    parser.add_argument("--chunk", type=int, default=200, help="hands per turn (default 200)")
    parser.add_argument(
        "--rules",
        default="botzone",
        choices=["botzone", "gb"],
        help="MCR profile (default botzone, which PyMahjongGB computes)",
    )
    args = parser.parse_args(argv)
    global RULES
    RULES = args.rules

    hands = ready_hands(args.hands, args.seed)
    contenders: list[Contender] = [
        (f"majiang wait_fans (shanten {BACKEND})", ours, hands),
        ("naive: majiang.mcr.score × 34", naive, hands),
    ]
    try:
        import MahjongGB  # type: ignore[import-not-found]
    except ImportError:
        print("(PyMahjongGB not installed: its row is left out)", file=sys.stderr)
    else:
        contenders.append(
            ("naive: PyMahjongGB × 34", pmgb_naive(MahjongGB.MahjongFanCalculator), [pmgb_input(h) for h in hands])
        )
    seconds, results = timed_passes(contenders, args.repeat, args.chunk)

    n = len(hands)
    reference = results[contenders[0][0]]
    waits = sum(len(a[0]) for a in reference)
    legal = sum(1 for a in reference if a[1])
    t = time.perf_counter()
    fs = [
        fan_shanten(counts_of(tiles), FanContext(melds=melds, seat_wind=seat, prevalent_wind=prevalent, rules=RULES))
        for melds, tiles, seat, prevalent in hands
    ]
    fan_shanten_s = time.perf_counter() - t

    print(f"# majiang 合法听 benchmark — {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")
    print(
        f"machine: {cpu_name()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(
        f"hands: {n} ready hands ({sum(1 for h in hands if h[0])} with melds), seed {args.seed}, "
        f"rules {RULES}; "
        f"{waits} waits, {legal} hands with a legal wait"
    )
    print()
    print(f"| implementation | best of {args.repeat}: µs/hand | hands/s | time ÷ majiang wait_fans | agrees |")
    print("|---|---:|---:|---:|---|")
    base = min(seconds[contenders[0][0]])
    for name, _, _ in contenders:
        best = min(seconds[name])
        agree = "yes" if results[name] == reference else "NO"
        print(f"| {name} | {best / n * 1e6:,.1f} | {n / best:,.0f} | **{best / base:.1f}** | {agree} |")
    print()
    print(
        f"fan_shanten of the same hands (one pass, fresh context each): {fan_shanten_s / n * 1e6:,.0f} µs/hand; "
        f"{sum(1 for v, _e in fs if v == 0)} at 0, {sum(1 for v, e in fs if v > 0 and e)} exact above 0, "
        f"{sum(1 for _v, e in fs if not e)} lower bounds"
    )
    return 0 if all(results[name] == reference for name in results) else 1


if __name__ == "__main__":
    sys.exit(main())
