"""The calculators: ``POST /api/fan`` (a hand-json object → fans, or a Nanchang settlement),
``GET /api/rulesets`` (what the web client needs of each ruleset) and ``POST /api/shanten``
(the shanten query with 合法听)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from majiang.hall.heavy import shanten_job
from majiang.hall.routes.deps import HallDep, heavy, limiter

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
async def shanten(body: dict[str, Any], h: HallDep, request: Request) -> dict[str, Any]:
    if len(json.dumps(body)) > 4000:
        raise HTTPException(413, "hand too large")
    key = json.dumps(body, sort_keys=True)  # the fan shanten search (up to ~0.1 s) in the worker pool
    result: dict[str, Any] = await heavy(h, "shanten", limiter(request).key(request), key, shanten_job, body)
    if "error" in result:
        raise HTTPException(422, result["error"])
    return result
