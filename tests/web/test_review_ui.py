"""The review panel of the replay viewer: #replay/<id>/review shows your own seat's review, with
markers on the events list; a spectator of someone else's hand is told a review is for one's own seat."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def test_review_panel(new_page: Any, hall: Any, shots: Path) -> None:
    token = hall.post("/api/guest")["token"]
    hand_id = hall.play_hand_over_ws(token=token)
    page = new_page()
    page.goto("/#login")
    page.evaluate(f"localStorage.setItem('majiang.token', {token!r})")
    page.goto(f"/#replay/{hand_id}/review")
    page.reload()
    summary = page.locator("#review-summary")
    expect(summary).to_contain_text("决策 decisions")
    n = page.locator("#review-list li").count()
    assert n > 0
    assert page.locator("#replay-log li .rv-mark").count() == n  # one marker per decision on the events list
    assert page.locator("#review-list li.agree").count() + page.locator("#review-list li.differ").count() == n
    # a decision jumps the replay to the table as the player saw it
    first = page.locator("#review-list li").first
    event = int(first.get_attribute("data-event"))
    first.click()
    expect(page.locator("#replay-pos")).to_contain_text(f"{event} / ")
    expect(first).to_have_class(re.compile(r"\bon\b"))
    page.screenshot(path=str(shots / "review.png"))
    # your own page links the hand to its review
    page.goto("/#player/me")
    expect(page.locator(f'#recent-hands tr[data-hand="{hand_id}"] a.review-link')).to_have_attribute(
        "href", f"#replay/{hand_id}/review"
    )


def test_review_panel_for_someone_elses_hand(new_page: Any, hall: Any) -> None:
    hand_id = hall.play_hand_over_ws()
    page = new_page()
    page.goto(f"/#replay/{hand_id}/review")
    expect(page.locator("#review-none")).to_be_visible()
    expect(page.locator("#replay-log li").first).to_be_visible()
