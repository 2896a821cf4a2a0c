"""Finished hands (their logs, for replays) and a player's recent hands."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException
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
            events = [
                e.event
                for e in s.scalars(select(HandEvent).where(HandEvent.hand_id == hand_id).order_by(HandEvent.seq))
            ]
            players = list(row.players or [])
            result = dict(row.result or {})
            if not player:
                players = [None] * len(players)
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
                "yours": player,
            }

    d = await h.run_db(load)
    if d is None:
        raise HTTPException(
            404, f"no finished hand {hand_id} you may see (a hand in play, or a private table's you did not play)"
        )
    return d


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
