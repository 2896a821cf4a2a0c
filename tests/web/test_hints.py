"""听牌 hints at the table, from crafted table messages: the 听 button asks
POST /api/shanten about our own hand with only what this seat sees; the panel lists the waits, how
many of each are unseen, their fans and which reach 8; on our turn with one tile more, the discards
that keep the hand ready (highlighted on request); a complete hand under 8 fan says so.  The
rendering from stubbed answers (page.route), then live calls to the real server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

ROOM = {
    "id": "fast",
    "name": "快速场 Fast",
    "rules": "gb",
    "coefficient": 10,
    "fee": 5,
    "next_hand_s": 6,
    "spectate_delay_s": 0,
    "escape_penalty": 0,
    "timer_values": {"action": 15, "claim": 3, "first_discard": 30},
}
# 23m 123p 456p 789s 11s: ready on 1m (花龙: 13 fan on a discard) and 4m (5 fan, 7 self-drawn)
READY = ["2m", "3m", "1p", "2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "1s"]


def seat(name: str, bot: bool = False) -> dict[str, Any]:
    return {"name": name, "bot": bot, "auto": False, "online": True, "account": 0}


def view(hand: list[str], phase: str, current: int, drawn: str | None = None) -> dict[str, Any]:
    """Seen from seat 0 (the dealer is seat 1, so we are North): 1m in 下家's pond, 4m in 对家's chow
    and in 上家's pond, and 对家's concealed kong face down (hidden: never in the query)."""
    return {
        "seat": 0,
        "rules": "gb",
        "hand_no": 1,
        "dealer": 1,
        "prevalent": "E",
        "seat_wind": "N",
        "phase": phase,
        "current": current,
        "wall": 60,
        "scores": [500] * 4,
        "hand": hand,
        "drawn": drawn,
        "seats": [
            {
                "seat": 0,
                "melds": [],
                "discards": ["N"],
                "claimed": [False],
                "flowers": [],
                "concealed_count": len(hand),
            },
            {
                "seat": 1,
                "melds": [],
                "discards": ["1m", "C"],
                "claimed": [False, False],
                "flowers": [],
                "concealed_count": 13,
            },
            {
                "seat": 2,
                "melds": [
                    {"kind": "chow", "tiles": ["3m", "4m", "5m"], "concealed": False, "claimed": 1},
                    {"kind": "kong", "tiles": [None] * 4, "concealed": True},
                ],
                "discards": ["9p"],
                "claimed": [False],
                "flowers": [],
                "concealed_count": 4,
            },
            {
                "seat": 3,
                "melds": [],
                "discards": ["4m", "3p"],
                "claimed": [False, True],
                "flowers": [],
                "concealed_count": 13,
            },
        ],
        "pending": None,
        "legal": [],
        "seed_hash": "cd" * 32,
    }


def emit(page: Any, kind: str, msg: dict[str, Any]) -> None:
    page.evaluate(f"window.mj.conn.emit({json.dumps(kind)}, {json.dumps({'type': kind, **msg})})")


def at_table(page: Any, hand: list[str], phase: str = "claim", current: int = 3, drawn: str | None = None) -> None:
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector(".room-card")
    page.evaluate("() => { window.__sent = []; window.mj.conn.send = (m) => { window.__sent.push(m); return true; }; }")
    table = {
        "id": "t9",
        "room": "fast",
        "private": False,
        "state": "playing",
        "hands": 1,
        "spectators": 0,
        "seats": [seat("me"), seat("fan-bot-1", True), seat("fan-bot-2", True), seat("fan-bot-3", True)],
    }
    emit(
        page,
        "table",
        {
            "table": table,
            "seat": 0,
            "room": ROOM,
            "chat": [],
            "hand": 7,
            "view": view(hand, phase, current, drawn),
            "events": [],
        },
    )
    page.wait_for_selector(".stage")
    expect(page.locator("#hints-card")).to_be_visible()


def turn_prompt(page: Any, hand: list[str], drawn: str) -> None:
    legal = [{"type": "discard", "tile": t} for t in sorted(set(hand))]
    emit(
        page,
        "prompt",
        {"seq": 5, "hand": 7, "legal": legal, "timeout_ms": 15000, "view": view(hand, "turn", 0, drawn=drawn)},
    )


def stub(page: Any, path: str, answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Answer POST `path` with `answer`; returns the list the requests' bodies are collected in."""
    asked: list[dict[str, Any]] = []

    def handle(route: Any) -> None:
        asked.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route(f"**{path}", handle)
    return asked


def test_waits_rendered_from_the_answer(new_page: Any) -> None:
    page = new_page()
    at_table(page, READY)
    asked = stub(
        page,
        "/api/shanten",
        {
            "shanten": 0,
            "waits": ["1m", "4m"],
            "min_fan": 8,
            "fan_shanten": 0,
            "wait_fans": [
                {"tile": "1m", "discard": 13, "self_drawn": 15},
                {"tile": "4m", "discard": 5, "self_drawn": 7},
            ],
            "legal_waits": ["1m"],
            "self_drawn_waits": [],
        },
    )
    page.click("#hint-btn")
    waits = page.locator("#hint-waits li.wait")
    expect(waits).to_have_count(2)
    one, four = page.locator("#hint-waits li[data-tile='1m']"), page.locator("#hint-waits li[data-tile='4m']")
    expect(one).to_have_class(re.compile(r"\blegal\b"))
    expect(one).to_have_attribute("data-unseen", "3")  # one 1m in 下家's pond
    expect(one).to_contain_text("13")
    expect(four).to_have_class(re.compile(r"\bshort\b"))
    expect(four).to_have_attribute("data-unseen", "2")  # 对家's chow and 上家's pond
    expect(page.locator("#hints-status")).to_contain_text("1 种够 8 番")
    # the query: our hand and what anyone at the table can see — no hidden tile
    body = asked[-1]
    assert body["hand"] == sorted(READY, key=READY.index) or sorted(body["hand"]) == sorted(READY)
    assert body["melds"] == []
    assert sorted(body["visible"]) == sorted(["N", "1m", "C", "9p", "4m", "3m", "4m", "5m"])  # 3p was claimed
    assert None not in body["visible"]
    assert (body["seat_wind"], body["prevalent_wind"], body["rules"], body["min_fan"]) == ("N", "E", "gb", 8)


def test_discards_that_keep_the_hand_ready(new_page: Any, shots: Path) -> None:
    page = new_page()
    hand = sorted([*READY, "5m"])
    at_table(page, hand, "turn", 0, drawn="5m")
    turn_prompt(page, hand, "5m")
    stub(
        page,
        "/api/shanten",
        {
            "shanten": 0,
            "waits": ["1m", "4m"],
            "min_fan": 8,
            "fan_shanten": 0,
            "fan_discards": [
                {
                    "discard": "5m",
                    "fan_shanten": 0,
                    "exact": True,
                    "shanten": 0,
                    "unseen": 5,
                    "legal_unseen": 3,
                    "wait_fans": [
                        {"tile": "1m", "discard": 13, "self_drawn": 15},
                        {"tile": "4m", "discard": 5, "self_drawn": 7},
                    ],
                    "legal_waits": ["1m"],
                },
                {
                    "discard": "2m",
                    "fan_shanten": 1,
                    "exact": True,
                    "shanten": 0,
                    "unseen": 2,
                    "legal_unseen": 0,
                    "wait_fans": [{"tile": "4m", "discard": 6, "self_drawn": 8}],
                    "legal_waits": [],
                },
                {"discard": "1p", "fan_shanten": 1, "exact": False, "shanten": 1, "unseen": 17, "legal_unseen": 0},
            ],
        },
    )
    page.click("#hint-btn")
    keeps = page.locator("#hint-keeps .keep")
    expect(keeps).to_have_count(2)
    expect(page.locator("#hint-keeps .keep[data-discard='5m'] li.wait.legal")).to_have_count(1)
    expect(page.locator("#hint-keeps .keep[data-discard='2m'] li.wait.selfonly")).to_have_count(1)  # 8 only self-drawn
    expect(page.locator(".strip.pos0 .tile.keeps-ready")).to_have_count(0)  # highlighted only on request
    page.click("#hint-mark")
    marked = page.locator(".strip.pos0 .tile.keeps-ready")
    expect(marked).to_have_count(2)
    assert sorted(marked.evaluate_all("(els) => els.map((e) => e.dataset.tile)")) == ["2m", "5m"]
    page.screenshot(path=str(shots / "hints-discards.png"))
    # discarding ends the turn: the marks go
    page.locator(".strip.pos0 .tile.playable[data-tile='5m']").first.click()
    expect(page.locator(".strip.pos0 .tile.keeps-ready")).to_have_count(0)


def test_live_ready_after_our_discard_and_complete_under_8(new_page: Any, shots: Path) -> None:
    page = new_page()
    # our turn with 14 tiles that are already complete — but only 7 fan self-drawn (under 8: no win)
    hand = sorted([*READY, "4m"])
    at_table(page, hand, "turn", 0, drawn="4m")
    turn_prompt(page, hand, "4m")
    page.click("#hint-btn")
    status = page.locator("#hints-status")
    expect(status).to_contain_text("only 7 fan", timeout=20_000)
    expect(status).to_contain_text("不够 8 番")
    # we discard the 4m; the server's discard event comes back: after our own discard the hints are
    # asked once, by themselves, and shown since the hand is ready
    page.locator(".strip.pos0 .tile.playable[data-tile='4m']").first.click()
    emit(page, "events", {"hand": 7, "events": [{"type": "discard", "seat": 0, "tile": "4m"}]})
    waits = page.locator("#hint-waits li.wait")
    expect(waits).to_have_count(2, timeout=20_000)
    expect(page.locator("#hint-waits li[data-tile='1m']")).to_have_attribute("data-fan", "13")
    expect(page.locator("#hint-waits li[data-tile='1m']")).to_have_class(re.compile(r"\blegal\b"))
    # the other three 4m are in sight now (对家's chow, 上家's pond, our discard): the last one scores
    # 和绝张 (4) on top of the 5 — 9 fan, ready
    four = page.locator("#hint-waits li[data-tile='4m']")
    expect(four).to_have_attribute("data-unseen", "1")
    expect(four).to_have_attribute("data-fan", "9")
    expect(four).to_have_class(re.compile(r"\blegal\b"))
    page.screenshot(path=str(shots / "hints.png"))
