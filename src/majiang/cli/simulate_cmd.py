"""``majiang simulate``: many hands between bots, with statistics."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from majiang.bots.base import kinds_help
from majiang.rulebook import DEFAULT, FAULT_RULES, choices

if TYPE_CHECKING:
    from majiang.sim import SimResult


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many hands between bots and report per-seat statistics",
        description="Play hands between four bots on the real engine (every win scored by the fan calculator) "
        "and report, per seat: win rate, deal-in rate, average fan on wins, average score per hand "
        "with a 95% confidence interval; the draw rate and hands per second.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="bots: " + kinds_help() + "\n\nexamples:\n"
        "  majiang simulate --hands 1000 --seed 1 --bots fan,eff,eff,rand\n"
        "  majiang simulate --hands 960 --bots fan,eff,rand,rand --duplicate --json\n"
        "  majiang simulate --hands 960 --bots best,fan,fan,fan --duplicate\n"
        "  majiang simulate --hands 20 --log logs/ && majiang replay logs/hand-000000.jsonl --verify",
    )
    p.add_argument("--hands", type=int, default=100, help="number of hands (default 100)")
    p.add_argument("--seed", type=int, default=1, help="master seed: the same seed plays the same walls")
    p.add_argument("--bots", default="fan,eff,eff,rand", help="four bots, comma-separated (default fan,eff,eff,rand)")
    p.add_argument("--rules", default=DEFAULT, choices=choices(), help=f"ruleset (default {DEFAULT})")
    p.add_argument(
        "--faults",
        choices=FAULT_RULES,
        help="how a bot's fault (timeout, illegal answer, crash) is scored: botzone (the hand ends, −30 for "
        "the offender, +10 for each other seat) or substitute (a legal move is played instead, the score "
        "unchanged); default: the ruleset's (botzone for --rules botzone, substitute for gb)",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play each wall in all 24 seatings of the bots (hands should be a multiple of 24; "
        "otherwise the last wall is played in only some seatings, with a warning)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="Botzone bots: seconds a turn, twice that for a bot's first run in a hand (default 1, as "
        "Botzone gives C/C++; botzone@SECONDS:COMMAND sets it for one bot)",
    )
    p.add_argument("--log", metavar="DIR", help="write every hand's JSON-lines log into DIR")
    p.add_argument("--verify", action="store_true", help="replay every hand from its log and count mismatches")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="play in N processes (chunks of 96 hands; the same results as one worker)",
    )
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the chunks on a Ray cluster (auto, local or ray://HOST:PORT; needs majiang[ray])",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


SEATINGS = 24  # the orders of four bots: --duplicate plays every wall in each


def _multiples(hands: int) -> str:
    below = hands - hands % SEATINGS
    above = below + SEATINGS
    return f"{below} or {above}" if below else str(above)


def run(args: argparse.Namespace) -> int:
    bots = _bots(args)
    if bots is None:
        return 2
    try:
        res = _simulate(args, bots)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    d = res.to_dict()
    if args.json:
        print(json.dumps(d))
        return 0
    _print_table(args, d)
    return 0


def _bots(args: argparse.Namespace) -> list[str] | None:
    """The four bot specs, with --time-limit applied; None (said on stderr) when an option is wrong."""
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) != 4:
        print(f"error: --bots needs four bots, e.g. fan,eff,eff,rand (got {args.bots!r})", file=sys.stderr)
        return None
    if args.time_limit is not None:
        if not args.time_limit > 0:
            print("error: --time-limit must be positive", file=sys.stderr)
            return None
        from majiang.bots.botzone import with_time_limit

        bots = [with_time_limit(b, args.time_limit) for b in bots]
    if args.hands <= 0:
        print("error: --hands must be positive", file=sys.stderr)
        return None
    if args.duplicate and args.hands % SEATINGS:
        print(
            f"warning: --duplicate plays each wall in {SEATINGS} seatings; --hands {args.hands} is not a multiple "
            f"of {SEATINGS}, so the last wall is played in only {args.hands % SEATINGS} of them and the luck of "
            f"the deal does not cancel out (use {_multiples(args.hands)})",
            file=sys.stderr,
        )
    if args.workers < 1:
        print("error: --workers must be at least 1", file=sys.stderr)
        return None
    return bots


def _simulate(args: argparse.Namespace, bots: list[str]) -> SimResult:
    """The simulation's result, with a progress bar on a terminal (unless --no-progress)."""
    from majiang.sim import simulate

    kwargs: dict[str, Any] = dict(
        rules=args.rules,
        faults=args.faults,
        duplicate=args.duplicate,
        log_dir=args.log,
        verify=args.verify,
        workers=args.workers,
        ray_address=args.ray,
    )
    from majiang.cli.progress import hands_bar

    with hands_bar(args.hands, show=not args.no_progress) as update:
        return simulate(args.hands, args.seed, bots, **kwargs, progress=update)


def _print_table(args: argparse.Namespace, d: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    t = Table(
        title=f"{d['hands']} hands · {args.rules} · {'duplicate' if args.duplicate else 'plain'} · "
        f"{d['hands_per_s']:.0f} hands/s"
    )
    for col in ("seat", "bot", "win %", "deal-in %", "fan on win", "score/hand", "95% CI", "faults T/I/C"):
        t.add_column(col, justify="right")
    for i, s in enumerate(d["seats"]):
        lo, hi = s["avg_score_ci95"]
        t.add_row(
            str(i),
            s["bot"],
            f"{100 * s['win_rate']:.1f}",
            f"{100 * s['deal_in_rate']:.1f}",
            f"{s['avg_fan_on_win']:.1f}",
            f"{s['avg_score']:+.2f}",
            f"[{lo:+.2f}, {hi:+.2f}]",
            "/".join(str(s["faults"][k]) for k in ("timeout", "illegal", "crash")),
        )
    con.print(t)
    con.print(
        f"draws {100 * d['draw_rate']:.1f}% · illegal actions {d['illegal_actions']} · false wins "
        f"{d['false_wins']} · zero-sum violations {d['zero_sum_violations']}"
        + (f" · replay mismatches {d['replay_mismatches']}" if args.verify else "")
    )
