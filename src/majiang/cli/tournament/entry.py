"""``majiang tournament enter``: a hand (or a session's totals, a penalty) as the referee writes it down."""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING, Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, wrap

if TYPE_CHECKING:
    from majiang.tournament.model import TableRecord
    from majiang.tournament.penalties import Penalty

WINDS = {
    "e": 0,
    "s": 1,
    "w": 2,
    "n": 3,
    "东": 0,
    "南": 1,
    "西": 2,
    "北": 3,
    "east": 0,
    "south": 1,
    "west": 2,
    "north": 3,
}
PENALTY_NAMES = {
    "错和": "false_win",
    "诈和": "deceptive_win",
    "故意诈和": "deliberate_false_win",
    "警告": "warning",
    "迟到": "late",
    "空叫": "empty_call",
    "违例": "misconduct",
}


def register(tsub: Any) -> None:
    e = tsub.add_parser(
        "enter",
        help="enter one hand, a table's quick totals, a penalty, or the time limit",
        description=describe(
            "Enter what the referee writes down.  Seats are the table's first-round seats: E S W N "
            "(东南西北), 0–3, or a player id.  A hand: --winner and --fans or --points, with --discarder "
            "for a win on a discard (none: self-drawn), --flowers apart; --winner none is an exhaustive "
            "draw.  A declared win below 8 fan is recorded as a false win (错和).  Hands are entered in "
            "order; --replace corrects one.  Quick events: --totals a,b,c,d (each seat's zero-sum hand "
            "total, or four session scores adding up to 2000).  --penalty without --hand is a table "
            "penalty (late arrival …)."
        ),
        formatter_class=RAW,
        epilog="penalty codes: false_win 错和, deceptive_win 诈和, deliberate_false_win 故意诈和, warning 警告, "
        "late 迟到 (0/10/20), empty_call 空叫 (0/5/10/20), misconduct 违例 (5…60)\n\nexamples:\n"
        "  majiang tournament enter cup --session 1 --table 3 --hand 1 --winner E --discarder N "
        '--fans "清一色,平和" --flowers 2\n'
        "  majiang tournament enter cup --session 1 --table 3 --hand 2 --winner S --points 12\n"
        "  majiang tournament enter cup --session 1 --table 3 --hand 3 --winner none --penalty W:false_win\n"
        "  majiang tournament enter cup --session 1 --table 3 --penalty N:late:10\n"
        "  majiang tournament enter cup --session 1 --table 4 --totals 520,490,500,490",
    )
    e.add_argument("event", help="event id")
    e.add_argument("--session", type=int, required=True, metavar="K", help="session number")
    e.add_argument("--table", type=int, required=True, metavar="T", help="table number in the session")
    e.add_argument("--hand", type=int, default=None, metavar="N", help="hand number 1–16")
    e.add_argument("--winner", default=None, metavar="W", help="E/S/W/N, 0–3, a player id, or none (荒牌)")
    e.add_argument("--discarder", default=None, metavar="D", help="who dealt in (omit for a self-draw)")
    e.add_argument("--fans", default=None, help="fan names, comma-separated (Chinese or English; 'name*2' twice)")
    e.add_argument("--points", type=int, default=None, metavar="P", help="fan points instead of names")
    e.add_argument("--flowers", type=int, default=0, metavar="F", help="flowers (counted apart; default 0)")
    e.add_argument(
        "--penalty", action="append", default=[], metavar="SEAT:CODE[:POINTS[:NOTE]]", help="a penalty (repeatable)"
    )
    e.add_argument("--totals", default=None, metavar="A,B,C,D", help="quick entry for the whole session")
    e.add_argument("--time-called", action="store_true", help="time was called: the table ends after its last hand")
    e.add_argument("--replace", action="store_true", help="correct a hand entered before")
    e.add_argument("--by", default=None, metavar="NAME", help=BY_HELP)
    e.add_argument("--db", default=None, help=DB_HELP)
    e.set_defaults(func=cmd_enter)

    u = tsub.add_parser(
        "undo",
        help="take back the last entry of a table, or any entry by its id",
        description=describe(
            "Reverse an entry: with --session K --table T the table's last entry not undone "
            "yet; with --entry ID that entry (ids from 'majiang tournament log').  A hand is "
            "taken back (a correction puts back the hand it replaced), quick totals cleared, a "
            "table penalty removed (of two equal ones the later), a time call withdrawn.  A hand "
            "with later hands is taken back only after them (or corrected with enter --replace). "
            " The undo is itself logged."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament undo cup --session 1 --table 3\n"
        "  majiang tournament log cup --session 1 --table 3\n  majiang tournament undo cup --entry 42",
    )
    u.add_argument("event", help="event id")
    u.add_argument("--session", type=int, default=None, metavar="K", help="session number")
    u.add_argument("--table", type=int, default=None, metavar="T", help="table number in the session")
    u.add_argument("--entry", type=int, default=None, metavar="ID", help="the entry to undo (see log)")
    u.add_argument("--by", default=None, metavar="NAME", help=BY_HELP)
    u.add_argument("--db", default=None, help=DB_HELP)
    u.set_defaults(func=cmd_undo)

    lg = tsub.add_parser(
        "log",
        help="every entry, correction and undo with who and when",
        description=describe(
            "The entries log (oldest first): id, when, who, session/table, what, and which undo reversed it."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament log cup\n  majiang tournament log cup --session 1 --table 3 --json",
    )
    lg.add_argument("event", help="event id")
    lg.add_argument("--session", type=int, default=None, metavar="K", help="only session K")
    lg.add_argument("--table", type=int, default=None, metavar="T", help="only table T")
    lg.add_argument("--json", action="store_true", help="print JSON")
    lg.add_argument("--db", default=None, help=DB_HELP)
    lg.set_defaults(func=cmd_log)


BY_HELP = "who enters it, for the log (default cli:$USER)"


def who(args: argparse.Namespace) -> str:
    if args.by:
        return str(args.by)
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


# ---- enter ---------------------------------------------------------------------------------------
def parse_seat(text: str, table: TableRecord) -> int:
    """E/S/W/N (东南西北), 0–3, or a player id of the table → the first-round seat index."""
    v = text.strip()
    if v.lower() in WINDS:
        return WINDS[v.lower()]
    if v in ("0", "1", "2", "3"):
        return int(v)
    if v in table.players:
        return table.players.index(v)
    raise CliError(
        f"seat {text!r}: use E/S/W/N (东南西北), 0–3, or one of this table's players {', '.join(table.players)}"
    )


def parse_fans(text: str) -> list[str]:
    out: list[str] = []
    for part in re.split(r"[,，、;]+", text):
        name = part.strip()
        if not name:
            continue
        m = re.fullmatch(r"(.+?)\s*[*×xX]\s*(\d+)", name)
        if m and not name.lower().endswith(" x"):
            out.extend([m.group(1).strip()] * int(m.group(2)))
        else:
            out.append(name)
    if not out:
        raise CliError("--fans is empty: give fan names such as 清一色,平和 (or --points P)")
    return out


def parse_penalty(text: str, table: TableRecord) -> Penalty:
    from majiang.tournament.penalties import Penalty, PenaltyCode

    parts = text.split(":", 3)
    if len(parts) < 2:
        raise CliError(f"--penalty {text!r}: write SEAT:CODE[:POINTS[:NOTE]], e.g. N:late:10 or W:false_win")
    seat = parse_seat(parts[0], table)
    code_text = PENALTY_NAMES.get(parts[1].strip(), parts[1].strip().lower())
    try:
        code = PenaltyCode(code_text)
    except ValueError:
        raise CliError(
            f"--penalty {text!r}: unknown code {parts[1]!r}; codes: {', '.join(c.value for c in PenaltyCode)}"
        ) from None
    try:
        points = int(parts[2]) if len(parts) > 2 and parts[2].strip() else 0
    except ValueError:
        raise CliError(f"--penalty {text!r}: POINTS must be a number") from None
    return Penalty(seat=seat, code=code, points=points, note=parts[3] if len(parts) > 3 else "")


def parse_totals(text: str) -> list[int]:
    try:
        totals = [int(x) for x in re.split(r"[,\s]+", text.strip()) if x]
    except ValueError:
        raise CliError(f"--totals {text!r}: four whole numbers, e.g. 40,-8,-16,-16") from None
    if len(totals) != 4:
        raise CliError(f"--totals needs four numbers (E,S,W,N), got {len(totals)}")
    if sum(totals) == 2000:  # session scores (each from 500)
        totals = [t - 500 for t in totals]
    if sum(totals) != 0:
        raise CliError(
            f"--totals add up to {sum(totals)}: give zero-sum hand totals (e.g. 40,-8,-16,-16) or four "
            "session scores adding up to 2000"
        )
    return totals


@wrap
def cmd_enter(args: argparse.Namespace) -> int:
    from majiang.tournament.scoring import enter_hand

    repo = open_repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    table = repo.table(event.id, args.session, args.table, group.id)
    hand_fields = args.winner is not None or args.fans is not None or args.points is not None or args.discarder
    did: list[str] = []
    result = None
    if args.totals is not None:
        if args.hand is not None or hand_fields:
            raise CliError("--totals is the whole session: leave out --hand, --winner, --fans, --points")
        result = repo.enter_totals(
            event.id, args.session, args.table, parse_totals(args.totals), group_id=group.id, by=who(args)
        )
        did.append("quick totals")
    elif args.hand is not None:
        if args.winner is None:
            raise CliError("--winner is needed: a seat (E/S/W/N, 0–3, player id) or none for an exhaustive draw")
        pens = [parse_penalty(x, table) for x in args.penalty]
        if args.winner.strip().lower() in ("none", "draw", "-", "荒牌", "荒"):
            if args.fans or args.points is not None or args.discarder or args.flowers:
                raise CliError("an exhaustive draw (--winner none) has no --discarder, --fans, --points or --flowers")
            hand = enter_hand(args.hand, penalties=pens, rules=event.rules)
        else:
            if (args.fans is None) == (args.points is None):
                raise CliError('give the fans as --fans "清一色,平和" or their total as --points P (one of them)')
            winner = parse_seat(args.winner, table)
            discarder = parse_seat(args.discarder, table) if args.discarder else None
            fans = parse_fans(args.fans) if args.fans is not None else ()
            hand = enter_hand(
                args.hand,
                winner,
                discarder,
                fans=fans,
                points=args.points,
                flowers=args.flowers,
                penalties=pens,
                rules=event.rules,
            )
            if hand.winner is None:
                print(
                    f"note: {hand.penalties[-1].note}: recorded as a false win (错和) by seat {args.winner}",
                    file=sys.stderr,
                )
        result = repo.enter_hand(
            event.id, args.session, args.table, hand, group_id=group.id, replace_existing=args.replace, by=who(args)
        )
        did.append(f"hand {args.hand}")
    elif args.penalty:
        if hand_fields:
            raise CliError("--winner/--fans/--points need --hand N")
        for x in args.penalty:
            result = repo.add_table_penalty(
                event.id, args.session, args.table, parse_penalty(x, table), group_id=group.id, by=who(args)
            )
        did.append(f"{len(args.penalty)} table penalt{'y' if len(args.penalty) == 1 else 'ies'}")
    elif not args.time_called:
        raise CliError("nothing to enter: give --hand N with --winner …, --totals a,b,c,d, --penalty, or --time-called")
    if args.time_called:
        repo.set_time_called(event.id, args.session, args.table, group_id=group.id, by=who(args))
        did.append("time called")
    print_table_now(repo, event.id, args.session, args.table, group.id, ", ".join(did) + " entered", result)
    return 0


def print_table_now(
    repo: Any, event_id: str, session: int, table: int, group_id: str, what: str, result: Any = None
) -> None:
    if result is None:
        result = repo.table_result(event_id, session, table, group_id)
    scores = " · ".join(f"{w} {p} {sc}" for w, p, sc in zip("ESWN", result.players, result.seat_scores, strict=True))
    now = repo.table(event_id, session, table, group_id)
    state = "quick totals" if now.totals is not None else f"{len(now.hands)}/16 hands"
    if now.time_called:
        state += ", time called"
    print(f"session {session} table {table}: {what}; now {scores} ({state})")


# ---- undo / log ----------------------------------------------------------------------------------
@wrap
def cmd_undo(args: argparse.Namespace) -> int:
    if args.entry is None and (args.session is None or args.table is None):
        raise CliError("undo what? --session K --table T (the table's last entry) or --entry ID")
    if args.entry is not None and (args.session is not None or args.table is not None):
        raise CliError("--entry ID names the entry already: leave out --session and --table")
    repo = open_repo(args)
    e = repo.undo(args.event, args.session, args.table, entry_id=args.entry, by=who(args))
    print_table_now(
        repo, args.event, e["session"], e["table"], e["group"], f"undid entry {e['id']} ({e['summary']}, by {e['by']})"
    )
    return 0


@wrap
def cmd_log(args: argparse.Namespace) -> int:
    import json

    repo = open_repo(args)
    rows = repo.entries(args.event, args.session, args.table)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"{args.event} · entries log")
    for col in ("id", "at (UTC)", "by", "session", "table", "entry", "undone by"):
        t.add_column(col)
    for r in rows:
        t.add_row(
            str(r["id"]),
            (r["at"] or "")[:19].replace("T", " "),
            r["by"],
            str(r["session"]),
            str(r["table"]),
            r["summary"],
            "" if r["undone_by"] is None else str(r["undone_by"]),
            style="dim" if r["undone_by"] is not None else None,
        )
    Console().print(t)
    if not rows:
        print("nothing entered yet")
    return 0
