"""Between hands (majiang.hall.between): the ready step with its countdown and 托管 for
whoever is not ready, leave-after-this-hand, leaving between hands at no cost, and private tables that
wait for the owner's friends (bots only when the owner asks, or after the room's visible wait; a bot
gives its seat back to a friend who comes with the code)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from hall_helpers import FAST, make_client, play_until, register
from majiang.hall.rooms import Room, load_rooms


def room(**kw: Any) -> list[Room]:
    return [Room(id="t", name="t", rules="gb", coefficient=10, fee=5, **{**FAST, **kw})]  # type: ignore[arg-type]


def until(ws: Any, kind: str, pred: Any = lambda m: True, limit: int = 5000) -> dict[str, Any]:
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == kind and pred(m):
            return dict(m)
    raise AssertionError(f"no {kind}")


def private_code(c: Any, tok: str) -> str:
    """Open a private table of room ``t`` as ``tok``'s account: its code."""
    r = c.post("/api/tables", json={"room": "t", "private": True}, headers={"Authorization": f"Bearer {tok}"})
    return str(r.json()["code"])


def bare(m: dict[str, Any]) -> dict[str, Any]:
    """A table message without its envelope (``table_id``, ``hand``: docs/protocol.md)."""
    return {k: v for k, v in m.items() if k not in ("table_id", "hand")}


def seated(m: dict[str, Any]) -> int:
    return sum(1 for s in m["table"]["seats"] if s is not None)


def balance(c: Any, tok: str) -> int:
    return int(c.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).json()["balance"])


def statement(c: Any, tok: str) -> list[dict[str, Any]]:
    return list(c.get("/api/me/statement?limit=200", headers={"Authorization": f"Bearer {tok}"}).json()["entries"])


def once(fn: Any) -> Any:
    """A play_until chooser that calls ``fn`` at the first prompt (mid-hand) and plays as usual."""
    done: list[bool] = []

    def choose(m: dict[str, Any]) -> None:
        if not done:
            done.append(True)
            fn()

    return choose


def my_coins(end: dict[str, Any], seat: int) -> int:
    return int(end["coins"][seat])


def test_a_rooms_file_has_a_ready_step_and_private_tables_wait_two_minutes() -> None:
    rooms = {r.id: r for r in load_rooms()}
    assert rooms["mcr"].ready_s == 15.0 and rooms["mcr"].private_bot_wait_s == 120.0
    assert Room(id="x", name="x").ready_s == 0  # a room made in code keeps the old pause (next_hand_s)


def test_the_ready_step_waits_for_the_player_then_starts_at_once(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=60)) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            seen = play_until(ws)
            end = next(m for m in seen if m["type"] == "hand_end")
            info = until(ws, "table_info", lambda m: m["table"]["ready"] is not None)["table"]
            me = next(m["seat"] for m in seen if m["type"] == "table")
            assert info["state"] == "between"
            assert info["ready"][me] is False and all(r for i, r in enumerate(info["ready"]) if i != me)  # bots are
            assert 50_000 < info["ready_ms"] <= 60_000  # the server's countdown
            time.sleep(0.5)  # nothing starts while the player is not ready …
            ws.send_json({"type": "ready"})
            t0 = time.monotonic()
            start = until(ws, "events", lambda m: m["events"] and m["events"][0]["type"] == "hand_start")
            assert time.monotonic() - t0 < 10  # … and the next hand starts as soon as everyone is
            assert start["hand"] != end["hand"]
            ws.send_json({"type": "ready"})  # mid-hand there is no ready step
            assert until(ws, "error")["code"] == "not_between"


def test_not_ready_when_the_countdown_ends_is_auto_play_then_a_second_miss_stands_up(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=0.5, auto_delay_s=0.02)) as c:  # 托管 plays a hand at this pace
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            play_until(ws)
            auto = until(ws, "auto")
            assert bare(auto) == {"type": "auto", "on": True, "reason": "not_ready"}
            until(ws, "hand_end")  # 托管 played the hand
            up = until(ws, "stood_up")
            assert up["code"] == "not_ready"
        assert not [e for e in statement(c, tok) if e["kind"] == "escape"]  # between hands: no cost
        assert c.get("/api/ledger/audit").json()["ok"]


def test_ready_after_a_missed_step_takes_the_seat_back_from_auto_play(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=0.5, auto_delay_s=0.02)) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            play_until(ws)
            until(ws, "auto", lambda m: m["on"])
            until(ws, "hand_end")
            ws.send_json({"type": "ready"})
            assert bare(until(ws, "auto")) == {"type": "auto", "on": False}
            until(ws, "prompt")  # the next hand asks the player again


def test_leave_after_this_hand_stands_up_at_the_end_with_no_penalty(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=60)) as c:
        tok = register(c)
        before = balance(c, tok)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            snap = until(ws, "table")
            seen = play_until(ws, choose=once(lambda: ws.send_json({"type": "leave_after", "on": True})))
            assert {"type": "leave_after", "on": True} in map(bare, seen)
            end = next(m for m in seen if m["type"] == "hand_end")
            up = until(ws, "stood_up")
            assert up["code"] == "leave_after"
            ws.send_json({"type": "ready"})
            assert until(ws, "error")["code"] == "not_seated"  # the seat is given up
        assert balance(c, tok) == before + my_coins(end, snap["seat"])  # only the hand's settlement
        kinds = [e["kind"] for e in statement(c, tok)]
        assert "escape" not in kinds and kinds.count("settle") == 1
        assert c.get("/api/ledger/audit").json()["ok"]


def test_leave_after_can_be_taken_back(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=60)) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})

            def toggle() -> None:
                ws.send_json({"type": "leave_after", "on": True})
                ws.send_json({"type": "leave_after", "on": False})

            seen = play_until(ws, choose=once(toggle))
            assert {"type": "leave_after", "on": False} in map(bare, seen)
            info = until(ws, "table_info", lambda m: m["table"]["ready"] is not None)
            assert seated(info) == 4  # still seated, in the ready step


def test_standing_up_in_the_ready_step_costs_nothing(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=60, next_hand_s=0.05)) as c:
        tok = register(c)
        before = balance(c, tok)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            snap = until(ws, "table")
            seen = play_until(ws)
            end = next(m for m in seen if m["type"] == "hand_end")
            time.sleep(1.0)  # reading the result, longer than next_hand_s
            ws.send_json({"type": "stand"})
            ws.send_json({"type": "ping"})
            later = []
            while (m := ws.receive_json())["type"] != "pong":
                later.append(m)
            assert not [m for m in later if m["type"] in ("escape", "prompt")]
        assert balance(c, tok) == before + my_coins(end, snap["seat"])
        assert "escape" not in [e["kind"] for e in statement(c, tok)]
        assert c.get("/api/ledger/audit").json()["ok"]


def test_standing_up_mid_hand_is_still_an_escape(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=60)) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            until(ws, "prompt")
            ws.send_json({"type": "stand"})
            assert until(ws, "escape")["penalty"] == 20 * 10 + 5
        assert "escape" in [e["kind"] for e in statement(c, tok)]


def test_a_private_table_waits_for_friends_and_only_its_owner_adds_bots(tmp_path: Any) -> None:
    # bot_fill_s is 0.1 s: a public table would be full at once; a private one (wait 0: never) is not
    with make_client(tmp_path, room(private_bot_wait_s=0)) as c:
        a, b = register(c, "alice"), register(c, "bobby")
        with c.websocket_connect(f"/ws?token={a}") as wa, c.websocket_connect(f"/ws?token={b}") as wb:
            wa.receive_json()
            wb.receive_json()
            code = private_code(c, a)
            wa.send_json({"type": "join", "code": code})
            snap = until(wa, "table")
            assert snap["table"]["owner"] == snap["table"]["seats"][snap["seat"]]["account"]
            assert snap["table"]["bots_in_ms"] is None  # never on their own
            time.sleep(1.0)  # ten times the room's bot_fill_s
            wb.send_json({"type": "join", "code": code})
            friend = until(wb, "table")
            assert friend["seat"] is not None and seated(friend) == 2
            wb.send_json({"type": "add_bots"})
            assert until(wb, "error")["code"] == "not_owner"
            wa.send_json({"type": "add_bots", "seat": friend["seat"]})
            assert until(wa, "error")["code"] == "seat_taken"
            free = [i for i, s in enumerate(friend["table"]["seats"]) if s is None]
            wa.send_json({"type": "add_bots", "seat": free[0]})
            one = until(wa, "table_info", lambda m: seated(m) == 3)
            assert one["table"]["seats"][free[0]]["bot"] and one["table"]["seats"][free[1]] is None
            wa.send_json({"type": "add_bots"})
            assert until(wa, "table_info", lambda m: m["table"]["state"] == "playing")


def test_a_private_tables_bot_wait_is_visible_and_fills_when_it_ends(tmp_path: Any) -> None:
    with make_client(tmp_path, room(private_bot_wait_s=1.5, bot_fill_s=300)) as c:
        a = register(c, "alice")
        with c.websocket_connect(f"/ws?token={a}") as wa:
            wa.receive_json()
            wa.send_json({"type": "join", "code": private_code(c, a)})
            info = until(wa, "table_info", lambda m: m["table"]["bots_in_ms"] is not None)["table"]
            assert 0 < info["bots_in_ms"] <= 1500
            assert until(wa, "table_info", lambda m: m["table"]["state"] == "playing")


def test_a_bot_gives_its_seat_to_a_friend_who_comes_mid_hand_when_the_hand_ends(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=60, private_bot_wait_s=0)) as c:
        a, b = register(c, "alice"), register(c, "bobby")
        with c.websocket_connect(f"/ws?token={a}") as wa, c.websocket_connect(f"/ws?token={b}") as wb:
            wa.receive_json()
            wb.receive_json()
            code = private_code(c, a)
            wa.send_json({"type": "join", "code": code})
            until(wa, "table")
            wa.send_json({"type": "add_bots"})

            def bob_comes() -> None:  # at alice's first prompt, mid-hand: a bot holds every free seat
                wb.send_json({"type": "join", "code": code})
                assert until(wb, "table")["spectator"]
                assert until(wb, "seat_queued")

            play_until(wa, choose=once(bob_comes))  # the prompt answered: no wait for its timer
            sat = until(wb, "table", lambda m: m.get("seat") is not None)
            assert sum(1 for s in sat["table"]["seats"] if s and not s["bot"]) == 2
            assert sat["table"]["ready"][sat["seat"]] is True  # sitting down in the step is being ready
            wa.send_json({"type": "ready"})
            until(wb, "events", lambda m: m["events"] and m["events"][0]["type"] == "hand_start")


def test_between_hands_a_bot_yields_its_seat_at_once(tmp_path: Any) -> None:
    with make_client(tmp_path, room(ready_s=60, private_bot_wait_s=0)) as c:
        a, b = register(c, "alice"), register(c, "bobby")
        with c.websocket_connect(f"/ws?token={a}") as wa, c.websocket_connect(f"/ws?token={b}") as wb:
            wa.receive_json()
            wb.receive_json()
            code = private_code(c, a)
            wa.send_json({"type": "join", "code": code})
            until(wa, "table")
            wa.send_json({"type": "add_bots"})
            play_until(wa)
            until(wa, "table_info", lambda m: m["table"]["ready"] is not None)
            wb.send_json({"type": "join", "code": code})
            sat = until(wb, "table")
            assert sat["seat"] is not None and not sat.get("spectator")


@pytest.mark.parametrize("bad", [{"ready_s": -1}, {"private_bot_wait_s": -5}, {"ready_s": 10_000}])
def test_bad_between_settings_are_refused(tmp_path: Any, bad: dict[str, float]) -> None:
    text = 'id = "x"\nname = "x"\n' + "".join(f"{k} = {v}\n" for k, v in bad.items())
    f = tmp_path / "rooms.toml"
    f.write_text("[[room]]\n" + text, encoding="utf-8")
    with pytest.raises(ValueError, match="ready_s"):
        load_rooms(f)
