"""What the routers share: the hall of the running app and the account behind a request."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Request
from fastapi import Path as PathParam
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from majiang.hall.accounts import AuthError, Principal
from majiang.hall.heavy import HeavyRefused
from majiang.hall.limits import HttpLimiter
from majiang.hall.service import Hall


def get_hall(conn: HTTPConnection) -> Hall:
    """The app's hall (``app.state.hall``; the lifespan sets it)."""
    h: Hall = conn.app.state.hall
    return h


async def principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """The account behind ``Authorization: Bearer TOKEN``: a token verified in the last seconds is
    answered on the event loop (no thread, no row), any other is read in a worker thread."""
    token = authorization.removeprefix("Bearer ").strip() if authorization else None
    try:
        hall: Hall = request.app.state.hall
        seen = hall.accounts.peek(token)
        return seen if seen is not None else await run_in_threadpool(hall.accounts.verify, token)
    except AuthError as e:
        raise HTTPException(401, str(e)) from None


async def maybe_principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal | None:
    """The account behind the request's token, or None (no token, or one that is not valid)."""
    try:
        return await principal(request, authorization) if authorization else None
    except HTTPException:
        return None


def limiter(conn: HTTPConnection) -> HttpLimiter:
    """The app's HTTP rate limits (``app.state.limiter``)."""
    lim: HttpLimiter = conn.app.state.limiter
    return lim


HallDep = Annotated[Hall, Depends(get_hall)]
Authed = Annotated[Principal, Depends(principal)]
MaybeAuthed = Annotated[Principal | None, Depends(maybe_principal)]
RowId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="a database id")]


def paginate(items: list[Any], limit: int, offset: int) -> tuple[list[Any], int, int | None]:
    """(the page, how many in all, the offset of the next page or None): the ``tables`` lists."""
    page = items[offset : offset + limit]
    return page, len(items), offset + limit if offset + limit < len(items) else None


def _refused(e: HeavyRefused) -> HTTPException:
    retry = str(max(1, math.ceil(e.retry_after_s)))
    return HTTPException(e.status, str(e), headers={"Retry-After": retry})


async def heavy(h: Hall, kind: str, requester: str, key: Hashable, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in the hall's worker processes (:mod:`majiang.hall.heavy`), a refusal as 429/503."""
    try:
        return await h.heavy.run(kind, requester, key, fn, *args)
    except HeavyRefused as e:
        raise _refused(e) from None


def admit(h: Hall, kind: str, requester: str) -> None:
    """The requester's rate and the pool's cap for one more ``kind`` computation (429/503 when spent)."""
    try:
        h.heavy.admit(kind, requester)
    except HeavyRefused as e:
        raise _refused(e) from None
