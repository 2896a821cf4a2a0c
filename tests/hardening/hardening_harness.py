"""A live hall for the hardening tests, driven in-process over raw ASGI.

The app (``create_app``: lifespan, HTTP API, WebSocket) and every test client run on one asyncio
event loop in a background thread.  A WebSocket client here is a pair of ASGI queues — the same
protocol messages uvicorn would deliver, without sockets — so tens of thousands of messages a
second go through the real ``/ws`` handler, the table runners and the database, and the tests can
look at the Hall object (``live.hall``) between two messages without racing it.

Failures the server tries to hide are collected: every log record at ERROR or above (the table
runner logs and swallows exceptions), every exception escaping the ASGI app (an unhandled error in
the WebSocket handler) and every exception reaching the loop's exception handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import traceback
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx

from majiang.cli.serve_cmd import tournament_features
from majiang.hall.app import create_app
from majiang.hall.limits import Limits
from majiang.hall.rooms import Room

T = TypeVar("T")


# ---- capturing what the server would rather not say ----------------------------------------------
class ErrorTrap(logging.Handler):
    """Collects every log record at ERROR or above (from the root logger down)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.records.append(text)


class LoopThread:
    """An event loop in a daemon thread; ``run`` submits a coroutine and waits for its result."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop_errors: list[str] = []
        self.loop.set_exception_handler(self._on_error)
        self.thread = threading.Thread(target=self.loop.run_forever, name="hardening-loop", daemon=True)
        self.thread.start()

    def _on_error(self, loop: asyncio.AbstractEventLoop, ctx: dict[str, Any]) -> None:
        exc = ctx.get("exception")
        text = str(ctx.get("message"))
        if exc is not None:
            text += "\n" + "".join(traceback.format_exception(exc))
        self.loop_errors.append(text)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 600) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.wait(tasks, timeout=5) if tasks else None

        with contextlib.suppress(Exception):
            self.run(cancel_all(), 10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()


# ---- the in-process WebSocket client -----------------------------------------------------------------
class WSClosed(Exception):
    def __init__(self, code: int | None, reason: str = "") -> None:
        super().__init__(f"closed {code} {reason}")
        self.code = code
        self.reason = reason


class WS:
    """One WebSocket connection to the app over raw ASGI messages."""

    def __init__(self, live: Live, url: str, headers: Iterable[tuple[str, str]] = ()) -> None:
        parts = urlsplit(url)
        hdrs = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        if not any(k == b"host" for k, _ in hdrs):
            hdrs.append((b"host", b"testserver"))
        self.scope = {
            "type": "websocket",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "scheme": "ws",
            "server": ("testserver", 80),
            "client": ("127.0.0.1", 50000),
            "root_path": "",
            "path": parts.path,
            "raw_path": parts.path.encode(),
            "query_string": parts.query.encode(),
            "headers": hdrs,
            "subprotocols": [],
            "state": dict(live.lifespan_state),
        }
        self.live = live
        self.to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.to_app.put_nowait({"type": "websocket.connect"})
        self.accepted = False
        self.close_code: int | None = None
        self.close_reason = ""
        self.sent = 0
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            await self.live.app(self.scope, self.to_app.get, self._send)
        except Exception as e:
            self.live.app_exceptions.append("".join(traceback.format_exception(e)))
            self.from_app.put_nowait({"type": "websocket.close", "code": 1011, "reason": "unhandled exception"})
        finally:
            self.from_app.put_nowait({"type": "_ended"})

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.close":
            self.to_app.put_nowait({"type": "websocket.disconnect", "code": message.get("code", 1000)})
        self.from_app.put_nowait(message)

    async def open(self, timeout: float = 10) -> WS:
        """Wait for the handshake; raises :class:`WSClosed` when the server refuses it."""
        m = await asyncio.wait_for(self.from_app.get(), timeout)
        if m["type"] == "websocket.accept":
            self.accepted = True
            return self
        self._closed_by(m)
        raise WSClosed(self.close_code, self.close_reason)

    def _closed_by(self, m: dict[str, Any]) -> None:
        if m["type"] == "websocket.close":
            self.close_code, self.close_reason = m.get("code", 1000), m.get("reason", "")
        elif self.close_code is None:
            self.close_code = 1006

    @property
    def closed(self) -> bool:
        return self.close_code is not None

    def send_text(self, text: str) -> None:
        text.encode()  # a WebSocket text frame is UTF-8: no lone surrogates (a real client cannot send them)
        self.sent += 1
        self.to_app.put_nowait({"type": "websocket.receive", "text": text})

    def send_bytes(self, data: bytes) -> None:
        self.sent += 1
        self.to_app.put_nowait({"type": "websocket.receive", "bytes": data})

    def send(self, msg: Any) -> None:
        self.send_text(json.dumps(msg, ensure_ascii=False))

    def _decode(self, m: dict[str, Any]) -> dict[str, Any]:
        if m["type"] != "websocket.send":
            self._closed_by(m)
            raise WSClosed(self.close_code, self.close_reason)
        text = m.get("text")
        assert text is not None, f"the server sent a binary frame: {m!r}"
        out = json.loads(text)
        assert isinstance(out, dict), f"a server message is not an object: {text[:200]}"
        self.live.received += 1
        return out

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        if not self.from_app.empty():  # the common case: no timer, no task
            return self._decode(self.from_app.get_nowait())
        if self.closed:
            raise WSClosed(self.close_code, self.close_reason)
        return self._decode(await asyncio.wait_for(self.from_app.get(), timeout))

    def drain(self) -> list[dict[str, Any]]:
        """Every message already delivered (never waits); stops at a close."""
        out = []
        while not self.from_app.empty():
            m = self.from_app.get_nowait()
            try:
                out.append(self._decode(m))
            except WSClosed:
                break
        return out

    async def until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20, seen: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            m = await self.recv(max(0.01, end - loop.time()))
            if seen is not None:
                seen.append(m)
            if pred(m):
                return m

    async def settle(self, quiet: float = 0.02, limit: float = 5) -> list[dict[str, Any]]:
        """Collect messages until none arrived for ``quiet`` seconds."""
        out: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        end = loop.time() + limit
        while loop.time() < end:
            try:
                out.append(await self.recv(quiet))
            except TimeoutError:
                break
            except WSClosed:
                break
        return out

    async def close(self) -> None:
        if not self.task.done():
            self.to_app.put_nowait({"type": "websocket.disconnect", "code": 1000})
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self.task), 5)


# ---- the live app ----------------------------------------------------------------------------------------
UNLIMITED = Limits(
    login_per_address_per_min=1e9,
    login_burst=1e9,
    login_per_account_per_min=1e9,
    login_account_burst=1e9,
    guests_per_address_per_hour=1e9,
    guest_burst=1e9,
)
OPEN_FLAGS = ["--guests-per-hour", "1000000000", "--logins-per-minute", "1000000000"]


class Live:
    """``create_app`` started in-process (its lifespan run), with HTTP and WebSocket clients."""

    def __init__(self, db_url: str, rooms: list[Room], **kwargs: Any) -> None:
        kwargs.setdefault("bot_delay", (0, 0))
        kwargs.setdefault("limits", UNLIMITED)  # the tests make many guests from one address
        self.app = create_app(db_url, rooms, **tournament_features(), **kwargs)
        self.lifespan_state: dict[str, Any] = {}
        self.app_exceptions: list[str] = []
        self.received = 0
        self._lifespan_in: asyncio.Queue[dict[str, Any]] | None = None
        self._lifespan_out: asyncio.Queue[dict[str, Any]] | None = None
        self._lifespan_task: asyncio.Task[None] | None = None
        self.http: httpx.AsyncClient | None = None

    async def start(self) -> None:
        self._lifespan_in, self._lifespan_out = asyncio.Queue(), asyncio.Queue()
        self._lifespan_in.put_nowait({"type": "lifespan.startup"})
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": self.lifespan_state}
        self._lifespan_task = asyncio.get_running_loop().create_task(
            self.app(scope, self._lifespan_in.get, self._lifespan_out.put)
        )
        m = await asyncio.wait_for(self._lifespan_out.get(), 60)
        assert m["type"] == "lifespan.startup.complete", m
        self.http = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app), base_url="http://testserver", timeout=60
        )

    async def stop(self) -> None:
        if self.http is not None:
            await self.http.aclose()
        assert self._lifespan_in is not None and self._lifespan_out is not None
        self._lifespan_in.put_nowait({"type": "lifespan.shutdown"})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._lifespan_out.get(), 20)

    @property
    def hall(self) -> Any:
        return self.app.state.hall

    async def guest(self) -> tuple[str, int]:
        assert self.http is not None
        r = await self.http.post("/api/guest")
        assert r.status_code == 200, r.text
        d = r.json()
        return d["token"], d["account"]["id"]

    async def connect(
        self, token: str | None = None, headers: Iterable[tuple[str, str]] = (), welcome: bool = True
    ) -> WS:
        ws = await WS(self, f"/ws?token={token}" if token is not None else "/ws", headers).open()
        if welcome and token is not None:
            m = await ws.recv()
            assert m["type"] == "welcome", m
        return ws


class LiveSession:
    """A live app on its own loop thread, with every server-side failure collected: ERROR logs,
    exceptions escaping the ASGI app, loop errors (``failures()``)."""

    def __init__(self, db_url: str, rooms: list[Room], **kwargs: Any) -> None:
        self.trap = ErrorTrap()
        logging.getLogger().addHandler(self.trap)
        self.lt = LoopThread()
        self.live: Live = self.lt.run(self._start(db_url, rooms, kwargs), 120)

    @staticmethod
    async def _start(db_url: str, rooms: list[Room], kwargs: dict[str, Any]) -> Live:
        live = Live(db_url, rooms, **kwargs)
        await live.start()
        return live

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 600) -> T:
        return self.lt.run(coro, timeout)

    def failures(self) -> list[str]:
        return self.trap.records + self.live.app_exceptions + self.lt.loop_errors

    def close(self) -> None:
        try:
            self.lt.run(self.live.stop(), 60)
        finally:
            logging.getLogger().removeHandler(self.trap)
            self.lt.stop()


def run_live(
    db_url: str, rooms: list[Room], body: Callable[[Live], Awaitable[T]], timeout: float = 600, **kwargs: Any
) -> tuple[T, list[str]]:
    """Start a live app, run ``body(live)`` on its loop, stop; returns the body's result and every
    server-side failure seen."""
    session = LiveSession(db_url, rooms, **kwargs)
    try:
        result = session.run(body(session.live), timeout)  # type: ignore[arg-type]
    finally:
        session.close()
    return result, session.failures()


# ---- what a well-formed server message looks like (docs/protocol.md) --------------------------------
ERROR_CODES = {
    "auth",
    "bad_message",
    "rate_limited",
    "stale",
    "illegal",
    "bad_action",
    "not_seated",
    "not_playing",
    "seated",
    "full",
    "seat_taken",
    "busy",
    "balance",
    "not_found",
    "already",
    "bad_item",
    "funds",
    "not_owned",
    "item_moment",
    "item_refused",
    "stakes",
}  # the items' codes
SERVER_FIELDS: dict[str, dict[str, Any]] = {
    "welcome": {"account": dict, "table": (str, type(None))},
    "lobby": {"rooms": list},
    "tables": {"room": str, "tables": list},
    "table": {"table": dict, "seat": (int, type(None))},
    "table_info": {"table": dict},
    "events": {"hand": int, "from": int, "events": list},
    "prompt": {"seq": int, "hand": int, "legal": list, "timeout_ms": int, "view": dict},
    "hand_end": {"hand": int, "result": dict, "scores": list, "coins": list, "seed": str, "seed_hash": str},
    "auto": {"on": bool},
    "escape": {"seat": int, "penalty": int},
    "chat": {"scope": str, "from": str, "account": int, "text": str, "at": (int, float)},
    "error": {"code": str, "message": str},
    "kicked": {"reason": str},
    "stood_up": {},
    "pong": {},
    "muted": {"account": int, "on": bool},
    "shop": {"items": list},
    "bought": {"item": str, "count": int, "cost": int, "balance": int, "inventory": dict},
    "inventory": {"inventory": dict, "balance": int, "log": list},
    "item_used": {"item": str, "seat": int},
    "items": {"usable": list, "inventory": dict, "golden_finger": bool},
}


def check_server_message(m: Any) -> None:
    """Raise AssertionError unless ``m`` is a documented server message with its fields typed."""
    assert isinstance(m, dict), f"not an object: {m!r}"
    t = m.get("type")
    assert t in SERVER_FIELDS, f"unknown server message type {t!r}: {str(m)[:300]}"
    for k, typ in SERVER_FIELDS[t].items():
        assert k in m, f"{t} without {k!r}: {str(m)[:300]}"
        assert isinstance(m[k], typ) and not (typ is int and isinstance(m[k], bool)), (
            f"{t}.{k} has the wrong type: {str(m)[:300]}"
        )
    if t == "error":
        assert m["code"] in ERROR_CODES, f"undocumented error code {m['code']!r}: {m}"
        assert m["message"], m
    if t == "events":
        assert all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in m["events"]), m
    if t == "prompt":
        assert m["legal"] and all(isinstance(a, dict) and "type" in a for a in m["legal"]), m


# ---- tiles -------------------------------------------------------------------------------------------------
TILE_RE = re.compile(r"^(?:[1-9][mps]|[ESWNCFP]|f[1-8])$")
FLOWERS = {f"f{i}" for i in range(1, 9)}


def tile_strings(x: Any, skip: frozenset[str] = frozenset({"chat", "name", "text", "from_name"})) -> list[str]:
    """Every string in ``x`` (recursively) that is a tile, skipping keys that hold people's text."""
    out: list[str] = []
    if isinstance(x, dict):
        for k, v in x.items():
            if k not in skip:
                out.extend(tile_strings(v, skip))
    elif isinstance(x, list):
        for v in x:
            out.extend(tile_strings(v, skip))
    elif isinstance(x, str) and TILE_RE.match(x):
        out.append(x)
    return out


# ---- a real `majiang serve` process ------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


ROOMS_TOML = """
[[room]]
id = "s"
name = "serve test"
rules = "gb"
bots = "rand"
bot_fill_s = 600
next_hand_s = 0.1
ready_s = 0  # no ready step between hands (the next one after next_hand_s)
timers = "relaxed"
claim_window_s = 0.0  # each discard still sent alone, without the wait (test_hardening_issue14 tests the window)
"""


class Serve:
    """``majiang serve`` on a free port, a fresh SQLite database and ``ROOMS_TOML``; its stderr (the
    JSON logs) goes to ``self.log``."""

    def __init__(self, tmp: Any, log_level: str = "info", extra: Iterable[str] = ()) -> None:
        import os
        import subprocess
        import sys
        from pathlib import Path

        tmp = Path(tmp)
        rooms = tmp / "rooms.toml"
        rooms.write_text(ROOMS_TOML)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.db = tmp / "serve.db"
        self.log = tmp / "serve.log"
        self._err = self.log.open("w")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "majiang.cli",
                "serve",
                "--db",
                f"sqlite:///{self.db}",
                "--port",
                str(self.port),
                "--rooms",
                str(rooms),
                "--bot-delay",
                "0",
                "--log-level",
                log_level,
                *OPEN_FLAGS,
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self._err,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )

    def wait_up(self, timeout: float = 60) -> Serve:
        import time
        import urllib.request

        t0 = time.time()
        while time.time() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"majiang serve died: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.base + "/healthz", timeout=5).read()
                return self
            time.sleep(0.1)
        raise TimeoutError("majiang serve did not start")

    def stop(self) -> str:
        import subprocess

        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._err.close()
        return self.log.read_text()
