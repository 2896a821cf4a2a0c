"""Check-in in the browser: the check-in desk on a phone (the players not checked in get byes when
the session is drawn), and the standings and the projector after any session with movement arrows."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

PHONE = (390, 844)


def _url(hall: Any) -> str:
    return f"sqlite:///{hall.log.parent / 'hall.db'}"


def _with_repo(hall: Any, f: Any) -> Any:
    from majiang.store import Database
    from majiang.tournament.adapters.repository import TournamentRepository

    db = Database(_url(hall))
    try:
        return f(TournamentRepository(db))
    finally:
        db.dispose()


def _new_event(hall: Any, players: int) -> tuple[str, str]:
    """An event of ``players`` on the running hall's database; its id and organiser token."""
    from majiang.cli.tournament import main
    from majiang.tournament.organiser import issue_token

    eid = f"desk-{uuid.uuid4().hex[:6]}"
    args = ["new", "Desk Cup", "--id", eid, "--count", str(players), "--sessions", "3", "--seed", "6"]
    assert main([*args, "--db", _url(hall)]) == 0
    token, key = issue_token()
    _with_repo(hall, lambda repo: repo.set_extra(eid, **key))
    return eid, token


def _fits_a_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"horizontal scrolling: {width}px wide"
    small = page.evaluate("""[...document.querySelectorAll('button, input[type=search], input[type=number]')]
        .map(e => e.getBoundingClientRect()).filter(r => r.width && r.height < 40).length""")
    assert small == 0, f"{small} tap targets under 40px"


def test_the_check_in_desk_on_a_phone_seats_only_those_checked_in(
    hall: Any, new_page: Any, shots: Path, capsys: Any
) -> None:
    from majiang.cli.tournament import main

    eid, token = _new_event(hall, 16)
    page = new_page(*PHONE)
    page.goto(f"/tournaments/{eid}/checkin")
    page.fill("#token", "wrong")
    page.click("#token-go")
    expect(page.locator("#login-err")).to_contain_text("not the organiser token")
    page.fill("#token", token)
    page.click("#token-go")
    expect(page.locator("#count")).to_have_text("0/16 已签到 in")
    page.check("#required")
    expect(page.locator("#msg")).to_contain_text("only checked-in players")
    for i in range(1, 13):
        page.click(f"button[data-player='P{i:02d}']")
        expect(page.locator("#count")).to_have_text(f"{i}/16 已签到 in")
    page.click("button[data-player='P12']")  # a mistake, taken back …
    expect(page.locator("#count")).to_have_text("11/16 已签到 in")
    page.fill("#filter", "p12")  # … and found again with the search box
    expect(page.locator("#players button")).to_have_count(1)
    page.click("button[data-player='P12']")
    expect(page.locator("#count")).to_have_text("12/16 已签到 in")
    expect(page.locator("button[data-player='P12']")).to_have_class("in")
    page.fill("#filter", "")
    _fits_a_phone(page)
    page.screenshot(path=str(shots / "tournament-checkin-phone.png"), full_page=True)
    page.reload()  # the token stays in the tab
    expect(page.locator("#count")).to_have_text("12/16 已签到 in")
    capsys.readouterr()
    assert main(["draw", eid, "--json", "--db", _url(hall)]) == 0
    tables = json.loads(capsys.readouterr().out)["tables"]
    assert sorted(p for t in tables for p in t) == [f"P{i:02d}" for i in range(1, 13)]
    absent = _with_repo(hall, lambda repo: repo.load(eid).groups[0].sessions[0].absent)
    assert absent == ("P13", "P14", "P15", "P16")


def test_the_standings_and_the_projector_after_any_session(hall: Any, new_page: Any, shots: Path) -> None:
    from majiang.tournament.draw import draw_session

    eid, _ = _new_event(hall, 8)

    def play(repo: Any) -> None:
        scores = {1: ((40, 10, -20, -30), (35, 5, -15, -25)), 2: ((-30, -20, 10, 40), (-25, -15, 5, 35))}
        for k, totals in scores.items():
            repo.put_session(eid, "A", draw_session(repo.load(eid), "A", k))
            for t, tot in enumerate(totals, start=1):
                repo.enter_totals(eid, k, t, tot)

    _with_repo(hall, play)
    latest = hall.get(f"/api/tournaments/{eid}/standings")["groups"][0]["standings"]
    arrows = [r["movement"] for r in latest]
    assert any(a.startswith("▲") for a in arrows) and any(a.startswith("▼") for a in arrows)
    page = new_page(*PHONE)
    page.goto(f"/tournaments/{eid}")
    cells = page.locator("table").first.locator("tbody tr td:nth-child(2)")
    expect(cells).to_have_count(8)
    assert cells.all_inner_texts() == arrows
    page.select_option("#after", "1")
    page.wait_for_url(f"**/tournaments/{eid}?after=1")
    expect(page.locator("p.meta").nth(1)).to_contain_text("after session 1")
    assert set(page.locator("table").first.locator("tbody tr td:nth-child(2)").all_inner_texts()) == {""}
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"horizontal scrolling: {width}px"
    page.screenshot(path=str(shots / "tournament-standings-after-1.png"), full_page=True)
    proj = new_page(1920, 1080)
    proj.goto(f"/tournaments/{eid}/projector")
    expect(proj.locator("#rows tr")).to_have_count(8)
    expect(proj.locator("#after option")).to_have_count(3)
    names = proj.locator("#rows td.name").all_inner_texts()
    moves = proj.locator("#rows td:nth-child(2)").all_inner_texts()
    assert moves == [a.replace(" new", "") for a in arrows] and names == [r["name"] for r in latest]
    proj.screenshot(path=str(shots / "tournament-projector-movement.png"))
    proj.select_option("#after", "1")
    expect(proj.locator("#what")).to_contain_text("after session 1")
    assert "after=1" in proj.url
    expect(proj.locator("#rows td:nth-child(2)").first).to_have_text("")
