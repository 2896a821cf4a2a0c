"""The lobby over HTTP: rooms, their public tables, opening a table."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Response

from majiang.hall.messages import NewTable
from majiang.hall.routes.deps import Authed, HallDep, paginate
from majiang.hall.service import HallError, TableLimit

router = APIRouter()


@router.get("/api/rooms", summary="rooms with N, A, balance limits, items, timers and live table counts")
async def rooms_(h: HallDep) -> list[dict[str, Any]]:
    return await h.room_list()


@router.get(
    "/api/rooms/{room_id}/tables",
    summary="a page of the room's public tables (limit ≤ 100, offset; X-Total-Count, X-Next-Offset)",
)
async def tables(
    room_id: str,
    h: HallDep,
    response: Response,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[dict[str, Any]]:
    try:
        h.room(room_id)
    except HallError as e:
        raise HTTPException(404, str(e)) from None
    page, total, nxt = paginate(await h.table_list(room_id), limit, offset)
    response.headers["X-Total-Count"] = str(total)
    if nxt is not None:
        response.headers["X-Next-Offset"] = str(nxt)
    return page


@router.post("/api/tables", summary="open a table (private tables get a code for friends)")
async def new_table(body: NewTable, p: Authed, h: HallDep) -> dict[str, Any]:
    try:
        t = await h.create_table(body.room, private=body.private, by=p.account_id)
    except TableLimit as e:
        raise HTTPException(429, str(e)) from None
    except HallError as e:
        raise HTTPException(404, str(e)) from None
    return {"table": t.id, "code": t.code}
