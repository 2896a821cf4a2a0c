"""``majiang arena``: a bot league in the IJCAI 2020 competition's duplicate format (docs/arena.md)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from majiang.bots.base import kinds_help
from majiang.cli.progress import bar
from majiang.rulebook import DEFAULT, FAULT_RULES, JUDGE_FAULTS, fan_names

PLACES = ("第一 1st", "第二 2nd", "第三 3rd", "第四 4th")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "arena",
        help="a Swiss league between bots in IJCAI 2020's duplicate format (复式赛制)",
        description=textwrap.fill(
            "A league between bots as the IJCAI 2020 mahjong competition ran it: Swiss rounds (瑞士制) of "
            "matches between four bots, round 1 drawn at random (--seed), later rounds grouped by the "
            "standings and passing over a group of four that has already met where another grouping "
            "exists. A match is 4 walls (prevalent wind E, S, W, N) each played in all 24 seatings of the "
            "four bots, 96 hands; the bots get 4/3/2/1 ranking points by their summed score (ties share). "
            "When the field is not a multiple of four, --filler bots make it up. The report gives each "
            "bot's ranking points, score per hand with a 95% confidence interval, win, deal-in and draw "
            "rates, faults by kind (timeout / illegal / crash), time per decision (mean, median and 99th "
            "percentile) and matches played, "
            "and every round's pairings.",
            79,
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="bots: " + kinds_help() + "; the same kind may enter more than once (eff, eff#2, …)\n\n"
        "faults: a timeout, an illegal answer or a crash ends the hand as Botzone's judge does (−30 for the "
        "offender, +10 for each other bot; --faults substitute plays a legal move instead); the report counts "
        "each bot's faults by kind.\n\n"
        "The same --seed gives the same report, but for the times.\n\nexamples:\n"
        "  majiang arena --bots fan,eff,rand,eff,fan --rounds 3 --seed 1\n"
        '  majiang arena --bots "mine=botzone:./mybot,fan,eff" --rounds 2 --rules botzone --time-limit 6\n'
        "  majiang arena --bots fan,eff,rand --filler rand --rounds 4 --json report.json\n"
        "  majiang arena --bots fan,eff,eff,rand --rounds 1 --json - | jq .standings",
    )
    p.add_argument(
        "--bots",
        required=True,
        metavar="A,B,C,…",
        help="the bots of the league, comma-separated; NAME=BOT names one (mine=botzone:./mybot)",
    )
    p.add_argument(
        "--rounds", type=int, required=True, metavar="R", help="Swiss rounds: each bot plays one match a round"
    )
    p.add_argument(
        "--seed",
        type=int,
        default=1,
        help="master seed: the round-1 draw, the walls and the bots' own randomness (default 1)",
    )
    p.add_argument(
        "--rules",
        choices=fan_names(),
        default=DEFAULT,
        help=f"ruleset, one scored in fans: {', '.join(fan_names())} (default {DEFAULT})",
    )
    p.add_argument(
        "--faults",
        choices=FAULT_RULES,
        default=JUDGE_FAULTS,
        help="how a bot's fault is scored: botzone (default, the IJCAI format: the hand ends, −30 / +10 each) "
        "or substitute (a legal move is played instead, the score unchanged)",
    )
    p.add_argument(
        "--filler",
        default="eff",
        metavar="BOT",
        help="the sample bot that fills the field to a multiple of four (default eff)",
    )
    p.add_argument("--json", metavar="OUT", help="write the JSON report to OUT ('-': print it instead of the tables)")
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="Botzone bots: seconds a turn, twice that for a bot's first run in a hand (default 1, as "
        "Botzone gives C/C++; botzone@SECONDS:COMMAND sets it for one bot)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    # cut-down matches for tests and quick tries; not the IJCAI format (the report records them)
    p.add_argument("--walls", type=int, default=4, help=argparse.SUPPRESS)
    p.add_argument("--seatings", type=int, default=24, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def _error(text: str) -> int:
    print(f"error: {text}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from majiang.arena import SEATING_CHOICES, League, run_league

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    filler = args.filler.strip()
    if args.time_limit is not None and not args.time_limit > 0:
        return _error("--time-limit must be positive")
    if args.json not in (None, "-") and not Path(args.json).parent.is_dir():
        return _error(f"--json {args.json}: no such folder")
    if len(bots) < 2:
        return _error(f"--bots needs at least two bots, e.g. fan,eff,rand (got {args.bots!r})")
    if args.rounds < 1:
        return _error("--rounds must be at least 1")
    if args.seatings not in SEATING_CHOICES:
        return _error(f"--seatings must be one of {', '.join(map(str, SEATING_CHOICES))}")
    kw: dict[str, Any] = {
        "rounds": args.rounds,
        "seed": args.seed,
        "rules": args.rules,
        "filler": filler,
        "walls": args.walls,
        "seatings": args.seatings,
        "time_limit": args.time_limit,
        "faults": args.faults,
    }
    league: League
    try:
        with bar("hands", show=not args.no_progress) as update:

            def tick(done: int, total: int, round_no: int) -> None:
                if update is not None:
                    update(done, total, f"round {round_no}/{args.rounds} · hands")

            league = run_league(bots, progress=tick, **kw)
    except ValueError as e:
        return _error(str(e))
    report = league.to_dict()
    if args.json == "-":
        print(json.dumps(report))
        return 0
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    _print_tables(report)
    return 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _print_tables(d: dict[str, Any]) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    con = Console()
    if not con.is_terminal:  # a file or a pipe: no terminal's width to fit, so no wrapped cells
        con.width = max(con.width, 136)
    fillers = sum(e["filler"] for e in d["entrants"])
    n = _count(len(d["entrants"]) - fillers, "bot") + (f" + {_count(fillers, 'filler')}" if fillers else "")
    t = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        title=f"联赛 league · {n} · {_count(d['rounds'], 'round')} · {d['rules']} · seed {d['seed']}\n"
        f"{_count(d['walls_per_match'], 'wall')} × {_count(d['seatings_per_match'], 'seating')} = "
        f"{d['hands_per_match']} hands a match",
    )
    cols = (
        "名次\nrank",
        "选手\nbot",
        "积分\npoints",
        "场\nmatches",
        "每盘得分\nscore/hand ± 95% CI",
        "和牌\nwin %",
        "点炮\ndeal-in %",
        "荒\ndraw %",
        "犯规\nfaults T/I/C",
        "用时 ms\nmean",
        "\np50",
        "\np99",
    )
    for c in cols:
        t.add_column(c, justify="left" if "bot" in c else "right")
    for s in d["standings"]:
        lo, hi = s["score_per_hand_ci95"]
        ms = s["time_per_decision_ms"]
        t.add_row(
            str(s["rank"]),
            s["bot"] + ("*" if s["filler"] else ""),
            f"{s['points']:g}",
            str(s["matches"]),
            f"{s['score_per_hand']:+.2f} ± {(hi - lo) / 2:.2f}",
            f"{100 * s['win_rate']:.1f}",
            f"{100 * s['deal_in_rate']:.1f}",
            f"{100 * s['draw_rate']:.1f}",
            "/".join(str(s["fault_kinds"][k]) for k in ("timeout", "illegal", "crash")),
            f"{ms['mean']:.2f}",
            f"{ms['p50']:.2f}",
            f"{ms['p99']:.2f}",
        )
    if any(s["filler"] for s in d["standings"]):
        t.caption = f"* 补位 filler ({d['filler']}): makes the field a multiple of four"
    con.print(t)
    p = Table(box=box.SIMPLE_HEAD, show_edge=False, title="对阵 pairings (bot score · points)")
    p.add_column("轮 round", justify="right")
    p.add_column("桌 table", justify="right")
    for c in PLACES:
        p.add_column(c)
    for r in d["pairings"]:
        for m in r["matches"]:
            line = sorted(zip(m["bots"], m["scores"], m["points"], strict=True), key=lambda x: (-x[2], -x[1]))
            p.add_row(str(r["round"]), str(m["table"]), *(f"{b} {sc:+d} · {pt:g}" for b, sc, pt in line))
    con.print(p)
    repeats = sum(r["repeats"] for r in d["pairings"])
    con.print(
        f"{d['seconds']:.1f} s · groups that had met before {repeats}"
        + (" (no other grouping exists)" if repeats else "")
    )
