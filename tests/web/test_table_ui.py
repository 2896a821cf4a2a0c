"""The table page drawn from crafted server messages (no game needed): melds in table manners,
ponds six to a row, and buttons for exactly the legal actions of a prompt."""

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


def seat(name: str, bot: bool = False) -> dict[str, Any]:
    return {"name": name, "bot": bot, "auto": False, "online": True, "account": 0}


def view(phase: str, current: int, pending: Any = None, drawn: Any = None) -> dict[str, Any]:
    hand = ["1m", "1m", "2p", "3p", "5p", "6p", "7s", "8s", "9s", "W"]
    if drawn:
        hand = [*hand, drawn]
    return {
        "seat": 0,
        "rules": "gb",
        "hand_no": 1,
        "dealer": 1,
        "prevalent": "E",
        "seat_wind": "N",
        "phase": phase,
        "current": current,
        "wall": 57,
        "scores": [480, 530, 495, 495],
        "hand": hand,
        "drawn": drawn,
        "seats": [
            {
                "seat": 0,
                "melds": [{"kind": "kong", "tiles": ["9m"] * 4, "concealed": True}],
                "discards": ["N", "S", "1p", "9p", "F", "2s", "7m", "E"],
                "claimed": [False] * 8,
                "moqie": [False, False, True, False, False, False, False, False],
                "flowers": ["f1", "f6"],
                "concealed_count": len(hand),
            },
            {
                "seat": 1,
                "melds": [
                    {"kind": "pung", "tiles": ["5p"] * 3, "concealed": False, "from": 1},
                    {"kind": "kong", "tiles": [None] * 4, "concealed": True},
                ],
                "discards": ["C", "4m", "8p"],
                "claimed": [False, True, False],
                "flowers": [],
                "concealed_count": 6,
            },
            {
                "seat": 2,
                "melds": [
                    {"kind": "kong", "tiles": ["E"] * 4, "concealed": False, "from": 2},
                    {"kind": "chow", "tiles": ["3s", "4s", "5s"], "concealed": False, "claimed": 1},
                ],
                "discards": ["P", "1s", "9s", "6m", "2m", "3m", "8m"],
                "claimed": [False] * 7,
                "flowers": ["f3"],
                "concealed_count": 7,
            },
            {
                "seat": 3,
                "melds": [{"kind": "kong", "tiles": ["C"] * 4, "concealed": False, "from": 3, "added": True}],
                "discards": ["7p", "4p"],
                "claimed": [False, False],
                "flowers": [],
                "concealed_count": 10,
            },
        ],
        "pending": pending,
        "legal": [],
        "seed_hash": "ab" * 32,
    }


def emit(page: Any, kind: str, msg: dict[str, Any]) -> None:
    page.evaluate(f"window.mj.conn.emit({json.dumps(kind)}, {json.dumps({'type': kind, **msg})})")


def sent(page: Any) -> list[dict[str, Any]]:
    return [m for m in page.evaluate("window.__sent") if m["type"] == "action"]


def test_table_manners_and_legal_actions(page: Any, shots: Path) -> None:
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector(".room-card")
    # from here on, what the page sends is recorded instead of reaching the server
    page.evaluate("() => { window.__sent = []; window.mj.conn.send = (m) => { window.__sent.push(m); return true; }; }")
    table = {
        "id": "t1",
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
            "view": view("claim", 3, pending={"seat": 3, "tile": "4p"}),
            "events": [],
        },
    )
    page.wait_for_selector(".stage")

    # melds: the claimed tile sideways — left from 上家, middle from 对家, right from 下家
    pung = page.locator(".strip.pos1 .meld[data-kind=pung] img")
    expect(pung.nth(0)).to_have_class("tile sm side claimed")
    expect(page.locator(".strip.pos1 .meld.concealed img.back")).to_have_count(4)  # others' 暗杠: face down
    kong = page.locator(".strip.pos2 .meld[data-kind=kong] img")
    expect(kong).to_have_count(4)
    expect(kong.nth(1)).to_have_class("tile sm side claimed")
    chow = page.locator(".strip.pos2 .meld[data-kind=chow] img")
    expect(chow.nth(0)).to_have_attribute("data-tile", "4s")  # the claimed 4s, laid sideways on the left
    expect(chow.nth(0)).to_have_class("tile sm side claimed")
    added = page.locator(".strip.pos3 .meld[data-kind=kong] > *")
    expect(added).to_have_count(3)
    expect(added.nth(2)).to_have_class("stack")  # 加杠: the fourth tile lies on the sideways one
    expect(page.locator(".strip.pos0 .meld.concealed img.back")).to_have_count(2)  # our own 暗杠: ends down
    # ponds: left to right, six to a row; a claimed discard is greyed
    pond = page.locator(".pond.pos0 img.tile")
    expect(pond).to_have_count(8)
    boxes = [pond.nth(i).bounding_box() for i in range(8)]
    assert all(abs(b["y"] - boxes[0]["y"]) < 2 for b in boxes[:6])
    assert all(boxes[i + 1]["x"] > boxes[i]["x"] for i in range(5))
    assert boxes[6]["y"] > boxes[0]["y"] + 20 and abs(boxes[6]["x"] - boxes[0]["x"]) < 2
    right = [page.locator(".pond.pos1 img.tile").nth(i).bounding_box() for i in range(3)]
    assert right[1]["y"] < right[0]["y"]  # 下家's row runs from their left (bottom) to their right (top)
    expect(page.locator(".pond.pos1 img.tile").nth(1)).to_have_class("tile sm taken")
    # 摸切 (the tile just drawn, thrown) a shade darker, and said in the title
    expect(pond.nth(2)).to_have_class("tile sm moqie")
    expect(pond.nth(2)).to_have_attribute("title", re.compile("摸切"))
    expect(page.locator(".pond img.tile.moqie")).to_have_count(1)
    # wall, winds, dealer, scores, flowers
    expect(page.locator(".wallcount .num")).to_have_text("57")
    expect(page.locator(".plate.pos1 .dealer .zh")).to_have_text("庄")  # 中/EN shows both: 庄 D
    expect(page.locator(".plate.pos0 .wind .zh")).to_have_text("北")
    expect(page.locator(".plate.pos2 .score")).to_have_text("495")
    expect(page.locator(".plate.pos0 .flowers img")).to_have_count(2)

    # a claim prompt: two chows (a choice), pung, kong, win, pass — and nothing else
    legal = [
        {"type": "win", "tile": "4p"},
        {"type": "chow", "tile": "4p", "tiles": ["2p", "3p", "4p"]},
        {"type": "chow", "tile": "4p", "tiles": ["3p", "4p", "5p"]},
        {"type": "pung", "tile": "4p"},
        {"type": "kong", "tile": "4p"},
        {"type": "pass"},
    ]
    emit(
        page,
        "prompt",
        {
            "seq": 41,
            "hand": 7,
            "legal": legal,
            "timeout_ms": 9000,
            "view": view("claim", 3, pending={"seat": 3, "tile": "4p"}),
        },
    )
    bar = page.locator("#actionbar")
    expect(bar.locator(".chow-choice")).to_have_count(2)
    expect(bar.locator("button.act")).to_have_count(4)
    for a in ["win", "pung", "kong", "pass"]:
        expect(bar.locator(f"button.act[data-action={a}]")).to_have_count(1)
    expect(bar.locator("button.act[data-action=pung]")).to_contain_text("碰")
    expect(bar.locator("button.act[data-action=pass]")).to_contain_text("过")
    expect(bar.locator("button.act[data-action=win]")).to_contain_text("和")
    expect(bar.locator(".countdown")).to_have_text(re.compile(r"^[1-9]s$"))  # counting down from 9 s
    expect(page.locator(".strip.pos0 .tile.playable")).to_have_count(0)  # no discarding during a claim
    page.screenshot(path=str(shots / "table-claim.png"))
    bar.locator(".chow-choice").nth(1).click()
    assert sent(page)[-1] == {"type": "action", "seq": 41, "action": legal[2], "table": "t1"}
    expect(page.locator("#actionbar")).to_have_count(0)

    # our turn: 自摸, 暗杠 and 加杠 buttons, and a click on a tile discards it
    turn = [
        {"type": "win", "tile": "W"},
        {"type": "concealed_kong", "tile": "1m"},
        {"type": "added_kong", "tile": "5p"},
    ] + [{"type": "discard", "tile": t} for t in ["1m", "2p", "3p", "5p", "6p", "7s", "8s", "9s", "W"]]
    emit(page, "prompt", {"seq": 42, "hand": 7, "legal": turn, "timeout_ms": 15000, "view": view("turn", 0, drawn="W")})
    expect(bar.locator("button.act")).to_have_count(3)
    expect(bar.locator("button.act[data-action=win]")).to_contain_text("自摸")
    expect(bar.locator("button.act[data-action=concealed_kong]")).to_contain_text("暗杠")
    expect(bar.locator("button.act[data-action=added_kong]")).to_contain_text("加杠")
    expect(page.locator(".strip.pos0 .drawn img")).to_have_attribute("data-tile", "W")  # the drawn tile apart
    expect(page.locator(".strip.pos0 .tile.playable")).to_have_count(11)
    page.locator(".strip.pos0 .concealed .tile.playable[data-tile='7s']").click()
    assert sent(page)[-1] == {"type": "action", "seq": 42, "action": {"type": "discard", "tile": "7s"}, "table": "t1"}
    # an illegal reply keeps the prompt open
    emit(page, "error", {"code": "illegal", "message": "not now", "seq": 42})
    expect(page.locator(".strip.pos0 .tile.playable")).to_have_count(11)
    # 托管 toggles through the server's answer
    page.click("#auto-toggle")
    assert page.evaluate("window.__sent")[-1] == {"type": "auto", "on": True}
    emit(page, "auto", {"on": True})
    expect(page.locator("#auto-toggle")).to_have_attribute("aria-pressed", "true")
    # a discard event's 摸切 reaches the pond too
    emit(page, "events", {"hand": 7, "events": [{"type": "discard", "seat": 0, "tile": "W", "moqie": True}]})
    expect(page.locator(".pond.pos0 img.tile")).to_have_count(9)
    expect(page.locator(".pond.pos0 img.tile").last).to_have_class(re.compile(r"\bmoqie\b"))
