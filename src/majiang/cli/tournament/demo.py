"""``majiang tournament demo``: a whole event played by bots on the game engine."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from majiang.cli.progress import bar
from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, fmt_score, open_repo, wrap


def register(tsub: Any) -> None:
    m = tsub.add_parser(
        "demo",
        help="a whole event played by bots on the game engine",
        description=describe(
            "Register, schedule, play every table's 16 hands on the real engine with bots (the 1998 seat "
            "changes), score and rank.  Deterministic for a seed and a choice of bots.  --json prints "
            "{sessions: [{tables: [{players, session_scores, standard_scores}]}], standings: [{player, team, "
            "standard_total, match_total, rank}], teams: [{team, standard_total, rank}], repeat_meetings}."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament demo --players 16 --teams 4 --sessions 4 --seed 1 --json\n"
        "  majiang tournament demo --players 28 --teams 7 --sessions 6 --scheme 4210 --bots fan\n"
        "  majiang tournament demo --save --db var/majiang.db   (then see it at /tournaments/demo-1)",
    )
    m.add_argument("--players", type=int, default=16, help="players, a multiple of 4 (default 16)")
    m.add_argument("--teams", type=int, default=4, help="teams of consecutive players; 0 = individuals (default 4)")
    m.add_argument("--sessions", type=int, default=4, help="sessions (default 4)")
    m.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    m.add_argument("--scheme", choices=("1998", "4210"), default="1998", help="standard scores (default 1998)")
    m.add_argument(
        "--bots",
        default="auto",
        help="bot kind for every player (rand, eff, fan, ev, best), or a comma list dealt to players "
        "P01, P02 … in turn; auto (default) = the strongest installed (fan, then eff, then rand)",
    )
    m.add_argument("--json", action="store_true", help="print the JSON result")
    m.add_argument("--save", action="store_true", help="also store the event in the database (id demo-SEED)")
    m.add_argument("--no-progress", action="store_true", help="no progress bar")
    m.add_argument("--db", default=None, help=DB_HELP)
    m.set_defaults(func=cmd_demo)


# ---- demo ----------------------------------------------------------------------------------------
def best_bot() -> str:
    import importlib

    for kind, module in (("fan", "majiang.bots.fan"), ("eff", "majiang.bots.efficiency")):
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        return kind
    return "rand"


@wrap
def cmd_demo(args: argparse.Namespace) -> int:
    from majiang.tournament.adapters.bridge import engine_play_session
    from majiang.tournament.demo import build_demo, result_json

    if args.players <= 0 or args.players % 4:
        raise CliError(f"--players {args.players}: a multiple of 4 (tables of four)")
    if args.teams and (args.teams < 0 or args.players % args.teams or args.players // args.teams > 4):
        raise CliError(
            f"--teams {args.teams}: {args.players} players must split into teams of at most 4 "
            f"(e.g. --teams {args.players // 4}), or 0 for individuals"
        )
    if args.sessions < 1:
        raise CliError("--sessions must be at least 1")
    kinds = _bot_kinds(args)
    width = max(2, len(str(args.players)))
    ids = [f"P{i:0{width}d}" for i in range(1, args.players + 1)]
    bots: Any = kinds[0] if len(kinds) == 1 else {pid: kinds[i % len(kinds)] for i, pid in enumerate(ids)}
    total = args.players // 4 * args.sessions
    with bar("tables", total, show=not args.no_progress) as update:
        played = [0]

        def table_done(_seating: Any) -> None:
            played[0] += 1
            if update is not None:
                update(played[0])

        event, result, plan = build_demo(
            args.players,
            args.teams,
            args.sessions,
            args.seed,
            args.scheme,
            play_session=engine_play_session(bots, progress=table_done),
        )
    data = result_json(result, plan.repeats)
    if args.save:
        from dataclasses import replace

        repo = open_repo(args)
        group = event.groups[0]
        saved = replace(
            event,
            name=f"Demo (seed {args.seed}, bots {','.join(kinds)})",
            extra={"seed": args.seed, "sessions": args.sessions, "plans": {group.id: plan.to_dict()}, "demo": True},
        )
        repo.save(saved)
        print(f"saved as event {saved.id} in {repo.db.url}", file=sys.stderr)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    _print_standings(args, kinds, plan, data)
    return 0


def _bot_kinds(args: argparse.Namespace) -> list[str]:
    """The bot kinds of --bots (``auto``: the best one installed), each checked by making one."""
    kinds = [k.strip() for k in (best_bot() if args.bots == "auto" else args.bots).split(",") if k.strip()]
    from majiang.bots.base import make_bot

    for k in set(kinds):
        try:
            make_bot(k, 0)
        except (ValueError, ImportError) as e:
            raise CliError(f"--bots {k!r}: {e}") from None
    return kinds


def _print_standings(args: argparse.Namespace, kinds: list[str], plan: Any, data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    t = Table(
        title=f"Demo: {args.players} players, {args.sessions} sessions, scheme {args.scheme}, bots "
        f"{','.join(kinds)}, seed {args.seed} · schedule {plan.method}, {plan.repeats} repeat meetings"
    )
    for col in ("名次 Rank", "选手 Player", "队 Team", "标准分 Std total", "比赛分 Score total"):
        t.add_column(col)
    for r in data["standings"]:
        t.add_row(str(r["rank"]), r["player"], r["team"] or "", fmt_score(r["standard_total"]), str(r["match_total"]))
    con.print(t)
    if data["teams"]:
        tt = Table(title="团体 Teams")
        for col in ("名次 Rank", "队 Team", "标准分 Std total"):
            tt.add_column(col)
        for r in data["teams"]:
            tt.add_row(str(r["rank"]), r["team"], fmt_score(r["standard_total"]))
        con.print(tt)
