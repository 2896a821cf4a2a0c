"""``majiang tournament``: run an MCR competition from the command line (docs/tournament.md).

Events live in the database (``--db``; default the SQLite file var/majiang.db or $MAJIANG_DB).
Heavy imports happen inside the commands."""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from majiang.tournament.model import TableRecord
    from majiang.tournament.penalties import Penalty
    from majiang.tournament.repository import TournamentRepository

DB_HELP = "database URL (default $MAJIANG_DB or the SQLite file var/majiang.db; postgresql://… for PostgreSQL)"
WINDS = {"e": 0, "s": 1, "w": 2, "n": 3, "东": 0, "南": 1, "西": 2, "北": 3,
         "east": 0, "south": 1, "west": 2, "north": 3}
PENALTY_NAMES = {"错和": "false_win", "诈和": "deceptive_win", "故意诈和": "deliberate_false_win", "警告": "warning",
                 "迟到": "late", "空叫": "empty_call", "违例": "misconduct"}
FORMATS = ("csv", "hands", "ema", "html", "pdf", "png", "svg")
BINARY = ("pdf", "png")
RAW = argparse.RawDescriptionHelpFormatter


def _d(text: str) -> str:
    """A description wrapped for the terminal (the formatter keeps the epilog's examples as written)."""
    return textwrap.fill(text, 100)


class CliError(Exception):
    """Printed as ``error: …`` with exit status 2."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament", help="run a competition: register, draw, enter hands, standings, score sheets, exports",
        description=_d("MCR competitions by the 1998 national rules: register players and teams, draw sessions "
                    "(perfect designs: no pair meets twice), enter each hand as the referee writes it down, and "
                    "print standings, score sheets (比赛成绩记录表) and exports.  Standard scores: 1998 (the "
                    "session ranked over the whole group, N−k) or 4210 (per table)."),
        formatter_class=RAW,
        epilog="a 16-player team event, start to finish:\n"
               "  majiang tournament new \"Spring Cup\" --count 16 --teams 4 --sessions 4 --seed 7\n"
               "  majiang tournament draw spring-cup --session 1\n"
               "  majiang tournament enter spring-cup --session 1 --table 1 --hand 1 --winner E --discarder W "
               "--fans 清一色,平和\n"
               "  majiang tournament enter spring-cup --session 1 --table 2 --totals 40,-8,-16,-16\n"
               "  majiang tournament standings spring-cup\n"
               "  majiang tournament export spring-cup --format pdf --session 1 --table 1 -o sheet-1-1.pdf\n"
               "  majiang tournament demo --players 16 --teams 4 --sessions 4 --seed 1 --json\n\n"
               "run 'majiang tournament COMMAND --help' for each command's options.")
    tsub = p.add_subparsers(dest="tcommand", metavar="COMMAND")
    p.set_defaults(func=lambda args: _usage(p))

    n = tsub.add_parser(
        "new", help="register an event and plan its schedule; prints the event id",
        description=_d("Create an event: its players (from a file or numbered P01…), teams, the standard-score "
                    "scheme, and the schedule of all its sessions, made now from the seed (team-mates never at one "
                    "table; a perfect design — no pair twice — for 16 players in 4 teams over 4 sessions, 4p "
                    "players in p teams, 16 individuals …).  Prints the new event's id."),
        formatter_class=RAW,
        epilog="player file: one player per line ('name' or 'name,team'), a CSV with a header naming columns "
               "(name; optional id, team, ema_id, country, reserve), or a JSON list.\n\nexamples:\n"
               "  majiang tournament new \"Spring Cup\" --count 16 --teams 4 --sessions 4\n"
               "  majiang tournament new \"Club night\" --players players.csv --sessions 3 --scheme 4210\n"
               "  majiang tournament new Open --players names.txt --sessions 5 --db postgresql://postgres@127.0.0.1/mj")
    n.add_argument("name", help="the event's name (its id is derived from it, e.g. 'Spring Cup' → spring-cup)")
    who = n.add_mutually_exclusive_group(required=True)
    who.add_argument("--players", metavar="FILE", help="player list (text, CSV with header, or JSON)")
    who.add_argument("--count", type=int, metavar="N", help="N anonymous players P01…PN")
    n.add_argument("--teams", type=int, default=0, metavar="T",
                   help="T teams of consecutive players (when the file has no team column); 0 = individuals")
    n.add_argument("--sessions", type=int, default=4, metavar="S", help="sessions (局) to schedule (default 4)")
    n.add_argument("--scheme", choices=("1998", "4210"), default="1998",
                   help="standard scores: 1998 (group ranking, N−k; default) or 4210 (per table)")
    n.add_argument("--rules", choices=("gb", "botzone"), default="gb",
                   help="rules profile: gb (1998, default) or botzone (false wins end the hand)")
    n.add_argument("--seed", type=int, default=None, help="seed of the draw (default: random, printed)")
    n.add_argument("--id", dest="event_id", default=None, help="the event id (default: derived from the name)")
    n.add_argument("--db", default=None, help=DB_HELP)
    n.set_defaults(func=cmd_new)

    ls = tsub.add_parser("list", help="list the events in the database",
                         description=_d("List the stored events: id, name, scheme, players, sessions drawn."))
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.add_argument("--db", default=None, help=DB_HELP)
    ls.set_defaults(func=cmd_list)

    d = tsub.add_parser(
        "draw", help="seat a session's tables (from the schedule, or by the standings)",
        description=_d("Draw session K (default: the next one).  perfect: the event's schedule (a perfect design "
                    "where one exists, otherwise the fewest repeat meetings the search found); swiss: 高高碰, the "
                    "top four of the standings at table 1 …, team-mates and earlier opponents kept apart where "
                    "possible; snake: 蛇形, one player from each quarter of the standings per table.  Starting "
                    "seats (东南西北) are balanced over the sessions.  A session with results cannot be redrawn."),
        formatter_class=RAW,
        epilog="redraw (重新编排): session K drawn again for the players present after absences — byes for those\n"
               "given with --absent (and those recorded before), team-mates apart, as few repeat meetings as\n"
               "possible; it prints who moved.  Only a session without results; default: the last drawn.\n\n"
               "examples:\n  majiang tournament draw spring-cup\n"
               "  majiang tournament draw spring-cup --session 5 --method swiss\n"
               "  majiang tournament draw spring-cup --session 2 --method redraw --absent P03,P07,P11,P15")
    d.add_argument("event", help="event id")
    d.add_argument("--session", type=int, default=None, metavar="K",
                   help="session number (default: the next; for redraw the last drawn)")
    d.add_argument("--method", choices=("perfect", "swiss", "snake", "redraw"), default="perfect",
                   help="default perfect")
    d.add_argument("--absent", action="append", default=[], metavar="P[,Q…]",
                   help="redraw only: players who get a bye (缺席) in the session (repeatable)")
    d.add_argument("--json", action="store_true", help="print the tables as JSON")
    d.add_argument("--db", default=None, help=DB_HELP)
    d.set_defaults(func=cmd_draw)

    st = tsub.add_parser("seating", help="show who sits where in a session",
                         description=_d("The tables of session K with each player's first-round seat (东南西北) and "
                                     "how many hands each table has entered."))
    st.add_argument("event", help="event id")
    st.add_argument("--session", type=int, default=None, metavar="K", help="default: the last drawn")
    st.add_argument("--db", default=None, help=DB_HELP)
    st.set_defaults(func=cmd_seating)

    e = tsub.add_parser(
        "enter", help="enter one hand, a table's quick totals, a penalty, or the time limit",
        description=_d("Enter what the referee writes down.  Seats are the table's first-round seats: E S W N "
                    "(东南西北), 0–3, or a player id.  A hand: --winner and --fans or --points, with --discarder "
                    "for a win on a discard (none: self-drawn), --flowers apart; --winner none is an exhaustive "
                    "draw.  A declared win below 8 fan is recorded as a false win (错和).  Hands are entered in "
                    "order; --replace corrects one.  Quick events: --totals a,b,c,d (each seat's zero-sum hand "
                    "total, or four session scores adding up to 2000).  --penalty without --hand is a table "
                    "penalty (late arrival …)."),
        formatter_class=RAW,
        epilog="penalty codes: false_win 错和, deceptive_win 诈和, deliberate_false_win 故意诈和, warning 警告, "
               "late 迟到 (0/10/20), empty_call 空叫 (0/5/10/20), misconduct 违例 (5…60)\n\nexamples:\n"
               "  majiang tournament enter cup --session 1 --table 3 --hand 1 --winner E --discarder N "
               "--fans \"清一色,平和\" --flowers 2\n"
               "  majiang tournament enter cup --session 1 --table 3 --hand 2 --winner S --points 12\n"
               "  majiang tournament enter cup --session 1 --table 3 --hand 3 --winner none --penalty W:false_win\n"
               "  majiang tournament enter cup --session 1 --table 3 --penalty N:late:10\n"
               "  majiang tournament enter cup --session 1 --table 4 --totals 520,490,500,490")
    e.add_argument("event", help="event id")
    e.add_argument("--session", type=int, required=True, metavar="K", help="session number")
    e.add_argument("--table", type=int, required=True, metavar="T", help="table number in the session")
    e.add_argument("--hand", type=int, default=None, metavar="N", help="hand number 1–16")
    e.add_argument("--winner", default=None, metavar="W", help="E/S/W/N, 0–3, a player id, or none (荒牌)")
    e.add_argument("--discarder", default=None, metavar="D", help="who dealt in (omit for a self-draw)")
    e.add_argument("--fans", default=None, help="fan names, comma-separated (Chinese or English; 'name*2' twice)")
    e.add_argument("--points", type=int, default=None, metavar="P", help="fan points instead of names")
    e.add_argument("--flowers", type=int, default=0, metavar="F", help="flowers (counted apart; default 0)")
    e.add_argument("--penalty", action="append", default=[], metavar="SEAT:CODE[:POINTS[:NOTE]]",
                   help="a penalty (repeatable)")
    e.add_argument("--totals", default=None, metavar="A,B,C,D", help="quick entry for the whole session")
    e.add_argument("--time-called", action="store_true", help="time was called: the table ends after its last hand")
    e.add_argument("--replace", action="store_true", help="correct a hand entered before")
    e.add_argument("--db", default=None, help=DB_HELP)
    e.set_defaults(func=cmd_enter)

    from majiang.cli.tournament_organiser import register_absence, register_online

    register_absence(tsub)
    register_online(tsub)

    s = tsub.add_parser(
        "standings", help="individual and team standings",
        description=_d("Standings by Σ standard scores, then Σ session scores, best session, high sessions (第十一条); "
                    "teams by their members' Σ.  Sessions drawn but still empty are left out."),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament standings spring-cup\n  majiang tournament standings spring-cup --json")
    s.add_argument("event", help="event id")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("--db", default=None, help=DB_HELP)
    s.set_defaults(func=cmd_standings)

    x = tsub.add_parser(
        "export", help="standings CSV, EMA results, HTML/PDF standings or score sheets, PNG/SVG plots",
        description=_d("Write an export.  csv: standings; hands: every hand; ema: the EMA results layout; html/pdf: "
                    "the standings, or with --session and --table the score sheet (比赛成绩记录表) of that table; "
                    "png/svg: cumulative standard score per session.  The format defaults to the file's suffix."),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament export cup --format csv -o standings.csv\n"
               "  majiang tournament export cup --format pdf --session 2 --table 1 -o sheet-2-1.pdf\n"
               "  majiang tournament export cup -o standings.svg\n  majiang tournament export cup --format ema -o -")
    x.add_argument("event", help="event id")
    x.add_argument("--format", choices=FORMATS, default=None, help="default: from the -o suffix")
    x.add_argument("--session", type=int, default=None, metavar="K", help="score sheet: the session")
    x.add_argument("--table", type=int, default=None, metavar="T", help="score sheet: the table")
    x.add_argument("-o", "--output", required=True, metavar="FILE", help="output file ('-' = stdout, text formats)")
    x.add_argument("--db", default=None, help=DB_HELP)
    x.set_defaults(func=cmd_export)

    m = tsub.add_parser(
        "demo", help="a whole event played by bots on the game engine",
        description=_d("Register, schedule, play every table's 16 hands on the real engine with bots (the 1998 seat "
                    "changes), score and rank.  Deterministic for a seed and a choice of bots.  --json prints "
                    "{sessions: [{tables: [{players, session_scores, standard_scores}]}], standings: [{player, team, "
                    "standard_total, match_total, rank}], teams: [{team, standard_total, rank}], repeat_meetings}."),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament demo --players 16 --teams 4 --sessions 4 --seed 1 --json\n"
               "  majiang tournament demo --players 28 --teams 7 --sessions 6 --scheme 4210 --bots fan\n"
               "  majiang tournament demo --save --db var/majiang.db   (then see it at /tournaments/demo-1)")
    m.add_argument("--players", type=int, default=16, help="players, a multiple of 4 (default 16)")
    m.add_argument("--teams", type=int, default=4, help="teams of consecutive players; 0 = individuals (default 4)")
    m.add_argument("--sessions", type=int, default=4, help="sessions (default 4)")
    m.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    m.add_argument("--scheme", choices=("1998", "4210"), default="1998", help="standard scores (default 1998)")
    m.add_argument("--bots", default="auto",
                   help="bot kind for every player (rand, eff, fan, ev, best), or a comma list dealt to players "
                        "P01, P02 … in turn; auto (default) = the strongest installed (fan, then eff, then rand)")
    m.add_argument("--json", action="store_true", help="print the JSON result")
    m.add_argument("--save", action="store_true", help="also store the event in the database (id demo-SEED)")
    m.add_argument("--no-progress", action="store_true", help="no progress bar")
    m.add_argument("--db", default=None, help=DB_HELP)
    m.set_defaults(func=cmd_demo)


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help()
    return 2


def _wrap(fn: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(fn(args) or 0)
        except BrokenPipeError:  # the reader left (… | head): stop quietly
            return _pipe_closed()
        except (CliError, ValueError, KeyError) as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else e
            print(f"error: {msg}", file=sys.stderr)
            return 2
        except OSError as e:
            print(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), file=sys.stderr)
            return 2
    return run


def _pipe_closed() -> int:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail again; exit status 141
    (128 + SIGPIPE), as a shell tool killed by the closed pipe would."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a file (captured in tests)
        pass
    return 141


def _repo(args: argparse.Namespace) -> TournamentRepository:
    from sqlalchemy.exc import OperationalError

    from majiang.store import Database
    from majiang.tournament.repository import TournamentRepository

    db = Database(args.db)
    try:
        db.migrate()
    except OperationalError as e:
        raise CliError(f"cannot open the database {args.db or '(default)'}: {e.orig}; check --db") from None
    return TournamentRepository(db)


# ---- new / list ----------------------------------------------------------------------------------
@_wrap
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
    repo = _repo(args)
    event_id = args.event_id or repo.new_id(args.name)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    event = new_event(event_id, args.name, group, sessions=args.sessions, seed=seed, scheme=args.scheme,
                      rules=args.rules)
    from dataclasses import replace

    from majiang.tournament.organiser import issue_token

    token, key = issue_token()
    repo.create(replace(event, extra={**event.extra, **key}))
    plan = event.extra["plans"][group.id]
    print(event_id)
    teams = f", {len(group.teams)} teams" if group.teams else ""
    print(f"{args.name}: {len(group.players)} players{teams}, {args.sessions} sessions, scheme {args.scheme}, "
          f"seed {seed}; schedule {plan['method']} with {plan['repeats']} repeat meeting(s).  "
          f"Next: majiang tournament draw {event_id}", file=sys.stderr)
    print(f"organiser token 组委会口令 (shown once; online sessions need it): {token}", file=sys.stderr)
    return 0


@_wrap
def cmd_list(args: argparse.Namespace) -> int:
    events = _repo(args).list_events()
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
def _print_session(event: Any, session: Any, group_id: str) -> None:
    from rich.console import Console
    from rich.table import Table

    names = {p.id: p.name for p in event.group(group_id).players}
    t = Table(title=f"{event.name} · 第{session.no}局 session {session.no}")
    for col in ("桌 Table", "东 E", "南 S", "西 W", "北 N", "盘 Hands"):
        t.add_column(col)
    for tb in session.tables:
        cells = [f"{pid} {names.get(pid, '')}".strip() if names.get(pid, pid) != pid else pid for pid in tb.players]
        done = "totals" if tb.totals is not None else f"{len(tb.hands)}/16"
        t.add_row(str(tb.no), *cells, done)
    Console().print(t)


@_wrap
def cmd_draw(args: argparse.Namespace) -> int:
    from majiang.tournament.draw import draw_session

    if args.method == "redraw":
        from majiang.cli.tournament_organiser import cmd_redraw

        return int(cmd_redraw(args))
    if args.absent:
        raise CliError("--absent goes with --method redraw (the byes of a re-drawn session); for a substitute use "
                       "'majiang tournament absent EVENT --session K --player P --substitute NAME'")
    repo = _repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    k = args.session or len(group.sessions) + 1
    if args.method != "perfect" and k > 1:
        last = group.sessions[k - 2]
        if any(not tb.hands and tb.totals is None for tb in last.tables):
            print(f"warning: session {k - 1} still has tables without results; the {args.method} draw uses the "
                  "standings as they stand", file=sys.stderr)
    session = draw_session(event, group.id, k, args.method)
    repo.put_session(event.id, group.id, session, method=args.method)
    if args.json:
        print(json.dumps({"session": k, "tables": [list(t.players) for t in session.tables]}, ensure_ascii=False))
    else:
        _print_session(event, session, group.id)
    return 0


@_wrap
def cmd_seating(args: argparse.Namespace) -> int:
    repo = _repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    if not group.sessions:
        raise CliError(f"no session drawn yet: majiang tournament draw {event.id}")
    k = args.session or len(group.sessions)
    if not 1 <= k <= len(group.sessions):
        raise CliError(f"sessions 1–{len(group.sessions)} are drawn, not {k}")
    _print_session(event, group.sessions[k - 1], group.id)
    return 0


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
    raise CliError(f"seat {text!r}: use E/S/W/N (东南西北), 0–3, or one of this table's players "
                   f"{', '.join(table.players)}")


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
        raise CliError(f"--penalty {text!r}: unknown code {parts[1]!r}; codes: "
                       f"{', '.join(c.value for c in PenaltyCode)}") from None
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
        raise CliError(f"--totals add up to {sum(totals)}: give zero-sum hand totals (e.g. 40,-8,-16,-16) or four "
                       "session scores adding up to 2000")
    return totals


@_wrap
def cmd_enter(args: argparse.Namespace) -> int:
    from majiang.tournament.scoring import enter_hand

    repo = _repo(args)
    event = repo.load(args.event)
    group = event.groups[0]
    table = repo.table(event.id, args.session, args.table, group.id)
    hand_fields = args.winner is not None or args.fans is not None or args.points is not None or args.discarder
    did: list[str] = []
    result = None
    if args.totals is not None:
        if args.hand is not None or hand_fields:
            raise CliError("--totals is the whole session: leave out --hand, --winner, --fans, --points")
        result = repo.enter_totals(event.id, args.session, args.table, parse_totals(args.totals), group_id=group.id)
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
                raise CliError("give the fans as --fans \"清一色,平和\" or their total as --points P (one of them)")
            winner = parse_seat(args.winner, table)
            discarder = parse_seat(args.discarder, table) if args.discarder else None
            fans = parse_fans(args.fans) if args.fans is not None else ()
            hand = enter_hand(args.hand, winner, discarder, fans=fans, points=args.points, flowers=args.flowers,
                              penalties=pens, rules=event.rules)
            if hand.winner is None:
                print(f"note: {hand.penalties[-1].note}: recorded as a false win (错和) by seat {args.winner}",
                      file=sys.stderr)
        result = repo.enter_hand(event.id, args.session, args.table, hand, group_id=group.id,
                                 replace_existing=args.replace)
        did.append(f"hand {args.hand}")
    elif args.penalty:
        if hand_fields:
            raise CliError("--winner/--fans/--points need --hand N")
        for x in args.penalty:
            result = repo.add_table_penalty(event.id, args.session, args.table, parse_penalty(x, table),
                                            group_id=group.id)
        did.append(f"{len(args.penalty)} table penalt{'y' if len(args.penalty) == 1 else 'ies'}")
    elif not args.time_called:
        raise CliError("nothing to enter: give --hand N with --winner …, --totals a,b,c,d, --penalty, or --time-called")
    if args.time_called:
        repo.set_time_called(event.id, args.session, args.table, group_id=group.id)
        did.append("time called")
    if result is None:
        result = repo.table_result(event.id, args.session, args.table, group.id)
    scores = " · ".join(f"{w} {p} {sc}" for w, p, sc in zip("ESWN", result.players, result.seat_scores, strict=True))
    now = repo.table(event.id, args.session, args.table, group.id)
    state = "quick totals" if now.totals is not None else f"{len(now.hands)}/16 hands"
    if now.time_called:
        state += ", time called"
    print(f"session {args.session} table {args.table}: {', '.join(did)} entered; now {scores} ({state})")
    return 0


# ---- standings -----------------------------------------------------------------------------------
@_wrap
def cmd_standings(args: argparse.Namespace) -> int:
    repo = _repo(args)
    data = repo.standings(args.event)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    con = Console()
    for g in data["groups"]:
        n = g["sessions_scored"]
        t = Table(title=f"{data['name']} · 个人名次 Individual standings · 标准分 {data['scheme']} · "
                        f"{n}/{g['sessions_drawn']} sessions")
        t.add_column("名次\nRank", justify="right")
        t.add_column("选手\nPlayer")
        t.add_column("队\nTeam")
        for k in range(1, n + 1):
            t.add_column(f"第{k}局\nS{k}", justify="right")
        t.add_column("标准分\nStd total", justify="right", style="bold")
        t.add_column("比赛分\nScore total", justify="right")
        for r in g["standings"]:
            per = [("缺席 absent" if sc is None else f"{_f(v)} ({sc})")
                   for v, sc in zip(r["session_standards"], r["session_scores"], strict=True)]
            who = r["player"] if r["name"] in ("", r["player"]) else f"{r['player']} {r['name']}"
            rank = str(r["rank"]) + (" DQ" if r["disqualified"] else "")
            t.add_row(rank, who, r["team"] or "", *per, _f(r["standard_total"]), str(r["match_total"]))
        con.print(t)
        if g["teams"]:
            tt = Table(title="团体名次 Team standings")
            tt.add_column("名次\nRank", justify="right")
            tt.add_column("队\nTeam")
            tt.add_column("队员\nMembers")
            tt.add_column("标准分\nStd total", justify="right", style="bold")
            tt.add_column("比赛分\nScore total", justify="right")
            for r in g["teams"]:
                tt.add_row(str(r["rank"]), r["name"] or r["team"], ", ".join(r["members"]), _f(r["standard_total"]),
                           str(r["match_total"]))
            con.print(tt)
    if not any(g["sessions_scored"] for g in data["groups"]):
        con.print(f"no results yet: enter hands with 'majiang tournament enter {data['event']} --session 1 …'")
    return 0


def _f(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:.2f}"


# ---- export --------------------------------------------------------------------------------------
@_wrap
def cmd_export(args: argparse.Namespace) -> int:
    fmt = args.format
    if fmt is None:
        suffix = Path(args.output).suffix.lower().lstrip(".")
        if suffix not in FORMATS:
            raise CliError(f"give --format ({', '.join(FORMATS)}); it cannot be told from {args.output!r}")
        fmt = suffix
    if (args.session is None) != (args.table is None):
        raise CliError("a score sheet needs both --session K and --table T")
    if args.session is not None and fmt not in ("html", "pdf"):
        raise CliError(f"score sheets are html or pdf, not {fmt}")
    if args.output == "-" and fmt in BINARY:
        raise CliError(f"{fmt} is binary: write it to a file with -o FILE")
    data = render_export(_repo(args), args.event, fmt, args.session, args.table)
    if args.output == "-":
        sys.stdout.write(data if isinstance(data, str) else data.decode())
        return 0
    out = Path(args.output)
    if isinstance(data, str):
        out.write_text(data, encoding="utf-8")
    else:
        out.write_bytes(data)
    print(f"wrote {out} ({fmt})", file=sys.stderr)
    return 0


def render_export(repo: TournamentRepository, event_id: str, fmt: str, session: int | None = None,
                  table: int | None = None) -> str | bytes:
    """One export of a stored event as text or bytes."""
    from majiang.tournament.output import exports, html, pdf, plot
    from majiang.tournament.sheet import score_sheet

    event, results = repo.results(event_id)
    group = event.groups[0]
    result = results[group.id]
    title = f"{event.name} 个人名次"
    if session is not None and table is not None:
        full = repo.full_result(event_id, group.id)
        if not 1 <= session <= len(full.sessions):
            raise CliError(f"session {session} is not drawn ({len(full.sessions)} drawn)")
        if not 1 <= table <= len(full.sessions[session - 1].tables):
            raise CliError(f"session {session} has tables 1–{len(full.sessions[session - 1].tables)}")
        sheet = score_sheet(full, session, table, event=event.name, rules=event.rules)
        return html.score_sheet_html(sheet) if fmt == "html" else pdf.score_sheet_pdf(sheet)
    if fmt == "csv":
        return exports.standings_csv(result)
    if fmt == "hands":
        return exports.hands_csv(result)
    if fmt == "ema":
        return exports.ema_csv(result)
    if fmt == "html":
        return html.standings_html(result, title)
    if fmt == "pdf":
        return pdf.standings_pdf(result, title)
    return plot.standings_plot(result, "svg" if fmt == "svg" else "png", title=event.name or event.id)


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


@_wrap
def cmd_demo(args: argparse.Namespace) -> int:
    from majiang.tournament.bridge import engine_play_session
    from majiang.tournament.demo import build_demo, result_json

    if args.players <= 0 or args.players % 4:
        raise CliError(f"--players {args.players}: a multiple of 4 (tables of four)")
    if args.teams and (args.teams < 0 or args.players % args.teams or args.players // args.teams > 4):
        raise CliError(f"--teams {args.teams}: {args.players} players must split into teams of at most 4 "
                       f"(e.g. --teams {args.players // 4}), or 0 for individuals")
    if args.sessions < 1:
        raise CliError("--sessions must be at least 1")
    kinds = [k.strip() for k in (best_bot() if args.bots == "auto" else args.bots).split(",") if k.strip()]
    from majiang.bots.base import make_bot

    for k in set(kinds):
        try:
            make_bot(k, 0)
        except (ValueError, ImportError) as e:
            raise CliError(f"--bots {k!r}: {e}") from None
    width = max(2, len(str(args.players)))
    ids = [f"P{i:0{width}d}" for i in range(1, args.players + 1)]
    bots: Any = kinds[0] if len(kinds) == 1 else {pid: kinds[i % len(kinds)] for i, pid in enumerate(ids)}
    total = args.players // 4 * args.sessions
    show = not args.no_progress and sys.stderr.isatty()
    if show:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=Console(stderr=True), transient=True) as prog:
            task = prog.add_task("tables", total=total)
            event, result, plan = build_demo(
                args.players, args.teams, args.sessions, args.seed, args.scheme,
                play_session=engine_play_session(bots, progress=lambda _s: prog.advance(task)))
    else:
        event, result, plan = build_demo(args.players, args.teams, args.sessions, args.seed, args.scheme,
                                         play_session=engine_play_session(bots))
    data = result_json(result, plan.repeats)
    if args.save:
        from dataclasses import replace

        repo = _repo(args)
        group = event.groups[0]
        saved = replace(event, name=f"Demo (seed {args.seed}, bots {','.join(kinds)})",
                        extra={"seed": args.seed, "sessions": args.sessions,
                               "plans": {group.id: plan.to_dict()}, "demo": True})
        repo.save(saved)
        print(f"saved as event {saved.id} in {repo.db.url}", file=sys.stderr)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    con = Console()
    t = Table(title=f"Demo: {args.players} players, {args.sessions} sessions, scheme {args.scheme}, bots "
                    f"{','.join(kinds)}, seed {args.seed} · schedule {plan.method}, {plan.repeats} repeat meetings")
    for col in ("名次 Rank", "选手 Player", "队 Team", "标准分 Std total", "比赛分 Score total"):
        t.add_column(col)
    for r in data["standings"]:
        t.add_row(str(r["rank"]), r["player"], r["team"] or "", _f(r["standard_total"]), str(r["match_total"]))
    con.print(t)
    if data["teams"]:
        tt = Table(title="团体 Teams")
        for col in ("名次 Rank", "队 Team", "标准分 Std total"):
            tt.add_column(col)
        for r in data["teams"]:
            tt.add_row(str(r["rank"]), r["team"], _f(r["standard_total"]))
        con.print(tt)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m majiang.cli.tournament_cmd …`` (the same as ``majiang tournament …``)."""
    parser = argparse.ArgumentParser(prog="majiang")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    register(sub)
    args = parser.parse_args(["tournament", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
