"""The leaderboard page (#leaderboard) lists the API's order with ratings, and a player page draws
the rating history as an inline SVG plot (one point per rated hand, after the start)."""

from __future__ import annotations

import time
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def _rated_hands(hall: Any, me: int, n: int) -> list[int]:
    """``n`` hands with ``me`` and two more humans and a bot, written into the server's database the way
    the hall settles them (HandStore.finish_hand, which rates them)."""
    from hall_helpers import establish
    from majiang.hall.ledger import grant
    from majiang.hall.persist import HandStore
    from majiang.store import Database
    from majiang.store.models import Account

    db = Database(f"sqlite:///{hall.log.parent / 'hall.db'}")
    try:
        accs = [me]
        tag = int(time.time() * 1000) % 10_000_000
        for i, kind in enumerate(["player", "player", "bot"]):
            with db.session() as s:
                a = Account(username=f"lb{tag}{i}", kind=kind, balance=0)
                s.add(a)
                s.flush()
                accs.append(a.id)
            grant(db, accs[-1], 100_000, f"lb-grant:{accs[-1]}")
        establish(str(db.engine.url), accs[:3])  # players whose games count for ratings
        store = HandStore(db)
        scores = [[30, -10, -10, -10], [-8, 24, -8, -8], [40, -20, -10, -10], [16, -16, 0, 0]]
        for k in range(n):
            hand = store.start_hand("lb-table", "fast", k, "gb", "00" * 32, accs)
            sc = scores[k % len(scores)]
            stats = [
                {"account_id": accs[i], "seat": i, "score": sc[i], "won": sc[i] > 0, "dealt_in": False, "fan": 0}
                for i in range(3)
            ]
            store.finish_hand(hand, "lb-table", "11" * 32, {"scores": sc}, accs, sc, 10, 5, stats)
        return accs
    finally:
        db.dispose()


def test_leaderboard_and_rating_plot(page: Any, signup: Any, hall: Any) -> None:
    signup(page, "lb")
    me = page.evaluate("window.mj.me.id")
    _rated_hands(hall, me, 4)
    board = hall.get("/api/leaderboard?rules=gb&limit=100")["players"]
    page.click("#nav-leaderboard")
    rows = page.locator("#leaderboard-table tbody tr.rank-row")
    expect(rows).to_have_count(len(board))
    expect(page.locator("#leaderboard-table thead")).to_contain_text("等级分 Rating")
    shown = [(int(r.get_attribute("data-account")), float(r.get_attribute("data-rating"))) for r in rows.all()]
    assert shown == [(p["account"], p["rating"]) for p in board]
    mine = page.locator(f"#leaderboard-table tr.rank-row[data-account='{me}']")
    expect(mine).to_have_class("rank-row me")
    mine.locator("a.player-link").click()
    plot = page.locator("#rating-plot")
    expect(plot).to_be_visible()
    expect(plot).to_have_attribute("data-points", "5")  # the start and four hands
    hist = hall.get(f"/api/players/{me}/ratings?rules=gb")
    dots = [float(d.get_attribute("data-rating")) for d in plot.locator("circle.dot").all()]
    assert dots[1:] == [x["rating"] for x in hist["history"]]
    expect(page.locator("#rating-gb")).to_have_text(f"{hist['ratings']['gb']['rating']:.1f}")
