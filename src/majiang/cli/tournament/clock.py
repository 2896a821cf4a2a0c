"""``majiang tournament clock``: the session clock (第六条) and the time call at every table."""

from __future__ import annotations

import argparse
import json
from typing import Any

from majiang.cli.tournament.common import DB_HELP, RAW, describe, open_repo, wrap


def register(tsub: Any) -> None:
    c = tsub.add_parser(
        "clock",
        help="start a session's clock (3 h), show it, or call time at every table",
        description=describe(
            "A session has 3 hours (第六条) with a warning before the end; the projector page "
            "(/tournaments/EVENT/projector) shows the clock.  --start starts it now (again: "
            "restarts); --call calls time at every table still playing (the hand in play is "
            "finished and entered with 'enter … --time-called' at a table instead, when the "
            "referee calls it there).  Without options: where the clock stands."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament clock cup --session 1 --start\n"
        "  majiang tournament clock cup --session 1 --start --minutes 150 --warn 10\n"
        "  majiang tournament clock cup --session 1\n  majiang tournament clock cup --session 1 --call",
    )
    c.add_argument("event", help="event id")
    c.add_argument("--session", type=int, default=None, metavar="K", help="default: the last drawn")
    c.add_argument("--start", action="store_true", help="start the clock now")
    c.add_argument("--minutes", type=int, default=180, metavar="M", help="the session's length (default 180)")
    c.add_argument("--warn", type=int, default=15, metavar="W", help="warn W minutes before the end (default 15)")
    c.add_argument("--call", action="store_true", help="call time at every table still playing")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.add_argument("--db", default=None, help=DB_HELP)
    c.set_defaults(func=cmd_clock)


@wrap
def cmd_clock(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    k = args.session or len(repo.load(args.event).groups[0].sessions)
    if args.start:
        repo.start_clock(args.event, k, minutes=args.minutes, warn=args.warn)
    called = repo.call_time(args.event, k) if args.call else None
    state = repo.clock(args.event, k)
    if args.json:
        print(json.dumps({**state, "just_called": called}, ensure_ascii=False))
        return 0
    if state["remaining_s"] is None:
        print(f"session {k}: the clock is not started (majiang tournament clock {args.event} --session {k} --start)")
    else:
        h, rest = divmod(state["remaining_s"], 3600)
        print(
            f"session {k}: {state['phase']}, {h}:{rest // 60:02d}:{rest % 60:02d} left (ends {state['ends'][:19]} "
            f"UTC; warning {state['warn']} min before)"
        )
    if called is not None:
        print(f"time called at table(s) {', '.join(map(str, called)) or '(none still playing)'}")
        if called:
            print("the hand in play at each is finished and entered (enter … --hand N); no new hand starts")
    elif state["called"]:
        print(f"time called at table(s) {', '.join(map(str, state['called']))}")
    return 0
