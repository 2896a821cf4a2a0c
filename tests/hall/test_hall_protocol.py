"""The hall over its real HTTP API and WebSocket protocol (FastAPI test client)."""

import hashlib
import time

import pytest
from starlette.websockets import WebSocketDisconnect

from hall_helpers import FAST, make_client, play_until, register
from majiang.hall.rooms import Room


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def test_accounts_register_login_guest_logout(client):
    tok = register(client, "alice")
    assert client.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).json()["balance"] == 10_000
    dup = client.post("/api/register", json={"username": "alice", "password": "another pass"})
    assert dup.status_code == 400 and "taken" in dup.json()["detail"]
    bad = client.post("/api/login", json={"username": "alice", "password": "wrong password"})
    assert bad.status_code == 401
    good = client.post("/api/login", json={"username": "alice", "password": "correct horse"})
    assert good.status_code == 200
    short = client.post("/api/register", json={"username": "bob", "password": "short"})
    assert short.status_code == 422
    g = client.post("/api/guest").json()
    assert g["account"]["name"].startswith("guest-") and g["account"]["balance"] == 2_000
    assert client.post("/api/logout", headers={"Authorization": f"Bearer {tok}"}).json() == {"ok": True}
    assert client.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).status_code == 401


def test_rooms_list_fields(client):
    rooms = client.get("/api/rooms").json()
    assert {"coefficient", "fee", "min_balance", "max_balance", "items", "timers", "tables"} <= set(rooms[0])


def test_unauthenticated_websocket_is_refused(client):
    with client.websocket_connect("/ws?token=nonsense") as ws:
        assert ws.receive_json()["code"] == "auth"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_hand_with_bots_settles_coins_and_reveals_committed_seed(client):
    tok = register(client)
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "quick_join", "room": "t"})
        seen = play_until(ws, hands=2)
    ends = [m for m in seen if m["type"] == "hand_end"]
    starts = [e for m in seen if m["type"] == "events" for e in m["events"] if e["type"] == "hand_start"]
    assert len(ends) == 2 and len(starts) >= 2
    for end in ends:
        assert hashlib.sha256(bytes.fromhex(end["seed"])).hexdigest() == end["seed_hash"]
        assert sum(end["scores"]) == 0
        assert all("seed" not in s for s in starts)
    audit = client.get("/api/ledger/audit").json()
    assert audit["ok"] and audit["total"] == 0
    hand = client.get(f"/api/hands/{ends[0]['hand']}").json()
    assert hand["seed"] == ends[0]["seed"] and hand["events"][0]["type"] == "hand_start"


def _check_no_leak(msg, me):
    """No message to seat ``me`` holds another seat's concealed tiles or any wall tile."""
    events = msg.get("events", [])
    for e in events:
        if e["type"] == "deal":
            assert all(not h for s, h in enumerate(e["hands"]) if s != me)
        if e["type"] == "draw" and e["seat"] != me:
            assert "tile" not in e
        if e["type"] == "flower" and e["seat"] != me:
            assert "replacement" not in e
        if e["type"] == "kong" and e.get("kind") == "concealed" and e["seat"] != me:
            assert "tile" not in e
        if e["type"] == "hand_start":
            assert "seed" not in e
    view = msg.get("view")
    if view:
        assert isinstance(view["wall"], int)
        for s in view["seats"]:
            assert "hand" not in s
            if s["seat"] != me:
                for m in s["melds"]:
                    if m["concealed"]:
                        assert m["tiles"] == [None] * 4
        if view["phase"] != "over":
            assert "seed" not in view


def test_no_message_ever_leaks_hidden_information(client):
    tok = register(client)
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        ws.receive_json()
        ws.send_json({"type": "quick_join", "room": "t"})
        seen = play_until(ws, hands=3)
    me = next(m["seat"] for m in seen if m["type"] == "table")
    for m in seen:
        _check_no_leak(m, me)


def test_malformed_stale_and_out_of_turn_messages_change_nothing(client):
    tok = register(client)
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        ws.receive_json()
        for bad, code in [
            ("not json", "bad_message"),
            ('{"type": "fly"}', "bad_message"),
            ('{"type": "action", "seq": "x", "action": {"type": "pass"}}', "bad_message"),
            ('{"type": "chat", "text": "' + "x" * 5000 + '"}', "bad_message"),
            ('{"type": "action", "seq": 1, "action": {"type": "pass"}}', "not_seated"),
        ]:
            ws.send_text(bad)
            assert ws.receive_json()["code"] == code
        ws.send_json({"type": "quick_join", "room": "t"})
        prompt = None
        while prompt is None:
            m = ws.receive_json()
            if m["type"] == "prompt":
                prompt = m
        view_before = prompt["view"]
        ws.send_json({"type": "action", "seq": prompt["seq"] + 100, "action": prompt["legal"][0]})
        assert ws.receive_json()["code"] == "stale"
        ws.send_json({"type": "action", "seq": prompt["seq"], "action": {"type": "kong", "tile": "P"}})
        err = ws.receive_json()
        assert err["code"] == "illegal" and err["seq"] == prompt["seq"]
        # the prompt is still open and the table unchanged: reconnecting shows the same view
        ws.send_json({"type": "action", "seq": prompt["seq"], "action": prompt["legal"][-1]})
        nxt = ws.receive_json()
        assert nxt["type"] in ("events", "prompt", "table_info", "hand_end")
        ws.send_json({"type": "action", "seq": prompt["seq"], "action": prompt["legal"][-1]})  # duplicate
        for _ in range(50):
            m = ws.receive_json()
            if m["type"] == "error":
                assert m["code"] == "stale"
                break
    assert view_before["seat"] == prompt["view"]["seat"]


def test_rate_limit_per_connection(client):
    tok = register(client)
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        ws.receive_json()
        for _ in range(120):
            ws.send_json({"type": "ping"})
        codes = [ws.receive_json().get("code") for _ in range(120)]
    assert "rate_limited" in codes


def test_reconnect_restores_table_and_resends_prompt(client):
    tok = register(client)
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        ws.receive_json()
        ws.send_json({"type": "quick_join", "room": "t"})
        while (m := ws.receive_json())["type"] != "prompt":
            pass
        seq = m["seq"]
    with client.websocket_connect(f"/ws?token={tok}") as ws2:
        welcome = ws2.receive_json()
        assert welcome["table"] is not None
        got = [ws2.receive_json() for _ in range(3)]
        snap = next(x for x in got if x["type"] == "table")
        assert snap["view"]["hand"] and snap["events"]
        prompts = [x for x in got if x["type"] == "prompt"]
        # while disconnected the seat went into 托管 and may have moved on: any prompt is current
        assert all(p["seq"] >= seq for p in prompts)


def test_second_login_takes_over(client):
    tok = register(client)
    with client.websocket_connect(f"/ws?token={tok}") as ws1:
        ws1.receive_json()
        with client.websocket_connect(f"/ws?token={tok}") as ws2:
            assert ws2.receive_json()["type"] == "welcome"
            assert ws1.receive_json()["type"] == "kicked"


def test_timeouts_put_the_seat_into_auto_play(tmp_path):
    # 托管 then plays the hand out without the hall's 0.5 s pause a move
    rooms = [Room(id="t", name="t", rules="gb", auto_delay_s=0.01, **{**FAST, "timers": "blitz"})]
    with make_client(tmp_path, rooms) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            t0 = time.time()
            while time.time() - t0 < 20:
                m = ws.receive_json()  # never answer
                if m["type"] == "auto" and m["on"]:
                    break
            assert m["type"] == "auto" and m["reason"] == "timeouts"
            seen = play_until(ws, hands=1, choose=None)
            assert seen[-1]["type"] == "hand_end"


def test_escape_pays_the_penalty(client):
    tok = register(client)
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        ws.receive_json()
        ws.send_json({"type": "quick_join", "room": "t"})
        while ws.receive_json()["type"] != "prompt":
            pass
        ws.send_json({"type": "stand"})
        while (m := ws.receive_json())["type"] != "escape":
            pass
        assert m["penalty"] == 20 * 10 + 5
    assert client.get("/api/ledger/audit").json()["ok"]


def test_a_hand_cut_off_by_a_server_stop_is_void_after_the_restart(tmp_path):
    """The server stops mid-hand (here: the app shuts down; a crash leaves the same rows): on the next
    start the hand is void — no score, no coins, not even the fee — and its seed is revealed."""
    with make_client(tmp_path) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            while (m := ws.receive_json())["type"] != "prompt":
                pass
            hand_id = m["hand"]
            balance = c.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).json()["balance"]
        assert c.get(f"/api/hands/{hand_id}").status_code == 404  # a hand in play is not public
    with make_client(tmp_path) as c:
        d = c.get(f"/api/hands/{hand_id}", headers={"Authorization": f"Bearer {tok}"}).json()
        assert "void" in d["result"] and d["result"]["coins"] == [0, 0, 0, 0]
        assert hashlib.sha256(bytes.fromhex(d["seed"])).hexdigest() == d["seed_hash"]
        assert c.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).json()["balance"] == balance
        assert c.get("/api/ledger/audit").json()["ok"]
