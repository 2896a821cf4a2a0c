"""A real multi-process hall for tests: N ``majiang serve`` processes on a scratch PostgreSQL database
and a private Redis prefix, plus a small synchronous WebSocket client."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
from websockets.sync.client import connect

PG = "postgresql://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/0"
CLUSTER_KEY = secrets.token_hex(32)  # MAJIANG_CLUSTER_KEY of the test clusters' processes
ROOT = Path(__file__).resolve().parents[2]
ROOMS = """
[[room]]
id = "c"
name = "cluster test"
rules = "gb"
coefficient = 10
fee = 5
bots = "rand"
bot_fill_s = 30
next_hand_s = 0.2
ready_s = 0  # no ready step between hands (the next one after next_hand_s)
claim_window_s = 0.0
timers = "relaxed"
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(url: str, body: dict[str, Any] | None = None, method: str | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        url,
        data=data,
        method=method or ("POST" if data is not None else "GET"),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


@contextlib.contextmanager
def scratch_pg() -> Iterator[str]:
    name = f"majiang_t_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG}/{name}"
    finally:
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as c:
            c.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            c.execute(f'DROP DATABASE IF EXISTS "{name}"')


class Node:
    def __init__(
        self, db: str, redis: str, rooms: Path, bot_delay: str = "0.05,0.1", extra: tuple[str, ...] = ()
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "MAJIANG_CLUSTER_KEY": CLUSTER_KEY}
        # the local test Redis has no password: --insecure-redis, unless the URL carries an ACL user
        insecure = () if "@" in redis else ("--insecure-redis",)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "majiang.cli",
                "serve",
                "--db",
                db,
                "--redis",
                redis,
                "--port",
                str(self.port),
                "--rooms",
                str(rooms),
                "--bot-delay",
                bot_delay,
                "--log-level",
                "error",
                *insecure,
                *extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def wait_up(self, timeout: float = 60) -> None:
        t0 = time.time()
        while time.time() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"node on {self.port} died: {self.proc.stderr.read().decode()[-2000:]}")
            with contextlib.suppress(OSError):
                http(self.base + "/healthz")
                return
            time.sleep(0.2)
        raise TimeoutError(f"node on {self.port} did not start")

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL: no clean shutdown, the lease just expires
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@contextlib.contextmanager
def cluster(
    n: int, tmp: Path, redis: str | None = None, extra: tuple[str, ...] = ()
) -> Iterator[tuple[list[Node], str]]:
    """``n`` processes; ``redis`` (default: the local Redis, a fresh prefix) and ``extra`` arguments."""
    rooms = tmp / "rooms.toml"
    rooms.write_text(ROOMS)
    redis = redis or f"{REDIS}?prefix=t{secrets.token_hex(4)}"
    with scratch_pg() as db:
        from majiang.store import Database

        Database(db).migrate()
        nodes = [Node(db, redis, rooms, extra=extra) for _ in range(n)]
        try:
            for node in nodes:
                node.wait_up()
            yield nodes, db
        finally:
            for node in nodes:
                node.stop()


class Player:
    """A scripted player on one node's WebSocket."""

    def __init__(self, node: Node, token: str) -> None:
        self.token = token
        self.ws = connect(f"ws://127.0.0.1:{node.port}/ws?token={token}", max_size=2**20, open_timeout=20)
        self.seen: list[dict[str, Any]] = []

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        m = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(m)
        return m

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def until(self, kind: str, timeout: float = 30) -> dict[str, Any]:
        t0 = time.time()
        while time.time() - t0 < timeout:
            m = self.recv(timeout=max(0.1, timeout - (time.time() - t0)))
            if m["type"] == kind:
                return m
        raise TimeoutError(kind)

    def answer(self, prompt: dict[str, Any]) -> None:
        legal = prompt["legal"]
        a = (
            next((x for x in legal if x["type"] == "win"), None)
            or next((x for x in legal if x["type"] == "pass"), None)
            or legal[-1]
        )
        self.send({"type": "action", "seq": prompt["seq"], "action": a})

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
