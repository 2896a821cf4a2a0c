"""The organiser's day in the browser: a phone enters a hand at its table, the other three confirm,
and the standings move."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path
from typing import Any

import pytest

from .pace import STEP_MS

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

PHONE = (390, 844)
EVENTS = itertools.count(1)  # each test's event on the one hall: phone-cup, phone-cup-2 …
NAMES = ["Jürgen Weiß", "Tomáš Dvořák", "王芳", "Élodie Lefèvre"] + [f"Spieler {i:02d}" for i in range(4, 16)]


@pytest.fixture
def event(hall: Any, tmp_path: Path) -> dict[str, Any]:
    """A 16-player event on the running hall's database, session 1 drawn; its table links and PINs."""
    from majiang.cli.tournament import main
    from majiang.cli.tournament.online import table_links
    from majiang.store import Database
    from majiang.tournament.adapters.repository import TournamentRepository

    url = f"sqlite:///{hall.log.parent / 'hall.db'}"
    n = next(EVENTS)
    event_id = "phone-cup" if n == 1 else f"phone-cup-{n}"
    players = tmp_path / "players.txt"
    players.write_text("\n".join(NAMES) + "\n", encoding="utf-8")
    assert (
        main(
            [
                "new",
                "Phone Cup",
                "--id",
                event_id,
                "--players",
                str(players),
                "--sessions",
                "2",
                "--seed",
                "4",
                "--db",
                url,
            ]
        )
        == 0
    )
    assert main(["draw", event_id, "--db", url]) == 0
    db = Database(url)
    try:
        links = table_links(TournamentRepository(db), event_id, 1, hall.base)
    finally:
        db.dispose()
    return {"id": event_id, "table": links[0], "db": url}


def _fits_a_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"horizontal scrolling: {width}px wide"
    small = page.evaluate("""[...document.querySelectorAll('button, input')]
        .map(e => e.getBoundingClientRect()).filter(r => r.width && r.height < 40).length""")
    assert small == 0, f"{small} tap targets under 40px"


def _open(new_page: Any, link: dict[str, Any], seat: int) -> Any:
    page = new_page(*PHONE)
    page.goto(link["url"])
    page.fill("#pin", link["pins"][seat])  # each player's own PIN: the page knows the seat from it
    page.click("#pin-go")
    expect(page.locator("#you")).to_contain_text(link["players"][seat])
    return page


def test_a_phone_enters_a_hand_the_others_confirm_and_the_standings_move(
    event: Any, new_page: Any, hall: Any, shots: Path
) -> None:
    link = event["table"]
    east = _open(new_page, link, 0)
    expect(east.locator("#progress")).to_contain_text("0/16")
    expect(east.locator("#hand-head")).to_contain_text(f"第 1 盘 · 东风圈 · 庄家 {link['players'][0]}")
    for name in link["players"]:
        expect(east.locator("#scores")).to_contain_text(name)
    east.click("button[data-pick='winner:0']")
    east.click("button[data-pick='discarder:-1']")  # self-drawn
    east.fill("#points", "8")
    east.select_option("#pen-seat", "1")
    east.select_option("#pen-code", "warning")
    east.click("#pen-add")  # South warned in this hand
    expect(east.locator("button[data-pen='0']")).to_contain_text("warning")
    _fits_a_phone(east)
    east.screenshot(path=str(shots / "tournament-phone-entry.png"), full_page=True)
    east.click("#propose")
    expect(east.locator("#pending")).to_contain_text("自摸")
    expect(east.locator("#confirm")).to_have_count(0)  # the proposer does not confirm himself
    for seat in (1, 2, 3):
        other = _open(new_page, link, seat)
        expect(other.locator("#pending")).to_contain_text("8 番")
        expect(other.locator("#pending")).to_contain_text("warning")
        _fits_a_phone(other)
        if seat == 3:
            other.screenshot(path=str(shots / "tournament-phone-confirm.png"), full_page=True)
        other.click("#confirm")
    expect(other.locator("#progress")).to_contain_text("1/16")
    expect(east.locator("#progress")).to_contain_text("1/16", timeout=10_000)  # the next poll
    expect(east.locator("#scores")).to_contain_text("548")
    standings = hall.get(f"/api/tournaments/{event['id']}/standings")["groups"][0]["standings"]
    assert standings[0]["name"] == link["players"][0] and standings[0]["match_total"] == 548
    page = new_page(*PHONE)
    page.goto(f"/tournaments/{event['id']}")
    expect(page.locator("body")).to_contain_text(link["players"][0])
    page.screenshot(path=str(shots / "tournament-phone-standings.png"), full_page=True)


@pytest.fixture
def forty(hall: Any) -> str:
    """A 40-player event with session 1 entered as totals at every table, its clock started."""
    import uuid

    from majiang.cli.tournament import main
    from majiang.store import Database
    from majiang.tournament.adapters.repository import TournamentRepository

    url = f"sqlite:///{hall.log.parent / 'hall.db'}"
    eid = f"big-open-{uuid.uuid4().hex[:6]}"
    assert (
        main(
            [
                "new",
                "Big Open",
                "--id",
                eid,
                "--count",
                "40",
                "--teams",
                "10",
                "--sessions",
                "3",
                "--seed",
                "2",
                "--db",
                url,
            ]
        )
        == 0
    )
    assert main(["draw", eid, "--db", url]) == 0
    db = Database(url)
    try:
        repo = TournamentRepository(db)
        for t in range(1, 11):
            repo.enter_totals(eid, 1, t, [30 + t, -10, -10, -10 - t] if t < 10 else [0, 0, 0, 0])
        repo.start_clock(eid, 1, minutes=180, warn=15)
    finally:
        db.dispose()
    return eid


def test_the_projector_pages_through_forty_players_without_scrolling(
    forty: str, new_page: Any, hall: Any, shots: Path
) -> None:
    standings = hall.get(f"/api/tournaments/{forty}/standings")["groups"][0]
    names = {r["name"] for r in standings["standings"]}
    teams = {r["name"] for r in standings["teams"]}
    assert len(names) == 40
    page = new_page(1920, 1080)
    page.goto(f"/tournaments/{forty}/projector?every=1")
    expect(page.locator("#rows tr").first).to_be_visible()
    expect(page.locator("#clock")).to_have_text(re.compile(r"第 1 局 · 2:5\d:\d\d"))
    page.screenshot(path=str(shots / "tournament-projector.png"))
    seen: set[str] = set()
    seen_teams: set[str] = set()
    deadline = time.monotonic() + STEP_MS / 1000  # the watchdog of a projector that stopped turning pages
    while (seen < names or seen_teams < teams) and time.monotonic() < deadline:
        size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        assert size[0] <= 1920 and size[1] <= 1080, f"the page scrolls: {size}"
        bottom = page.evaluate(
            "Math.max(...[...document.querySelectorAll('#rows tr')].map(r => r.getBoundingClientRect().bottom))"
        )
        assert bottom <= 1080, f"a row below the screen: {bottom}"
        kind = page.locator("#what").inner_text()
        cells = page.locator("#rows td.name").all_inner_texts()
        (seen_teams if "Teams" in kind else seen).update(cells)
        page.wait_for_timeout(300)
    assert seen == names and seen_teams == teams
    # every table has its totals: none is still playing; the referee calls time at table 3 by hand
    assert _with_repo(hall, lambda repo: repo.call_time(forty, 1)) == []
    _with_repo(hall, lambda repo: repo.set_time_called(forty, 1, 3))
    page.reload()
    expect(page.locator("#banner")).to_contain_text("Time called · 桌 tables 3")
    page.screenshot(path=str(shots / "tournament-projector-time-called.png"))


def _with_repo(hall: Any, f: Any) -> Any:
    """``f(repository)`` on the running hall's database."""
    from majiang.store import Database
    from majiang.tournament.adapters.repository import TournamentRepository

    db = Database(f"sqlite:///{hall.log.parent / 'hall.db'}")
    try:
        return f(TournamentRepository(db))
    finally:
        db.dispose()


def test_the_standings_fit_a_phone(forty: str, new_page: Any, shots: Path) -> None:
    page = new_page(*PHONE)
    page.goto(f"/tournaments/{forty}")
    expect(page.locator("body")).to_contain_text("个人名次")
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(shots / "tournament-phone-standings-40.png"))
    assert width <= PHONE[0], f"horizontal scrolling: {width}px"


def _confirm_by_api(hall: Any, link: dict[str, Any], seats: tuple[int, ...]) -> None:
    """The other seats confirm the waiting entry from their own phones (their PINs), by the API."""
    import httpx

    api = link["url"].replace("/tournaments/", "/api/tournaments/", 1)
    for seat in seats:
        headers = {"X-Table-Pin": link["pins"][seat], "X-Device": f"phone-{seat}"}
        pending = httpx.get(api, headers=headers, timeout=10).json()["pending"]
        r = httpx.post(f"{api}/confirm", json={"seat": seat, "id": pending["id"]}, headers=headers, timeout=10)
        r.raise_for_status()


def test_fans_are_found_by_chinese_pinyin_initials_and_english_and_summed(
    event: Any, new_page: Any, hall: Any, shots: Path
) -> None:
    """Was: the phone had only a number field for the fan total (the fans' names were a calculator away)."""
    link = event["table"]
    east = _open(new_page, link, 0)
    east.click("button[data-pick='winner:0']")
    east.click("button[data-pick='discarder:2']")
    east.fill("#fan-search", "qys")  # pinyin initials
    expect(east.locator("#fan-results button").first).to_have_attribute("data-fan", "清一色")
    east.click("button[data-fan='清一色']")
    expect(east.locator("button[data-chip='清一色']")).to_contain_text("24")
    east.fill("#fan-search", "all chows")  # English
    east.click("button[data-fan='平和']")
    east.fill("#fan-search", "幺九")  # Chinese
    east.click("button[data-fan='幺九刻']")
    east.fill("#fan-search", "yjk")
    east.click("button[data-fan='幺九刻']")  # twice
    expect(east.locator("button[data-chip='幺九刻']")).to_contain_text("×2")
    east.fill("#fan-search", "flower")  # 花牌 goes in the flowers field
    east.click("button[data-fan='花牌']")
    expect(east.locator("#points")).to_have_value("28")
    expect(east.locator("#flowers")).to_have_value("1")
    expect(east.locator("#fan-total")).to_contain_text("28 番 + 1 花 = 29")
    east.click("button[data-chip='平和']")  # a tap on a chip takes the fan away
    expect(east.locator("#points")).to_have_value("26")
    _fits_a_phone(east)
    east.screenshot(path=str(shots / "tournament-phone-fans.png"), full_page=True)
    east.click("#propose")
    expect(east.locator("#pending")).to_contain_text("清一色 幺九刻 幺九刻")
    expect(east.locator("#pending")).to_contain_text("26 番")
    _confirm_by_api(hall, link, (1, 2, 3))
    expect(east.locator("#progress")).to_contain_text("1/16", timeout=STEP_MS)  # the next poll
    # 26 + 1 flower from West, 8 from the others: 500 + 27 + 3 × 8
    expect(east.locator("#scores")).to_contain_text("551")
    # below the minimum the phone says what it will be recorded as
    east.click("button[data-pick='winner:1']")
    east.fill("#fan-search", "ph")
    east.click("button[data-fan='平和']")
    expect(east.locator("#fan-total")).to_contain_text("错和")


def test_a_redraw_while_typing_keeps_the_field_focused_and_what_is_typed(event: Any, new_page: Any, hall: Any) -> None:
    """Was: a redraw of the page (here the referee's time call, seen at the next poll) dropped the focus:
    the phone's keyboard closed and the next letters went nowhere (CI: ``qys`` typed while the fan list
    arrived found nothing); a penalty's points typed but not yet added went back to 0."""
    link = event["table"]
    east = _open(new_page, link, 0)
    east.click("button[data-pick='winner:0']")
    east.click("button[data-pick='discarder:2']")
    east.fill("#pen-points", "5")
    east.select_option("#pen-code", "late")
    east.click("#fan-search")
    east.keyboard.type("q")
    expect(east.locator("#fan-search")).to_have_value("q")
    assert _with_repo(hall, lambda repo: repo.call_time(event["id"], 1)) == [1, 2, 3, 4]
    expect(east.locator("#time-call")).to_contain_text("时间到 Time called", timeout=STEP_MS)  # redrawn
    east.keyboard.type("ys")
    expect(east.locator("#fan-search")).to_have_value("qys")
    expect(east.locator("#fan-results button").first).to_have_attribute("data-fan", "清一色")
    expect(east.locator("#pen-points")).to_have_value("5")
    expect(east.locator("#pen-code")).to_have_value("late")


def test_the_phones_show_the_clock_and_the_time_call(event: Any, new_page: Any, hall: Any, shots: Path) -> None:
    """Was: no clock on the phones, and a time call hid the form even for the hand in play (第六条: that
    hand is finished and entered; no new hand starts)."""
    link = event["table"]
    _with_repo(hall, lambda repo: repo.start_clock(event["id"], 1, minutes=60, warn=5))
    east = _open(new_page, link, 0)
    expect(east.locator("#clock")).to_have_text(re.compile(r"剩余 Time left (1:00:00|0:59:\d\d)"))
    expect(east.locator("#time-call")).to_have_count(0)
    assert _with_repo(hall, lambda repo: repo.call_time(event["id"], 1)) == [1, 2, 3, 4]
    banner = east.locator("#time-call")
    expect(banner).to_contain_text("时间到 Time called", timeout=STEP_MS)  # the next poll
    expect(banner).to_contain_text("Finish hand 1 (in play)")
    expect(east.locator("#clock")).to_have_text("时间到 Time called")  # not the time left any more
    expect(east.locator("#propose")).to_contain_text("Enter hand 1")
    _fits_a_phone(east)
    east.screenshot(path=str(shots / "tournament-phone-time-called.png"), full_page=True)
    east.click("button[data-pick='winner:0']")
    east.click("button[data-pick='discarder:-1']")
    east.fill("#points", "8")
    east.click("#propose")
    expect(east.locator("#pending")).to_contain_text("自摸")
    _confirm_by_api(hall, link, (1, 2, 3))
    expect(east.locator("#progress")).to_contain_text("1/16", timeout=STEP_MS)
    expect(banner).to_contain_text("No new hand: the session is scored as it stands")
    expect(east.locator("#propose")).to_have_count(0)
    expect(east.locator("#hand-head")).to_have_count(0)


def test_a_players_page_from_the_standings_on_a_phone(forty: str, new_page: Any, shots: Path) -> None:
    """Was: no page per player (his tables, opponents, scores, and what decided his rank)."""
    page = new_page(*PHONE)
    page.goto(f"/tournaments/{forty}")
    page.locator("a.player").first.click()  # the leader: 539 at table 9, East
    expect(page.locator("#rank")).to_contain_text("第 1 名 / 40")
    session = page.locator("section[data-session='1']")
    expect(session).to_contain_text("第9桌 T9 · 东 E")
    expect(session).to_contain_text("539 · 第1位")
    expect(page.locator("#tie")).to_have_count(0)  # nobody level with him
    _fits_a_phone(page)
    session.locator("li a").first.click()  # South of table 9: 490, level with 17 others on everything
    expect(page.locator("#tie")).to_contain_text("并列")
    expect(page.locator("section[data-session='1']")).to_contain_text("490")
    _fits_a_phone(page)
    page.screenshot(path=str(shots / "tournament-phone-player.png"), full_page=True)
