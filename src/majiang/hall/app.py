"""The hall as one ASGI app: the HTTP API (OpenAPI at /docs), the WebSocket protocol
(docs/protocol.md) and the web client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import select

from majiang.hall.accounts import AuthError, Principal
from majiang.hall.hub import Connection
from majiang.hall.ledger import audit
from majiang.hall.messages import BadMessage, Credentials, NewTable, parse_client_message
from majiang.hall.rooms import Room
from majiang.hall.service import Hall, HallError
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


def principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """The account behind ``Authorization: Bearer TOKEN``."""
    token = authorization.removeprefix("Bearer ").strip() if authorization else None
    try:
        hall: Hall = request.app.state.hall
        return hall.accounts.verify(token)
    except AuthError as e:
        raise HTTPException(401, str(e)) from None


Authed = Annotated[Principal, Depends(principal)]


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
        0.6, 1.6), allowed_origins: list[str] | None = None, migrate: bool = True, hall: Hall | None = None) -> FastAPI:
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        h = hall
        if h is None:
            db = Database(db_url)
            if migrate:
                db.migrate()
            h = Hall(db, rooms, bot_delay=bot_delay)
        state["hall"] = h
        app.state.hall = h
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
        return {"ok": True}

    @app.get("/api/me")
    async def me(p: Authed) -> dict[str, Any]:
        h = the_hall()
        d = await h.run_db(h.profile, p.account_id)
        d["table"] = h.where.get(p.account_id)
        return d

    @app.get("/api/players/{account_id}", summary="a player's statistics")
    async def player(account_id: int) -> dict[str, Any]:
        h = the_hall()
        try:
            return await h.run_db(h.profile, account_id)
        except HallError as e:
            raise HTTPException(404, str(e)) from None

    # ---- lobby -------------------------------------------------------------------------------
    @app.get("/api/rooms", summary="rooms with N, A, balance limits, items, timers and live table counts")
    async def rooms_() -> list[dict[str, Any]]:
        return the_hall().room_list()

    @app.get("/api/rooms/{room_id}/tables")
    async def tables(room_id: str) -> list[dict[str, Any]]:
        h = the_hall()
        try:
            h.room(room_id)
        except HallError as e:
            raise HTTPException(404, str(e)) from None
        return h.table_list(room_id)

    @app.post("/api/tables", summary="open a table (private tables get a code for friends)")
    async def new_table(body: NewTable, p: Authed) -> dict[str, Any]:
        h = the_hall()
        try:
            t = h.create_table(body.room, private=body.private)
        except HallError as e:
            raise HTTPException(404, str(e)) from None
        return {"table": t.id, "code": t.code}

    # ---- hands, replays, calculator -------------------------------------------------------------
    @app.get("/api/hands/{hand_id}", summary="a finished hand: its log (JSON events) and result")
    async def hand(hand_id: int) -> dict[str, Any]:
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
    async def player_hands(account_id: int, limit: int = 20) -> list[dict[str, Any]]:
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

    @app.post("/api/fan", summary="the fan calculator: a hand-json object in, its fans (with the explanation)")
    async def fan(body: dict[str, Any]) -> dict[str, Any]:
        if len(json.dumps(body)) > 4000:
            raise HTTPException(413, "hand too large")
        if body.get("rules") == "nanchang":
            try:
                from majiang.nanchang import settle_dict
            except ImportError:
                raise HTTPException(501, "the Nanchang calculator is not available") from None
            return settle_dict(body)
        from majiang.mcr import score_dict

        return score_dict(body, explain=True)

    @app.get("/api/ledger/audit", summary="prove coin conservation (every transaction balances)")
    async def ledger_audit() -> dict[str, Any]:
        h = the_hall()
        return (await h.run_db(audit, h.db)).to_dict()

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        h = the_hall()
        return {"ok": True, "tables": len(h.tables), "connections": len(h.hub.conns)}

    @app.get("/metrics", response_class=PlainTextResponse)
    async def metrics() -> str:
        h = the_hall()
        gauges = {
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
        if origin and allowed_origins is not None and origin not in allowed_origins and \
                origin.split("://", 1)[-1] != host:
            await websocket.close(code=1008, reason="origin not allowed")
            return
        await websocket.accept()
        token = websocket.query_params.get("token")
        try:
            if token is None:
                first = parse_client_message(await asyncio.wait_for(websocket.receive_text(), 10))
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
        old = h.hub.attach(conn)
        if old is not None:
            old.send({"type": "kicked", "reason": "you logged in somewhere else"})
            await old.close(4000, "logged in elsewhere")
        h.names[p.account_id] = p.username
        conn.send({"type": "welcome", "account": {"id": p.account_id, "name": p.username, "kind": p.kind},
                   "table": h.where.get(p.account_id)})
        table_id = h.where.get(p.account_id)
        if table_id in h.tables:
            h.tables[table_id].put("connected", p.account_id)
        limit = RateLimit()
        try:
            while True:
                text = await websocket.receive_text()
                if not limit.allow():
                    conn.send({"type": "error", "code": "rate_limited", "message": "too many messages; slow down"})
                    if limit.dropped > 200:
                        await conn.close(1008, "rate limit")
                        break
                    continue
                try:
                    msg = parse_client_message(text)
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
            await conn.close()
            if h.hub.detach(conn):
                tid = h.where.get(p.account_id)
                if tid in h.tables:
                    h.tables[tid].put("disconnected", p.account_id)

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


async def dispatch(h: Hall, p: Principal, conn: Connection, msg: Any) -> None:
    acc = p.account_id
    t = msg.type
    current = h.where.get(acc)
    if t == "ping":
        conn.send({"type": "pong", "at": time.time()})
    elif t == "hello":
        conn.send({"type": "error", "code": "already", "message": "already authenticated"})
    elif t == "lobby":
        h.hub.lobby_listeners.add(acc)
        conn.send({"type": "lobby", "rooms": h.room_list(), "chat": h.lobby_chat[-30:]})
    elif t == "tables":
        conn.send({"type": "tables", "room": msg.room, "tables": h.table_list(h.room(msg.room).id)})
    elif t in ("quick_join", "create", "join"):
        if current is not None and current in h.tables and h.tables[current].seat_of(acc) is not None:
            table = h.tables[current]
            if t == "join" and (msg.table not in (None, current) or msg.code):
                conn.send({"type": "error", "code": "seated", "message": "leave your table first (stand)"})
                return
            table.put("sit", acc, name=p.username)
            return
        if t == "quick_join":
            table = h.quick_join_table(msg.room)
        elif t == "create":
            table = h.create_table(msg.room, private=msg.private)
        else:
            table = h.table(msg.table, msg.code)
        table.put("sit", acc, name=p.username, seat=getattr(msg, "seat", None))
    elif t == "spectate":
        h.table(msg.table).put("spectate", acc)
    elif t in ("stand", "add_bots", "auto", "action"):
        if current is None or current not in h.tables:
            conn.send({"type": "error", "code": "not_seated", "message": "join a table first"})
            return
        table = h.tables[current]
        if t == "stand":
            table.put("stand", acc)
        elif t == "add_bots":
            table.put("add_bots", acc)
        elif t == "auto":
            table.put("auto", acc, on=msg.on)
        else:
            table.put("action", acc, seq=msg.seq, action=msg.action.model_dump(exclude_none=True))
    elif t == "chat":
        if msg.scope == "lobby":
            h.lobby_say(acc, msg.text)
        elif current in h.tables:
            h.tables[current].put("chat", acc, text=msg.text)
        else:
            conn.send({"type": "error", "code": "not_seated", "message": "join a table to chat there"})
    elif t == "mute":
        s = h.mutes.setdefault(acc, set())
        (s.add if msg.on else s.discard)(msg.account)
        conn.send({"type": "muted", "account": msg.account, "on": msg.on})
