"""Tables kept apart, over the real protocol: every table message names its table and hand; a
table left mid-hand settles on its own without a word to the player's new table; a spectator
arriving mid-hand gets the public table; a reconnect finds its open prompt with the time left."""

from __future__ import annotations

import time
from typing import Any

from hall_helpers import FAST, WATCHDOG_S, eventually, make_client, register
from majiang.hall.rooms import Room

TABLE_TYPES = {"table", "table_info", "events", "prompt", "hand_end", "auto", "escape", "items", "item_used"}


def _answer(ws: Any, m: dict[str, Any]) -> None:
    legal = m["legal"]
    a = (
        next((x for x in legal if x["type"] == "win"), None)
        or next((x for x in legal if x["type"] == "pass"), None)
        or legal[-1]
    )
    ws.send_json({"type": "action", "seq": m["seq"], "action": a})


def _until(ws: Any, pred: Any, seen: list[dict[str, Any]], limit: int = 5000, answer: bool = True) -> dict[str, Any]:
    for _ in range(limit):
        m = ws.receive_json()
        seen.append(m)
        if pred(m):
            return m
        if answer and m["type"] == "prompt":
            _answer(ws, m)
    raise AssertionError(f"not seen in {limit} messages; last {seen[-3:]}")


def test_every_table_message_names_its_table_and_hand(tmp_path: Any) -> None:
    with make_client(tmp_path) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            assert ws.receive_json()["type"] == "welcome"
            ws.send_json({"type": "quick_join", "room": "t"})
            seen: list[dict[str, Any]] = []
            _until(ws, lambda m: m["type"] == "hand_end", seen)
            ws.send_json({"type": "chat", "scope": "table", "text": "gg"})
            _until(ws, lambda m: m["type"] == "chat", seen)
    table = next(m for m in seen if m["type"] == "table")["table"]["id"]
    hand = next(m for m in seen if m["type"] == "hand_end")["hand"]
    tagged = [m for m in seen if m["type"] in TABLE_TYPES | {"chat"}]
    assert {"table", "events", "prompt", "hand_end", "chat"} <= {m["type"] for m in tagged}
    for m in tagged:
        assert m.get("table_id") == table, m
        assert "hand" in m, m
    for m in seen:
        if m["type"] in ("events", "prompt", "hand_end"):
            assert m["hand"] == hand, m


def test_a_table_left_mid_hand_settles_apart_from_the_new_one(tmp_path: Any) -> None:
    """Alice escapes from A during its hand and sits at B: nothing of A (its events, seats, result)
    reaches her any more, B's prompts stay hers to answer, and A still settles its hand — with the house
    in her seat's place: her ledger has the escape penalty and nothing of A's result (seed 001) — the
    audit balances."""
    with make_client(tmp_path) as c:
        c.app.state.hall.auto_delay_s = 0.02  # 托管 plays A's hand out quickly
        tok = register(c)
        auth = {"Authorization": f"Bearer {tok}"}
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            seen: list[dict[str, Any]] = []
            prompt = _until(ws, lambda m: m["type"] == "prompt", seen, answer=False)
            a_id = next(m for m in seen if m["type"] == "table")["table"]["id"]
            a_hand = prompt["hand"]
            ws.send_json({"type": "stand"})
            _until(ws, lambda m: m["type"] == "escape", seen, answer=False)
            after: list[dict[str, Any]] = []
            deadline = time.monotonic() + WATCHDOG_S
            while True:  # the seat at A is freed a moment after the stand: ask until it is
                ws.send_json({"type": "quick_join", "room": "t"})
                m = _until(ws, lambda m: m["type"] in ("table", "error"), after, answer=False)
                if m["type"] == "table" and m["table"]["id"] != a_id:
                    break
                assert time.monotonic() < deadline, "the seat at A was never freed"
                time.sleep(0.05)  # the hall's rate limit: an account may send 30 messages a second
            b_id = m["table"]["id"]
            assert b_id != a_id
            after = [m]  # (a join sent before A freed the seat was answered by A: busy)
            _until(ws, lambda m: m["type"] == "hand_end", after)
            b_hand = after[-1]["hand"]

            # A's hand is over by now or soon: wait for its settlement (the hand is finished: its log opens)
            eventually(lambda: c.get(f"/api/hands/{a_hand}", headers=auth).status_code == 200 or None, "A's settlement")
            st = c.get("/api/me/statement", headers=auth).json()["entries"]
            ws.send_json({"type": "ping"})
            _until(ws, lambda m: m["type"] == "pong", after)
            leaks = [m for m in after if m.get("table_id") == a_id or (m["type"] == "hand_end" and m["hand"] != b_hand)]
            assert not leaks, leaks[:3]
            assert not [m for m in after if m.get("type") == "hand_end" and m.get("hand") == a_hand]
            # a reply to a prompt of A sent at B (a prompt's seq is per table) is refused, never played at B
            ws.send_json({"type": "action", "seq": prompt["seq"], "action": prompt["legal"][-1], "table": a_id})
            err = _until(ws, lambda m: m["type"] == "error", after)
            assert err["code"] == "stale"
        assert not [m for m in after if m["type"] == "error" and m["code"] in ("not_playing", "internal")]
        for m in after:
            if m["type"] in TABLE_TYPES:
                assert m["table_id"] == b_id, m
        kinds = [(e["kind"], e["hand"]) for e in st]
        assert kinds.count(("settle", a_hand)) == 0 and kinds.count(("settle", b_hand)) == 1
        assert ("escape", a_hand) in kinds
        assert st[0]["balance"] == c.get("/api/me", headers=auth).json()["balance"]
        audit = c.get("/api/ledger/audit").json()
        assert audit["ok"] and audit["total"] == 0, audit


def test_a_spectator_arriving_mid_hand_gets_the_public_table(tmp_path: Any) -> None:
    rooms = [Room(id="t", name="t", rules="gb", coefficient=10, fee=5, **{**FAST, "spectate_delay_s": 0.2})]  # type: ignore[arg-type]
    with make_client(tmp_path, rooms) as c:
        alice, bob = register(c, "alice"), register(c, "bobby")
        with c.websocket_connect(f"/ws?token={alice}") as wa:
            wa.receive_json()
            wa.send_json({"type": "quick_join", "room": "t"})
            seen: list[dict[str, Any]] = []
            discards = 0
            while True:
                m = _until(wa, lambda m: m["type"] == "prompt", seen, answer=False)
                if any(a["type"] == "discard" for a in m["legal"]):
                    if discards == 3:
                        break
                    discards += 1
                    wa.send_json({"type": "action", "seq": m["seq"], "action": m["legal"][0]})
                else:
                    _answer(wa, m)
            table = next(x for x in seen if x["type"] == "table")["table"]["id"]
            me = next(x for x in seen if x["type"] == "table")["seat"]
            time.sleep(0.6)  # the spectating delay has passed for Alice's discards
            with c.websocket_connect(f"/ws?token={bob}") as wb:
                wb.receive_json()
                wb.send_json({"type": "spectate", "table": table})
                snap = wb.receive_json()
    assert snap["type"] == "table" and snap["spectator"]
    view = snap["view"]
    assert view["seat"] is None and view["hand"] == [] and view["drawn"] is None and view["legal"] == []
    assert isinstance(view["wall"], int) and 0 < view["wall"] < 144 - 53
    assert len(view["scores"]) == 4 and view["prevalent"] in "ESWN" and view["current"] in range(4)
    assert view["dice"] and len(view["seat_winds"]) == 4
    seats = view["seats"]
    for s in seats:
        size = s["concealed_count"] + 3 * len(s["melds"])
        assert size in (13, 14), s
        for meld in s["melds"]:
            if meld["concealed"]:
                assert meld["tiles"] == [None] * 4
    # the ponds in discard order, as the events shown so far have them; Alice's earlier discards there
    events = snap["events"]
    for s in range(4):
        assert seats[s]["discards"] == [e["tile"] for e in events if e["type"] == "discard" and e["seat"] == s]
    assert len(seats[me]["discards"]) >= 3
    # never a concealed tile: no deal hands, no drawn tiles
    for e in events:
        if e["type"] == "deal":
            assert not any(e["hands"])
        if e["type"] == "draw":
            assert "tile" not in e
    assert snap["upto"] >= len(events) and snap["table_id"] == table


def test_a_reconnect_finds_its_open_prompt_with_the_time_left(tmp_path: Any) -> None:
    with make_client(tmp_path) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            seen: list[dict[str, Any]] = []
            prompt = _until(
                ws, lambda m: m["type"] == "prompt" and any(a["type"] == "discard" for a in m["legal"]), seen
            )
        time.sleep(0.5)  # the server has seen the socket close (the seat is in 托管 now)
        with c.websocket_connect(f"/ws?token={tok}") as ws2:
            assert ws2.receive_json()["table"] is not None
            back: list[dict[str, Any]] = []
            again = _until(ws2, lambda m: m["type"] == "prompt", back, answer=False, limit=20)
            assert again["seq"] == prompt["seq"] and again["resent"]
            assert 0 < again["timeout_ms"] < prompt["timeout_ms"]
            ws2.send_json({"type": "auto", "on": False})  # what the page does after a reconnect
            _until(ws2, lambda m: m["type"] == "auto", back, answer=False, limit=20)
            ws2.send_json({"type": "action", "seq": prompt["seq"], "action": prompt["legal"][0]})
            got = _until(ws2, lambda m: m["type"] in ("events", "error"), back, answer=False, limit=50)
            assert got["type"] == "events", got
            assert any(e["type"] == "discard" and e["tile"] == prompt["legal"][0]["tile"] for e in got["events"])
