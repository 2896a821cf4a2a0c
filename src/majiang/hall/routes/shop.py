"""Items (道具) over HTTP: the shop, your inventory, buying."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from majiang.hall.items import ItemError, shop_list
from majiang.hall.messages import Purchase
from majiang.hall.routes.deps import Authed, HallDep
from majiang.hall.service import Hall

router = APIRouter()


@router.get("/api/shop", summary="the item shop: every item with its price (coins), moment and parameters")
async def shop(h: HallDep) -> list[dict[str, Any]]:
    return shop_list(h.items.prices)


@router.get("/api/inventory", summary="your items, your coin balance and your latest purchases and uses")
async def inventory(p: Authed, h: HallDep) -> dict[str, Any]:
    return await h.run_db(h.items.summary, p.account_id)


@router.post("/api/shop/buy", summary="buy items with coins (paid to the house through the ledger)")
async def buy(body: Purchase, p: Authed, h: HallDep) -> dict[str, Any]:
    try:
        got = await h.buy(p.account_id, body.item, body.count, body.id)
    except ItemError as e:
        raise HTTPException({"funds": 402, "stakes": 409}.get(e.code, 400), str(e)) from None
    await items_changed(h, p.account_id)
    return got


async def items_changed(h: Hall, account: int) -> None:
    """After a purchase: the table the player sits at refreshes what it may use."""
    table = await h.where_of(account)
    if table is not None:
        h.route(table, "items_changed", account)
