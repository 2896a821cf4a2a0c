"""``majiang serve``: run the hall (HTTP API, WebSocket, web client)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="run the online hall (rooms, tables with bots, coins, web client)",
        description="Run the hall: the web client at http://HOST:PORT/, the API at /docs, the WebSocket at /ws.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  majiang serve\n"
               "  majiang serve --db postgresql://postgres@127.0.0.1:5432/majiang --port 8080\n"
               "  majiang serve --rooms rooms.toml --bot-delay 0")
    p.add_argument("--db", default=None, help="database URL (default: SQLite file var/majiang.db; "
                                              "postgresql://… for PostgreSQL)")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="share the hall with other processes through Redis (redis://127.0.0.1:6379/0); "
                        "needs a PostgreSQL --db shared by all of them")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--rooms", default=None, help="rooms file (TOML or JSON; default: the built-in rooms); "
                                                 "its [relief] table configures the daily relief grant")
    p.add_argument("--bot-delay", default="0.6,1.6",
                   help="seconds a bot waits before acting, 'min,max' (default 0.6,1.6; 0 = at once)")
    p.add_argument("--origin", action="append", default=None,
                   help="allowed WebSocket Origin (repeatable; default: same host only)")
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")
    p.set_defaults(func=run)


def tournament_features() -> dict[str, Any]:
    """The tournament wired into the hall (``create_app(..., **tournament_features())``): the competition
    pages and organiser routes, and the hook that records each hand of an event table."""
    from majiang.tournament.adapters.online import result_hook
    from majiang.tournament.adapters.web import router

    return {"extra_routers": [router], "hand_end_hooks": [result_hook]}


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from majiang.hall.app import create_app
    from majiang.hall.relief import load_relief
    from majiang.hall.rooms import load_rooms

    try:
        rooms = load_rooms(args.rooms)
        relief = load_relief(args.rooms)
        parts = [float(x) for x in str(args.bot_delay).split(",")]
        delay = (parts[0], parts[-1])
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.redis and not (args.db or "").startswith(("postgresql://", "postgres://")):
        print("error: --redis needs a shared PostgreSQL database: add --db postgresql://…", file=sys.stderr)
        return 2
    app = create_app(args.db, rooms, bot_delay=delay, allowed_origins=args.origin, redis_url=args.redis,
                     relief=relief, **tournament_features())
    db = args.db or os.environ.get("MAJIANG_DB") or "SQLite var/majiang.db"
    if args.redis:
        db += f" + Redis {args.redis}"
    print(f"majiang hall on {db}: open http://{args.host}:{args.port}/  (API docs at /docs; Ctrl-C stops)",
          flush=True)
    from majiang.hall.logs import log_config

    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=16384,
                ws_per_message_deflate=False,  # small JSON messages: compression costs more than it saves
                log_config=log_config(args.log_level))
    return 0
