"""The hall as one ASGI app: the HTTP API (OpenAPI at /docs), the WebSocket protocol
(docs/protocol.md) and the web client — the routers of :mod:`majiang.hall.routes` (one per concern),
the security headers, and whatever the caller adds (``extra_routers``, ``hand_end_hooks``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from majiang.hall.heavy import HeavyLimits, HeavyWork
from majiang.hall.hosts import AllowedHosts
from majiang.hall.limits import HttpLimiter, Limits
from majiang.hall.relief import Relief, ReliefPolicy
from majiang.hall.rooms import Room
from majiang.hall.routes import accounts, calculator, friends, hands, ops, players, review, shop, ws
from majiang.hall.routes import rooms as rooms_routes
from majiang.hall.routes import settings as settings_routes
from majiang.hall.service import Hall, HallError
from majiang.hall.table import HandEndHook
from majiang.store import Database

WEB = Path(str(resources.files("majiang.hall").joinpath("web")))
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self' ws: wss:; script-src 'self'",
}
# FastAPI's /docs and /redoc pages load their scripts from a CDN and start them with an inline script
DOCS_CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data: https://fastapi.tiangolo.com "
    "https://cdn.jsdelivr.net; style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
    "https://fonts.googleapis.com; font-src 'self' https://fonts.gstatic.com; "
    "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; worker-src 'self' blob:"
)


def create_app(
    db_url: str | None = None,
    rooms: list[Room] | None = None,
    *,
    bot_delay: tuple[float, float] = (0.6, 1.6),
    allowed_origins: list[str] | None = None,
    migrate: bool = True,
    hall: Hall | None = None,
    redis_url: str | None = None,
    extra_routers: Sequence[APIRouter] = (),
    hand_end_hooks: Sequence[Callable[[Database], HandEndHook]] = (),
    limits: Limits | None = None,
    allowed_hosts: Sequence[str] | None = None,
    relief: ReliefPolicy | None = None,
    heavy: HeavyLimits | None = None,
) -> FastAPI:
    """The app; ``extra_routers`` are mounted next to the hall's own routes and each of
    ``hand_end_hooks`` is called with the hall's database to make a hook run after each hand of a
    competition table (the serve command wires the tournament's in: cli/serve_cmd.py); ``limits``: the
    HTTP rate limits and the password-hash pool (:class:`majiang.hall.limits.Limits`); ``allowed_hosts``:
    the ``Host`` names served (others get 400, or 403 for a WebSocket: DNS rebinding); None: any;
    ``relief`` is the hall's 救济金 policy (majiang.hall.relief; the defaults when None); ``heavy`` bounds
    the reviews and shanten searches (:class:`majiang.hall.heavy.HeavyLimits`; the defaults when None)."""
    limits = limits or Limits()

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
        h.accounts.configure_hashing(limits.hash_workers, limits.hash_queue)
        if heavy is not None:
            h.heavy = HeavyWork(heavy)
        app.state.hall = h
        if h.cluster.multi and hasattr(h.cluster, "take_token"):  # one budget for all the processes
            app.state.limiter.share(h.cluster.take_token)
        app.state.relief = Relief(h.db, relief or ReliefPolicy(), h.rooms.values())
        await h.start()
        yield
        await h.close()

    app = FastAPI(
        title="majiang hall",
        version="0.1.0",
        lifespan=lifespan,
        description="Mahjong hall: accounts, rooms, tables, coins, replays, the fan calculator. "
        "Play happens over the WebSocket at /ws (docs/protocol.md).",
    )
    app.state.allowed_origins = allowed_origins  # for the WebSocket's Origin check (routes/ws.py)
    app.state.limiter = HttpLimiter(limits)  # login, register and guest rate limits (routes/accounts.py)

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        if request.url.path in ("/docs", "/redoc"):
            response.headers.setdefault("Content-Security-Policy", DOCS_CSP)
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    if allowed_hosts is not None:
        app.add_middleware(AllowedHosts, allowed=list(allowed_hosts))

    for router in (
        accounts.router,
        rooms_routes.router,
        shop.router,
        hands.router,
        review.router,
        calculator.router,
        ops.router,
        players.router,
        friends.router,
        settings_routes.router,
        ws.router,
        *extra_routers,
    ):
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
