"""Between hands in the browser: a private table waits for a friend who comes with the
code later (public tables of its room fill with bots after 2 s), standing up while reading the result
costs nothing, the ready step's countdown with 准备 and 再来一局 starting the next hand, and 本局后离座
standing the player up at the hand's end without a penalty.

This hall's rooms file sets no ready step nor bot wait of its own: a rooms file's defaults (a 15 s ready
step, a 120 s wait before bots join a private table) are what is tested; next_hand_s 2 and
bot_fill_s 2 are what the old behaviour would have used."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Hall, pages, serve
from .pace import next_step

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect
PlaywrightError = sync_api.Error

ROOMS = """
[[room]]
id = "ready"
name = "准备场 Ready"
rules = "gb"
coefficient = 10
fee = 5
timers = "relaxed"
claim_window_s = 0.0
bots = "fan"
bot_fill_s = 300
next_hand_s = 2
spectate_delay_s = 0

[[room]]
id = "friends"
name = "好友场 Friends"
rules = "gb"
coefficient = 10
fee = 5
timers = "relaxed"
claim_window_s = 0.0
bots = "fan"
bot_fill_s = 2
next_hand_s = 2
"""


@pytest.fixture(scope="module")
def rhall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with serve(tmp_path_factory.mktemp("between"), ROOMS) as h:
        yield h
        assert h.get("/api/ledger/audit")["ok"]  # every coin of these hands balances


@pytest.fixture
def rpage(browser: Any, rhall: Hall) -> Iterator[Any]:
    with pages(browser, rhall) as make:
        yield make


def token(page: Any) -> str:
    return str(page.evaluate("localStorage.getItem('majiang.token')"))


def ledger(hall: Hall, page: Any) -> tuple[int, list[dict[str, Any]]]:
    auth = {"Authorization": f"Bearer {token(page)}"}
    me = httpx.get(hall.base + "/api/me", headers=auth, timeout=10).json()
    st = httpx.get(hall.base + "/api/me/statement?limit=200", headers=auth, timeout=10).json()
    return int(me["balance"]), list(st["entries"])


def click(locator: Any) -> bool:
    try:
        locator.first.click(timeout=1500)
        return True
    except PlaywrightError:
        return False


def play_hand(page: Any, during: Any = None) -> None:
    """Click through a hand until the result shows: 和 when offered, else 过, else the drawn tile;
    each step waits for the table."""
    while not page.locator("#result").is_visible():
        next_step(page, "#result, button.act[data-action], .strip.pos0 .tile.playable")
        if page.locator("#result").is_visible():
            break
        if during is not None:
            during()
            during = None
        for sel in ("button.act[data-action=win]", "button.act[data-action=pass]"):
            if page.locator(sel).count():
                click(page.locator(sel))
                break
        else:
            drawn = page.locator(".strip.pos0 .drawn .tile.playable")
            click(drawn if drawn.count() else page.locator(".strip.pos0 .tile.playable").last)


def sit_with_bots(page: Any) -> None:
    page.click(".room-card[data-room=ready] button.quick")
    page.wait_for_url(re.compile("#table$"))
    page.click("#add-bots")
    expect(page.locator(".strip.pos0 .concealed .tile").first).to_be_visible()


def leave(page: Any) -> None:
    """Stand up, confirming the escape warning in the page if a hand is on."""
    page.click("#nav-table")
    page.click("#stand")
    page.wait_for_function("() => location.hash === '#lobby' || !!document.getElementById('confirm-ok')")
    if page.locator("#confirm-ok").count():
        page.click("#confirm-ok")
    page.wait_for_url(re.compile("#lobby$"))


def test_a_friend_joins_a_private_table_with_the_code_later_and_gets_a_seat(rpage: Any, signup: Any) -> None:
    owner, friend = rpage(), rpage()
    owner_name, friend_name = signup(owner, "owner"), signup(friend, "friend")
    owner.click(".room-card[data-room=friends] .btn.ghost")
    owner.click("#create-private")
    owner.wait_for_url(re.compile("#table$"))
    code = owner.locator("#table-code b").inner_text()
    # the wait before bots join is long, and on the table for everyone (a rooms file's default: 120 s)
    expect(owner.locator("#bots-in")).to_contain_text(re.compile(r"1[01]\d 秒后机器人入座"))
    time.sleep(8)  # four times the room's bot_fill_s: a public table would be full of bots by now
    expect(owner.locator("#seat-list .flag.bot")).to_have_count(0)
    friend.fill("#join-code", code)
    friend.click("#join-code-btn")
    friend.wait_for_url(re.compile("#table$"))
    for p in (owner, friend):
        expect(p.locator("#seat-list")).to_contain_text(owner_name)
        expect(p.locator("#seat-list")).to_contain_text(friend_name)
    expect(friend.locator("#bots-in")).to_contain_text(re.compile(r"\d+ 秒后机器人入座"))
    # only the owner adds bots: one seat, then the rest
    expect(friend.locator("#add-bots")).to_have_count(0)
    expect(friend.locator(".seat-bot")).to_have_count(0)
    expect(owner.locator(".seat-bot")).to_have_count(2)
    owner.locator(".seat-bot").first.click()
    expect(friend.locator("#seat-list .flag.bot")).to_have_count(1)
    owner.click("#add-bots")
    for p in (owner, friend):
        expect(p.locator(".strip.pos0 .concealed .tile").first).to_be_visible()
        expect(p.locator("#seat-list .flag.bot")).to_have_count(2)
    for p in (owner, friend):
        leave(p)


def test_standing_up_while_reading_the_result_costs_nothing(rpage: Any, signup: Any, rhall: Hall) -> None:
    page = rpage()
    signup(page, "reader")
    start, _ = ledger(rhall, page)
    sit_with_bots(page)
    play_hand(page)
    coins = int(page.locator("#my-coins").get_attribute("data-coins"))
    time.sleep(4)  # reading the result: longer than the room's next_hand_s
    page.click("#stand")  # between hands: no escape warning (it would stop here, in the page)
    page.wait_for_url(re.compile("#lobby$"))
    balance, entries = ledger(rhall, page)
    assert balance == start + coins  # the hand's settlement, nothing else
    assert "escape" not in [e["kind"] for e in entries]
    assert [e["kind"] for e in entries].count("settle") == 1


def test_the_ready_countdown_and_play_again_start_the_next_hand(rpage: Any, signup: Any, shots: Path) -> None:
    page = rpage()
    signup(page, "again")
    sit_with_bots(page)
    play_hand(page)
    first_seed = page.locator("#seed-hash").inner_text()
    # the result dialog: 再来一局 and the server's countdown
    expect(page.locator("#play-again")).to_be_visible()
    expect(page.locator("#next-hand-in")).to_contain_text(re.compile(r"(\d+) 秒内准备"))
    page.screenshot(path=str(shots / "ready-step.png"))
    page.click("#close-result")
    # the ready bar: 准备, how many are ready, the countdown running down
    expect(page.locator("#ready-btn")).to_be_visible()
    expect(page.locator("#ready-bar")).to_contain_text("已准备 3/4")
    first = int(page.locator("#ready-countdown").inner_text().rstrip("s"))
    time.sleep(2.5)  # longer than next_hand_s: nothing starts while we are not ready
    later = int(page.locator("#ready-countdown").inner_text().rstrip("s"))
    assert 0 < later < first <= 15
    expect(page.locator("#ready-btn")).to_be_visible()
    t0 = time.monotonic()
    page.click("#ready-btn")
    expect(page.locator("#seed-hash-live")).not_to_have_text(first_seed[:16] + "…")
    expect(page.locator(".strip.pos0 .concealed .tile").first).to_be_visible()
    assert time.monotonic() - t0 < later  # started by the button, not by the countdown
    # one more hand, and 再来一局 from the result dialog
    play_hand(page)
    second_seed = page.locator("#seed-hash").inner_text()
    t0 = time.monotonic()
    page.click("#play-again")
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#seed-hash-live")).not_to_have_text(second_seed[:16] + "…")
    assert time.monotonic() - t0 < 12
    leave(page)


def test_leave_after_this_hand_stands_up_at_the_end_without_a_penalty(rpage: Any, signup: Any, rhall: Hall) -> None:
    page = rpage()
    signup(page, "leaver")
    start, _ = ledger(rhall, page)
    sit_with_bots(page)

    def ask() -> None:
        page.click("#leave-after")
        expect(page.locator("#leave-after")).to_have_attribute("aria-pressed", "true")

    play_hand(page, during=ask)
    coins = int(page.locator("#my-coins").get_attribute("data-coins"))
    expect(page.locator(".toast.info").last).to_contain_text("你已离座（不扣分）")
    expect(page.locator("#play-again")).to_have_count(0)  # no ready step for a player who left
    # the dialog itself says so, not only a passing toast (was: "下一局即将开始 next hand starting")
    expect(page.locator("#next-hand-in")).to_contain_text("你已离座")
    expect(page.locator("#next-hand-in")).not_to_contain_text("即将开始")
    expect(page.locator("#close-result")).to_contain_text("回大厅")
    page.click("#close-result")
    page.wait_for_url(re.compile("#lobby$"))
    balance, entries = ledger(rhall, page)
    assert balance == start + coins
    assert "escape" not in [e["kind"] for e in entries]
    # the seat is free: the player may sit at another table at once
    page.click(".room-card[data-room=ready] button.quick")
    page.wait_for_url(re.compile("#table$"))
    expect(page.locator("#add-bots")).to_be_visible()
    leave(page)
