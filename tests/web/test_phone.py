"""The client on a phone (390×844 portrait and 844×390 landscape, touch, 3× pixels): no horizontal
scrolling on any page, the header's balance and log-out on screen, own tiles at least 36 px wide,
buttons at least 40 px, and the result dialog without inner scrolling — playing a hand with bots.
And the language switch (中/EN → 中文 → English), remembered across a reload."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import PORTRAIT
from .pace import STEP_MS, next_step

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect
PlaywrightError = sync_api.Error
PlaywrightTimeout = sync_api.TimeoutError

LANDSCAPE = {"width": 844, "height": 390}
# every visible button-like thing smaller than a finger (40 px), as [label, width, height]
SMALL_BUTTONS = """() => [...document.querySelectorAll('button, a.btn, .act, .chow-choice')]
  .filter((b) => b.offsetParent && getComputedStyle(b).visibility !== 'hidden')
  .map((b) => { const r = b.getBoundingClientRect();
    return [b.id || b.className, Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, hh]) => w < 40 || hh < 40)"""


def screen_width(page: Any) -> int:
    """The phone's width (a mobile browser widens its layout viewport, innerWidth, to fit a page too wide)."""
    return int(page.viewport_size["width"])


def no_hscroll(page: Any, where: str) -> None:
    sw, iw = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    w = screen_width(page)
    assert sw <= w and iw <= w, f"{where}: the page is {sw} px wide (layout viewport {iw} px) on a {w} px screen"


def fingers(page: Any, where: str) -> None:
    small = page.evaluate(SMALL_BUTTONS)
    assert not small, f"{where}: buttons under 40 px: {small}"


ON_SCREEN = """([sel, width]) => {
  const e = document.querySelector(sel);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= width;
}"""


def on_screen(page: Any, selector: str) -> None:
    """Shown, and inside the screen's width.  Waited for in the page, in one measurement: the header
    fills in (and is drawn again) as the account arrives, so an element seen visible may be gone for
    a moment when measured separately (a busy machine caught that between two calls)."""
    expect(page.locator(selector)).to_be_visible()
    try:
        page.wait_for_function(ON_SCREEN, arg=[selector, screen_width(page)], timeout=10_000)
    except PlaywrightTimeout:
        box = page.locator(selector).bounding_box()
        raise AssertionError(f"{selector} is not inside the screen ({screen_width(page)} px): {box}") from None


def own_tiles(page: Any, where: str) -> None:
    """Every own concealed tile wide enough and inside the screen, measured in one snapshot (the hand
    re-renders as tiles are drawn and discarded, so measuring tile by tile can find one gone)."""
    expect(page.locator("#my-hand .concealed .tile").first).to_be_visible()
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#my-hand .concealed .tile')]
          .map((t) => { const r = t.getBoundingClientRect(); return [r.x, r.width]; })"""
    )
    assert boxes, f"{where}: no own tiles"
    narrowest = min(w for _, w in boxes)
    assert narrowest >= 36, f"{where}: own tiles {narrowest:.0f} px wide"
    iw = screen_width(page)
    for i, (x, w) in enumerate(boxes):
        assert x >= 0 and x + w <= iw + 0.5, f"{where}: tile {i} cut off ({x:.0f}+{w:.0f} > {iw})"


def result_fits(page: Any, where: str) -> None:
    result = page.locator("#result")
    sh, ch = result.evaluate("(r) => [r.scrollHeight, r.clientHeight]")
    assert sh <= ch + 1, f"{where}: the result dialog scrolls inside ({sh} > {ch})"
    box = result.bounding_box()
    vw, vh = screen_width(page), int(page.viewport_size["height"])
    inside = (
        box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= vw + 0.5 and box["y"] + box["height"] <= vh + 0.5
    )
    assert inside, f"{where}: the result dialog {box} is not within the {vw}×{vh} screen"
    no_hscroll(page, where)


def settled(page: Any, check: Callable[[], None], timeout: float = STEP_MS / 1000) -> None:
    """``check`` until it passes, failing with its own message after ``timeout`` s (the watchdog of
    tests/web/pace.py): a viewport change re-lays the page out and re-renders the table, which on a
    loaded machine takes longer than any fixed pause."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            check()
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            page.wait_for_timeout(100)


def try_tap(locator: Any) -> bool:
    try:
        locator.first.tap(timeout=1500)
        return True
    except PlaywrightError:
        return False


def test_phone_lobby_table_result(phone: Any, shots: Path) -> None:
    page = phone
    page.goto("/")
    no_hscroll(page, "login")
    page.tap("#guest")
    page.wait_for_selector(".room-card")
    no_hscroll(page, "lobby")
    for sel in ["#balance", "#logout", "#lang-toggle", "#mute-toggle", ".account .who"]:
        on_screen(page, sel)
    # the name is one line, not one character per line
    assert page.locator(".account .who-name").bounding_box()["height"] < 30
    fingers(page, "lobby")
    page.screenshot(path=str(shots / "phone-lobby.png"))

    page.locator(".room-card[data-room=fast] button.quick").tap()
    page.wait_for_selector("#add-bots")
    fingers(page, "table, waiting")
    page.tap("#add-bots")
    expect(page.locator("#my-hand .concealed .tile").first).to_be_visible()

    checked_turn = checked_claim = False
    while not page.locator("#result").is_visible():
        next_step(page, "#result, #actionbar .act, #my-hand .tile.playable")  # the table's next state
        if page.locator("#result").is_visible():
            break
        if page.locator("#actionbar .act[data-action=win]").count():
            try_tap(page.locator("#actionbar .act[data-action=win]"))
            continue
        if page.locator("#actionbar .act[data-action=pass]").count():
            if not checked_claim:
                fingers(page, "a claim prompt")
                checked_claim = True
            try_tap(page.locator("#actionbar .act[data-action=pass]"))
            continue
        playable = page.locator("#my-hand .tile.playable")
        if playable.count():
            if not checked_turn:
                no_hscroll(page, "table, portrait")
                own_tiles(page, "table, portrait")
                fingers(page, "table, our turn")
                expect(page.locator("#dock #your-turn")).to_be_visible()
                page.screenshot(path=str(shots / "phone-table.png"))
                page.set_viewport_size(LANDSCAPE)
                settled(page, lambda: no_hscroll(page, "table, landscape"))
                settled(page, lambda: own_tiles(page, "table, landscape"))
                settled(page, lambda: fingers(page, "table, landscape"))
                page.screenshot(path=str(shots / "phone-table-landscape.png"))
                page.set_viewport_size(PORTRAIT)
                page.wait_for_timeout(300)
                checked_turn = True
                continue
            drawn = page.locator("#my-hand .drawn .tile.playable")
            try_tap(drawn if drawn.count() else playable)
    assert checked_turn, "we never had a turn"
    # the dialog's pop-in animation (a scale: measured mid-way, a 40 px button reads 39) has ended
    page.wait_for_function(
        "() => { const r = document.querySelector('.result');"
        " return r && r.getAnimations().every((a) => a.playState === 'finished'); }"
    )
    result_fits(page, "result, portrait")
    fingers(page, "result")
    page.screenshot(path=str(shots / "phone-result.png"))
    page.set_viewport_size(LANDSCAPE)
    page.wait_for_timeout(300)
    if page.locator("#result").is_visible():  # (unless the next hand started meanwhile)
        settled(page, lambda: result_fits(page, "result, landscape"))
    page.set_viewport_size(PORTRAIT)

    page.goto("/#calc")
    page.tap("button[data-example='0']")
    expect(page.locator("#calc-total")).to_be_visible()
    no_hscroll(page, "calculator")
    page.goto("/#player/me")
    expect(page.locator("#recent-hands tbody tr").first).to_be_visible()
    no_hscroll(page, "player page")
    page.set_viewport_size(LANDSCAPE)
    settled(page, lambda: no_hscroll(page, "player page, landscape"))
    # leave the table so it ends with its last human
    page.goto("/#table")
    page.tap("#stand")
    page.wait_for_function("() => location.hash === '#lobby' || !!document.getElementById('confirm-ok')")
    if page.locator("#confirm-ok").count():  # the in-page escape warning (not the native confirm())
        on_screen(page, "#confirm-ok")
        page.tap("#confirm-ok")
    page.wait_for_url("**/#lobby")


def test_language_toggle_is_remembered(page: Any) -> None:
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector(".room-card")
    nav = page.locator("#nav a[data-route=lobby]")
    expect(nav.locator(".zh")).to_be_visible()  # both languages by default
    expect(nav.locator(".en")).to_be_visible()
    page.click("#lang-toggle")
    expect(page.locator("#lang-toggle")).to_have_attribute("data-lang", "zh")
    expect(nav.locator(".en")).to_be_hidden()
    page.click("#lang-toggle")
    expect(page.locator("#lang-toggle")).to_have_attribute("data-lang", "en")
    expect(nav.locator(".zh")).to_be_hidden()
    expect(nav.locator(".en")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.reload()
    page.wait_for_selector(".room-card")
    expect(page.locator("body")).to_have_attribute("data-lang", "en")
    expect(nav.locator(".zh")).to_be_hidden()
    expect(nav.locator(".en")).to_have_text("Lobby")
    expect(page.locator(".room-card[data-room=fast] .room-name .zh")).to_be_hidden()
    # fan names keep both languages in the calculator
    page.goto("/#calc")
    page.click("button[data-example='1']")
    row = page.locator("#calc-fans tr[data-fan='Full Flush']")
    expect(row.locator("td.zh")).to_have_text("清一色")
    expect(row.locator("td.zh")).to_be_visible()


def test_a_tap_on_a_seat_shows_its_pond_and_melds_readably(phone: Any, shots: Path) -> None:
    """Was: on a phone the other seats' discards were unreadable — the 1280-wide stage scaled down, pond and
    meld tiles 6–17 px wide, no tap to enlarge.  A tap on a seat's pond (or plate, or melds) opens them
    at a readable size, the last discard marked."""
    page = phone
    page.goto("/")
    page.tap("#guest")
    page.wait_for_selector(".room-card")
    page.locator(".room-card[data-room=fast] button.quick").tap()
    page.wait_for_selector("#add-bots")
    page.tap("#add-bots")
    pond = page.locator(".pond.pos1")
    while pond.locator(".tile").count() < 2:  # the right-hand seat has discarded twice
        next_step(page, "#result, #actionbar .act, #my-hand .tile.playable")
        if page.locator("#actionbar .act[data-action=pass]").count():
            try_tap(page.locator("#actionbar .act[data-action=pass]"))
        elif page.locator("#my-hand .tile.playable").count():
            try_tap(page.locator("#my-hand .tile.playable").last)
        if page.locator("#result").is_visible():
            pytest.fail("the hand ended before the right-hand seat discarded twice")
    # read in one go: the stage is redrawn after every event
    size = page.evaluate(
        "(() => { const r = document.querySelector('.pond.pos1 .tile').getBoundingClientRect();"
        " return Math.max(r.width, r.height); })()"
    )
    assert size < 24, f"the stage's pond tile is {size:.0f} px: nothing to enlarge"
    pond.tap()
    detail = page.locator("#seat-detail")
    expect(detail).to_be_visible()
    widths = [b["width"] for b in (t.bounding_box() for t in detail.locator("#seat-detail-pond .tile").all())]
    assert len(widths) >= 2 and min(widths) >= 24, widths
    on_screen(page, "#seat-detail-close")
    no_hscroll(page, "seat detail")
    page.screenshot(path=str(shots / "phone-seat-detail.png"))
    page.tap("#seat-detail-close")
    expect(detail).to_have_count(0)
