"""``majiang tournament``: run an MCR competition from the command line (docs/tournament.md).

Events live in the database (``--db``; default the SQLite file var/majiang.db or $MAJIANG_DB).  One module
per command group (events, entry, absence, online, results, demo), their shared helpers in
:mod:`.common`; heavy imports happen inside the commands."""

from __future__ import annotations

import sys
from typing import Any

from majiang.cli.parser import Parser
from majiang.cli.tournament import absence, clock, demo, entry, events, mers, online, phases, results, walls
from majiang.cli.tournament.common import RAW, describe, usage


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="run a competition: register, draw, enter hands, standings, score sheets, exports",
        description=describe(
            "MCR competitions by the 1998 national rules: register players and teams, draw sessions "
            "(perfect designs: no pair meets twice), enter each hand as the referee writes it down, and "
            "print standings, score sheets (比赛成绩记录表) and exports.  Standard scores: 1998 (the "
            "session ranked over the whole group, N−k) or 4210 (per table)."
        ),
        formatter_class=RAW,
        epilog="a 16-player team event, start to finish:\n"
        '  majiang tournament new "Spring Cup" --count 16 --teams 4 --sessions 4 --seed 7\n'
        "  majiang tournament draw spring-cup --session 1\n"
        "  majiang tournament enter spring-cup --session 1 --table 1 --hand 1 --winner E --discarder W "
        "--fans 清一色,平和\n"
        "  majiang tournament enter spring-cup --session 1 --table 2 --totals 40,-8,-16,-16\n"
        "  majiang tournament standings spring-cup\n"
        "  majiang tournament export spring-cup --format pdf --session 1 --table 1 -o sheet-1-1.pdf\n"
        "  majiang tournament demo --players 16 --teams 4 --sessions 4 --seed 1 --json\n\n"
        "run 'majiang tournament COMMAND --help' for each command's options.",
    )
    tsub = p.add_subparsers(dest="tcommand", metavar="COMMAND")
    p.set_defaults(func=lambda args: usage(p))

    # the order --help lists them
    for group in (events, phases, entry, clock, absence, online, walls, results, mers, demo):
        group.register(tsub)


def main(argv: list[str] | None = None) -> int:
    """``python -m majiang.cli.tournament …`` (the same as ``majiang tournament …``)."""
    parser = Parser(prog="majiang")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    register(sub)
    args = parser.parse_args(["tournament", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args) or 0)
