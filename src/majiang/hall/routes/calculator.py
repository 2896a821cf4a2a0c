"""``POST /api/fan``: the fan calculator."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, HTTPException

router = APIRouter()


@router.post("/api/fan", summary="the fan calculator: a hand-json object in, its fans (with the explanation)")
async def fan(body: dict[str, Any]) -> dict[str, Any]:
    if len(json.dumps(body)) > 4000:
        raise HTTPException(413, "hand too large")
    if body.get("rules") == "nanchang":
        from majiang.nanchang import settle_dict

        result = settle_dict(body)
    else:
        from majiang.mcr import score_dict

        result = score_dict(body, explain=True)
    if "error" in result:  # not a hand, or not a win: the reason, as for any invalid body
        raise HTTPException(422, result["error"])
    return result
