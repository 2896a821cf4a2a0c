"""``majiang tournament checkin | phase``: check-in before each session, and the phases of a multi-day event
(docs/tournament.md, "Check-in" and "Phases")."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, wrap


def register(tsub: Any) -> None:
    c = tsub.add_parser(
        "checkin",
        help="check players in before a session (players not checked in get a bye)",
        description=describe(
            "Check players in for session K (default: the next session to play).  With check-in required "
            "(--require, once per event) a session is drawn for the players checked in only: every other "
            "player it would seat gets a bye (缺席: standard score 0, no session score), and a session drawn "
            "before the check-in cannot start its clock while a seated player is not checked in (re-draw it "
            "with 'draw --method redraw', or seat a substitute).  Events that do not require it draw "
            "everybody, as before.  Players are given by id or by their exact name."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament checkin cup --require\n"
        "  majiang tournament checkin cup --session 2 P01 P02 P03 'Li Na'\n"
        "  majiang tournament checkin cup --session 2 --all            (everybody; then --undo the missing)\n"
        "  majiang tournament checkin cup --session 2 --undo P03\n"
        "  majiang tournament checkin cup --session 2 --list",
    )
    c.add_argument("event", help="event id")
    c.add_argument("players", nargs="*", metavar="PLAYER", help="player ids or names")
    c.add_argument("--session", type=int, default=None, metavar="K", help="default: the next session to play")
    c.add_argument("--all", action="store_true", help="every player the session would seat")
    c.add_argument("--undo", action="store_true", help="take the players' check-in back")
    c.add_argument("--list", action="store_true", help="who is checked in and who is not (the default without players)")
    req = c.add_mutually_exclusive_group()
    req.add_argument("--require", action="store_true", help="from now on, sessions seat only checked-in players")
    req.add_argument("--no-require", action="store_true", help="draw everybody again (check-in not required)")
    c.add_argument("--by", default=None, metavar="NAME", help="who checks them in (default cli:$USER)")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.add_argument("--db", default=None, help=DB_HELP)
    c.set_defaults(func=cmd_checkin)
    c.__class__ = _intermixed(type(c))  # 'checkin cup --session 2 P01 P02': players after the options

    p = tsub.add_parser(
        "phase",
        help="define the phases of a multi-day event (qualifying, then finals seeded by the standings)",
        description=describe(
            "An event in phases: each phase takes the next S sessions and says how they are drawn "
            "(perfect: the schedule; swiss 高高碰; snake 蛇形; seeded: 1–4 at table 1, 5–8 at table 2 …) and "
            "who plays them (--cut N: the top N of the phase before; the others' places are final).  The first "
            "session of a phase is seeded by the standings of the phase before, the next ones by its own. "
            "--no-carry: the phase's standings start from zero.  Without options: the phases."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament phase open --add qualifying --sessions 5\n"
        "  majiang tournament phase open --add final --sessions 2 --draw seeded --cut 16\n"
        "  majiang tournament phase open --remove final\n"
        "  majiang tournament standings open --phase final\n"
        "  majiang tournament draw open        (the next session, by its phase's draw)",
    )
    p.add_argument("event", help="event id")
    p.add_argument("--add", metavar="NAME", default=None, help="add a phase after the last one")
    p.add_argument("--sessions", type=int, default=None, metavar="S", help="--add: its sessions")
    p.add_argument(
        "--draw", choices=("perfect", "swiss", "snake", "seeded"), default=None, help="--add: default perfect"
    )
    p.add_argument("--cut", type=int, default=None, metavar="N", help="--add: only the top N of the phase before")
    p.add_argument("--no-carry", action="store_true", help="--add: the phase's standings start from zero")
    p.add_argument("--remove", metavar="NAME", default=None, help="remove a phase (and those after it)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.set_defaults(func=cmd_phase)


def _intermixed(base: type) -> type:
    """A parser class that takes positionals after options (argparse before 3.13 gives a ``*`` positional
    nothing once an option follows the first positional)."""

    class Intermixed(base):  # type: ignore[misc]
        _busy = False

        def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
            if self._busy:
                return super().parse_known_args(args, namespace)
            self._busy = True
            try:
                return self.parse_known_intermixed_args(args, namespace)
            finally:
                self._busy = False

    return Intermixed


def resolve(group: Any, names: list[str]) -> list[str]:
    """Player ids from ids or exact names (case and spacing ignored)."""
    ids = {p.id for p in group.players}
    by_name: dict[str, list[str]] = {}
    for p in group.players:
        by_name.setdefault(" ".join(p.name.split()).casefold(), []).append(p.id)
    out = []
    for x in names:
        if x in ids:
            out.append(x)
            continue
        hits = by_name.get(" ".join(x.split()).casefold(), [])
        if len(hits) != 1:
            raise CliError(
                f"no player {x!r}"
                if not hits
                else f"{len(hits)} players are called {x!r}: give the id ({', '.join(hits)})"
            )
        out.append(hits[0])
    return out


@wrap
def cmd_checkin(args: argparse.Namespace) -> int:
    from majiang.tournament.checkin import expected, next_session, required

    repo = open_repo(args)
    if args.require or args.no_require:
        repo.set_checkin_required(args.event, bool(args.require))
        print(
            f"{args.event}: check-in {'required' if args.require else 'not required'}"
            + (" — sessions seat only the players checked in" if args.require else " — sessions seat everybody"),
            file=sys.stderr,
        )
    event = repo.load(args.event)
    if not event.groups:
        raise CliError(f"event {args.event!r} has no players")
    group = event.groups[0]
    k = args.session or next_session(group)
    if args.all and args.players:
        raise CliError("give players or --all, not both")
    wanted = expected(event, group, k) if args.all else resolve(group, args.players)
    if wanted:
        by = args.by or f"cli:{getpass.getuser()}"
        changed = repo.check_in(args.event, k, wanted, by=by, undo=args.undo)
        verb = "checked out" if args.undo else "checked in"
        same = [p for p in wanted if p not in changed]
        print(f"session {k}: {len(changed)} {verb}" + (f" ({len(same)} already were)" if same else ""), file=sys.stderr)
        if not args.list and not args.json:
            return 0
    elif args.undo:
        raise CliError("--undo needs the players whose check-in to take back")
    elif (args.require or args.no_require) and not args.list:
        return 0
    event = repo.load(args.event)
    here = repo.checkins(args.event, k)
    want = expected(event, group, k)
    missing = [p for p in want if p not in here]
    names = {p.id: p.name for p in group.players}
    if args.json:
        print(
            json.dumps(
                {
                    "session": k,
                    "required": required(event),
                    "checked_in": [{"player": p, "name": names.get(p, p), **v} for p, v in here.items()],
                    "missing": missing,
                },
                ensure_ascii=False,
            )
        )
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(
        title=f"{event.name} · 第{k}局 签到 check-in session {k}: {len(want) - len(missing)}/{len(want)}"
        + ("" if required(event) else " (not required)")
    )
    for col in ("选手 Player", "签到 Checked in", "时间 At", "由 By"):
        t.add_column(col)
    for p in dict.fromkeys((*want, *here)):
        who = p if names.get(p, p) in ("", p) else f"{p} {names[p]}"
        rec = here.get(p)
        t.add_row(who, "✓" if rec else "✗ 未签到", (rec or {}).get("at", "")[:19], (rec or {}).get("by", ""))
    Console().print(t)
    return 0


@wrap
def cmd_phase(args: argparse.Namespace) -> int:
    from majiang.tournament.phases import Phase, bounds, phases_of

    repo = open_repo(args)
    event = repo.load(args.event)
    phases = list(phases_of(event))
    if args.add and args.remove:
        raise CliError("--add or --remove, not both")
    if args.add:
        if args.sessions is None:
            raise CliError("--add NAME needs --sessions S")
        phases.append(
            Phase(args.add, args.sessions, draw=args.draw or "perfect", cut=args.cut, carry=not args.no_carry)
        )
        repo.set_phases(args.event, phases)
    elif args.remove:
        names = [p.name for p in phases]
        if args.remove not in names:
            raise CliError(f"no phase {args.remove!r} (phases: {', '.join(names) or 'none'})")
        repo.set_phases(args.event, phases[: names.index(args.remove)])
    elif args.sessions is not None or args.draw or args.cut is not None or args.no_carry:
        raise CliError("--sessions, --draw, --cut and --no-carry go with --add NAME")
    phases = list(phases_of(repo.load(args.event)))
    if args.json:
        print(
            json.dumps(
                [
                    {**p.to_dict(), "first": bounds(phases, i)[0], "last": bounds(phases, i)[1]}
                    for i, p in enumerate(phases)
                ],
                ensure_ascii=False,
            )
        )
        return 0
    if not phases:
        print(f"{args.event}: no phases (every session is one phase); add one with --add NAME --sessions S")
        return 0
    for i, p in enumerate(phases):
        first, last = bounds(phases, i)
        span = f"session {first}" if first == last else f"sessions {first}–{last}"
        who = f"top {p.cut}" if p.cut else "everybody"
        carry = "" if p.carry else ", standings from zero"
        print(f"{i + 1}. {p.name}: {span}, {who}, draw {p.draw}{carry}")
    return 0
