"""救济金 in the lobby: no card while your balance is enough; spent down below the cheapest room's
minimum, the card's button claims the grant, the balance moves and the card goes (once a day)."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def test_relief_button_in_the_lobby(page: Any, signup: Any, hall: Any) -> None:
    signup(page, "relief")
    expect(page.locator("#lobby-balance")).to_have_text("10,000")
    expect(page.locator("#relief-card")).to_be_hidden()
    token = page.evaluate("localStorage.getItem('majiang.token')")
    hall.post("/api/shop/buy", {"item": "qiankun", "count": 5, "id": "relief-ui-1"}, token=token)  # 10 000 → 0
    page.reload()
    expect(page.locator("#lobby-balance")).to_have_text("0")
    card = page.locator("#relief-card")
    expect(card).to_be_visible()
    expect(card).to_contain_text("救济金")
    page.click("#relief-claim")
    expect(page.locator("#lobby-balance")).to_have_text("2,000")
    expect(card).to_be_hidden()
    page.goto("/#player/me")
    expect(page.locator("#statement-table tbody tr.entry").first).to_have_attribute("data-kind", "relief")
    expect(page.locator("#statement-table tbody tr.entry .kind").first).to_contain_text("救济金")
