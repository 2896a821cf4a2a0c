"""``majiang tournament new | list | draw | seating``: an event registered and its sessions drawn."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from majiang.cli.tournament.absence import cmd_redraw
from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, print_session, wrap
from majiang.rulebook import DEFAULT, fan_names


def register(tsub: Any) -> None:
    _register_new(tsub)
    _register_list(tsub)
    _register_draw(tsub)
    _register_seating(tsub)


def _register_new(tsub: Any) -> None:
    n = tsub.add_parser(
        "new",
        help="register an event and plan its schedule; prints the event id",
        description=describe(
            "Create an event: its players (from a file or numbered P01…), teams, the standard-score "
            "scheme, and the schedule of all its sessions, made now from the seed (team-mates never at one "
            "table; a perfect design — no pair twice — for 16 players in 4 teams over 4 sessions, 4p "
            "players in p teams, 16 individuals …).  Prints the new event's id."
        ),
        formatter_class=RAW,
        epilog="player file: one player per line ('name' or 'name,team'), a CSV with a header naming columns "
        "(name; optional id, team, ema_id, country, reserve), or a JSON list.\n\nexamples:\n"
        '  majiang tournament new "Spring Cup" --count 16 --teams 4 --sessions 4\n'
        '  majiang tournament new "Club night" --players players.csv --sessions 3 --scheme 4210\n'
        "  majiang tournament new Open --players names.txt --sessions 5 --db postgresql://postgres@127.0.0.1/mj",
    )
    n.add_argument("name", help="the event's name (its id is derived from it, e.g. 'Spring Cup' → spring-cup)")
    who = n.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--players",
        metavar="FILE",
        help="player list (text, CSV with header, or JSON); CSV columns: name (or family and given), id, family, "
        "given, romanised, team, ema_id, country, reserve — what 'export --format players' writes",
    )
    who.add_argument("--count", type=int, metavar="N", help="N anonymous players P01…PN")
    n.add_argument(
        "--teams",
        type=int,
        default=0,
        metavar="T",
        help="T teams of consecutive players (when the file has no team column); 0 = individuals",
    )
    n.add_argument("--sessions", type=int, default=4, metavar="S", help="sessions (局) to schedule (default 4)")
    n.add_argument(
        "--scheme",
        choices=("1998", "4210"),
        default="1998",
        help="standard scores: 1998 (group ranking, N−k; default) or 4210 (per table)",
    )
    n.add_argument(
        "--rules",
        choices=fan_names(),
        default=DEFAULT,
        help=f"rules profile, a ruleset scored in fans: {', '.join(fan_names())} (default {DEFAULT}: the "
        "1998 rules; botzone: false wins end the hand)",
    )
    n.add_argument("--seed", type=int, default=None, help="seed of the draw (default: random, printed)")
    n.add_argument("--id", dest="event_id", default=None, help="the event id (default: derived from the name)")
    n.add_argument("--db", default=None, help=DB_HELP)
    n.set_defaults(func=cmd_new)


def _register_list(tsub: Any) -> None:
    ls = tsub.add_parser(
        "list",
        help="list the events in the database",
        description=describe("List the stored events: id, name, scheme, players, sessions drawn."),
    )
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.add_argument("--db", default=None, help=DB_HELP)
    ls.set_defaults(func=cmd_list)


def _register_draw(tsub: Any) -> None:
    d = tsub.add_parser(
        "draw",
        help="seat a session's tables (from the schedule, or by the standings)",
        description=describe(
            "Draw session K (default: the next one).  perfect: the event's schedule (a perfect design "
            "where one exists, otherwise the fewest repeat meetings the search found); swiss: 高高碰, the "
            "top four of the standings at table 1 …, team-mates and earlier opponents kept apart where "
            "possible; snake: 蛇形, one player from each quarter of the standings per table.  Starting "
            "seats (东南西北) are balanced at every point of the event: after session k nobody has started in "
            "one seat more than ⌈k/4⌉ times (East once in the first four sessions) where the tables allow it.  "
            "Players who met before are listed (repeat meetings), with whether a draw could avoid them.  A "
            "session with results cannot be redrawn."
        ),
        formatter_class=RAW,
        epilog="redraw (重新编排): session K drawn again for the players present after absences — byes for those\n"
        "given with --absent (and those recorded before), team-mates apart, as few repeat meetings as\n"
        "possible; it prints who moved.  Only a session without results; default: the last drawn.\n\n"
        "examples:\n  majiang tournament draw spring-cup\n"
        "  majiang tournament draw spring-cup --session 5 --method swiss\n"
        "  majiang tournament draw spring-cup --session 2 --method redraw --absent P03,P07,P11,P15\n"
        '  majiang tournament draw spring-cup --session 3 --substitute "Li Ming"    (19 players left: one 替补)',
    )
    d.add_argument("event", help="event id")
    d.add_argument(
        "--session",
        type=int,
        default=None,
        metavar="K",
        help="session number (default: the next; for redraw the last drawn)",
    )
    d.add_argument(
        "--method",
        choices=("perfect", "swiss", "snake", "seeded", "redraw"),
        default=None,
        help="default: the session's phase's draw (majiang tournament phase), else perfect; seeded: 1–4 at "
        "table 1, 5–8 at table 2 … by the standings",
    )
    d.add_argument(
        "--no-checkin",
        action="store_true",
        help="an event that requires check-in: seat everybody anyway (then seat substitutes for the missing)",
    )
    d.add_argument(
        "--absent",
        action="append",
        default=[],
        metavar="P[,Q…]",
        help="redraw only: players who get a bye (缺席) in the session (repeatable)",
    )
    d.add_argument(
        "--substitute",
        action="append",
        default=[],
        metavar="NAME",
        help="a substitute (替补, never ranked) seated to fill the tables when the players present are not a "
        "multiple of four (after withdrawals or a late entry): a new name (registered as S1, S2 …) or an "
        "earlier substitute's id; repeat it for each seat",
    )
    d.add_argument("--json", action="store_true", help="print the tables as JSON")
    d.add_argument("--db", default=None, help=DB_HELP)
    d.set_defaults(func=cmd_draw)


def _register_seating(tsub: Any) -> None:
    st = tsub.add_parser(
        "seating",
        help="show who sits where in a session",
        description=describe(
            "The tables of session K with each player's first-round seat (东南西北) and "
            "how many hands each table has entered."
        ),
    )
    st.add_argument("event", help="event id")
    st.add_argument("--session", type=int, default=None, metavar="K", help="default: the last drawn")
    st.add_argument("--db", default=None, help=DB_HELP)
    st.set_defaults(func=cmd_seating)


# ---- new / list ----------------------------------------------------------------------------------
@wrap
def cmd_new(args: argparse.Namespace) -> int:
    from majiang.tournament.registration import build_group, count_entries, new_event, parse_players

    if args.players:
        path = Path(args.players)
        if not path.is_file():
            raise CliError(f"no player file {path}: give a list of names (one per line), or use --count N")
        entries = parse_players(path.read_text(encoding="utf-8-sig"))
    else:
        entries = count_entries(args.count)
    group = build_group(entries, args.teams)
    repo = open_repo(args)
    event_id = args.event_id or repo.new_id(args.name)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    event = new_event(
        event_id, args.name, group, sessions=args.sessions, seed=seed, scheme=args.scheme, rules=args.rules
    )
    from dataclasses import replace

    from majiang.tournament.organiser import issue_token

    token, key = issue_token()
    repo.create(replace(event, extra={**event.extra, **key}))
    plan = event.extra["plans"][group.id]
    print(event_id)
    teams = f", {len(group.teams)} teams" if group.teams else ""
    print(
        f"{args.name}: {len(group.players)} players{teams}, {args.sessions} sessions, scheme {args.scheme}, "
        f"seed {seed}; schedule {plan['method']} with {plan['repeats']} repeat meeting(s).  "
        f"Next: majiang tournament draw {event_id}",
        file=sys.stderr,
    )
    print(f"organiser token 组委会口令 (shown once; online sessions need it): {token}", file=sys.stderr)
    return 0


@wrap
def cmd_list(args: argparse.Namespace) -> int:
    events = open_repo(args).list_events()
    if args.json:
        print(json.dumps([e.to_dict() for e in events], ensure_ascii=False))
        return 0
    if not events:
        print("no events; create one with: majiang tournament new NAME --count 16 --teams 4")
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(title="赛事 Events")
    for col in ("id", "名称 Name", "标准分 Scheme", "选手 Players", "已抽局 Sessions"):
        t.add_column(col)
    for ev in events:
        t.add_row(ev.id, ev.name, ev.scheme, str(ev.players), str(ev.sessions))
    Console().print(t)
    return 0


# ---- draw / seating --------------------------------------------------------------------------------
@wrap
def cmd_draw(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from majiang.tournament.absence import new_substitute
    from majiang.tournament.checkin import absentees, checked_in, required
    from majiang.tournament.draw import fewest_repeats, repeats_in
    from majiang.tournament.phases import draw_method, draw_phase_session

    if args.method == "redraw":
        return int(cmd_redraw(args))
    if args.absent:
        raise CliError(
            "--absent goes with --method redraw (the byes of a re-drawn session); for a substitute use "
            "'majiang tournament absent EVENT --session K --player P --substitute NAME'"
        )
    repo = open_repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    k = args.session or len(group.sessions) + 1
    method = draw_method(event, k, args.method)
    if method != "perfect" and k > 1 and k - 2 < len(group.sessions):
        last = group.sessions[k - 2]
        if any(not tb.hands and tb.totals is None for tb in last.tables):
            print(
                f"warning: session {k - 1} still has tables without results; the {method} draw uses the "
                "standings as they stand",
                file=sys.stderr,
            )
    if required(event) and not args.no_checkin and not checked_in(event, k):
        raise CliError(
            f"nobody is checked in for session {k}: majiang tournament checkin {event.id} --session {k} "
            "PLAYER… (or --all), or draw with --no-checkin"
        )
    absent = [] if args.no_checkin else absentees(event, group, k)
    subs, registered = [], []  # the substitutes seated; those new to the group
    for name in args.substitute:
        before = group
        group, sub = new_substitute(group, name)
        subs.append(sub)
        if group is not before:
            registered.append(sub)
    event = replace(event, groups=tuple(group if g.id == group.id else g for g in event.groups))
    session = draw_phase_session(event, group.id, k, method, absent=absent, substitutes=[s.id for s in subs])
    for sub in registered:
        repo.add_player(event.id, group.id, sub)
    for sub in subs:
        print(f"session {k}: {sub.id} {sub.name} seated as a substitute 替补 (not ranked)", file=sys.stderr)
    repo.put_session(event.id, group.id, session, method=method)
    if session.absent:
        print(
            f"session {k}: a bye 缺席 (withdrawn, not yet entered or not checked in): {', '.join(session.absent)}",
            file=sys.stderr,
        )
    repeats = repeats_in(group, session)
    fewest = fewest_repeats(group, session, seed=int(event.extra.get("seed", 0)) + k) if repeats else 0
    if repeats:
        why = (
            "unavoidable: no draw of these players found has fewer"
            if len(repeats) <= fewest
            else f"the {method} draw keeps the standings order; a re-draw could have {fewest} "
            f"('draw {event.id} --session {k} --method redraw')"
        )
        print(f"session {k}: {len(repeats)} repeat meeting(s) — {why}", file=sys.stderr)
        for r in repeats:
            print(f"  {r.describe()}", file=sys.stderr)
    if args.json:
        out = {
            "session": k,
            "tables": [list(t.players) for t in session.tables],
            "repeats": [r.to_dict() for r in repeats],  # pairs who met before, at which table, in which sessions
            "fewest_repeats": fewest,  # the fewest a search finds for these players: equal means unavoidable
        }
        print(json.dumps(out, ensure_ascii=False))
    else:
        print_session(event, session, group.id)
    return 0


@wrap
def cmd_seating(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    if not group.sessions:
        raise CliError(f"no session drawn yet: majiang tournament draw {event.id}")
    k = args.session or len(group.sessions)
    if not 1 <= k <= len(group.sessions):
        raise CliError(f"sessions 1–{len(group.sessions)} are drawn, not {k}")
    print_session(event, group.sessions[k - 1], group.id)
    return 0
