"""A 复式 (duplicate walls) event table in the browser: the result screen says the seed is sealed until the
event session ends, and the page keeps working (no seed to verify: no script error)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def test_a_sealed_event_table_shows_no_seed_and_says_when_it_comes(
    hall: Any, new_page: Any, signup: Any, shots: Path, tmp_path: Path
) -> None:
    from sqlalchemy import select

    from majiang.store import Database
    from majiang.store.models import Account
    from majiang.tournament.adapters.online import seating_plan
    from majiang.tournament.adapters.repository import TournamentRepository
    from majiang.tournament.draw import draw_session
    from majiang.tournament.organiser import issue_token
    from majiang.tournament.registration import build_group, count_entries, new_event

    page = new_page(390, 844)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = signup(page, "dup")
    db = Database(f"sqlite:///{hall.log.parent / 'hall.db'}")
    try:
        repo = TournamentRepository(db)
        eid = f"dup-{name[-8:]}".lower()
        repo.save(new_event(eid, "Duplicate Cup", build_group(count_entries(16)), sessions=1, seed=5))
        repo.put_session(eid, "A", draw_session(repo.load(eid), "A", 1))
        token, key = issue_token()
        repo.set_extra(eid, **key)
        with db.session() as s:
            acc = s.scalar(select(Account.id).where(Account.username == name))
        east = seating_plan(repo.load(eid), 1, {})[0].seats[0].player
        repo.set_account(eid, east, int(acc or 0))
    finally:
        db.dispose()
    opened = hall.post(f"/tournaments/{eid}/sessions/1/open", {"duplicate": True}, token=token)
    assert opened["tables"][0]["duplicate"] and opened["tables"][0]["hall_table"]
    page.wait_for_selector("#auto-toggle", timeout=30_000)  # seated by the event: the table opens
    if "on" not in (page.get_attribute("#auto-toggle", "class") or ""):
        page.click("#auto-toggle")  # 托管 plays the hand out
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=120_000)
    expect(page.locator("#seed")).to_contain_text("duplicate walls: revealed when the event session ends")
    expect(page.locator("#seed-hash")).not_to_be_empty()
    page.screenshot(path=str(shots / "duplicate-result-phone.png"))
    assert not errors, errors
