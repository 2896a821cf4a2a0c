"""``majiang tournament walls``: printed wall set-ups for a 复式 (duplicate) session at physical tables."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, wrap

HANDS = 16


def register(tsub: Any) -> None:
    c = tsub.add_parser(
        "walls",
        help="print the wall set-ups of a duplicate (复式) session for physical tables",
        description=describe(
            "复式 at physical tables: every table builds hand k's wall from the same sheet, so every table "
            "plays the same walls.  The session becomes a duplicate one (a secret session seed, stored with "
            "the event; the public standings are sealed until all its tables are done) unless it is one "
            "already; a session opened online without duplicate walls is refused.  The HTML has one page "
            "per table and hand: the dice to set (the dealer's two, then the thrower's two) and each "
            "wall, stack by stack from its owner's right end, the top tile over the bottom one.  Keep the "
            "sheets from the players until the hand is built: they show the wall."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament walls cup --session 3 -o walls-3.html\n"
        "  majiang tournament walls cup --session 3 --hands 1-4 --tables 1,2\n"
        "  majiang tournament walls cup --session 3 --text",
    )
    c.add_argument("event", help="event id")
    c.add_argument("--session", type=int, required=True, metavar="K", help="the session (1-based)")
    c.add_argument("--hands", default=f"1-{HANDS}", metavar="A-B", help=f"hands to print (default 1-{HANDS})")
    c.add_argument("--tables", default=None, metavar="T,…", help="tables to print a set for (default: all drawn)")
    c.add_argument("-o", "--out", default=None, metavar="FILE", help="write the HTML here (default: stdout)")
    c.add_argument("--text", action="store_true", help="plain text (tile notation) instead of HTML")
    c.add_argument("--json", action="store_true", help="JSON: the dice, break and walls of each hand")
    c.add_argument("--db", default=None, help=DB_HELP)
    c.set_defaults(func=cmd_walls)


def _hands(text: str) -> list[int]:
    a, _, b = text.partition("-")
    try:
        lo, hi = int(a), int(b or a)
    except ValueError:
        raise CliError(f"--hands {text!r}: give a hand or a range like 1-16") from None
    if not 1 <= lo <= hi <= HANDS:
        raise CliError(f"--hands {text!r}: hands are 1 to {HANDS}")
    return list(range(lo, hi + 1))


@wrap
def cmd_walls(args: argparse.Namespace) -> int:
    from majiang.tournament.adapters.walls import duplicate_setups, new_duplicate, setups_html, setups_text
    from majiang.tournament.sealing import duplicate_info

    repo = open_repo(args)
    event = repo.load(args.event)
    drawn = [g for g in event.groups if len(g.sessions) >= args.session]
    if not drawn:
        raise CliError(f"session {args.session} of {args.event} is not drawn yet (majiang tournament draw …)")
    online = [link for link in repo.hall_tables(args.event).values() if link[2] == args.session]
    if online and duplicate_info(event, args.session) is None:
        raise CliError(f"session {args.session} was opened online without duplicate walls; it cannot be changed now")
    n_tables = sum(len(g.sessions[args.session - 1].tables) for g in drawn)
    if args.tables:
        try:
            tables = sorted({int(x) for x in args.tables.split(",")})
        except ValueError:
            raise CliError(f"--tables {args.tables!r}: give table numbers like 1,2,3") from None
        if tables[0] < 1 or tables[-1] > n_tables:
            raise CliError(f"--tables {args.tables!r}: session {args.session} has tables 1 to {n_tables}")
    else:
        tables = list(range(1, n_tables + 1))
    dup = new_duplicate(repo, args.event, args.session)
    setups = duplicate_setups(event.rules, bytes.fromhex(dup["seed"]), _hands(args.hands))
    if args.json:
        out = json.dumps([s.to_dict() for s in setups])
    elif args.text:
        out = setups_text(setups)
    else:
        out = setups_html(event.name, args.session, setups, tables)
    if args.out:
        Path(args.out).write_text(out, encoding="utf-8")
        print(f"wrote {len(setups)} hands × {len(tables)} tables to {args.out}")
    else:
        print(out)
    return 0
