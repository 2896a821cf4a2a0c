"""``majiang tournament token | online``: the organiser token, and sessions played online in the hall
(``online`` posts to the hall's organiser routes)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, wrap


def register(tsub: Any) -> None:
    t = tsub.add_parser(
        "token",
        help="issue a new organiser token (online sessions), replacing the old one",
        description=describe(
            "Print a new organiser token (组委会口令) for the event and forget the old one.  The HTTP "
            "routes that open and sync online sessions want it; 'tournament new' prints the first one."
        ),
        formatter_class=RAW,
        epilog="example:\n  export MAJIANG_ORGANISER_TOKEN=$(majiang tournament token cup)",
    )
    t.add_argument("event", help="event id")
    t.add_argument("--db", default=None, help=DB_HELP)
    t.set_defaults(func=cmd_token)

    pn = tsub.add_parser(
        "pins",
        help="each table's link and each seat's PIN for entry from the players' phones",
        description=describe(
            "Print, for session K, each table's entry page (…/tournaments/EVENT/t/K/T on the hall "
            "that 'majiang serve' runs) and the 8-digit PIN of each of its four seats.  Each player opens "
            "the link on his own phone and types his own PIN (it is on his seat slip: 'export --format "
            "seating --url'); one proposes a hand, the other three confirm it, each for his own seat only.  "
            "The referee's organiser token records an entry at once.  PINs are derived from a secret kept "
            "with the event (made on the first call): the same every time, different per session, table "
            "and seat.  Wrong PINs are limited per network and per table (docs/hardening.md)."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament pins cup --session 1 --url http://192.168.1.20:8000\n"
        "  majiang tournament pins cup --session 1 --json",
    )
    pn.add_argument("event", help="event id")
    pn.add_argument("--session", type=int, default=None, metavar="K", help="default: the last drawn")
    pn.add_argument("--url", default="http://127.0.0.1:8000", help="the hall's address as the phones reach it")
    pn.add_argument("--json", action="store_true", help="print JSON")
    pn.add_argument("--db", default=None, help=DB_HELP)
    pn.set_defaults(func=cmd_pins)

    o = tsub.add_parser(
        "online",
        help="open a drawn session in the hall (majiang serve), or record its finished hands",
        description=describe(
            "Ask a running hall (majiang serve) to open session K: one private hall table per event "
            "table, each player with a linked hall account seated at his first-round seat, bots in the other "
            "chairs; a table with nobody to seat is played by bots at once.  The hall records every finished "
            "hand and ends a table after its 16th.  --sync enters the hands the hall has finished that are "
            "not entered yet (safe to repeat).  The token is --token or $MAJIANG_ORGANISER_TOKEN."
        ),
        formatter_class=RAW,
        epilog="examples:\n"
        "  majiang tournament online cup --session 1 --url http://127.0.0.1:8000 --token TOKEN\n"
        "  majiang tournament online cup --session 1 --url http://127.0.0.1:8000 --sync\n"
        "  majiang tournament online cup --session 2 --room event-gb --json",
    )
    o.add_argument("event", help="event id")
    o.add_argument("--session", type=int, required=True, metavar="K", help="session number (drawn)")
    o.add_argument("--url", default="http://127.0.0.1:8000", help="the hall's address (default %(default)s)")
    o.add_argument("--token", default=None, help="organiser token (default $MAJIANG_ORGANISER_TOKEN)")
    o.add_argument("--sync", action="store_true", help="record the finished hall hands instead of opening")
    o.add_argument("--room", default=None, help="hall room to open the tables in (its rules must be the event's)")
    o.add_argument("--json", action="store_true", help="print the hall's JSON answer")
    o.add_argument(
        "--duplicate",
        action="store_true",
        help="复式: every table plays the same walls; the hands' records stay sealed until the session ends",
    )
    o.set_defaults(func=cmd_online)

    from majiang.cli.tournament.link import register as register_link  # the hall accounts these sessions seat

    register_link(tsub)


# ---- token / pins / online -------------------------------------------------------------------------
def table_links(repo: Any, event_id: str, session: int | None, url: str) -> list[dict[str, Any]]:
    """``[{"table", "url", "pins", "players"}]`` for a drawn session (the entry secret made if missing):
    ``pins`` the four seats' PINs (E, S, W, N of the first round), each for that player only."""
    from urllib.parse import quote

    from majiang.tournament.organiser import ENTRY_KEY, new_entry_secret, seat_pin, spaced

    event = repo.load(event_id)
    if ENTRY_KEY not in event.extra:
        repo.set_extra(event_id, **new_entry_secret())
        event = repo.load(event_id)
    group = event.groups[0]
    if not group.sessions:
        raise CliError(f"no session drawn yet: majiang tournament draw {event_id}")
    k = session or len(group.sessions)
    if not 1 <= k <= len(group.sessions):
        raise CliError(f"sessions 1–{len(group.sessions)} are drawn, not {k}")
    names = {p.id: p.name or p.id for p in group.players}
    return [
        {
            "session": k,
            "table": t.no,
            "url": f"{url.rstrip('/')}/tournaments/{quote(event_id)}/t/{k}/{t.no}",
            "pins": [spaced(seat_pin(event.extra, k, t.no, seat) or "") for seat in range(4)],
            "players": [names.get(p, p) for p in t.players],
        }
        for t in group.sessions[k - 1].tables
    ]


@wrap
def cmd_pins(args: argparse.Namespace) -> int:
    links = table_links(open_repo(args), args.event, args.session, args.url)
    if args.json:
        print(json.dumps(links, ensure_ascii=False))
        return 0
    for x in links:
        print(f"table {x['table']:>3}  {x['url']}")
        for wind, name, pin in zip("ESWN", x["players"], x["pins"], strict=True):
            print(f"    {wind} {name:<24} PIN {pin}")
    return 0


# ---- token / online --------------------------------------------------------------------------------
@wrap
def cmd_token(args: argparse.Namespace) -> int:
    from majiang.tournament.organiser import issue_token

    repo = open_repo(args)
    repo.load(args.event)  # an unknown event says which exist
    token, key = issue_token()
    repo.set_extra(args.event, **key)
    print(token)
    print(f"new organiser token for {args.event}; the old one no longer works", file=sys.stderr)
    return 0


def post(url: str, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST JSON with the organiser token; the status and the JSON answer (tests replace this)."""
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"{}")
        except ValueError:
            return e.code, {"detail": e.reason}


@wrap
def cmd_online(args: argparse.Namespace) -> int:
    token = args.token or os.environ.get("MAJIANG_ORGANISER_TOKEN", "")
    if not token:
        raise CliError(
            "give the organiser token: --token TOKEN or $MAJIANG_ORGANISER_TOKEN (the one 'majiang "
            f"tournament new' printed; a new one: majiang tournament token {args.event})"
        )
    action = "sync" if args.sync else "open"
    url = f"{args.url.rstrip('/')}/tournaments/{args.event}/sessions/{args.session}/{action}"
    try:
        body: dict[str, Any] = {}
        if not args.sync:
            body = {k: v for k, v in (("room", args.room), ("duplicate", args.duplicate or None)) if v is not None}
        status, data = post(url, token, body)
    except (urllib.error.URLError, OSError) as e:
        raise CliError(
            f"cannot reach the hall at {args.url}: {getattr(e, 'reason', e)}; start it with "
            "'majiang serve' or give --url"
        ) from None
    if status >= 400:
        raise CliError(f"the hall refused ({status}): {data.get('detail', data)}")
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    elif args.sync:
        done = " · ".join(f"table {t['table']} {t['hands']}/16" for t in data.get("tables", []))
        print(f"session {args.session}: {data.get('entered', 0)} hand(s) entered from the hall; {done}")
    else:
        _print_opened(data)
    return 0


def _print_opened(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"第{data['session']}局 session {data['session']} · 网上 online")
    for col in ("桌 Table", "大厅桌 Hall table", "口令 Code", "东 E", "南 S", "西 W", "北 N"):
        t.add_column(col)
    for tb in data["tables"]:
        seats = [f"{s['player']}{' (bot 机器人)' if s['bot'] else ''}" for s in tb["seats"]]
        hall = "engine 引擎 (bots, done)" if tb["engine"] else tb["hall_table"] or ""
        state = {"playing": "playing 进行中", "done": "done 已完成"}.get(tb.get("state", ""), "")
        if tb.get("state") == "opened" and tb.get("first_hand", 1) > 1:
            state = f"from hand {tb['first_hand']} 第{tb['first_hand']}盘起"
        t.add_row(str(tb["table"]), f"{hall} {state}".strip(), tb["code"] or "", *seats)
    Console().print(t)
    if any(tb.get("duplicate") for tb in data["tables"]):
        print("复式 duplicate walls: the same walls at every table; hand records sealed until the session ends")
