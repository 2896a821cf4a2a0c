"""The calculators: ``POST /api/fan`` (a hand-json object → fans, or a Nanchang settlement),
``GET /api/rulesets`` (what the web client needs of each ruleset) and ``POST /api/shanten``
(the shanten query with 合法听)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, HTTPException

router = APIRouter()


@router.post("/api/fan", summary="the fan calculator: a hand-json object in, its fans (with the explanation)")
async def fan(body: dict[str, Any]) -> dict[str, Any]:
    if len(json.dumps(body)) > 4000:
        raise HTTPException(413, "hand too large")
    from majiang.rulesets import DEFAULT, calculator

    result = calculator(body.get("rules", DEFAULT))(body, True)
    if "error" in result:  # not a hand, or not a win: the reason, as for any invalid body
        raise HTTPException(422, result["error"])
    return result


@router.get("/api/rulesets", summary="the rulesets: names, tile count, dead wall, calculator form, what points count")
async def rulesets() -> list[dict[str, Any]]:
    from majiang.rulesets import entries

    return [r.public() for r in entries()]


@router.post("/api/shanten", summary="shanten, waits and 合法听 (each wait's fans, the legal waits) of a hand")
async def shanten(body: dict[str, Any]) -> dict[str, Any]:
    if len(json.dumps(body)) > 4000:
        raise HTTPException(413, "hand too large")
    from majiang.shanten import analyze_dict  # the query of hand-json.md, min_fan and winds included

    result = await asyncio.to_thread(analyze_dict, body)  # the fan shanten search: up to ~0.1 s
    if "error" in result:
        raise HTTPException(422, result["error"])
    return result
