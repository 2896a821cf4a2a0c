"""The hall as one ASGI app: the HTTP API (OpenAPI at /docs), the WebSocket protocol
(docs/protocol.md) and the web client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import select

from majiang.hall.accounts import AuthError, Principal
from majiang.hall.hub import Connection
from majiang.hall.items import ItemError, shop_list
from majiang.hall.ledger import audit
from majiang.hall.messages import BadMessage, Credentials, NewTable, Purchase, parse_client_message
from majiang.hall.rooms import Room
from majiang.hall.routes import calculator
from majiang.hall.service import Hall, HallError
from majiang.hall.table import HandEndHook
from majiang.store import Database
from majiang.store.models import HandEvent, HandRow

WEB = Path(str(resources.files("majiang.hall").joinpath("web")))
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "connect-src 'self' ws: wss:; script-src 'self'",
}
# FastAPI's /docs and /redoc pages load their scripts from a CDN and start them with an inline script
DOCS_CSP = ("default-src 'self'; connect-src 'self'; img-src 'self' data: https://fastapi.tiangolo.com "
            "https://cdn.jsdelivr.net; style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
            "https://fonts.googleapis.com; font-src 'self' https://fonts.gstatic.com; "
            "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; worker-src 'self' blob:")


def principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """The account behind ``Authorization: Bearer TOKEN``."""
    token = authorization.removeprefix("Bearer ").strip() if authorization else None
    try:
        hall: Hall = request.app.state.hall
        return hall.accounts.verify(token)
    except AuthError as e:
        raise HTTPException(401, str(e)) from None


Authed = Annotated[Principal, Depends(principal)]
RowId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="a database id")]


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


def create_app(db_url: str | None = None, rooms: list[Room] | None = None, *, bot_delay: tuple[float, float] = (
        0.6, 1.6), allowed_origins: list[str] | None = None, migrate: bool = True, hall: Hall | None = None,
               redis_url: str | None = None, extra_routers: Sequence[APIRouter] = (),
               hand_end_hooks: Sequence[Callable[[Database], HandEndHook]] = ()) -> FastAPI:
    """The app; ``extra_routers`` are mounted next to the hall's own routes and each of
    ``hand_end_hooks`` is called with the hall's database to make a hook run after each hand of a
    competition table (the serve command wires the tournament's in: cli/serve_cmd.py)."""
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        h = hall
        if h is None:
            db = Database(db_url)
            if migrate:
                db.migrate()
            cluster = None
            if redis_url:
                from majiang.hall.cluster import RedisCluster

                cluster = RedisCluster(redis_url)
            h = Hall(db, rooms, bot_delay=bot_delay, cluster=cluster)
        h.hand_end_hooks.extend(make(h.db) for make in hand_end_hooks)
        state["hall"] = h
        app.state.hall = h
        await h.start()
        yield
        await h.close()

    app = FastAPI(title="majiang hall", version="0.1.0", lifespan=lifespan,
                  description="Mahjong hall: accounts, rooms, tables, coins, replays, the fan calculator. "
                              "Play happens over the WebSocket at /ws (docs/protocol.md).")

    def the_hall() -> Hall:
        h: Hall = state["hall"]
        return h

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        if request.url.path in ("/docs", "/redoc"):
            response.headers.setdefault("Content-Security-Policy", DOCS_CSP)
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    def session_reply(h: Hall, p: Principal) -> dict[str, Any]:
        return {"token": h.accounts.issue(p), "account": h.profile(p.account_id)}

    # ---- accounts ----------------------------------------------------------------------------
    @app.post("/api/register", summary="create an account (with the sign-up coin grant)")
    async def register(body: Credentials) -> dict[str, Any]:
        h = the_hall()
        try:
            p = await h.run_db(h.accounts.register, body.username, body.password)
        except AuthError as e:
            raise HTTPException(400, str(e)) from None
        return session_reply(h, p)

    @app.post("/api/login", summary="log in; returns a signed session token")
    async def login(body: Credentials) -> dict[str, Any]:
        h = the_hall()
        try:
            p = await h.run_db(h.accounts.login, body.username, body.password)
        except AuthError as e:
            raise HTTPException(401, str(e)) from None
        return session_reply(h, p)

    @app.post("/api/guest", summary="play as a guest")
    async def guest() -> dict[str, Any]:
        h = the_hall()
        p = await h.run_db(h.accounts.guest)
        return session_reply(h, p)

    @app.post("/api/logout", summary="revoke every session token of this account")
    async def logout(p: Authed) -> dict[str, bool]:
        h = the_hall()
        await h.run_db(h.accounts.revoke, p.account_id)
        await h.sign_out(p.account_id)
        return {"ok": True}

    @app.get("/api/me")
    async def me(p: Authed) -> dict[str, Any]:
        h = the_hall()
        d = await h.run_db(h.profile, p.account_id)
        d["table"] = await h.where_of(p.account_id)
        return d

    @app.get("/api/players/{account_id}", summary="a player's statistics")
    async def player(account_id: RowId) -> dict[str, Any]:
        h = the_hall()
        try:
            return await h.run_db(h.profile, account_id)
        except HallError as e:
            raise HTTPException(404, str(e)) from None

    # ---- lobby -------------------------------------------------------------------------------
    @app.get("/api/rooms", summary="rooms with N, A, balance limits, items, timers and live table counts")
    async def rooms_() -> list[dict[str, Any]]:
        return await the_hall().room_list()

    @app.get("/api/rooms/{room_id}/tables")
    async def tables(room_id: str) -> list[dict[str, Any]]:
        h = the_hall()
        try:
            h.room(room_id)
        except HallError as e:
            raise HTTPException(404, str(e)) from None
        return await h.table_list(room_id)

    @app.post("/api/tables", summary="open a table (private tables get a code for friends)")
    async def new_table(body: NewTable, p: Authed) -> dict[str, Any]:
        h = the_hall()
        try:
            t = await h.create_table(body.room, private=body.private)
        except HallError as e:
            raise HTTPException(404, str(e)) from None
        return {"table": t.id, "code": t.code}

    # ---- items (道具) ----------------------------------------------------------------------------------
    @app.get("/api/shop", summary="the item shop: every item with its price (coins), moment and parameters")
    async def shop() -> list[dict[str, Any]]:
        return shop_list(the_hall().items.prices)

    @app.get("/api/inventory", summary="your items, your coin balance and your latest purchases and uses")
    async def inventory(p: Authed) -> dict[str, Any]:
        h = the_hall()
        return await h.run_db(h.items.summary, p.account_id)

    @app.post("/api/shop/buy", summary="buy items with coins (paid to the house through the ledger)")
    async def buy(body: Purchase, p: Authed) -> dict[str, Any]:
        h = the_hall()
        try:
            got = await h.run_db(h.items.buy, p.account_id, body.item, body.count, body.id)
        except ItemError as e:
            raise HTTPException(402 if e.code == "funds" else 400, str(e)) from None
        await items_changed(h, p.account_id)
        return got

    # ---- hands, replays, calculator -------------------------------------------------------------
    @app.get("/api/hands/{hand_id}", summary="a finished hand: its log (JSON events) and result")
    async def hand(hand_id: RowId) -> dict[str, Any]:
        h = the_hall()

        def load() -> dict[str, Any] | None:
            with h.db.session() as s:
                row = s.get(HandRow, hand_id)
                if row is None or row.seed is None:
                    return None
                events = [e.event for e in s.scalars(select(HandEvent).where(HandEvent.hand_id == hand_id)
                                                     .order_by(HandEvent.seq))]
                return {"id": row.id, "table": row.table_id, "room": row.room, "rules": row.rules,
                        "seed_hash": row.seed_hash, "seed": row.seed, "players": row.players, "result": row.result,
                        "events": events}

        d = await h.run_db(load)
        if d is None:
            raise HTTPException(404, f"no finished hand {hand_id} (a hand in play is not public)")
        return d

    @app.get("/api/players/{account_id}/hands", summary="a player's recent hands")
    async def player_hands(account_id: RowId, limit: int = 20) -> list[dict[str, Any]]:
        from majiang.store.models import PlayerHand

        h = the_hall()
        limit = max(1, min(limit, 100))

        def load() -> list[dict[str, Any]]:
            with h.db.session() as s:
                rows = s.execute(select(PlayerHand, HandRow).join(HandRow, HandRow.id == PlayerHand.hand_id)
                                 .where(PlayerHand.account_id == account_id).order_by(HandRow.id.desc())
                                 .limit(limit)).all()
                return [{"hand": hr.id, "room": hr.room, "seat": ph.seat, "score": ph.score, "coins": ph.coins,
                         "won": ph.won, "fan": ph.fan, "at": hr.started_at.isoformat()} for ph, hr in rows]

        return await h.run_db(load)

    app.include_router(calculator.router)

    @app.get("/api/ledger/audit", summary="prove coin conservation (every transaction balances)")
    async def ledger_audit() -> dict[str, Any]:
        h = the_hall()
        return (await h.run_db(audit, h.db)).to_dict()

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        h = the_hall()
        return {"ok": True, "node": h.cluster.node, "tables": len(h.tables), "connections": len(h.hub.conns),
                "takeovers": h.takeovers}

    @app.get("/metrics", response_class=PlainTextResponse)
    async def metrics() -> str:
        h = the_hall()
        from majiang.hall.ledger import totals

        circulation, house = await h.run_db(totals, h.db)
        gauges = {
            "majiang_coins_in_circulation": (circulation, "Coins held by players, bots and the house."),
            "majiang_coins_house": (house, "Coins the house holds (fees, penalties)."),
            "majiang_takeovers": (h.takeovers, "Tables this process took over from a dead one."),
            "majiang_tables": (len(h.tables), "Tables open on this process."),
            "majiang_tables_playing": (sum(1 for t in h.tables.values() if t.state == "playing"),
                                       "Tables playing a hand."),
            "majiang_connections": (len(h.hub.conns), "Connected accounts."),
            "majiang_players_seated": (sum(len(t.humans()) for t in h.tables.values()), "Humans seated."),
            "majiang_event_commits": (h.events.commits, "Group commits of hand events."),
        }
        return h.metrics.render(gauges)

    # ---- the WebSocket -------------------------------------------------------------------------
    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        h = the_hall()
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
                if first.type != "hello":
                    raise AuthError("send {\"type\": \"hello\", \"token\": …} first")
                token = first.token
            p = await h.run_db(h.accounts.verify, token)
        except (AuthError, BadMessage, TimeoutError, WebSocketDisconnect) as e:
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps({"type": "error", "code": "auth", "message": str(e)}))
                await websocket.close(code=4401, reason="unauthenticated")
            return
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
        conn.send({"type": "welcome", "account": {"id": p.account_id, "name": p.username, "kind": p.kind},
                   "table": table_id, "node": h.cluster.node})
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

    for router in extra_routers:
        app.include_router(router)

    # ---- the web client --------------------------------------------------------------------------
    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(WEB / "index.html")

    @app.exception_handler(HallError)
    async def hall_error(request: Request, exc: HallError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    return app


async def receive_frame(websocket: WebSocket) -> str | None:
    """The next frame's text (``None`` for a binary frame)."""
    m = await websocket.receive()
    if m["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(m.get("code", 1000), m.get("reason"))
    text = m.get("text")
    return text if isinstance(text, str) else None


def parse_frame(frame: str | None) -> Any:
    if frame is None:
        raise BadMessage("binary frames are not accepted: send each message as a JSON text frame")
    return parse_client_message(frame)


async def _gone(h: Hall, account: int, conn: Connection) -> None:
    """A connection ended: flush and close it; if it was the account's, tell its table."""
    await conn.close()
    if h.hub.detach(conn):
        await h.cluster.unlisten_account(account)
        table = await h.where_of(account)
        if table is not None:
            h.route(table, "disconnected", account)


async def items_changed(h: Hall, account: int) -> None:
    """After a purchase: the table the player sits at refreshes what it may use."""
    table = await h.where_of(account)
    if table is not None:
        h.route(table, "items_changed", account)


async def dispatch(h: Hall, p: Principal, conn: Connection, msg: Any) -> None:
    acc = p.account_id
    t = msg.type
    if t == "ping":
        conn.send({"type": "pong", "at": time.time()})
        return
    if t == "shop":
        conn.send({"type": "shop", "items": shop_list(h.items.prices)})
        return
    if t == "inventory":
        conn.send({"type": "inventory", **await h.run_db(h.items.summary, acc)})
        return
    if t == "buy":
        try:
            got = await h.run_db(h.items.buy, acc, msg.item, msg.count, msg.id)
        except ItemError as e:
            conn.send({"type": "error", "code": e.code, "message": str(e), "item": msg.item})
            return
        conn.send({"type": "bought", **got})
        await items_changed(h, acc)
        return
    if t == "hello":
        conn.send({"type": "error", "code": "already", "message": "already authenticated"})
        return
    if t == "lobby":
        h.hub.lobby_listeners.add(acc)
        conn.send({"type": "lobby", "rooms": await h.room_list(), "chat": h.lobby_chat[-30:]})
        return
    if t == "tables":
        conn.send({"type": "tables", "room": msg.room, "tables": await h.table_list(h.room(msg.room).id)})
        return
    if t == "mute":
        s = h.mutes.setdefault(acc, set())
        (s.add if msg.on else s.discard)(msg.account)
        conn.send({"type": "muted", "account": msg.account, "on": msg.on})
        return
    if t == "chat" and msg.scope == "lobby":
        h.lobby_say(acc, msg.text)
        return
    current = await h.where_of(acc)
    if t in ("quick_join", "create", "join"):
        if current is not None:
            if t == "join" and (msg.table not in (None, current) or msg.code):
                conn.send({"type": "error", "code": "seated", "message": "leave your table first (stand)"})
                return
            h.route(current, "sit", acc, name=p.username)
            return
        if t != "join":  # no table is opened for a player the room would refuse
            ok, why = await h.may_enter(acc, h.room(msg.room))
            if not ok:
                conn.send({"type": "error", "code": "balance", "message": why})
                return
        if t == "quick_join":
            table_id = await h.quick_join_table(msg.room)
        elif t == "create":
            table_id = (await h.create_table(msg.room, private=msg.private)).id
        else:
            table_id = await h.find_table(msg.table, msg.code)
        h.route(table_id, "sit", acc, name=p.username, seat=getattr(msg, "seat", None))
    elif t == "spectate":
        target = await h.find_table(msg.table)
        if current is None or current == target:
            h.route(target, "spectate", acc)
        else:  # the table the account is at decides: a spectator moves, a seated player is refused
            h.route(current, "spectate_elsewhere", acc, table=target)
    elif current is None:
        conn.send({"type": "error", "code": "not_seated", "message": "join a table first"})
    elif t == "stand":
        h.route(current, "stand", acc)
    elif t == "add_bots":
        h.route(current, "add_bots", acc)
    elif t == "auto":
        h.route(current, "auto", acc, on=msg.on)
    elif t == "action":
        h.route(current, "action", acc, seq=msg.seq, action=msg.action.model_dump(exclude_none=True))
    elif t == "chat":
        h.route(current, "chat", acc, text=msg.text)
    elif t == "use_item":
        h.route(current, "use_item", acc, item=msg.item, tile=msg.tile, target=msg.target)
