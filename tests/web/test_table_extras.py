"""The table's display extras, from crafted events: the dice at the start of a
hand, each seat's flowers counted on its plate, Nanchang's jing marked wherever they lie, a fresh
meld's pop-in, and the synthesized sounds with a mute switch that is remembered."""

from __future__ import annotations

import json
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

ROOM = {
    "id": "nanchang",
    "name": "南昌场 Nanchang",
    "rules": "nanchang",
    "coefficient": 5,
    "fee": 2,
    "next_hand_s": 6,
    "spectate_delay_s": 0,
    "escape_penalty": 0,
    "timer_values": {"action": 15, "claim": 3, "first_discard": 30},
}
HAND = ["1m", "2m", "3m", "5p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "6s"]


def emit(page: Any, kind: str, msg: dict[str, Any]) -> None:
    page.evaluate(f"window.mj.conn.emit({json.dumps(kind)}, {json.dumps({'type': kind, **msg})})")


def seat(name: str, bot: bool = False) -> dict[str, Any]:
    return {"name": name, "bot": bot, "auto": False, "online": True, "account": 0}


def played(page: Any) -> list[str]:
    return list(page.evaluate("import('/static/js/sound.js').then((m) => m.played.slice())"))


def start(page: Any, login: bool = True, pause: bool = False) -> None:
    """The table with the hand's first events; ``pause``: the page's clock (installed by the caller)
    stands still from just before them, until the test moves it."""
    page.goto("/")
    if login:
        page.click("#guest")
    page.wait_for_selector(".room-card")
    page.evaluate("() => { window.mj.conn.send = () => true; }")
    table = {
        "id": "t5",
        "room": "nanchang",
        "private": False,
        "state": "playing",
        "hands": 0,
        "spectators": 0,
        "seats": [seat("me"), seat("rand-bot-1", True), seat("rand-bot-2", True), seat("rand-bot-3", True)],
    }
    emit(page, "table", {"table": table, "seat": 0, "room": ROOM, "chat": []})
    page.wait_for_selector(".stage")
    if pause:
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    emit(
        page,
        "events",
        {
            "hand": 3,
            "events": [
                {
                    "type": "hand_start",
                    "rules": "nanchang",
                    "dealer": 0,
                    "prevalent": "E",
                    "hand_no": 0,
                    "scores": [0, 0, 0, 0],
                    "seed_hash": "ef" * 32,
                },
                {"type": "dice", "dice": [3, 5]},
                {"type": "deal", "hands": [HAND, [], [], []], "counts": [13, 13, 13, 13]},
                {"type": "jing", "indicator": "4p", "zheng": "5p", "fu": "6p"},
                {"type": "flower", "seat": 2, "tile": "f1", "replacement": None},
                {"type": "flower", "seat": 2, "tile": "f5", "replacement": None},
            ],
        },
    )


def test_dice_flowers_jing_melds_and_sounds(new_page: Any) -> None:
    page = new_page()
    # the dice show for 3.5 s of the page's clock: the test holds it still, so a loaded machine that
    # renders or checks late cannot miss them, and moves it on to see them go
    page.clock.install()
    start(page, pause=True)
    expect(page.locator("#dice")).to_have_attribute("data-dice", "3,5")  # the dice of the hand start …
    expect(page.locator("#dice .die")).to_have_count(2)
    expect(page.locator(".plate.pos2 .flowers")).to_have_attribute("data-n", "2")  # 对家's two flowers
    expect(page.locator(".plate.pos2 .fl-n")).to_have_text("花 flowers 2")  # 中/EN: both
    expect(page.locator(".strip.pos0 .tile.jing-z")).to_have_count(2)  # 正精 5p ×2
    expect(page.locator(".strip.pos0 .tile.jing-f")).to_have_count(1)  # 副精 6p
    page.clock.run_for(3400)
    expect(page.locator("#dice")).to_have_count(1)
    page.clock.run_for(400)
    expect(page.locator("#dice")).to_have_count(0)  # … for 3.5 s only
    page.clock.resume()
    # a discard clicks; 下家's pung pops in with its call and a chime; our turn pings; a win chords
    emit(page, "events", {"hand": 3, "events": [{"type": "discard", "seat": 0, "tile": "C"}]})
    emit(page, "events", {"hand": 3, "events": [{"type": "pung", "seat": 1, "tile": "C", "from": 0}]})
    expect(page.locator(".strip.pos1 .meld.fresh")).to_have_count(1)
    expect(page.locator(".call.pos1")).to_have_attribute("data-call", "碰")
    emit(page, "prompt", {"seq": 2, "hand": 3, "legal": [{"type": "discard", "tile": "E"}], "timeout_ms": 9000})
    emit(page, "events", {"hand": 3, "events": [{"type": "discard", "seat": 1, "tile": "5p"}]})
    expect(page.locator(".pond.pos1 .tile.jing-z")).to_have_count(1)  # a jing in a pond is marked too
    emit(page, "events", {"hand": 3, "events": [{"type": "win", "seat": 2, "from": 1, "tile": "5p", "points": 4}]})
    assert played(page) == ["discard", "claim", "turn", "discard", "win"]
    # the mute switch: no sound while it is on, and it stays on after a reload
    page.click("#mute-toggle")
    expect(page.locator("#mute-toggle")).to_have_attribute("aria-pressed", "true")
    page.goto("/#lobby")
    page.reload()
    page.wait_for_selector(".room-card")
    expect(page.locator("#mute-toggle")).to_have_attribute("aria-pressed", "true")
    start(page, login=False)
    emit(page, "events", {"hand": 3, "events": [{"type": "discard", "seat": 0, "tile": "C"}]})
    assert played(page) == []
