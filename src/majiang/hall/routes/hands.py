"""Finished hands (their logs, for replays), their share links (private by default: a player of the
hand makes one, and may take it back) and a player's recent hands."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException
from fastapi import Path as PathParam
from sqlalchemy import select

from majiang.hall.accounts import AuthError
from majiang.hall.rooms import is_private_id
from majiang.hall.routes.deps import Authed, HallDep, RowId
from majiang.store.models import HandEvent, HandRow

router = APIRouter()


@router.get("/api/hands/{hand_id}", summary="a finished hand: its log (JSON events) and result")
async def hand(hand_id: RowId, h: HallDep, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
    """A finished hand whole for those who played it (``Authorization: Bearer TOKEN``); a public
    table's hand to anyone else without who sat where and what they won (``players`` all null, no
    ``coins``: walking the hand ids must not rebuild a player's history); a private table's hand to
    nobody else."""

    def load() -> dict[str, Any] | None:
        who = _account(h, authorization) if authorization else None  # before the session (SQLite: one writer)
        with h.db.session() as s:
            row = s.get(HandRow, hand_id)
            if row is None or row.seed is None:
                return None
            player = who is not None and who in (row.players or [])
            if is_private_id(row.table_id) and not player:
                return None  # a private table's: unlisted
            return _hand_json(s, row, names=player, coins=player) | {
                "yours": player,
                "share": row.share_token if player else None,
            }

    d = await h.run_db(load)
    if d is None:
        raise HTTPException(
            404, f"no finished hand {hand_id} you may see (a hand in play, or a private table's you did not play)"
        )
    return d


@router.post("/api/hands/{hand_id}/share", summary="share a hand you played: a link anyone may open (until unshared)")
async def share(hand_id: RowId, h: HallDep, p: Authed) -> dict[str, Any]:
    """Private by default: a player of the hand makes its link (the same link if it was shared before)."""

    def make() -> str | None:
        with h.db.session() as s:
            row = s.get(HandRow, hand_id)
            if row is None or row.seed is None or p.account_id not in (row.players or []):
                return None
            if row.share_token is None:
                row.share_token = secrets.token_urlsafe(18)
            return row.share_token

    token = await h.run_db(make)
    if token is None:
        raise HTTPException(404, f"no finished hand {hand_id} of yours to share")
    return {"hand": hand_id, "token": token, "url": f"/#replay/s/{token}"}


@router.delete("/api/hands/{hand_id}/share", summary="take a hand's share link back (the link stops working)")
async def unshare(hand_id: RowId, h: HallDep, p: Authed) -> dict[str, Any]:
    def drop() -> bool:
        with h.db.session() as s:
            row = s.get(HandRow, hand_id)
            if row is None or p.account_id not in (row.players or []):
                return False
            row.share_token = None
            return True

    if not await h.run_db(drop):
        raise HTTPException(404, f"no finished hand {hand_id} of yours")
    return {"hand": hand_id, "token": None}


@router.get("/api/shared/{token}", summary="a shared hand (its players' names, not their coins)")
async def shared(token: Annotated[str, PathParam(min_length=16, max_length=32)], h: HallDep) -> dict[str, Any]:
    def load() -> dict[str, Any] | None:
        with h.db.session() as s:
            row = s.scalar(select(HandRow).where(HandRow.share_token == token))
            if row is None or row.seed is None:
                return None
            return _hand_json(s, row, names=True, coins=False) | {"yours": False, "shared": True}

    d = await h.run_db(load)
    if d is None:
        raise HTTPException(404, "no hand is shared by that link (it was taken back, or never made)")
    return d


def _hand_json(s: Any, row: HandRow, names: bool, coins: bool) -> dict[str, Any]:
    """A finished hand for the replay: with who sat where (``names``) and what they won (``coins``)."""
    events = [e.event for e in s.scalars(select(HandEvent).where(HandEvent.hand_id == row.id).order_by(HandEvent.seq))]
    players = list(row.players or [])
    result = dict(row.result or {})
    if not names:
        players = [None] * len(players)
    if not coins:
        result.pop("coins", None)
    return {
        "id": row.id,
        "table": row.table_id,
        "room": row.room,
        "rules": row.rules,
        "seed_hash": row.seed_hash,
        "seed": row.seed,
        "players": players,
        "result": result,
        "events": events,
    }


def _account(h: Any, authorization: str | None) -> int | None:
    token = authorization.removeprefix("Bearer ").strip() if authorization else None
    try:
        return int(h.accounts.verify(token).account_id)
    except AuthError:
        return None


@router.get("/api/players/{account_id}/hands", summary="your recent hands (only your own: 403 for another's)")
async def player_hands(account_id: RowId, h: HallDep, p: Authed, limit: int = 20) -> list[dict[str, Any]]:
    from majiang.store.models import PlayerHand

    if p.account_id != account_id:
        raise HTTPException(403, "a player's hand history is visible only to that player")
    limit = max(1, min(limit, 100))

    def load() -> list[dict[str, Any]]:
        with h.db.session() as s:
            rows = s.execute(
                select(PlayerHand, HandRow)
                .join(HandRow, HandRow.id == PlayerHand.hand_id)
                .where(PlayerHand.account_id == account_id)
                .order_by(HandRow.id.desc())
                .limit(limit)
            ).all()
            # the seat's wind in that hand: from its dealer (the hand_start event, seq 0)
            dealer = {
                e.hand_id: e.event.get("dealer", 0)
                for e in s.scalars(
                    select(HandEvent).where(HandEvent.hand_id.in_([hr.id for _, hr in rows]), HandEvent.seq == 0)
                )
            }
            return [
                {
                    "hand": hr.id,
                    "room": hr.room,
                    "seat": ph.seat,
                    "wind": "ESWN"[(ph.seat - dealer.get(hr.id, 0)) % 4],
                    "score": ph.score,
                    "coins": ph.coins,
                    "won": ph.won,
                    "fan": ph.fan,
                    "at": hr.started_at.isoformat(),
                }
                for ph, hr in rows
            ]

    return await h.run_db(load)
