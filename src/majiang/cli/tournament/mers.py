"""``majiang tournament mers``: the EMA's ranking (MERS) across several events' results."""

from __future__ import annotations

import argparse
import json
from datetime import date
from pathlib import Path
from typing import Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, wrap


def register(tsub: Any) -> None:
    c = tsub.add_parser(
        "mers",
        help="rank players across events by the EMA's ranking (MERS), from EMA results files",
        description=describe(
            "MERS (Mahjong European Ranking System, docs/tournament.md): each event gives a base rank "
            "1000·(n − place)/(n − 1); a player's ranking is the mean of the weighted average of all his "
            "results (fewer than five: zeros added) and of his best three; results count in full for a "
            "year, ⅔ in the second, ⅓ in the third.  Each SOURCE is an EMA results file (as 'majiang "
            "tournament export EVENT --format ema' writes it, or the EMA's own) or db:EVENT for an event "
            "in the database, then @DATE (when it was held) and optionally *WEIGHT (its MERS weight, "
            "default 1).  Players are matched by EMA number, else by name."
        ),
        formatter_class=RAW,
        epilog="examples:\n"
        "  majiang tournament mers open-2025.csv@2025-06-14*2 db:cup@2026-12-05 -o mers.html\n"
        "  majiang tournament mers a.csv@2025-03-01 b.csv@2026-01-10 --on 2026-12-31 --json",
    )
    c.add_argument("sources", nargs="+", metavar="SOURCE@DATE[*WEIGHT]", help="an EMA results file or db:EVENT")
    c.add_argument("--on", default=None, metavar="YYYY-MM-DD", help="the ranking's date (default today)")
    c.add_argument("-o", "--out", default=None, metavar="FILE", help="write the ranking as an HTML page")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.add_argument("--db", default=None, help=DB_HELP)
    c.set_defaults(func=cmd_mers)


def _date(text: str, what: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CliError(f"{what}: {text!r} is not a date like 2026-05-31") from None


def _source(spec: str) -> tuple[str, date, float]:
    where, at, rest = spec.rpartition("@")
    if not at:
        raise CliError(f"{spec!r}: add when the event was held, e.g. {spec}@2026-05-31 (and *2 for a weight of 2)")
    held, _, weight = rest.partition("*")
    try:
        w = float(weight) if weight else 1.0
    except ValueError:
        raise CliError(f"{spec!r}: the weight after * must be a number, e.g. *2") from None
    return where, _date(held, spec), w


@wrap
def cmd_mers(args: argparse.Namespace) -> int:
    from majiang.tournament.adapters.mers_files import MersFileError, mers_html, read_ema_results
    from majiang.tournament.mers import rank_players

    on = _date(args.on, "--on") if args.on else date.today()
    results, events = [], []
    for spec in args.sources:
        where, held, weight = _source(spec)
        if where.startswith("db:"):
            from majiang.tournament.adapters.output import exports

            event, by_group = open_repo(args).results(where[3:])
            text, name = exports.ema_csv(next(iter(by_group.values()))), event.name or event.id
        else:
            path = Path(where)
            if not path.is_file():
                raise CliError(f"{where}: no such file (an EMA results CSV, or db:EVENT)")
            text, name = path.read_text(encoding="utf-8"), path.stem
        try:
            got = read_ema_results(text, name, held, weight)
        except MersFileError as e:
            raise CliError(str(e)) from None
        results += got
        events.append((name, held, weight, len(got)))
    ranking = rank_players(results, on)
    if args.out:
        Path(args.out).write_text(mers_html(ranking, on, events), encoding="utf-8")
        print(f"wrote the MERS ranking of {len(ranking)} players ({len(events)} events) to {args.out}")
    if args.json:
        print(json.dumps([_row(r) for r in ranking], ensure_ascii=False))
    elif not args.out:
        _print(ranking, on)
    return 0


def _row(r: Any) -> dict[str, Any]:
    return {
        "rank": r.rank,
        "player": r.player,
        "name": r.name,
        "mers": round(r.mers, 2),
        "part_a": round(r.part_a, 2),
        "part_b": round(r.part_b, 2),
        "missing": r.missing,
        "results": [
            {
                "event": c.result.event,
                "held": c.result.held.isoformat(),
                "place": c.result.place,
                "players": c.result.players,
                "base_rank": round(c.result.base_rank, 2),
                "weight": c.result.weight,
                "age_factor": round(c.factor, 4),
            }
            for c in r.counted
        ],
    }


def _print(ranking: Any, on: date) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"MERS 排名 · ranking on {on.isoformat()}")
    for col, just in (
        ("名次 Rank", "right"),
        ("选手 Player", "left"),
        ("MERS", "right"),
        ("A", "right"),
        ("B", "right"),
        ("赛事 Events", "right"),
    ):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in ranking:
        t.add_row(str(r.rank), r.name, f"{r.mers:.2f}", f"{r.part_a:.2f}", f"{r.part_b:.2f}", str(len(r.counted)))
    Console().print(t)
