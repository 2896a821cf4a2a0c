"""Accounts: register, log in, guests, log out, who am I, a player's statistics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from majiang.hall.accounts import AuthError, Busy, Principal
from majiang.hall.messages import Credentials
from majiang.hall.routes.deps import Authed, HallDep, MaybeAuthed, RowId, limiter
from majiang.hall.service import Hall, HallError

router = APIRouter()


def session_reply(h: Hall, p: Principal) -> dict[str, Any]:
    return {"token": h.accounts.issue(p), "account": h.profile(p.account_id)}


BUSY = HTTPException(
    503, "the server is busy checking passwords; try again in a few seconds", headers={"Retry-After": "2"}
)


@router.post("/api/register", summary="create an account (with the sign-up coin grant); 429 when rate limited")
async def register(body: Credentials, h: HallDep, request: Request) -> dict[str, Any]:
    lim = limiter(request)
    await lim.check(lim.login_address, lim.key(request), "sign-ups and logins from your network")
    try:
        p = await h.accounts.register_async(h.run_db, body.username, body.password)
    except AuthError as e:
        raise HTTPException(400, str(e)) from None
    except Busy:
        raise BUSY from None
    return session_reply(h, p)


@router.post("/api/login", summary="log in; returns a signed session token; 429 when rate limited")
async def login(body: Credentials, h: HallDep, request: Request) -> dict[str, Any]:
    lim = limiter(request)
    await lim.check(lim.login_address, lim.key(request), "logins from your network")
    await lim.check(lim.login_account, body.username.casefold(), "logins to this account")
    try:
        p = await h.accounts.login_async(h.run_db, body.username, body.password)
    except AuthError as e:
        raise HTTPException(401, str(e)) from None
    except Busy:
        raise BUSY from None
    return session_reply(h, p)


@router.post("/api/guest", summary="play as a guest (limited per address and hour; 429 when rate limited)")
async def guest(h: HallDep, request: Request) -> dict[str, Any]:
    lim = limiter(request)
    await lim.check(lim.guest_address, lim.key(request), "guest accounts from your network")
    try:
        p = await h.run_db(h.accounts.guest)
    except AuthError as e:
        raise HTTPException(503, str(e), headers={"Retry-After": "1"}) from None
    return session_reply(h, p)


@router.post("/api/logout", summary="revoke every session token of this account")
async def logout(p: Authed, h: HallDep) -> dict[str, bool]:
    await h.run_db(h.accounts.revoke, p.account_id)
    await h.sign_out(p.account_id)
    return {"ok": True}


@router.get("/api/me")
async def me(p: Authed, h: HallDep) -> dict[str, Any]:
    d = await h.run_db(h.profile, p.account_id)
    d["table"] = await h.where_of(p.account_id)
    return d


PRIVATE_FIELDS = ("balance", "coins_won")  # the owner's only (GET /api/me; this route with the owner's token)


@router.get(
    "/api/players/{account_id}",
    summary="a player's public statistics (its balance and coins won only to the player itself)",
)
async def player(account_id: RowId, h: HallDep, p: MaybeAuthed) -> dict[str, Any]:
    try:
        d = await h.run_db(h.profile, account_id)
    except HallError as e:
        raise HTTPException(404, str(e)) from None
    if p is None or p.account_id != account_id:
        for k in PRIVATE_FIELDS:
            d.pop(k, None)
    return d
