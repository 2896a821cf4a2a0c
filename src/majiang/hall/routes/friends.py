"""Friends over HTTP (majiang.hall.friends, docs/web-client.md "Friends"): the list with presence, requests,
accept, remove, block, and an invite to the private table one sits at (the friend's client gets an
``invite`` message with the table's code, and a ``friend_request`` message for a request)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from majiang.hall import friends
from majiang.hall.limits import Buckets
from majiang.hall.rooms import is_private_id
from majiang.hall.routes.deps import Authed, HallDep, RowId
from majiang.hall.service import Hall

router = APIRouter(tags=["friends"])

INVITES_PER_MIN = 10  # invites and requests one account may send a minute
STATUS = {"blocked": 409, "limit": 409, "not_found": 404}  # FriendError.code → HTTP (else 403)


class FriendRequest(BaseModel):
    username: Annotated[str, Field(min_length=1, max_length=40)]


def _rate(request: Request, account: int) -> None:
    b: Buckets | None = getattr(request.app.state, "friend_rate", None)
    if b is None:
        b = request.app.state.friend_rate = Buckets(INVITES_PER_MIN / 60, INVITES_PER_MIN, name="friends")
    if b.take(str(account)) > 0:
        raise HTTPException(429, f"at most {INVITES_PER_MIN} requests and invites a minute; try again shortly")


async def _db(h: Hall, fn: Any, *args: Any) -> Any:
    def work() -> Any:
        with h.db.session() as s:
            return fn(s, *args)

    try:
        return await h.run_db(work)
    except friends.FriendError as e:
        raise HTTPException(
            409 if e.code in ("blocked", "limit") else 404 if e.code == "not_found" else 403, str(e)
        ) from None


async def _presence(h: Hall, account: int) -> dict[str, Any]:
    """Online (connected to this hall), and the table it sits at (a private one without its id)."""
    table = await h.where_of(account)
    return {
        "online": account in h.hub.conns,
        "table": None if table is None or is_private_id(table) else table,
        "at_private_table": table is not None and is_private_id(table),
    }


@router.get("/api/friends", summary="your friends (with presence), requests in and out, and blocks")
async def friend_list(p: Authed, h: HallDep) -> dict[str, Any]:
    got: dict[str, list[dict[str, Any]]] = await _db(h, friends.listing, p.account_id)
    for f in got["friends"]:
        f.update(await _presence(h, f["account"]))
    return got


@router.post("/api/friends", summary="ask a player to be friends (by username)")
async def friend_request(body: FriendRequest, p: Authed, h: HallDep, request: Request) -> dict[str, Any]:
    _rate(request, p.account_id)
    got: dict[str, Any] = await _db(h, friends.request, p.account_id, body.username)
    if got["state"] == "pending":
        h.tell(got["friend"], {"type": "friend_request", "from": p.username, "account": p.account_id})
    return got


@router.post("/api/friends/{friend}/accept", summary="accept a friend request")
async def friend_accept(friend: RowId, p: Authed, h: HallDep) -> dict[str, Any]:
    await _db(h, friends.accept, p.account_id, friend)
    return {"friend": friend, "state": "accepted"}


@router.delete("/api/friends/{friend}", summary="remove a friend, decline or withdraw a request, or unblock")
async def friend_remove(friend: RowId, p: Authed, h: HallDep) -> dict[str, Any]:
    await _db(h, friends.remove, p.account_id, friend)
    return {"friend": friend, "state": None}


@router.post("/api/friends/{friend}/block", summary="block a player: no requests, invites or presence")
async def friend_block(friend: RowId, p: Authed, h: HallDep) -> dict[str, Any]:
    await _db(h, friends.block, p.account_id, friend)
    return {"friend": friend, "state": "blocked"}


@router.post("/api/friends/{friend}/invite", summary="invite a friend to the private table you sit at")
async def friend_invite(friend: RowId, p: Authed, h: HallDep, request: Request) -> dict[str, Any]:
    _rate(request, p.account_id)
    if not await _db(h, friends.are_friends, p.account_id, friend):
        raise HTTPException(403, "only a friend can be invited: send a friend request first")
    table_id = await h.where_of(p.account_id)
    local = h.tables.get(table_id) if table_id else None
    info = local.info() if local is not None else (await h.cluster.table_info(table_id) if table_id else None)
    code = local.code if local is not None else (info or {}).get("code")
    if table_id is None or not is_private_id(table_id) or not code:
        raise HTTPException(409, "sit at a private table first (开私人桌): an invite brings a friend to it")
    h.tell(friend, {"type": "invite", "from": p.username, "account": p.account_id, "table": table_id, "code": code})
    return {"friend": friend, "invited": True, "online": friend in h.hub.conns}
