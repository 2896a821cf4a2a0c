"""Players' own pages over HTTP: the coin statement, the daily relief grant (救济金),
the leaderboard and rating histories."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request

from majiang.hall import ratings
from majiang.hall.accounts import AuthError
from majiang.hall.match import rank_board
from majiang.hall.relief import Relief, ReliefPolicy
from majiang.hall.routes.deps import Authed, HallDep, RowId
from majiang.hall.service import Hall
from majiang.hall.statement import statement

router = APIRouter()


@router.get(
    "/api/me/statement",
    summary="your coin statement: every ledger entry of your account, newest first, with the running "
    "balance and its hand (paginate with before=next_before)",
)
async def my_statement(
    p: Authed,
    h: HallDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    before: Annotated[int | None, Query(ge=1, le=2**63 - 1)] = None,
) -> dict[str, Any]:
    return await h.run_db(statement, h.db, p.account_id, limit, before)


def _relief(h: Hall, request: Request) -> Relief:
    r: Relief | None = getattr(request.app.state, "relief", None)
    return r if r is not None else Relief(h.db, ReliefPolicy(), h.rooms.values())


@router.get(
    "/api/me/relief",
    summary="救济金: whether you may claim the daily relief grant now, its amount and the balance it is for",
)
async def relief_status(p: Authed, h: HallDep, request: Request) -> dict[str, Any]:
    return await h.run_db(_relief(h, request).status, p.account_id)


@router.post(
    "/api/me/relief",
    summary="claim the daily relief grant (from the mint, through the ledger; "
    "once per claim and day — 409 when not eligible, with the reason)",
)
async def relief_claim(p: Authed, h: HallDep, request: Request) -> dict[str, Any]:
    got = await h.run_db(_relief(h, request).claim, p.account_id)
    if not got["paid"]:
        raise HTTPException(
            409,
            {
                "reason": got["reason"],
                "message": REASONS.get(got["reason"], got["reason"]),
                **{k: got[k] for k in ("below", "balance", "left_today", "amount")},
            },
        )
    return got


REASONS = {
    "balance": "your balance is not below the cheapest room's minimum",
    "used": "you have claimed today's relief already",
    "shop": "relief is for coins lost at the tables: your shop purchases since your last grant keep you above the line",
    "already": "this claim was just paid",
    "off": "this hall gives no relief",
    "not_player": "only players and guests claim relief",
}


@router.get(
    "/api/leaderboard",
    summary="the ruleset's players: by rating (rated players and bots, best first) or by=rank (段位 from matches)",
)
async def leaderboard(
    h: HallDep,
    rules: Annotated[str, Query(max_length=20)] = "gb",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    by: Annotated[str, Query(pattern="^(rating|rank)$")] = "rating",
) -> dict[str, Any]:
    if by == "rank":

        def board() -> list[dict[str, Any]]:
            with h.db.session() as s:
                return rank_board(s, rules, limit)

        return {"rules": rules, "by": "rank", "players": await h.run_db(board)}
    return {"rules": rules, "by": "rating", "players": await h.run_db(ratings.leaderboard, h.db, rules, limit)}


def _viewer(h: Hall, authorization: str | None) -> int | None:
    """The account behind an optional Bearer token (None without one, or for a bad one)."""
    token = authorization.removeprefix("Bearer ").strip() if authorization else None
    if not token:
        return None
    try:
        return h.accounts.verify(token).account_id
    except AuthError:
        return None


@router.get(
    "/api/players/{account_id}/ratings",
    summary="a player's rating per ruleset and its rating after each rated hand, oldest first (the hand, "
    "room and score of each point only for the player's own token)",
)
async def player_ratings(
    account_id: RowId,
    h: HallDep,
    rules: Annotated[str | None, Query(max_length=20)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    owner = _viewer(h, authorization) == account_id
    return await h.run_db(ratings.history, h.db, account_id, rules, limit, owner)
