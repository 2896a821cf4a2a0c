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
    _lose_at_the_tables(hall, page, 10_000)  # relief is for coins lost at the tables (not spent in the shop)
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


def _lose_at_the_tables(hall: Any, page: Any, amount: int) -> None:
    """The account loses ``amount`` coins to the house, as a hand's settlement would, on the server's own
    database (the ledger as the hall writes it)."""
    from majiang.hall.ledger import HOUSE, post, system_account
    from majiang.store import Database

    token = page.evaluate("localStorage.getItem('majiang.token')")
    get_me = "t => fetch('/api/me', {headers: {Authorization: 'Bearer ' + t}}).then(r => r.json())"
    me = int(page.evaluate(get_me, token)["id"])
    db = Database(f"sqlite:///{hall.log.parent / 'hall.db'}")
    try:
        with db.session() as s:
            house = system_account(s, HOUSE)
            post(s, f"settle:test:{me}", "settle", {me: -amount, house.id: amount}, {"test": "lost at the tables"})
    finally:
        db.dispose()
