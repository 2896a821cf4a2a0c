"""Items (道具) in the web client: the lobby's shop (buy every item, the inventory and the balance
move, too few coins said in words), no item bar in a room without items, and at an items table the
item bar: 金手指 and 乾坤大挪移 before the hand, 顺风耳 千里眼 偷天换日 移花接木 on our first turn
through their pickers, each with its visible effect; then the hand's replay names the uses.  A
second test drives the bar with crafted messages: buttons exactly as the server's `usable`, the
public line for another seat's use, item errors in words."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from .pace import next_step, play_out

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect
PlaywrightError = sync_api.Error

PRICES = {"qiankun": 2000, "toutian": 800, "yihua": 300, "qianliyan": 400, "shunfenger": 200, "jinshouzhi": 1000}
ITEM_ZH = {
    "qiankun": "乾坤大挪移",
    "toutian": "偷天换日",
    "yihua": "移花接木",
    "qianliyan": "千里眼",
    "shunfenger": "顺风耳",
    "jinshouzhi": "金手指",
}
ORPHANS = {"1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"}
NUM_ZH = "一二三四五六七八九"
HONOR_ZH = {"E": "东", "S": "南", "W": "西", "N": "北", "C": "中", "F": "发", "P": "白"}


FLOWER_ZH = "春夏秋冬梅兰竹菊"


def zh(tile: str) -> str:
    if tile[0] == "f":  # 顺风耳 may well foretell a flower
        return FLOWER_ZH[int(tile[1]) - 1]
    return HONOR_ZH.get(tile) or NUM_ZH[int(tile[0]) - 1] + {"m": "万", "p": "饼", "s": "条"}[tile[1]]


def my_tiles(page: Any) -> list[str]:
    return [
        t.get_attribute("data-tile")
        for t in page.locator(".strip.pos0 .concealed img.tile, .strip.pos0 .drawn img.tile").all()
    ]


def wait_turn(page: Any) -> None:
    """Until it is our turn to discard, passing any claim on the way (a claim timed out twice would
    put the seat in 托管): each step waits for the table to ask us something."""
    while not page.locator("#your-turn").is_visible():
        next_step(page, "#your-turn, button.act[data-action=pass]")
        if page.locator("button.act[data-action=pass]").count():
            with contextlib.suppress(PlaywrightError):
                page.locator("button.act[data-action=pass]").first.click(timeout=1000)


def use_with_picker(page: Any, item: str, give: str | None = None, target: str | None = None) -> None:
    page.click(f"#item-bar .item-btn[data-item={item}]")
    picker = page.locator("#item-picker")
    expect(picker).to_have_attribute("data-item", item)
    expect(page.locator("#item-confirm")).to_be_disabled()  # nothing chosen yet
    if give:
        picker.locator(f".pick-give .pick[data-tile='{give}']").click()
    if target:
        picker.locator(f".pick-target .pick[data-tile='{target}']").click()
    page.click("#item-confirm")


def test_shop_and_items_at_the_table(page: Any, signup: Any, hall: Any, shots: Path) -> None:
    signup(page, "items")
    # ---- the shop: six items with both names, prices, effects, and what we own
    shop = page.locator("#shop")
    expect(shop.locator(".shop-item")).to_have_count(6)
    toutian = shop.locator(".shop-item[data-item=toutian]")
    expect(toutian).to_contain_text("偷天换日")
    expect(toutian).to_contain_text("Steal the Sky")
    expect(toutian.locator(".price")).to_have_text("币800")
    expect(toutian.locator(".effect")).to_contain_text("live wall")
    expect(toutian.locator(".owned")).to_have_text("拥有 owned ×0")
    start = int(page.get_attribute("#balance", "data-balance"))
    # every purchase asks first, naming the item, its price and the balance after; 取消 buys nothing
    row = shop.locator(".shop-item[data-item=toutian]")
    row.locator("button.buy").click()
    dialog = page.locator("#buy-confirm")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#buy-confirm-item")).to_contain_text("偷天换日 Steal the Sky ×1")
    expect(dialog.locator("#buy-confirm-price")).to_contain_text("800")
    expect(dialog.locator("#buy-confirm-after")).to_contain_text(f"{start - 800:,}")
    page.click("#buy-confirm-cancel")
    expect(dialog).to_have_count(0)
    expect(row.locator(".owned")).to_have_text("拥有 owned ×0")
    expect(page.locator("#balance")).to_have_attribute("data-balance", str(start))
    paid = 0
    for item in PRICES:
        row = shop.locator(f".shop-item[data-item={item}]")
        row.locator("button.buy").click()
        expect(page.locator("#buy-confirm-after")).to_contain_text(f"{start - paid - PRICES[item]:,}")
        page.click("#buy-confirm-ok")
        expect(row.locator(".owned")).to_have_text("拥有 owned ×1")
        paid += PRICES[item]
        expect(page.locator("#balance")).to_have_attribute("data-balance", str(start - paid))
    spent = sum(PRICES.values())
    expect(page.locator("#balance")).to_have_attribute("data-balance", str(start - spent))
    expect(page.locator("#lobby-balance")).to_have_text(f"{start - spent:,}")
    # too few coins: said in words, nothing bought
    row = shop.locator(".shop-item[data-item=qiankun]")
    row.locator("input.count").fill("99")
    row.locator("button.buy").click()
    expect(page.locator("#buy-confirm-after")).to_contain_text("游戏币不足 not enough coins")
    page.click("#buy-confirm-ok")
    expect(page.locator("#shop-error")).to_be_visible()
    expect(page.locator("#shop-error")).to_have_attribute("data-code", "funds")
    expect(page.locator("#shop-error")).to_contain_text("游戏币不足 · Not enough coins")
    expect(row.locator(".owned")).to_have_text("拥有 owned ×1")
    expect(page.locator("#balance")).to_have_attribute("data-balance", str(start - spent))
    page.screenshot(path=str(shots / "shop.png"))

    # ---- a room without items: no item bar at its table
    page.click(".room-card[data-room=fast] .btn.ghost")
    page.click("#create-table")
    page.wait_for_url(re.compile("#table$"))
    expect(page.locator("#seat-list")).to_be_visible()
    expect(page.locator("#add-bots")).to_be_visible()
    expect(page.locator("#item-bar")).to_have_count(0)
    expect(page.locator("#item-card")).to_have_count(0)
    page.click("#stand")
    page.wait_for_url(re.compile("#lobby$"))

    # ---- an items table, before the hand: only 金手指 and 乾坤大挪移 are usable
    page.click(".room-card[data-room=items] .btn.ghost")
    page.click("#create-table")
    page.wait_for_url(re.compile("#table$"))
    bar = page.locator("#item-bar")
    expect(bar.locator(".item-btn")).to_have_count(6)
    for item in PRICES:
        btn = bar.locator(f".item-btn[data-item={item}]")
        if item in ("jinshouzhi", "qiankun"):
            expect(btn).to_be_enabled()
        else:
            expect(btn).to_be_disabled()
    # 金手指: no choice to make; it is spent, the seat shows the golden finger, the log says so
    bar.locator(".item-btn[data-item=jinshouzhi]").click()
    expect(page.locator("#item-info")).to_contain_text("金手指")
    expect(page.locator("#item-log")).to_contain_text("使用了 金手指")
    expect(page.locator(".item-banner").first).to_contain_text("金手指")
    expect(page.locator(".plate.pos0 .flag.golden")).to_be_visible()
    expect(bar.locator(".item-btn[data-item=jinshouzhi]")).to_have_count(0)
    # 乾坤大挪移: the picker offers the four patterns (or random); it waits for the next deal
    bar.locator(".item-btn[data-item=qiankun]").click()
    expect(page.locator("#item-picker .pick-pattern button")).to_have_count(5)
    page.click("#item-picker [data-pattern=thirteen_orphans]")
    page.click("#item-confirm")
    expect(page.locator("#item-info")).to_contain_text("十三幺")
    expect(page.locator("#item-queued")).to_contain_text("十三幺")
    expect(bar.locator(".item-btn[data-item=qiankun]")).to_be_disabled()  # set once; consumed at the deal

    # ---- the hand: the deal is close to 十三幺, and on our turn the four hand items are usable
    page.click("#add-bots")
    expect(page.locator("#item-log")).to_contain_text("使用了 乾坤大挪移")
    wait_turn(page)
    expect(bar.locator(".item-btn[data-item=qiankun]")).to_have_count(0)
    orphans = ORPHANS & set(my_tiles(page))
    assert len(orphans) >= 10, f"乾坤大挪移 十三幺 dealt only {sorted(orphans)}"
    for item in ("toutian", "yihua", "qianliyan", "shunfenger"):
        expect(bar.locator(f".item-btn[data-item={item}]")).to_be_enabled()
    page.screenshot(path=str(shots / "items-table.png"))
    # 顺风耳: the next tile, shown to us
    bar.locator(".item-btn[data-item=shunfenger]").click()
    expect(page.locator("#item-info")).to_have_attribute("data-item", "shunfenger")
    expect(page.locator("#item-info")).to_contain_text("下一张牌是")
    next_tile_text = page.locator("#item-info").inner_text()
    expect(bar.locator(".item-btn[data-item=shunfenger]")).to_have_count(0)
    # 千里眼: seek a tile
    use_with_picker(page, "qianliyan", target="5m")
    expect(page.locator("#item-info")).to_have_attribute("data-item", "qianliyan")
    expect(page.locator("#item-info")).to_contain_text(re.compile(r"千里眼.*五万"))
    expect(page.locator("#item-info")).to_contain_text(re.compile(r"第 \d+–\d+ 张|没有"))
    # 偷天换日: give one tile, name the one wanted; the hand changes and we are asked again
    hand = my_tiles(page)
    give = hand[0]
    want = next(t for t in ("5p", "5s", "5m") if t != give)
    use_with_picker(page, "toutian", give=give, target=want)
    expect(page.locator("#item-info")).to_have_attribute("data-item", "toutian")
    info = page.locator("#item-info").inner_text()
    wait_turn(page)
    after = my_tiles(page)
    if "→" in info:
        assert f"{zh(give)} → {zh(want)}" in info
        assert after.count(want) == hand.count(want) + 1 and after.count(give) == hand.count(give) - 1
    else:
        assert "没有" in info and sorted(after) == sorted(hand)
    # 移花接木: give one tile, get a random one of the wall
    give = after[-1]
    use_with_picker(page, "yihua", give=give)
    expect(page.locator("#item-info")).to_have_attribute("data-item", "yihua")
    expect(page.locator("#item-info")).to_contain_text(f"移花接木：{zh(give)} → ")
    wait_turn(page)
    # every item is spent: the bar is empty, the log has every use
    expect(bar.locator(".item-btn")).to_have_count(0)
    expect(bar).to_contain_text("没有道具")
    log = page.locator("#item-log")
    for name in ITEM_ZH.values():
        expect(log).to_contain_text(f"使用了 {name}")

    # ---- play the hand out; the replay names each use with what it did
    play_out(page)
    hand_id = page.get_attribute("#replay-link", "href").split("/")[-1]
    events = hall.get(f"/api/hands/{hand_id}")["events"]
    used = [e for e in events if e["type"] == "item"]
    assert [e["item"] for e in used] == ["shunfenger", "qianliyan", "toutian", "yihua"]
    assert zh(used[0]["tile"]) in next_tile_text  # 顺风耳 told us the truth
    page.goto(f"/#replay/{hand_id}")
    replay_log = page.locator("#replay-log")
    expect(replay_log.locator("li").first).to_contain_text("乾坤大挪移")
    expect(replay_log.locator("li").first).to_contain_text("十三幺")
    for e in used:
        line = replay_log.locator("li").nth(events.index(e))
        expect(line).to_contain_text(f"使用了 {ITEM_ZH[e['item']]}")
        expect(line).not_to_contain_text("{")  # words, not JSON
    # 移花接木 in words, and the replayed hand really exchanges the tile
    yihua = used[-1]
    k = events.index(yihua)
    expect(replay_log.locator("li").nth(k)).to_contain_text(f"{zh(yihua['give'])} → {zh(yihua['tile'])}")
    replay_log.locator("li").nth(k - 1).click()
    expect(page.locator("#replay-pos")).to_have_text(f"{k} / {len(events)}")
    before = my_tiles(page)
    replay_log.locator("li").nth(k).click()
    expect(page.locator("#replay-pos")).to_have_text(f"{k + 1} / {len(events)}")
    after = my_tiles(page)
    assert len(after) == len(before)
    if yihua["give"] != yihua["tile"]:
        assert after.count(yihua["tile"]) == before.count(yihua["tile"]) + 1
        assert after.count(yihua["give"]) == before.count(yihua["give"]) - 1
    page.screenshot(path=str(shots / "items-replay.png"))


# ---- the item bar from crafted messages ---------------------------------------------------------------------
ROOM = {
    "id": "items",
    "name": "道具场 Items",
    "rules": "gb",
    "coefficient": 100,
    "fee": 50,
    "next_hand_s": 6,
    "spectate_delay_s": 0,
    "escape_penalty": 0,
    "items": True,
    "timer_values": {"action": 15, "claim": 3, "first_discard": 30},
}
TURN_ITEMS = [
    {"item": "toutian", "count": 2, "needs": ["tile", "target"], "optional": []},
    {"item": "shunfenger", "count": 1, "needs": [], "optional": []},
]


def emit(page: Any, kind: str, msg: dict[str, Any]) -> None:
    page.evaluate(f"window.mj.conn.emit({json.dumps(kind)}, {json.dumps({'type': kind, **msg})})")


def view(current: int) -> dict[str, Any]:
    hand = ["1m", "1m", "2p", "3p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "C", "W"]
    seats = [
        {"seat": s, "melds": [], "discards": [], "claimed": [], "flowers": [], "concealed_count": 13} for s in range(4)
    ]
    seats[0]["concealed_count"] = len(hand)
    return {
        "seat": 0,
        "rules": "gb",
        "hand_no": 0,
        "dealer": 0,
        "prevalent": "E",
        "seat_wind": "E",
        "phase": "turn",
        "current": current,
        "wall": 83,
        "scores": [0, 0, 0, 0],
        "hand": hand,
        "drawn": "W",
        "seats": seats,
        "pending": None,
        "legal": [],
        "seed_hash": "ab" * 32,
    }


def test_item_bar_follows_the_server(page: Any) -> None:
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector(".room-card")
    page.evaluate("() => { window.__sent = []; window.mj.conn.send = (m) => { window.__sent.push(m); return true; }; }")
    seat = {"bot": True, "auto": False, "online": True, "account": 0, "golden_finger": False}
    table = {
        "id": "t9",
        "room": "items",
        "private": False,
        "state": "playing",
        "hands": 0,
        "spectators": 0,
        "seats": [{**seat, "name": "me", "bot": False, "account": 5}]
        + [{**seat, "name": f"fan-bot-{i}"} for i in (1, 2, 3)],
    }
    status = {
        "usable": [],
        "inventory": {"toutian": 2, "shunfenger": 1, "yihua": 0},
        "golden_finger": False,
        "queued": None,
    }
    emit(
        page,
        "table",
        {
            "table": table,
            "seat": 0,
            "room": ROOM,
            "chat": [],
            "hand": 3,
            "view": view(1),
            "events": [],
            "items": status,
        },
    )
    bar = page.locator("#item-bar")
    expect(bar.locator(".item-btn")).to_have_count(2)  # owned only
    expect(bar.locator(".item-btn[data-item=toutian]")).to_be_disabled()  # nothing usable: not our turn
    # our turn: the prompt lists the usable items
    legal = [{"type": "discard", "tile": t} for t in ("1m", "W")]
    emit(
        page, "prompt", {"seq": 7, "hand": 3, "legal": legal, "timeout_ms": 15000, "view": view(0), "items": TURN_ITEMS}
    )
    expect(bar.locator(".item-btn[data-item=toutian]")).to_be_enabled()
    expect(bar.locator(".item-btn[data-item=toutian]")).to_contain_text("×2")
    bar.locator(".item-btn[data-item=shunfenger]").click()
    assert page.evaluate("window.__sent")[-1] == {"type": "use_item", "item": "shunfenger"}
    # the picker: the tiles of our hand to give, any tile to want but the one given
    bar.locator(".item-btn[data-item=toutian]").click()
    expect(page.locator("#item-picker .pick-give .pick")).to_have_count(11)  # distinct tiles of the hand
    page.click("#item-picker .pick-give .pick[data-tile=E]")
    expect(page.locator("#item-picker .pick-target .pick")).to_have_count(33)
    expect(page.locator("#item-confirm")).to_be_disabled()
    page.click("#item-picker .pick-target .pick[data-tile='5m']")
    page.click("#item-confirm")
    assert page.evaluate("window.__sent")[-1] == {"type": "use_item", "item": "toutian", "tile": "E", "target": "5m"}
    # item errors in words, at the table and as a toast
    for code, words in [
        ("item_moment", "现在不能使用这个道具"),
        ("item_refused", "道具使用被拒绝"),
        ("not_owned", "你没有这个道具了"),
        ("bad_item", "没有这个道具"),
        ("items_off", "这里不能使用道具"),
    ]:
        emit(page, "error", {"code": code, "message": f"server says {code}", "item": "toutian"})
        expect(page.locator("#item-error")).to_have_attribute("data-code", code)
        expect(page.locator("#item-error")).to_contain_text(f"偷天换日：{words}")
        expect(page.locator("#item-error")).to_contain_text(f"server says {code}")
        expect(page.locator(".toast.error").last).to_contain_text(words)
    # another seat's use: a public line and a banner, nothing more
    emit(page, "events", {"hand": 3, "events": [{"type": "item", "seat": 2, "item": "qianliyan"}]})
    expect(page.locator("#item-log")).to_contain_text("fan-bot-2 使用了 千里眼 · fan-bot-2 used Far Sight")
    expect(page.locator(".item-banner").last).to_contain_text("fan-bot-2 使用了 千里眼")
    # our own use: the owner's answer in the info panel
    emit(
        page,
        "item_used",
        {
            "item": "qianliyan",
            "seat": 0,
            "hand": 3,
            "result": {"seat": 0, "item": "qianliyan", "tile": "9p", "found": True, "near": [9, 16]},
        },
    )
    expect(page.locator("#item-info")).to_contain_text("最近的 九饼 在第 9–16 张")
    # once the turn moved on, the turn's items wait for the next prompt that lists them
    emit(page, "events", {"hand": 3, "events": [{"type": "discard", "seat": 0, "tile": "W"}]})
    expect(bar.locator(".item-btn[data-item=toutian]")).to_be_disabled()
    # 金手指 on another seat: the golden marker on its plate and a line in the log
    gold = {**table, "seats": [dict(s) for s in table["seats"]]}
    gold["seats"][1]["golden_finger"] = True
    emit(page, "table_info", {"table": gold})
    expect(page.locator("#item-log")).to_contain_text("fan-bot-1 使用了 金手指")
    expect(page.locator(".plate.pos1 .flag.golden")).to_be_visible()
