"""``majiang cluster``: a local multi-process hall for development (PostgreSQL + Redis)."""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
import time
from typing import Any

DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/majiang"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "cluster",
        help="run several hall processes sharing PostgreSQL and Redis",
        description="Start N `majiang serve` processes on consecutive ports, sharing one PostgreSQL database "
        "and one Redis. Each table is owned by one process; a player may connect to any of them; "
        "when a process dies another takes its tables over. Ctrl-C stops them all.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  majiang cluster --nodes 3 --insecure-redis      # the local password-less Redis\n"
        "  majiang cluster --nodes 2 --db postgresql://u@host/db "
        "--redis rediss://majiang:PASSWORD@host:6380/1 --port 9000",
    )
    p.add_argument("--nodes", type=int, default=3, help="number of processes (default 3)")
    p.add_argument("--db", default=DEFAULT_DB, help=f"PostgreSQL URL (default {DEFAULT_DB}; created if missing)")
    p.add_argument("--redis", default=DEFAULT_REDIS, help=f"Redis URL (default {DEFAULT_REDIS})")
    p.add_argument("--port", type=int, default=8001, help="first port (default 8001)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--rooms", default=None, help="rooms file")
    p.add_argument("--bot-delay", default="0.6,1.6")
    p.add_argument(
        "--insecure-redis",
        action="store_true",
        help="allow a Redis URL without a password (development on a trusted machine only)",
    )
    p.set_defaults(func=run)


def ensure_database(url: str) -> None:
    """Create the PostgreSQL database named in ``url`` if it does not exist, and migrate it."""
    import psycopg

    from majiang.store import Database

    base, _, name = url.rpartition("/")
    name = name.split("?")[0]
    admin = base.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')
    Database(url).migrate()


def run(args: argparse.Namespace) -> int:
    if args.nodes < 1:
        print("error: --nodes must be at least 1", file=sys.stderr)
        return 2
    procs = []
    # the processes seal what they relay through Redis with one key (cluster.RedisCluster)
    env = {**os.environ}
    env.setdefault("MAJIANG_CLUSTER_KEY", secrets.token_hex(32))
    from majiang.hall.cluster import InsecureRedis, check_redis_url

    try:
        check_redis_url(args.redis, env["MAJIANG_CLUSTER_KEY"], args.insecure_redis)
    except InsecureRedis as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        ensure_database(args.db)
    except Exception as e:
        print(
            f"error: cannot prepare the database {args.db}: {e}\n"
            "start PostgreSQL or give --db postgresql://user@host:port/name",
            file=sys.stderr,
        )
        return 2
    for i in range(args.nodes):
        port = args.port + i
        cmd = [
            sys.executable,
            "-m",
            "majiang.cli",
            "serve",
            "--db",
            args.db,
            "--redis",
            args.redis,
            "--host",
            args.host,
            "--port",
            str(port),
            "--bot-delay",
            args.bot_delay,
        ]
        if args.rooms:
            cmd += ["--rooms", args.rooms]
        if args.insecure_redis:
            cmd.append("--insecure-redis")
        procs.append(subprocess.Popen(cmd, env=env))
    print(f"majiang cluster: {args.nodes} processes on {args.db} + {args.redis}", flush=True)
    for i in range(args.nodes):
        print(f"  node {i + 1}: http://{args.host}:{args.port + i}/", flush=True)
    stop = False

    def _stop(*_a: Any) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    try:
        while not stop and any(p.poll() is None for p in procs):
            time.sleep(0.5)
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
    return 0
