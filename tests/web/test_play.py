"""A new player registers, sees the lobby, quick-joins a room, fills the table with bots and plays
whole hands by clicking (a dropped connection in the middle is restored); the result screen shows
the fans and the coin change, and the balance moves by exactly that much."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .pace import STEP_MS, next_step

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect
PlaywrightError = sync_api.Error

ACTIONABLE = "#result, button.act[data-action], .chow-choice, .strip.pos0 .tile.playable"


def balance(page: Any) -> int:
    return int(page.get_attribute("#balance", "data-balance"))


def try_click(locator: Any) -> bool:
    """Click if it is still there: a prompt can be withdrawn (another seat claimed first)."""
    try:
        locator.first.click(timeout=1500)
        return True
    except PlaywrightError:
        return False


def play_hand(page: Any, shots: Path, state: dict[str, Any]) -> None:
    """Answer every prompt by clicking until the result screen shows: 和 when offered, else 过,
    else discard the drawn tile (or the rightmost playable tile); each step waits for the table."""
    while not page.locator("#result").is_visible():
        next_step(page, ACTIONABLE)
        if page.locator("#result").is_visible():
            break
        if page.locator("button.act[data-action=win]").count():
            state["won_clicks"] = state.get("won_clicks", 0) + try_click(page.locator("button.act[data-action=win]"))
            continue
        if page.locator("button.act[data-action=pass]").count():
            try_click(page.locator("button.act[data-action=pass]"))
            continue
        playable = page.locator(".strip.pos0 .tile.playable")
        if playable.count():
            state["turns"] = state.get("turns", 0) + 1
            if state["turns"] == 5 and not state.get("mid_shot"):
                expect(page.locator("#your-turn")).to_be_visible()
                page.screenshot(path=str(shots / "table-mid-hand.png"))
                state["mid_shot"] = True
            if state["turns"] == 3 and not state.get("dropped"):
                reconnect(page)
                state["dropped"] = True
                continue
            drawn = page.locator(".strip.pos0 .drawn .tile.playable")
            try_click(drawn if drawn.count() else playable.last)


def reconnect(page: Any) -> None:
    """Drop the WebSocket as a network failure would: the client reconnects by itself, the server
    re-sends the table snapshot, and the player takes back the seat from 托管."""
    hand_tiles = page.locator(".strip.pos0 .concealed .tile").count()
    page.evaluate("() => { window.mj.conn.history = []; window.mj.conn.drop(); }")
    # the connection's own record of its states: until it says open again
    page.wait_for_function("() => window.mj.conn.history.includes('open')", timeout=STEP_MS)
    history = page.evaluate("window.mj.conn.history")
    assert history[0] == "waiting", history  # it was down (the banner said so) …
    expect(page.locator("#reconnecting")).to_be_hidden()  # … and is back
    expect(page.locator("body")).to_have_attribute("data-conn", "open")
    # the snapshot restores the table: our concealed hand is back on screen
    expect(page.locator(".strip.pos0 .concealed .tile").first).to_be_visible()
    assert page.locator(".strip.pos0 .concealed .tile").count() >= min(hand_tiles, 1)
    # and the seat is not left in 托管
    expect(page.locator("#auto-toggle")).not_to_have_class(re.compile(r"\bon\b"), timeout=10_000)


def test_register_lobby_quick_join_play(page: Any, signup: Any, hall: Any, shots: Path) -> None:
    name = signup(page, "player")
    # the lobby: rooms with N, A, entry limits, items badge, live counts
    # (the conftest's four; an event session opened by another test on this hall adds its own room)
    for room in ("fast", "items", "rich", "nanchang"):
        expect(page.locator(f".room-card[data-room={room}]")).to_have_count(1)
    fast = page.locator(".room-card[data-room=fast]")
    expect(fast.locator("dd.n")).to_have_text("×10")
    expect(fast.locator("dd.a")).to_have_text("5")
    expect(page.locator(".room-card[data-room=items] .badge.items")).to_be_visible()
    expect(fast.locator(".badge.noitems")).to_be_visible()
    expect(page.locator(".room-card[data-room=rich]")).to_have_class(re.compile("locked"))
    expect(page.locator("#lobby-balance")).to_have_text("10,000")
    start_balance = balance(page)
    assert start_balance == 10_000
    page.fill("#lobby-chat-input", "大家好 hello")
    page.click("#lobby-chat-send")
    expect(page.locator("#lobby-chat-log")).to_contain_text("大家好 hello")
    page.screenshot(path=str(shots / "lobby.png"))

    # quick-join, then fill the empty seats with bots
    fast.locator("button.quick").click()
    page.wait_for_url(re.compile("#table$"))
    expect(page.locator("#add-bots")).to_be_visible()
    expect(page.locator("#seat-list")).to_contain_text(name)
    page.click("#add-bots")
    expect(page.locator(".strip.pos0 .concealed .tile").first).to_be_visible()
    expect(page.locator("#seat-list .flag.bot")).to_have_count(3)

    state: dict[str, Any] = {}
    hands = 0
    win_seen = False
    while True:
        play_hand(page, shots, state=state)
        hands += 1
        result = page.locator("#result")
        expect(result.locator("#seats-result tbody tr")).to_have_count(4)
        expect(result.locator(".verify.ok")).to_be_visible()  # sha256(seed) == the hash shown at the start
        expect(result.locator("#seed-hash")).to_have_text(re.compile("^[0-9a-f]{64}$"))
        coins = int(result.locator("#my-coins").get_attribute("data-coins"))
        win = result.locator("#fans").count() > 0
        if win:
            assert result.locator("#fans tr.fan").count() >= 1
            total = int(result.locator("#fan-total").inner_text())
            assert total >= 8
            expect(result.locator("#fans")).to_contain_text(re.compile("[\u4e00-\u9fff]"))  # Chinese names
        if win or not win_seen:
            page.screenshot(path=str(shots / "result.png"))
        # the balance in the top bar moves by exactly the coin change shown
        before = start_balance
        expect(page.locator("#balance")).to_have_attribute("data-balance", str(before + coins))
        start_balance = before + coins
        replay_href = result.locator("#replay-link").get_attribute("href")
        assert result.locator("#review-link").get_attribute("href") == f"{replay_href}/review"
        win_seen = win_seen or win
        # one more hand if no one has won yet (fan bots win most hands)
        if win_seen or hands >= 2:
            break
        page.click("#close-result")
        expect(page.locator("#result")).to_be_hidden()
    assert state.get("dropped"), "the reconnect check did not run"

    # the player page counts the hands and links them to the replay viewer
    hand_id = int(replay_href.rsplit("/", 1)[1])
    page.click("#close-result")
    page.click("#nav-me")
    expect(page.locator("#stat-hands")).to_have_text(str(hands))
    expect(page.locator(f"#recent-hands tr[data-hand='{hand_id}'] a.replay-link")).to_have_attribute(
        "href", f"#replay/{hand_id}"
    )
    expect(page.locator(f"#recent-hands tr[data-hand='{hand_id}'] a.review-link")).to_have_attribute(
        "href", f"#replay/{hand_id}/review"
    )
    expect(page.locator("#stat-balance")).to_have_text(f"{start_balance:,}")
    page.screenshot(path=str(shots / "player.png"))
    leave_table(page)


def leave_table(page: Any) -> None:
    """Stand up (confirming the escape warning if a hand is on) so the table ends with its last human."""
    page.click("#nav-table")
    page.click("#stand")
    # the lobby at once, or first the in-page escape warning (not the browser's native confirm())
    page.wait_for_function("() => location.hash === '#lobby' || !!document.getElementById('confirm-ok')")
    if page.locator("#confirm-ok").count():
        page.click("#confirm-ok")
    page.wait_for_url(re.compile("#lobby$"))
