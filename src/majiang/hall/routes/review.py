"""``GET /api/hands/{id}/review?seat=N``: the AI review (:mod:`majiang.review`, docs/review.md) of a
finished hand, for the player who sat at that seat only.  It runs in the hall's pool of worker
processes (:mod:`majiang.hall.heavy`: cached by hand and seat, a rate per account, a global cap).

A finished hand's log is public (its seed is revealed), so a review leaks nothing hidden; it is
still personal advice, and costs a replay and a bot per decision, so it is given to the seat's own
player (401 without a login, 403 for another seat, 404 for a hand unknown or still in play).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import Response
from sqlalchemy import select

from majiang.hall.heavy import HeavyRefused, review_job
from majiang.hall.routes.deps import Authed, HallDep, RowId, admit
from majiang.store.models import HandEvent, HandRow

TOP = 5

router = APIRouter()


@router.get("/api/hands/{hand_id}/review", summary="the AI review of your own seat in a finished hand")
async def hand_review(hand_id: RowId, seat: Annotated[int, Query(ge=0, le=3)], p: Authed, h: HallDep) -> Response:
    key = (hand_id, seat, p.account_id)  # only the seat's own player ever gets an answer for it
    try:
        hit = h.heavy.cached("review", key, str(p.account_id))
    except HeavyRefused as e:
        raise HTTPException(e.status, str(e), headers={"Retry-After": str(max(1, int(e.retry_after_s) + 1))}) from None
    if hit is not None:  # asked before: no database, no computation
        return _reply(hand_id, hit)
    admit(h, "review", str(p.account_id))  # the rate and the cap before any work for the request

    def load() -> tuple[list[Any], list[dict[str, Any]], list[int]] | None:
        with h.db.session() as s:
            row = s.get(HandRow, hand_id)
            if row is None or row.seed is None:
                return None
            events = [
                e.event
                for e in s.scalars(select(HandEvent).where(HandEvent.hand_id == hand_id).order_by(HandEvent.seq))
            ]
            auto = [int(x) for x in ((row.result or {}).get("auto") or {}).get(str(seat), [])]  # 托管's decisions
            return list(row.players or []), events, auto

    got = await h.run_db(load)
    if got is None:
        raise HTTPException(404, f"no finished hand {hand_id} (a hand in play has no review)")
    players, stored, auto = got
    if seat >= len(players) or players[seat] != p.account_id:
        raise HTTPException(403, f"seat {seat} of hand {hand_id} is not yours: a review is for your own seat")
    return _reply(hand_id, await h.heavy.compute("review", key, review_job, stored, seat, f"#{hand_id}", TOP, auto))


def _reply(hand_id: int, result: dict[str, Any]) -> Response:
    """The review as JSON, serialised directly (a review is large: FastAPI's encoder would walk it)."""
    if "error" in result:
        raise HTTPException(422, f"hand {hand_id} cannot be reviewed: {result['error']}")
    body = json.dumps({"hand": hand_id, **result}, ensure_ascii=False, separators=(",", ":"))
    return Response(body.encode(), media_type="application/json")
