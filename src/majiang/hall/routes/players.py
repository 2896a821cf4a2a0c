"""Players' own pages over HTTP: the coin statement (and, with the ratings, the leaderboard)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from majiang.hall.routes.deps import Authed, HallDep
from majiang.hall.statement import statement

router = APIRouter()


@router.get("/api/me/statement",
            summary="your coin statement: every ledger entry of your account, newest first, with the running "
                    "balance and its hand (paginate with before=next_before)")
async def my_statement(p: Authed, h: HallDep, limit: Annotated[int, Query(ge=1, le=200)] = 50,
                       before: Annotated[int | None, Query(ge=1, le=2**63 - 1)] = None) -> dict[str, Any]:
    return await h.run_db(statement, h.db, p.account_id, limit, before)
