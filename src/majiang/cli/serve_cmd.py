"""``majiang serve``: run the hall (HTTP API, WebSocket, web client)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the online hall (rooms, tables with bots, coins, web client)",
        description="Run the hall: the web client at http://HOST:PORT/, the API at /docs, the WebSocket at /ws.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  majiang serve\n"
        "  majiang serve --db postgresql://postgres@127.0.0.1:5432/majiang --port 8080\n"
        "  majiang serve --rooms rooms.toml --bot-delay 0",
    )
    p.add_argument(
        "--db", default=None, help="database URL (default: SQLite file var/majiang.db; postgresql://… for PostgreSQL)"
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="share the hall with other processes through Redis: redis://USER:PASSWORD@HOST:6379/0 "
        "(rediss:// for TLS; an ACL user of its own, docs/ARCHITECTURE.md); needs a PostgreSQL --db "
        "shared by all of them and MAJIANG_CLUSTER_KEY in the environment",
    )
    p.add_argument(
        "--insecure-redis",
        action="store_true",
        help="allow a --redis URL without a password, or no MAJIANG_CLUSTER_KEY (development on a trusted "
        "machine only: whoever reaches that Redis can read and drive the hall)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--rooms",
        default=None,
        help="rooms file (TOML or JSON; default: the built-in rooms); "
        "its [relief] table configures the daily relief grant",
    )
    p.add_argument(
        "--bot-delay",
        default="0.6,1.6",
        help="seconds a bot waits before acting, 'min,max' (default 0.6,1.6; 0 = at once)",
    )
    p.add_argument(
        "--origin", action="append", default=None, help="allowed WebSocket Origin (repeatable; default: same host only)"
    )
    p.add_argument(
        "--allowed-hosts",
        default=None,
        metavar="HOSTS",
        help="comma-separated Host names this server answers to ('.example.com' for subdomains, '*' "
        "for any); others get 400/403 (DNS rebinding). Default: --host, localhost, 127.0.0.1, ::1",
    )
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")
    p.add_argument(
        "--guests-per-hour",
        type=float,
        default=20.0,
        metavar="N",
        help="guest accounts one client network (IPv4 /24, IPv6 /64) may create an hour (default 20, bursts of 5)",
    )
    p.add_argument(
        "--logins-per-minute",
        type=float,
        default=20.0,
        metavar="N",
        help="logins and sign-ups one client network may make a minute (default 20, bursts of 10; "
        "one username: 5 a minute from anywhere)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="NETWORK",
        help="a reverse proxy in front of the hall (10.0.0.1, 10.0.0.0/8, fd00::/8; repeatable): only from "
        "these peers is X-Forwarded-For believed, for the per-network limits (IPv4 /24, IPv6 /64)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a client has to send a request's headers (default 10; then 408)",
    )
    p.add_argument(
        "--body-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds a client has to send a request's body after its headers (default 30)",
    )
    p.set_defaults(func=run)


def tournament_features() -> dict[str, Any]:
    """The tournament wired into the hall (``create_app(..., **tournament_features())``): the competition
    pages and organiser routes, and the hook that records each hand of an event table."""
    from majiang.tournament.adapters.online import result_hook
    from majiang.tournament.adapters.web import router

    return {"extra_routers": [router], "hand_end_hooks": [result_hook]}


def default_hosts(host: str) -> list[str]:
    """The Host names answered by default: the address served on, and the loopback names."""
    return list(dict.fromkeys(h for h in (host, "localhost", "127.0.0.1", "::1") if h not in ("0.0.0.0", "::", "")))


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
    if args.redis:
        from majiang.hall.cluster import InsecureRedis, check_redis_url

        try:
            for warning in check_redis_url(args.redis, os.environ.get("MAJIANG_CLUSTER_KEY"), args.insecure_redis):
                print(f"warning: {warning}", file=sys.stderr)
        except InsecureRedis as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    from majiang.hall.limits import Limits

    try:
        limits = Limits.from_flags(args.logins_per_minute, args.guests_per_hour, tuple(args.trusted_proxy))
    except ValueError as e:
        print(f"error: --trusted-proxy: {e}", file=sys.stderr)
        return 2
    hosts = (
        default_hosts(args.host)
        if args.allowed_hosts is None
        else [h.strip() for h in args.allowed_hosts.split(",") if h.strip()]
    )
    if args.allowed_hosts is None and args.host in ("0.0.0.0", "::", ""):
        print(
            f"note: listening on every address but answering only to {', '.join(hosts)}: "
            "add --allowed-hosts your.domain (docs/hardening.md)",
            file=sys.stderr,
        )
    app = create_app(
        args.db,
        rooms,
        bot_delay=delay,
        allowed_origins=args.origin,
        redis_url=args.redis,
        limits=limits,
        allowed_hosts=hosts,
        relief=relief,
        **tournament_features(),
    )
    db = args.db or os.environ.get("MAJIANG_DB") or "SQLite var/majiang.db"
    if args.redis:
        db += f" + Redis {args.redis}"
    print(f"majiang hall on {db}: open http://{args.host}:{args.port}/  (API docs at /docs; Ctrl-C stops)", flush=True)
    from majiang.hall.logs import log_config
    from majiang.hall.serving import tune_gc, uvicorn_options

    tune_gc()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=16384,
        ws_per_message_deflate=False,  # small JSON messages: compression costs more than it saves
        log_config=log_config(args.log_level),
        **uvicorn_options(args.header_timeout, args.body_timeout),
    )  # slowloris: docs/hardening.md
    return 0
