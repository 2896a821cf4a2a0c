"""The Host allowlist (DNS rebinding): a request or WebSocket whose ``Host`` header names no allowed host
is refused before it reaches a route — HTTP with 400, a WebSocket handshake with 403."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

Scope = dict[str, Any]


def host_name(header: str) -> str:
    """``Host`` without its port, lower-case (``[::1]:8000`` → ``::1``)."""
    h = header.strip().lower()
    if h.startswith("["):
        return h[1 : h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


def host_allowed(header: str, allowed: Iterable[str]) -> bool:
    """``allowed``: names (``example.com``), ``.example.com`` for it and its subdomains, or ``*``."""
    name = host_name(header)
    if not name:
        return False
    for a in allowed:
        a = a.strip().lower().strip("[]")
        if a == "*" or a == name or (a.startswith(".") and (name == a[1:] or name.endswith(a))):
            return True
    return False


class AllowedHosts:
    """ASGI middleware: refuse requests (HTTP and WebSocket) for hosts not in ``allowed``."""

    def __init__(self, app: Any, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = [a for a in allowed if a]

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), "")
        if scope["type"] not in ("http", "websocket") or host_allowed(host, self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})  # 403 handshake
            return
        body = json.dumps(
            {"detail": f"host {host_name(host)!r} is not served here (majiang serve --allowed-hosts)"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
