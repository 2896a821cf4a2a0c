"""Connections: one per account (a second login takes over the first), each with its own send
queue so a slow client never blocks a table; a client that falls behind by more than
:data:`QUEUE_BYTES` (or :data:`QUEUE_LIMIT` messages) is disconnected — it can reconnect and gets a
snapshot of its table."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

SendText = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]

QUEUE_LIMIT = 2000  # messages a client may fall behind before it is dropped
QUEUE_BYTES = 1 << 20  # bytes (UTF-8 JSON) a client may fall behind before it is dropped


class Connection:
    def __init__(self, account_id: int, send_text: SendText, close: Close) -> None:
        self.account_id = account_id
        self._send_text = send_text
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_bytes = 0  # what the queue holds, not yet handed to the socket
        self.closed = False
        self.table: str | None = None  # the table this connection plays or watches
        self._closer: asyncio.Task[None] | None = None
        self.task = asyncio.create_task(self._writer())

    async def _writer(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                self.queued_bytes -= len(text)
                await self._send_text(text)
        except Exception:
            self.closed = True

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        text = json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
        if self.queue.qsize() >= QUEUE_LIMIT or self.queued_bytes + len(text) > QUEUE_BYTES:
            self.closed = True
            while not self.queue.empty():  # what it never read is dropped now, not when the socket gives up
                self.queue.get_nowait()
            self.queued_bytes = 0
            self._closer = asyncio.create_task(self.close(1008, "too slow: message queue overflow"))
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued (up to a second), then close."""
        if not self.closed or not self.task.done():
            self.closed = True
            self.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.task), 1.0)
        with contextlib.suppress(Exception):
            await self._close(code, reason)


class Hub:
    """Who is connected here; delivers messages to accounts (``remote`` relays to the other hall
    processes what is not for a connection of this one)."""

    def __init__(self, remote: Callable[[int, dict[str, Any]], None] | None = None) -> None:
        self.conns: dict[int, Connection] = {}
        self.lobby_listeners: set[int] = set()
        self.remote = remote

    def attach(self, conn: Connection) -> Connection | None:
        """Register ``conn``; returns the connection it displaced (a second login)."""
        old = self.conns.get(conn.account_id)
        self.conns[conn.account_id] = conn
        return old if old is not conn else None

    def detach(self, conn: Connection) -> bool:
        """Forget ``conn`` if it is still the account's current connection."""
        if self.conns.get(conn.account_id) is conn:
            del self.conns[conn.account_id]
            self.lobby_listeners.discard(conn.account_id)
            return True
        return False

    def online(self, account_id: int) -> bool:
        c = self.conns.get(account_id)
        return c is not None and not c.closed

    def send(self, account_id: int, msg: dict[str, Any]) -> None:
        c = self.conns.get(account_id)
        if c is not None:
            c.send(msg)
        elif self.remote is not None:
            self.remote(account_id, msg)

    def broadcast_lobby(self, msg: dict[str, Any]) -> None:
        for a in list(self.lobby_listeners):
            self.send(a, msg)
