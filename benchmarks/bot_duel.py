"""Bot strength in duplicate play, with a confidence interval that respects the duplicate format, and
the decision time of the first bot.

Plays exactly the hands of ``majiang simulate --duplicate`` (the same walls from ``--seed``, every wall
in all 24 seatings, the same dealers and prevalent winds) and reports each bot's mean score a hand,
the first bot's margin over the others' mean, and its 95 % CI taken over walls: the 24 hands of one
wall are not independent (with deterministic bots several seatings even repeat one game), so the
per-hand CI that ``simulate`` prints is too narrow for a margin.  The bots shipped are deterministic
and keep nothing from one hand to the next, so seatings that put the same kinds in the same chairs
replay one game: it is played once and counted for each of them (``--no-dedupe`` plays all 24).
Decision times are CPU seconds (``time.process_time``) of every decision of the first bot.  Without
``--seed`` one is drawn with ``secrets.randbelow`` and printed.  The hands run on the engine the ruleset
picks (``new_hand``: the compiled core for MCR, where ``rand``, ``eff``, ``fan`` and ``ev``/``best``
decide in C with the same choices as in Python; ``MAJIANG_ENGINE=python`` forces the reference), so the
first bot's decision times are its C twin's where it has one.  Each bot's score is given with its
95 % CI over walls too (for two-against-two duels such as ``best,fan,best,fan``).

    .venv/bin/python benchmarks/bot_duel.py --hands 960 --bots best,fan,fan,fan
    .venv/bin/python benchmarks/bot_duel.py --hands 12000 --bots net:new.npz,eff,eff,eff --against net

``--workers N`` shares the walls between N processes, in small batches of walls, each with bots of its
own: the figures are one process's for bots that keep nothing from hand to hand (all but ``rand`` and
``search``, whose random streams then differ); the decision times are gathered from all of them.  On
a terminal a progress bar counts the hands (``--no-progress``: none).

``--against BOT`` plays the same walls again with BOT in the first bot's chairs and gives the
difference of the two margins with a CI over the per-wall differences: the luck of a wall, which
both share, cancels, so two versions of a bot are told apart in far fewer hands.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import math
import os
import platform
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from itertools import permutations
from typing import Any

from host import cpu_name

from majiang.bots.base import Bot, make_bot
from majiang.bots.incore import core_choice
from majiang.cli.progress import hands_bar
from majiang.engine.compiled import new_hand
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand


class Timed:
    """A bot whose every decision is timed in CPU seconds."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        t = time.process_time()
        a = core_choice(self.bot, view, legal)
        self.times.append(time.process_time() - t)
        return a


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95 % confidence interval."""
    k = len(xs)
    mean = sum(xs) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(k - 1, 1))
    return mean, 1.96 * sd / math.sqrt(k)


def paired(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float]:
    """How much more ``a``'s first bot gained over its opponents than ``b``'s on the same walls: the
    mean of the per-wall differences of the two duels' margins and its CI half-width (the walls' luck,
    shared by both, cancels)."""
    if a["seed"] != b["seed"] or a["walls"] != b["walls"]:
        raise ValueError("a paired comparison needs two duels on the same walls (seed and hands)")
    return mean_ci([x - y for x, y in zip(a["wall_margins"], b["wall_margins"], strict=True)])


def play_walls(
    seed: int,
    specs: list[str],
    rules: str,
    dedupe: bool,
    walls: list[tuple[int, int, int]],
    on_wall: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``walls`` (wall number, the first hand's number, its seatings) with bots of its own: each
    wall's mean score a seat, the wins and deal-ins by bot, the illegal actions and the first bot's
    decision times; ``on_wall(hands)`` after each wall."""
    ruleset = make_ruleset(rules)
    players: list[Any] = [make_bot(spec, seed * 10 + i, rules=rules) for i, spec in enumerate(specs)]
    players[0] = Timed(players[0])
    master = seed.to_bytes(8, "big", signed=True)
    per_wall: list[tuple[int, list[float]]] = []
    wins = [0] * 4
    deal_ins = [0] * 4
    illegal = 0
    for wall_no, first, seatings in walls:
        wall_seed = hashlib.sha256(master + wall_no.to_bytes(8, "big")).digest()
        sums = [0.0] * 4
        played: dict[tuple[str, ...], tuple[list[int], int | None, int | None]] = {}
        for k, seating in enumerate(list(permutations(range(4)))[:seatings]):
            kinds = tuple(specs[seating[s]] for s in range(4))
            if kinds not in played or not dedupe:
                hand = new_hand(ruleset, wall_seed, dealer=wall_no % 4, prevalent=(wall_no // 4) % 4, hand_no=first + k)

                def bad(_seat: int, _kind: str) -> None:
                    nonlocal illegal
                    illegal += 1

                play_hand(hand, [players[seating[s]] for s in range(4)], bad)
                w = hand.win
                played[kinds] = (list(hand.deltas), w.seat if w else None, w.discarder if w else None)
            deltas, winner, discarder = played[kinds]
            for s in range(4):
                sums[seating[s]] += deltas[s]
            if winner is not None:
                wins[seating[winner]] += 1
                if discarder is not None:
                    deal_ins[seating[discarder]] += 1
        per_wall.append((wall_no, [x / seatings for x in sums]))
        if on_wall:
            on_wall(seatings)
    return {"per_wall": per_wall, "wins": wins, "deal_ins": deal_ins, "illegal": illegal, "times": players[0].times}


def duel(
    hands: int,
    seed: int,
    specs: list[str],
    rules: str = "gb",
    dedupe: bool = True,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The duel's figures (see ``main``); ``progress(hands done)`` as the walls are played."""
    walls = [(w, 24 * w, min(24, hands - 24 * w)) for w in range((hands + 23) // 24)]
    t0 = time.perf_counter()
    played = 0

    def count(n: int) -> None:
        nonlocal played
        played += n
        if progress:
            progress(played)

    if workers > 1:  # batches of walls, each with bots of its own, shared by the workers
        size = max(1, len(walls) // (16 * workers))
        batches = [walls[i : i + size] for i in range(0, len(walls), size)]
        with ProcessPoolExecutor(workers) as pool:
            jobs = {pool.submit(play_walls, seed, specs, rules, dedupe, b): b for b in batches}
            parts = []
            for job in as_completed(jobs):
                parts.append(job.result())
                count(sum(n for _, _, n in jobs[job]))
    else:
        parts = [play_walls(seed, specs, rules, dedupe, walls, count)]
    per_wall = [row for _, row in sorted(x for p in parts for x in p["per_wall"])]
    wins = [sum(p["wins"][i] for p in parts) for i in range(4)]
    deal_ins = [sum(p["deal_ins"][i] for p in parts) for i in range(4)]
    done = sum(n for _, _, n in walls)
    margins = [w[0] - sum(w[1:]) / 3 for w in per_wall]
    k = len(margins)
    mean, half = mean_ci(margins)
    times: list[float] = sorted(t for p in parts for t in p["times"])

    def q(f: float) -> float:
        return times[min(len(times) - 1, int(f * len(times)))]

    return {
        "hands": done,
        "walls": k,
        "seed": seed,
        "bots": specs,
        "illegal_actions": sum(p["illegal"] for p in parts),
        "seconds": time.perf_counter() - t0,
        "score": [sum(w[i] for w in per_wall) / k for i in range(4)],
        "score_ci95": [mean_ci([w[i] for w in per_wall])[1] for i in range(4)],
        "win_rate": [w / done for w in wins],
        "deal_in_rate": [d / done for d in deal_ins],
        "margin": mean,
        "margin_ci95": [mean - half, mean + half],
        "wall_margins": margins,
        "per_wall": per_wall,
        "decision_s": {"n": len(times), "median": q(0.5), "p99": q(0.99), "max": times[-1]},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=960, help="hands, a multiple of 24 (default 960)")
    ap.add_argument("--bots", default="best,fan,fan,fan", help="four bots; the first is measured")
    ap.add_argument("--seed", type=int, default=None, help="master seed (default: drawn and printed)")
    ap.add_argument("--rules", default="gb")
    ap.add_argument("--no-dedupe", action="store_true", help="play all 24 seatings even where they repeat a game")
    ap.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes sharing the walls (default 1); each has its own bots, so a bot that keeps state from"
        " hand to hand (rand's random stream, search's worlds) plays other draws than in one process",
    )
    ap.add_argument(
        "--against",
        metavar="BOT",
        help="also play the same walls with BOT in the first bot's chairs and give the difference of the two"
        " margins with its CI (paired over walls: far narrower than comparing the two intervals)",
    )
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    specs = args.bots.split(",")

    def run(bots: list[str]) -> dict[str, Any]:
        with hands_bar(args.hands, show=not args.no_progress) as update:
            return duel(args.hands, seed, bots, args.rules, not args.no_dedupe, args.workers, update)

    r = run(specs)
    print(
        f"# bot duel · {datetime.date.today()} · {cpu_name()} · "
        f"{os.cpu_count()} cores · Python {platform.python_version()}"
    )
    print(
        f"duplicate, {r['hands']} hands ({r['walls']} walls × 24 seatings), seed {seed}, {r['seconds']:.0f} s; "
        f"illegal actions {r['illegal_actions']}"
    )
    print("| bot | win rate | deal-in rate | score/hand | 95 % CI (over walls) |\n|---|---:|---:|---:|---|")
    for i, spec in enumerate(specs):
        sc, half = r["score"][i], r["score_ci95"][i]
        print(
            f"| {spec} | {r['win_rate'][i]:.3f} | {r['deal_in_rate'][i]:.3f} | {sc:+.2f} | "
            f"[{sc - half:+.2f}, {sc + half:+.2f}] |"
        )
    for spec in dict.fromkeys(specs):  # a bot in two chairs (two against two): its chairs' mean a hand
        chairs = [i for i, x in enumerate(specs) if x == spec]
        if len(chairs) > 1:
            sc, half = mean_ci([sum(w[i] for i in chairs) / len(chairs) for w in r["per_wall"]])
            where = ", ".join(map(str, chairs))
            print(f"{spec} in chairs {where}: {sc:+.2f} a hand, 95 % CI [{sc - half:+.2f}, {sc + half:+.2f}]")
    lo, hi = r["margin_ci95"]
    d = r["decision_s"]
    print(
        f"\nmargin of {specs[0]} over the others' mean: {r['margin']:+.2f} a hand, 95 % CI [{lo:+.2f}, {hi:+.2f}] "
        f"(over walls)"
    )
    print(
        f"{specs[0]} decision time (CPU): median {d['median'] * 1e3:.2f} ms, p99 {d['p99'] * 1e3:.1f} ms, "
        f"max {d['max'] * 1e3:.1f} ms over {d['n']} decisions"
    )
    if args.against:
        other = run([args.against, *specs[1:]])
        diff, half = paired(r, other)
        print(
            f"margin of {args.against} on the same walls: {other['margin']:+.2f}; {specs[0]} − {args.against}: "
            f"{diff:+.2f} a hand, 95 % CI [{diff - half:+.2f}, {diff + half:+.2f}] (paired over walls)"
        )


if __name__ == "__main__":
    main()
