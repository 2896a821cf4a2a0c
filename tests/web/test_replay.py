"""The replay viewer: #replay/<id> steps through a finished hand with every hand face up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .pace import STEP_MS

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def test_replay_viewer(page: Any, hall: Any, shots: Path) -> None:
    hand_id = hall.play_hand_over_ws()
    data = hall.get(f"/api/hands/{hand_id}")
    n = len(data["events"])
    page.goto(f"/#replay/{hand_id}")
    expect(page.locator("#replay-log li")).to_have_count(n)
    expect(page.locator("#replay-pos")).to_have_text(f"0 / {n}")
    for _ in range(3):
        page.click("#replay-step")
    expect(page.locator("#replay-pos")).to_have_text(f"3 / {n}")  # hand_start, dice, deal
    # every seat's concealed tiles are face up (the hand is over, its seed revealed)
    for r in range(4):
        expect(page.locator(f".strip.pos{r} .concealed img.tile:not(.back)").first).to_be_visible()
    assert page.locator(".strip .concealed img.back").count() == 0
    page.click("#replay-back")
    expect(page.locator("#replay-pos")).to_have_text(f"2 / {n}")
    # play runs by itself, pause stops it
    page.click("#replay-play")
    page.wait_for_function(
        "() => parseInt(document.querySelector('#replay-pos').textContent, 10) >= 6", timeout=STEP_MS
    )  # play advanced by itself
    page.click("#replay-play")
    stopped = page.locator("#replay-pos").inner_text()
    page.wait_for_timeout(900)  # longer than one tick at 1×: the position must not move while paused
    expect(page.locator("#replay-pos")).to_have_text(stopped)
    # jump into the middle with the log, then to the end: the result with its coins
    page.locator("#replay-log li").nth(n * 2 // 3).click()
    expect(page.locator("#replay-pos")).to_have_text(f"{n * 2 // 3 + 1} / {n}")
    expect(page.locator(".pond .tile").first).to_be_visible()
    page.screenshot(path=str(shots / "replay.png"))
    page.click("#replay-end")
    expect(page.locator("#replay-pos")).to_have_text(f"{n} / {n}")
    result = page.locator("#replay-result .replay-result")
    expect(result).to_be_visible()
    if data["result"]["win"]:
        expect(result.locator(".fans tr")).to_have_count(len(data["result"]["win"]["fans"]))
    expect(result.locator(".seats-result tbody tr")).to_have_count(4)


def test_replay_of_unknown_hand(page: Any) -> None:
    page.goto("/#replay/987654")
    expect(page.locator(".form-error")).to_contain_text("987654")
