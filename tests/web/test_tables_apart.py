"""Tables kept apart in a real browser: a table left mid-hand stays away from the next one; a
spectator arriving mid-hand sees the whole public table; reopening the page mid-hand goes straight
back to the table with the open prompt."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from .pace import STEP_MS

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def _table_id(page: Any) -> str:
    text = page.locator(".table-card").inner_text()
    m = re.search(r"#([0-9a-fp]+)", text)
    assert m, text
    return m.group(1)


def _sit_with_bots(page: Any) -> str:
    page.locator(".room-card[data-room=fast] button.quick").click()
    page.click("#add-bots")
    page.wait_for_selector("#your-turn")  # hand 1: we are the dealer, our turn comes at once
    return _table_id(page)


def _statement(hall: Any, token: str) -> list[dict[str, Any]]:
    import httpx

    r = httpx.get(hall.base + "/api/me/statement", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    r.raise_for_status()
    return list(r.json()["entries"])


def _finished(hall: Any, token: str, hand: int) -> bool:
    import httpx

    r = httpx.get(f"{hall.base}/api/hands/{hand}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return r.status_code == 200


def test_leaving_mid_hand_then_sitting_elsewhere(new_page: Any, signup: Any, hall: Any) -> None:
    page = new_page()
    signup(page, "apart")
    token = page.evaluate("localStorage.getItem('majiang.token')")
    a_id = _sit_with_bots(page)
    page.click("#stand")
    page.click("#confirm-ok")  # the escape's confirmation (in the page)
    page.wait_for_selector(".room-card")
    # every result dialog the page ever shows, by the hand it names
    page.evaluate(
        """() => { window.__results = [];
        new MutationObserver(() => { const a = document.querySelector('#replay-link');
          if (a && !window.__results.includes(a.getAttribute('href'))) window.__results.push(a.getAttribute('href')); })
        .observe(document.body, { childList: true, subtree: true }); }"""
    )
    b_id = ""
    deadline = time.monotonic() + STEP_MS / 1000  # the watchdog of a seat never freed
    while not b_id and time.monotonic() < deadline:  # the seat at A is freed a moment after the stand
        page.locator(".room-card[data-room=fast] button.quick").click()
        page.wait_for_timeout(300)
        if page.locator("#add-bots").count() or page.locator("#your-turn").count():
            b_id = _table_id(page)
    assert b_id and b_id != a_id
    page.click("#add-bots")
    page.wait_for_selector("#your-turn")
    # B's first discard is ours (60 s); 托管 plays A out meanwhile — for the house, not for us (seed 001:
    # the escape's penalty is ours, A's result is not): hold B's prompt until A's hand is finished
    a_hand = next(e["hand"] for e in _statement(hall, token) if e["kind"] == "escape" and e["table"] == a_id)
    settled = False
    deadline = time.monotonic() + STEP_MS / 1000  # the watchdog of a hand that never settles
    while not settled:
        assert time.monotonic() < deadline, "A's hand did not settle"
        settled = _finished(hall, token, a_hand)
        if not settled:
            left = page.locator("#actionbar .countdown").inner_text() if page.locator("#your-turn").count() else ""
            if left and int(left.rstrip("s") or 0) <= 6:  # B's clock runs out before A ends: play on at B
                page.locator(".strip.pos0 .tile.playable").last.click()
            elif page.locator("#actionbar button[data-action=pass]").count():
                page.click("#actionbar button[data-action=pass]")
            page.wait_for_timeout(500)
    page.wait_for_timeout(1500)  # A's result would have reached the page by now
    shown = page.evaluate("window.__results")
    assert f"#replay/{a_hand}" not in shown, f"A's result was shown at B: {shown}"
    assert _table_id(page) == b_id
    expect(page.locator("#auto-toggle")).not_to_have_class(re.compile(r"\bon\b"))  # never timed out into 托管
    if not shown:  # B's hand still runs: our turn (if it was open) is still ours
        expect(page.locator("#result")).to_be_hidden()


def test_spectator_arriving_mid_hand_sees_the_table(new_page: Any, hall: Any) -> None:
    from websockets.sync.client import connect

    token = hall.post("/api/guest")["token"]
    url = hall.base.replace("http://", "ws://") + f"/ws?token={token}"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "quick_join", "room": "fast"}))
        table = seat = None
        mine = 0
        while True:  # discard three times, then hold our fourth turn (30 s) while the spectator comes
            m = json.loads(ws.recv(timeout=30))
            if m["type"] == "table" and "view" not in m:
                table, seat = m["table"]["id"], m["seat"]
                ws.send(json.dumps({"type": "add_bots"}))
            elif m["type"] == "prompt":
                discards = [a for a in m["legal"] if a["type"] == "discard"]
                if not discards:
                    ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": {"type": "pass"}}))
                    continue
                if mine == 3:
                    break
                mine += 1
                ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": discards[-1]}))
        page = new_page()
        page.goto("/")
        page.click("#guest")
        page.locator(".room-card[data-room=fast]").click()
        page.locator(f".table-row[data-table='{table}'] button").click()
        page.wait_for_selector(".table-card")
        expect(page.locator(".flag.auto", has_text="spectating")).to_be_visible()
        wall = page.locator(".wallcount .num")
        expect(wall).to_have_text(re.compile(r"^\d+$"))
        assert 0 < int(wall.inner_text()) < 144 - 53
        # the earlier discards, every seat's concealed tiles face down with their counts, the scores
        expect(page.locator(f".pond[data-seat='{seat}'] .tile")).to_have_count(3)
        for s in range(4):
            backs = page.locator(f".strip[data-seat='{s}'] .concealed .tile, .strip[data-seat='{s}'] .drawn .tile")
            assert backs.count() in (13, 14) or page.locator(f".strip[data-seat='{s}'] .melds .meld").count()
            expect(page.locator(f".plate[data-seat='{s}'] .score")).to_have_text(re.compile(r"^-?\d+$"))
        faces = page.locator(".strip .concealed img.tile[data-tile], .strip .drawn img.tile[data-tile]")
        assert faces.count() == 0  # never a concealed tile's face (exposed melds show theirs)
        expect(page.locator("#dice-line")).to_contain_text("+")
        ws.send(json.dumps({"type": "stand"}))


def test_reopening_the_page_mid_hand_goes_back_to_the_prompt(new_page: Any, signup: Any) -> None:
    page = new_page()
    signup(page, "reopen")
    _sit_with_bots(page)
    expect(page.locator(".pond[data-seat='0'] .tile")).to_have_count(0)
    page.wait_for_timeout(2000)  # so that a prompt that kept its deadline shows less than the full 60 s
    page.reload()  # the open prompt (our first discard) waits for us with the time it has left
    expect(page.locator("#your-turn")).to_be_visible()
    expect(page.locator(".pond .tile")).to_have_count(0)  # the server did not discard for us
    left = int(page.locator("#actionbar .countdown").inner_text().rstrip("s"))
    assert 0 < left < 60
    expect(page.locator("#auto-toggle")).not_to_have_class(re.compile(r"\bon\b"))
    # a new tab with the same login, opened at the lobby's address: straight to the table
    tab = page.context.new_page()
    tab.goto("/")
    expect(tab.locator("#your-turn")).to_be_visible()
    assert tab.evaluate("location.hash") == "#table"
    expect(tab.locator(".pond .tile")).to_have_count(0)
    expect(tab.locator("#reconnecting")).to_be_hidden()
    tab.locator(".strip.pos0 .tile.playable").last.click()  # the prompt is live: the discard is played
    expect(tab.locator(".pond[data-seat='0'] .tile")).to_have_count(1)
