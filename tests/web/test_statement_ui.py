"""The coin statement on your own player page: the same entries, amounts and running balances as
GET /api/me/statement, after a hand and a purchase, with links to the hand."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def test_statement_page_shows_the_ledger(page: Any, signup: Any, hall: Any) -> None:
    signup(page, "stmt")
    token = page.evaluate("localStorage.getItem('majiang.token')")
    hand = hall.play_hand_over_ws(token=token)
    hall.post("/api/shop/buy", {"item": "shunfenger", "count": 2, "id": "stmt-ui-1"}, token=token)
    import httpx

    st = httpx.get(hall.base + "/api/me/statement", headers={"Authorization": f"Bearer {token}"}).json()
    me = httpx.get(hall.base + "/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    page.goto("/#player/me")
    rows = page.locator("#statement-table tbody tr.entry")
    expect(rows).to_have_count(len(st["entries"]))
    expect(page.locator("#statement-table thead")).to_contain_text("余额 Balance")
    expect(page.locator("#statement-table thead")).to_contain_text("金额 Amount")
    shown = [
        (int(r.get_attribute("data-amount")), int(r.get_attribute("data-balance")), r.get_attribute("data-kind"))
        for r in rows.all()
    ]
    assert shown == [(e["amount"], e["balance"], e["kind"]) for e in st["entries"]]
    first = rows.first
    expect(first.locator(".balance")).to_have_text(f"{me['balance']:,}")
    expect(first.locator(".kind")).to_contain_text("购买道具 顺风耳 ×2 Purchase Keen Ears ×2")
    expect(page.locator(f"#statement-table a.hand-link[href='#replay/{hand}']").first).to_be_visible()
    assert sum(a for a, _, _ in shown) == me["balance"]
