"""Your table toggles over HTTP (the WebSocket's ``settings`` message does the same)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from majiang.hall.messages import SettingsBody
from majiang.hall.routes.deps import Authed, HallDep

router = APIRouter()


@router.get(
    "/api/settings",
    summary="your remembered table toggles: auto_win (自动和), auto_pass (不吃碰杠), auto_discard (摸切)",
)
async def get_settings(p: Authed, h: HallDep) -> dict[str, bool]:
    return (await h.prefs_of(p.account_id)).to_dict()


@router.put("/api/settings", summary="change some of your table toggles; the table you sit at follows at once")
async def put_settings(body: SettingsBody, p: Authed, h: HallDep) -> dict[str, bool]:
    changes = body.changes()
    if not changes:
        raise HTTPException(422, "name at least one of auto_win, auto_pass, auto_discard (true or false)")
    return (await h.set_prefs(p.account_id, changes)).to_dict()
