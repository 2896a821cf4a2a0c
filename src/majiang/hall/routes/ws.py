"""The WebSocket at ``/ws`` (docs/protocol.md): authentication, rate limits, and each client message
routed to the hall or to the player's table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from majiang.hall.accounts import AuthError, Principal
from majiang.hall.hub import Connection
from majiang.hall.items import ItemError, shop_list
from majiang.hall.messages import (
    Act,
    AddBots,
    Auto,
    BadMessage,
    Buy,
    Chat,
    ClientMessage,
    Create,
    Hello,
    Inventory,
    Join,
    LeaveAfter,
    Lobby,
    Mute,
    Ping,
    QuickJoin,
    Ready,
    Settings,
    ShopList,
    Spectate,
    Stand,
    Tables,
    UseItem,
    parse_client_message,
)
from majiang.hall.routes.deps import get_hall, paginate
from majiang.hall.routes.shop import items_changed
from majiang.hall.service import Hall, HallError

router = APIRouter()
MUTE_LIMIT = 200  # accounts one account may mute (the set is freed when its connection ends)


class RateLimit:
    """Token bucket: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float = 20.0, burst: float = 60.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.t = time.monotonic()
        self.dropped = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        return False


@router.websocket("/ws")
async def ws(websocket: WebSocket) -> None:
    h = get_hall(websocket)
    allowed_origins: list[str] | None = websocket.app.state.allowed_origins
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host", "")
    # a browser page from another site may not drive a player's connection (programs send no Origin)
    if origin and origin.split("://", 1)[-1] != host and origin not in (allowed_origins or ()):
        await websocket.close(code=1008, reason="origin not allowed")
        return
    await websocket.accept()
    token = websocket.query_params.get("token")
    try:
        if token is None:
            first = parse_frame(await asyncio.wait_for(receive_frame(websocket), 10))
            if not isinstance(first, Hello):
                raise AuthError('send {"type": "hello", "token": …} first')
            token = first.token
        p = await h.run_db(h.accounts.verify, token)
    except (AuthError, BadMessage, TimeoutError, WebSocketDisconnect) as e:
        with contextlib.suppress(Exception):
            await websocket.send_text(json.dumps({"type": "error", "code": "auth", "message": str(e)}))
            await websocket.close(code=4401, reason="unauthenticated")
        return
    prefs = await h.prefs_of(p.account_id)  # before the connection is attached: the welcome comes first
    conn = Connection(p.account_id, websocket.send_text, websocket.close)
    if h.cluster.multi:  # a second login on another process takes over too
        await h.cluster.to_account(p.account_id, {"type": "_kick", "node": h.cluster.node})
    old = h.hub.attach(conn)
    if old is not None:
        old.send({"type": "kicked", "reason": "you logged in somewhere else"})
        await old.close(4000, "logged in elsewhere")
    await h.cluster.listen_account(p.account_id)
    h.names[p.account_id] = p.username
    table_id = await h.where_of(p.account_id)
    conn.send(
        {
            "type": "welcome",
            "account": {"id": p.account_id, "name": p.username, "kind": p.kind},
            "table": table_id,
            "node": h.cluster.node,
            "settings": prefs.to_dict(),  # the remembered toggles (docs/protocol.md, Settings)
        }
    )
    if table_id is not None:
        h.route(table_id, "connected", p.account_id)
    limit = RateLimit()
    account_limit = h.account_limits.setdefault(p.account_id, RateLimit(rate=30.0, burst=90.0))
    try:
        while True:
            frame = await receive_frame(websocket)
            if not limit.allow() or not account_limit.allow():
                conn.send({"type": "error", "code": "rate_limited", "message": "too many messages; slow down"})
                if limit.dropped > 200:
                    await conn.close(1008, "rate limit")
                    break
                continue
            try:
                msg = parse_frame(frame)
            except BadMessage as e:
                conn.send({"type": "error", "code": "bad_message", "message": str(e)})
                continue
            try:
                await dispatch(h, p, conn, msg)
            except HallError as e:
                conn.send({"type": "error", "code": "not_found", "message": str(e)})
    except WebSocketDisconnect:
        pass
    finally:
        # a task of its own: this one may be cancelled (server shutdown, a test client leaving)
        h.spawn(_gone(h, p.account_id, conn))


async def receive_frame(websocket: WebSocket) -> str | None:
    """The next frame's text (``None`` for a binary frame)."""
    m = await websocket.receive()
    if m["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(m.get("code", 1000), m.get("reason"))
    text = m.get("text")
    return text if isinstance(text, str) else None


def parse_frame(frame: str | None) -> ClientMessage:
    if frame is None:
        raise BadMessage("binary frames are not accepted: send each message as a JSON text frame")
    return parse_client_message(frame)


async def _gone(h: Hall, account: int, conn: Connection) -> None:
    """A connection ended: flush and close it; if it was the account's, tell its table."""
    await conn.close()
    if h.hub.detach(conn):
        h.mutes.pop(account, None)  # mutes last as long as the connection: a fresh connection starts with nobody muted
        await h.cluster.unlisten_account(account)
        table = await h.where_of(account)
        if table is not None:
            h.route(table, "disconnected", account)


# ---- what each message does ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Client:
    """Where a message came from: the hall, the account that sent it, its connection (the answer)."""

    h: Hall
    p: Principal
    conn: Connection

    @property
    def account(self) -> int:
        return self.p.account_id

    def error(self, code: str, message: str, **extra: Any) -> None:
        self.conn.send({"type": "error", "code": code, "message": message, **extra})


async def _ping(c: Client, msg: Ping) -> None:
    c.conn.send({"type": "pong", "at": time.time()})


async def _shop(c: Client, msg: ShopList) -> None:
    c.conn.send({"type": "shop", "items": shop_list(c.h.items.prices)})


async def _inventory(c: Client, msg: Inventory) -> None:
    c.conn.send({"type": "inventory", **await c.h.run_db(c.h.items.summary, c.account)})


async def _buy(c: Client, msg: Buy) -> None:
    try:
        got = await c.h.buy(c.account, msg.item, msg.count, msg.id)  # refused mid-hand (stakes fixed)
    except ItemError as e:
        c.error(e.code, str(e), item=msg.item)
        return
    c.conn.send({"type": "bought", **got})
    await items_changed(c.h, c.account)


async def _hello(c: Client, msg: Hello) -> None:
    c.error("already", "already authenticated")


async def _lobby(c: Client, msg: Lobby) -> None:
    h = c.h
    h.hub.lobby_listeners.add(c.account)
    c.conn.send({"type": "lobby", "rooms": await h.room_list(), "chat": h.lobby_chat[-30:]})


async def _tables(c: Client, msg: Tables) -> None:
    h = c.h
    page, total, nxt = paginate(await h.table_list(h.room(msg.room).id), msg.limit, msg.offset)
    c.conn.send({"type": "tables", "room": msg.room, "tables": page, "offset": msg.offset, "total": total, "next": nxt})


async def _mute(c: Client, msg: Mute) -> None:
    h, acc = c.h, c.account
    s = h.mutes.get(acc, set())
    if msg.on and msg.account not in s:
        if len(s) >= MUTE_LIMIT:
            c.error("bad_message", f"you can mute at most {MUTE_LIMIT} players")
            return
        if await h.run_db(h.accounts.get, msg.account) is None:
            c.error("not_found", f"no account {msg.account}")
            return
        h.mutes.setdefault(acc, s).add(msg.account)
    elif not msg.on:
        s.discard(msg.account)
        if not s:
            h.mutes.pop(acc, None)
    c.conn.send({"type": "muted", "account": msg.account, "on": msg.on})


async def _settings(c: Client, msg: Settings) -> None:
    changes = msg.changes()
    if changes:
        await c.h.set_prefs(c.account, changes)  # answers with "settings" (and tells the table)
    else:
        c.conn.send({"type": "settings", "settings": (await c.h.prefs_of(c.account)).to_dict()})


async def _sit(c: Client, msg: QuickJoin | Create | Join, current: str | None) -> None:
    h, acc, t = c.h, c.account, msg.type
    if current is not None:
        # the code of the table he is at (an event table he stepped away from) takes him back to it
        back = isinstance(msg, Join) and bool(msg.code) and await h.find_table(None, msg.code, by=acc) == current
        if isinstance(msg, Join) and not back and (msg.table not in (None, current) or msg.code):
            c.error("seated", "leave your table first (stand)")
            return
        h.route(current, "sit", acc, name=c.p.username)
        return
    refused = await h.sit_down(acc, c.p.username, t, msg)  # one seat per account (Hall.take_seat)
    if refused is not None:
        c.error(refused[0], refused[1])


async def _spectate(c: Client, msg: Spectate, current: str | None) -> None:
    h, acc = c.h, c.account
    target = await h.find_table(msg.table, msg.code, by=acc)  # a private one only by its code
    if current is None or current == target:
        h.route(target, "spectate", acc)
    else:  # the table the account is at decides: a spectator moves, a seated player is refused
        h.route(current, "spectate_elsewhere", acc, table=target)


async def _act(c: Client, msg: Act, current: str) -> None:
    if msg.table is not None and msg.table != current:  # a prompt of a table left since: not this one's
        c.error("stale", f"you are not at table {msg.table} now", seq=msg.seq)
        return
    c.h.route(current, "action", c.account, seq=msg.seq, action=msg.action.model_dump(exclude_none=True))


async def _to_table(c: Client, msg: Any, current: str) -> None:
    """A message the table itself answers, with the fields it needs."""
    kind, fields = _TABLE_FIELDS[type(msg)]
    c.h.route(current, kind, c.account, **{k: getattr(msg, k) for k in fields})


#: messages the table answers: the table's inbox kind and the fields it reads
_TABLE_FIELDS: dict[type[Any], tuple[str, tuple[str, ...]]] = {
    Stand: ("stand", ()),
    AddBots: ("add_bots", ("seat",)),
    Ready: ("ready", ()),
    LeaveAfter: ("leave_after", ("on",)),
    Auto: ("auto", ("on",)),
    Chat: ("chat", ("text",)),
    UseItem: ("use_item", ("item", "tile", "target")),
}
#: messages answered here, wherever the account is: its connection, the lobby, the shop, its settings
ANYWHERE: dict[type[Any], Callable[[Client, Any], Awaitable[None]]] = {
    Ping: _ping,
    ShopList: _shop,
    Inventory: _inventory,
    Buy: _buy,
    Hello: _hello,
    Lobby: _lobby,
    Tables: _tables,
    Mute: _mute,
    Settings: _settings,
}
#: messages for the table the account is at (refused when it is at none)
AT_TABLE: dict[type[Any], Callable[[Client, Any, str], Awaitable[None]]] = {
    Act: _act,
    **{kind: _to_table for kind in _TABLE_FIELDS},
}


async def dispatch(h: Hall, p: Principal, conn: Connection, msg: ClientMessage) -> None:
    """One validated message, to the handler its type names (:data:`ANYWHERE`, the seat's own, or
    :data:`AT_TABLE`)."""
    c = Client(h, p, conn)
    match msg:
        case Chat(scope="lobby"):
            if (wait := await h.lobby_say(c.account, msg.text)) > 0:
                conn.send(
                    {
                        "type": "error",
                        "code": "rate_limited",
                        "message": f"the lobby is busy; say it again in {wait:.1f} s",
                    }
                )
        case _ if type(msg) in ANYWHERE:
            await ANYWHERE[type(msg)](c, msg)
        case QuickJoin() | Create() | Join():
            await _sit(c, msg, await h.where_of(c.account))
        case Spectate():
            await _spectate(c, msg, await h.where_of(c.account))
        case _:
            current = await h.where_of(c.account)
            if current is None:
                c.error("not_seated", "join a table first")
            else:
                await AT_TABLE[type(msg)](c, msg, current)
