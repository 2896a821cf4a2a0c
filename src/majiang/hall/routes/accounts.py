"""Accounts: register, log in, guests, log out, who am I, a player's statistics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from majiang.hall.accounts import AuthError, Principal
from majiang.hall.messages import Credentials
from majiang.hall.routes.deps import Authed, HallDep, RowId
from majiang.hall.service import Hall, HallError

router = APIRouter()


def session_reply(h: Hall, p: Principal) -> dict[str, Any]:
    return {"token": h.accounts.issue(p), "account": h.profile(p.account_id)}


@router.post("/api/register", summary="create an account (with the sign-up coin grant)")
async def register(body: Credentials, h: HallDep) -> dict[str, Any]:
    try:
        p = await h.run_db(h.accounts.register, body.username, body.password)
    except AuthError as e:
        raise HTTPException(400, str(e)) from None
    return session_reply(h, p)


@router.post("/api/login", summary="log in; returns a signed session token")
async def login(body: Credentials, h: HallDep) -> dict[str, Any]:
    try:
        p = await h.run_db(h.accounts.login, body.username, body.password)
    except AuthError as e:
        raise HTTPException(401, str(e)) from None
    return session_reply(h, p)


@router.post("/api/guest", summary="play as a guest")
async def guest(h: HallDep) -> dict[str, Any]:
    p = await h.run_db(h.accounts.guest)
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


@router.get("/api/players/{account_id}", summary="a player's statistics")
async def player(account_id: RowId, h: HallDep) -> dict[str, Any]:
    try:
        return await h.run_db(h.profile, account_id)
    except HallError as e:
        raise HTTPException(404, str(e)) from None
