"""How ``majiang serve`` runs uvicorn: an HTTP/1.1 protocol with the read timeouts uvicorn lacks (a
request's headers, then its body, must arrive within a deadline, or the connection gets 408 and is
closed: slowloris) and the limits passed to it (docs/hardening.md, "Running behind a reverse proxy")."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0  # from the connection (or the end of the last response) to a request's last header
BODY_TIMEOUT_S = 30.0  # from the last header to the last byte of the body
TIMEOUT_KEEP_ALIVE_S = 5  # an idle keep-alive connection is closed after this
MAX_INCOMPLETE_EVENT = 16 * 1024  # bytes of an unfinished request head (h11)
LIMIT_CONCURRENCY = 2000  # connections + requests in flight before 503


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and a body deadline."""

    header_timeout_s = HEADER_TIMEOUT_S
    body_timeout_s = BODY_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: Any = None  # h11.IDLE (the head) or h11.SEND_BODY (the body)

    def _arm(self, state: Any, seconds: float) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._waiting_for = state
        self._deadline = self.loop.call_later(seconds, self._expired, state)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._waiting_for = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(h11.IDLE, self.header_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        state = self.conn.their_state
        if state is h11.SEND_BODY and self._waiting_for is not h11.SEND_BODY:
            self._arm(h11.SEND_BODY, self.body_timeout_s)
        elif state is not h11.IDLE and state is not h11.SEND_BODY:
            self._disarm()  # the request is in (or the connection became a WebSocket): the app's turn

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm(h11.IDLE, self.header_timeout_s)

    def _expired(self, state: Any) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket
        if self.conn.their_state is not state:
            return
        what = "head" if state is h11.IDLE else "body"
        self.logger.info("request %s not received in time: 408, connection closed", what)
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app's receive() sees a disconnect
            self.cycle.message_event.set()
        try:
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        finally:
            self.transport.close()


def uvicorn_options(
    header_timeout_s: float = HEADER_TIMEOUT_S, body_timeout_s: float = BODY_TIMEOUT_S
) -> dict[str, Any]:
    """The keyword arguments for ``uvicorn.run`` that bound what one client may hold open."""
    proto = type(
        "Guarded", (GuardedH11Protocol,), {"header_timeout_s": header_timeout_s, "body_timeout_s": body_timeout_s}
    )
    return {
        "http": proto,
        "timeout_keep_alive": TIMEOUT_KEEP_ALIVE_S,
        "h11_max_incomplete_event_size": MAX_INCOMPLETE_EVENT,
        "limit_concurrency": LIMIT_CONCURRENCY,
        "proxy_headers": False,  # the client's address is the hall's to decide (limits.client_address)
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }


FULL_COLLECTION_EVERY = 1000  # young (generation-1) collections between two full ones; CPython's default is 10


def tune_gc() -> None:
    """The collector of a serving process: what was loaded at start-up is frozen out of every later
    collection, and full collections come about 100× less often than CPython's default.  With 1,500
    tables the heap holds ~700,000 objects and a full collection stops every table for 0.3–0.5 s;
    by default one came every few seconds and set the hall's p99 (BENCHMARKS.md, "The hall").  The
    young generations keep their default, millisecond-long, collections; the rare full one still
    frees any cycles."""
    import gc

    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
