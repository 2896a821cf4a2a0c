"""Table behaviour the web client relies on: state broadcasts, private codes, spectators, 托管 and
tables whose humans are gone."""

from hall_helpers import FAST, eventually, make_client, register
from majiang.hall.rooms import Room


def _until(ws, kind, limit=2000, pred=lambda m: True):
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == kind and pred(m):
            return m
    raise AssertionError(f"no {kind}")


def test_private_code_reaches_the_player_and_a_friend_joins_with_it(tmp_path):
    with make_client(tmp_path) as c:
        a, b = register(c, "alice"), register(c, "bobby")
        with c.websocket_connect(f"/ws?token={a}") as wa, c.websocket_connect(f"/ws?token={b}") as wb:
            wa.receive_json()
            wb.receive_json()
            wa.send_json({"type": "create", "room": "t", "private": True})
            snap = _until(wa, "table")
            assert snap["code"] and len(snap["code"]) == 8
            public = c.get("/api/rooms/t/tables").json()
            assert public == []  # private tables are not listed, nor is their code anywhere public
            wb.send_json({"type": "join", "code": snap["code"]})
            assert _until(wb, "table")["table"]["id"] == snap["table"]["id"]


def test_tables_announce_that_they_are_playing(tmp_path):
    with make_client(tmp_path) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            info = _until(ws, "table_info", pred=lambda m: m["table"]["state"] == "playing")
            assert all(s is not None for s in info["table"]["seats"])


def test_spectator_snapshot_has_the_room_and_the_public_events(tmp_path):
    # no spectating delay: the snapshot has the deal at once (with the delay, only what is older than it)
    rooms = [Room(id="t", name="test", rules="gb", coefficient=10, fee=5, spectate_delay_s=0.0, **FAST)]
    with make_client(tmp_path, rooms) as c:
        p, s = register(c, "player"), register(c, "watcher")
        with c.websocket_connect(f"/ws?token={p}") as wp:
            wp.receive_json()
            wp.send_json({"type": "quick_join", "room": "t"})
            table_id = _until(wp, "table")["table"]["id"]
            _until(wp, "prompt")  # the hand is on, the player's first discard pending
            with c.websocket_connect(f"/ws?token={s}") as ws:
                ws.receive_json()
                ws.send_json({"type": "spectate", "table": table_id})
                snap = _until(ws, "table")
                assert snap["spectator"] and snap["room"]["id"] == "t" and "events" in snap
                deals = [e for e in snap["events"] if e["type"] == "deal"]
                assert len(deals) == 1 and all(not h for h in deals[0]["hands"])  # every hand face down


def test_turning_auto_off_gives_the_prompt_back(tmp_path):
    rooms = [Room(id="t", name="t", rules="gb", **{**FAST, "timers": "relaxed"})]
    with make_client(tmp_path, rooms) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            _until(ws, "prompt")
            ws.send_json({"type": "auto", "on": True})
            _until(ws, "auto", pred=lambda m: m["on"])
            ws.send_json({"type": "auto", "on": False})
            _until(ws, "auto", pred=lambda m: not m["on"])
            again = _until(ws, "prompt")
            assert again["timeout_ms"] > 5000  # a full timer, not the auto-play delay


def test_a_table_whose_human_left_between_hands_ends(tmp_path):
    with make_client(tmp_path) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            _until(ws, "prompt")
        hall = c.app.state.hall
        hall.auto_delay_s = 0.01  # 托管's pause per decision (0.5 s by default) is not what this tests
        eventually(lambda: not hall.tables, "the end of the table")  # the hand finished in 托管, then the table ended


def test_a_room_sets_the_pause_of_auto_play(tmp_path):
    """A room's ``auto_delay_s`` is 托管's pause before each move at its tables (a blitz room's 托管 need
    not wait the hall's 0.5 s, as long as its whole action timer); unset, the hall's.  Was: the hall's
    for every room."""
    rooms = [Room(id="t", name="t", rules="gb", auto_delay_s=0.01, **FAST)]
    with make_client(tmp_path, rooms) as c:
        hall = c.app.state.hall
        hall.auto_delay_s = 3600.0  # the hall's pause would hold the hand for an hour
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            _until(ws, "prompt")
            ws.send_json({"type": "auto", "on": True})  # 托管 now, not after the open prompt's timer
            _until(ws, "auto")
        eventually(lambda: not hall.tables, "the end of the table")  # 托管 played the hand out at the room's pace


def test_a_rooms_file_checks_the_pause_of_auto_play(tmp_path):
    import pytest

    from majiang.hall.rooms import load_rooms

    path = tmp_path / "rooms.toml"
    path.write_text('[[room]]\nid = "b"\nname = "blitz"\ntimers = "blitz"\nauto_delay_s = 0.05\n', encoding="utf-8")
    assert load_rooms(path)[0].auto_delay_s == 0.05
    assert load_rooms(None)[0].auto_delay_s is None  # the built-in rooms: the hall's pause
    path.write_text('[[room]]\nid = "b"\nname = "blitz"\nauto_delay_s = 20\n', encoding="utf-8")
    with pytest.raises(ValueError, match="auto_delay_s"):
        load_rooms(path)
