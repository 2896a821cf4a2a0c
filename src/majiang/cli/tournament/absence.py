"""``majiang tournament absent`` and ``draw --method redraw``: the organiser's commands for absentees
(缺席: a substitute, or a bye and a re-draw).

The rules (mcr.md §7): an absentee gets a bye (standard score 0, no session score) and the session is
re-drawn for those present; or a substitute (替补) sits in, whose points count for the table but who is
not ranked; a table left 三缺一 during play is scored as it stands ('enter … --time-called') or a
substitute plays on from a hand ('absent … --substitute NAME --from-hand N')."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, print_session, wrap


def register(tsub: Any) -> None:
    _register_absent(tsub)
    _register_withdraw(tsub)
    _register_add(tsub)


def _register_absent(tsub: Any) -> None:
    a = tsub.add_parser(
        "absent",
        help="an absentee (缺席): seat a substitute, or give a bye and re-draw the session",
        description=describe(
            "Record a player missing from session K.  --substitute NAME: a substitute (替补) takes his "
            "first-round seat for the whole session — NAME is a team's reserve, an earlier substitute's id, "
            "or a new name (registered as S1, S2 … and never ranked); the absentee gets a bye.  With "
            "--from-hand N the player left during play: the substitute plays from hand N and the player "
            "keeps the score he had.  --bye: the players given (repeat --player) get a bye and the session "
            "is re-drawn for those present (a multiple of four), avoiding earlier meetings.  Standard scores "
            "(1998): an absentee gets 0 and N stays the number of ranked players."
        ),
        formatter_class=RAW,
        epilog="examples:\n"
        '  majiang tournament absent cup --session 2 --player P07 --substitute "Zhao Lei"\n'
        "  majiang tournament absent cup --session 2 --player P07 --substitute R1        (the team's reserve)\n"
        "  majiang tournament absent cup --session 2 --player P07 --substitute S1 --from-hand 9\n"
        "  majiang tournament absent cup --session 3 --player P03 --player P07 --player P11 --player P15 --bye\n"
        "  (a table left 三缺一 and scored as it stands: majiang tournament enter cup --session 2 --table 1 "
        "--time-called)",
    )
    a.add_argument("event", help="event id")
    a.add_argument("--session", type=int, required=True, metavar="K", help="session number")
    a.add_argument(
        "--player", action="append", required=True, metavar="P", help="the absent player's id (--bye: repeatable)"
    )
    how = a.add_mutually_exclusive_group(required=True)
    how.add_argument("--substitute", metavar="NAME", help="who plays the seat instead (a player id or a new name)")
    how.add_argument("--bye", action="store_true", help="a bye: re-draw the session for the players present")
    a.add_argument(
        "--from-hand",
        type=int,
        default=None,
        metavar="N",
        help="with --substitute: he plays from hand N (2–16) on; the player left during play",
    )
    a.add_argument("--seed", type=int, default=None, help="--bye: seed of the re-draw (default: from the event)")
    a.add_argument("--db", default=None, help=DB_HELP)
    a.set_defaults(func=cmd_absent)


def _register_withdraw(tsub: Any) -> None:
    w = tsub.add_parser(
        "withdraw",
        help="a withdrawal (退赛): the player is left out of every later draw",
        description=describe(
            "Withdraw a player for good.  From session K (default: the first with nothing entered — a drawn "
            "session still empty is drawn again without him, 'draw --session K') he is an absentee of every "
            "session: a bye, standard score 0 (the 1998 rules' 弃权论), his earlier sessions stand and he stays "
            "ranked on them, and N — the number of ranked players — does not change.  Each later draw leaves "
            "him out and re-draws those present, avoiding earlier meetings; if they do not fill tables of four, "
            "draw with substitutes ('draw … --substitute NAME').  The standings mark him 退赛 withdrawn.  "
            "--undo takes a withdrawal back."
        ),
        formatter_class=RAW,
        epilog="examples:\n"
        '  majiang tournament withdraw cup P07 --reason "ill"\n'
        "  majiang tournament withdraw cup P07 --from-session 3\n"
        "  majiang tournament withdraw cup P07 --undo",
    )
    w.add_argument("event", help="event id")
    w.add_argument("player", help="the player's id")
    w.add_argument("--reason", default="", help="why (kept with the event, shown to the organiser)")
    w.add_argument("--from-session", type=int, default=None, metavar="K", help="the first session he misses")
    w.add_argument("--undo", action="store_true", help="take the withdrawal back")
    w.add_argument("--db", default=None, help=DB_HELP)
    w.set_defaults(func=cmd_withdraw)


def _register_add(tsub: Any) -> None:
    ad = tsub.add_parser(
        "add",
        help="a late entry (补报): a ranked player registered after the event began",
        description=describe(
            "Register a ranked player after the event began (a late entry, 补报: a new P id, not an S "
            "substitute).  He plays from session K (default: the first with nothing entered); every draw from "
            "then on seats him, re-drawing those present (the schedule planned at registration does not know "
            "him) while avoiding earlier meetings — like 'withdraw', the players present must fill tables of "
            "four (a late entry often replaces a withdrawal; else 'draw … --substitute NAME').  A drawn "
            "session still empty is drawn again with him ('draw --session K').  The sessions he missed count "
            "as an absentee's: the 1998 rules "
            "have no late registration, so they are treated by 弃权论 — standard score 0, no session score, "
            "and N (the number of ranked players) counts him, so in the 1998 scheme everyone placed in an "
            "earlier session gets one point more than before he joined (their order is unchanged).  The "
            "standings mark him 补报 late entry.  Late entries play as individuals (no team)."
        ),
        formatter_class=RAW,
        epilog="examples:\n"
        '  majiang tournament add cup "Zhao Lei" --country CN\n'
        '  majiang tournament add cup "María José García-López" --family García-López --given "María José"\n'
        "  majiang tournament add cup 赵磊 --from-session 3 --ema-id 04010099",
    )
    ad.add_argument("event", help="event id")
    ad.add_argument("name", help="the player's name as printed")
    ad.add_argument("--id", default="", help="his id (default: the next free P id)")
    ad.add_argument("--from-session", type=int, default=None, metavar="K", help="the first session he plays")
    ad.add_argument("--family", default="", help="family name (default: guessed from NAME; the EMA file's last_name)")
    ad.add_argument("--given", default="", help="given name(s) (the EMA file's first_name)")
    ad.add_argument("--romanised", default="", help="the name in Latin letters, family name first (the EMA file)")
    ad.add_argument("--ema-id", default="", help="EMA number")
    ad.add_argument("--country", default="", help="country code")
    ad.add_argument("--db", default=None, help=DB_HELP)
    ad.set_defaults(func=cmd_add)


# ---- absent / redraw -------------------------------------------------------------------------------
@wrap
def cmd_absent(args: argparse.Namespace) -> int:
    if args.bye:
        if args.from_hand is not None:
            raise CliError("--from-hand goes with --substitute (a player who left during play)")
        return _redraw(args, args.player, args.session)
    if len(args.player) != 1:
        raise CliError("one --player per substitute; for byes give every --player with --bye")
    return _substitute(args, args.player[0])


@wrap
def cmd_withdraw(args: argparse.Namespace) -> int:
    from majiang.tournament.roster import RosterError, reinstate, withdraw, withdrawals

    repo = open_repo(args)
    event = repo.load(args.event)
    try:
        if args.undo:
            repo.set_extra(event.id, **reinstate(event, args.player))
            print(f"{args.player}: withdrawal taken back; later draws seat him again", file=sys.stderr)
            return 0
        repo.set_extra(event.id, **withdraw(event, args.player, reason=args.reason, from_session=args.from_session))
    except RosterError as e:
        raise CliError(str(e)) from None
    k = withdrawals(repo.load(event.id))[args.player]["from_session"]
    print(f"{args.player} withdrew (退赛): a bye from session {k} on; draw session {k} next", file=sys.stderr)
    return 0


@wrap
def cmd_add(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from majiang.tournament.model import Player
    from majiang.tournament.roster import RosterError, add_late

    repo = open_repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    wanted = Player(
        id=args.id,
        name=args.name.strip(),
        ema_id=args.ema_id,
        country=args.country,
        family=args.family.strip(),
        given=args.given.strip(),
        romanised=args.romanised.strip(),
    )
    try:
        player, k, extra = add_late(event, wanted, from_session=args.from_session)
    except RosterError as e:
        raise CliError(str(e)) from None
    repo.add_player(event.id, group.id, player)
    repo.set_extra(event.id, **extra)
    for s in group.sessions[: k - 1]:  # the sessions he missed: an absentee of each (弃权论)
        repo.set_seats(event.id, group.id, replace(s, absent=(*s.absent, player.id)))
    print(f"{player.id} {player.name}: late entry (补报), plays from session {k}", file=sys.stderr)
    if k <= len(group.sessions):
        print(f"session {k} is drawn without him: draw it again ('draw {event.id} --session {k}')", file=sys.stderr)
    print(player.id)
    return 0


def _substitute(args: argparse.Namespace, player: str) -> int:
    from majiang.tournament.absence import new_substitute, seat_changes, seat_substitute

    repo = open_repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    with_sub, sub = new_substitute(group, args.substitute)
    if sub.id == player:
        raise CliError(f"{player} cannot substitute for himself")
    session = seat_substitute(with_sub, args.session, player, sub.id, args.from_hand)
    if sub not in group.players:
        repo.add_player(event.id, group.id, sub)
    repo.set_seats(event.id, group.id, session)
    role = "unranked substitute 替补" if not sub.ranked else "ranked (team reserve)"
    who = f"{sub.id} {sub.name}".strip() if sub.name and sub.name != sub.id else sub.id
    when = "the whole session" if args.from_hand is None else f"hands {args.from_hand}–16"
    print(f"session {args.session}: {who} ({role}) plays for {player}, {when}", file=sys.stderr)
    for change in seat_changes(group.sessions[args.session - 1], session):
        print(f"  {change.describe()}", file=sys.stderr)
    print_session(event, session, group.id)
    return 0


@wrap
def cmd_redraw(args: argparse.Namespace) -> int:
    """``draw --method redraw [--absent P,Q]``."""
    from majiang.tournament.checkin import absentees, next_session

    absent = [p.strip() for x in args.absent for p in x.split(",") if p.strip()]
    if not getattr(args, "no_checkin", False):  # players not checked in get a bye too
        event = open_repo(args).load(args.event)
        group = event.groups[0]
        k = args.session or next_session(group)
        seated = (
            {p for t in group.sessions[k - 1].tables for p in t.players}
            if k <= len(group.sessions)
            else set(absentees(event, group, k))
        )
        absent += [p for p in absentees(event, group, k) if p in seated and p not in absent]
    return _redraw(args, absent, args.session)


def _redraw(args: argparse.Namespace, absent: list[str], session_no: int | None) -> int:
    from majiang.tournament.absence import redraw_session, seat_changes
    from majiang.tournament.draw import has_entries

    repo = open_repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    if session_no is None:
        last = group.sessions[-1] if group.sessions else None
        session_no = last.no if last is not None and not has_entries(last) else len(group.sessions) + 1
    seed = getattr(args, "seed", None)
    seed = int(event.extra.get("seed", 0)) * 7919 + 31 * session_no if seed is None else seed
    before = group.sessions[session_no - 1] if session_no <= len(group.sessions) else None
    session, added = redraw_session(group, session_no, absent, seed=seed)
    repo.put_session(event.id, group.id, session, method="redraw")
    changes = seat_changes(before, session) if before is not None else []  # a first draw: nothing moved
    print(
        f"session {session_no} re-drawn (重新编排) for {sum(len(t.players) for t in session.tables)} players; "
        f"byes 缺席: {', '.join(session.absent) or 'none'}; {added} repeat meeting(s) added; "
        f"{len(changes)} seat change(s)",
        file=sys.stderr,
    )
    for change in changes:
        print(f"  {change.describe()}", file=sys.stderr)
    if getattr(args, "json", False):
        print(
            json.dumps(
                {
                    "session": session_no,
                    "tables": [list(t.players) for t in session.tables],
                    "absent": list(session.absent),
                    "repeats_added": added,
                    "changes": [c.describe() for c in changes],
                },
                ensure_ascii=False,
            )
        )
    else:
        print_session(event, session, group.id)
    return 0
