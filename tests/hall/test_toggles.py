"""The auto toggles (自动和 auto-win, 不吃碰杠 auto-pass, 摸切 auto-discard) acted on by the server,
remembered per account (SQLite and PostgreSQL), validated; and 托管 played by the room's fan-aware
bot.  The first hand of each table is dealt from a rigged wall (the hand still
replays from its log), two humans sit at seats 0 (the dealer) and 1 (下家), bots fill seats 2 and 3."""

from __future__ import annotations

from typing import Any

import pytest
from cluster_helpers import scratch_pg

import majiang.engine.session as session_module
from hall_helpers import make_client, register
from majiang.engine.arrange import layout, swaps_for
from majiang.engine.hand import Hand
from majiang.hall.rooms import Room
from majiang.store import Database
from majiang.tiles import parse_tiles

# no bots before both humans sit (add_bots), fast timers, no claim window
ROOM = Room(id="t", name="t", rules="gb", bots="rand", bot_fill_s=300, next_hand_s=30, timers="fast")
COMPLETE = "123m456m789m123p55p"  # 清龙 (16 fan) + …: a legal win for the dealer at once
PLAIN = "139m258p147s1234z5z"  # 14 tiles, no kong, no win; the last dealt (the dealer's "drawn") is 5z (白, P)
OFF = {"auto_win": False, "auto_pass": False, "auto_discard": False}


@pytest.fixture
def rig(monkeypatch: pytest.MonkeyPatch) -> Any:
    """rig(dealer=…, right=…, draws=…): the tiles of the first hand at every table (the dealer's 14,
    its 下家's 13, then the live draws in order)."""
    wanted: dict[str, str] = {}

    def factory(rules: Any, seed: bytes, **kw: Any) -> Hand:
        if kw.get("hand_no", 0) == 0 and wanted:
            hands = {0: parse_tiles(wanted["dealer"])}
            if "right" in wanted:
                hands[1] = parse_tiles(wanted["right"])
            lay = layout(hands, parse_tiles(wanted.get("draws", "")), n_tiles=len(rules.tile_set()))
            kw["arrange"] = swaps_for(rules.build_wall(seed).tiles, lay)
        return Hand(rules, seed, **kw)

    monkeypatch.setattr(session_module, "Hand", factory)

    def set_rig(**kw: str) -> None:
        wanted.update(kw)

    return set_rig


@pytest.fixture
def client(tmp_path: Any) -> Any:
    with make_client(tmp_path, [ROOM]) as c:
        yield c


def until(ws: Any, kind: str, pred: Any = lambda m: True, limit: int = 3000, seen: list[Any] | None = None) -> Any:
    for _ in range(limit):
        m = ws.receive_json()
        if seen is not None:
            seen.append(m)
        if m["type"] == kind and pred(m):
            return m
        assert m["type"] != "error" or m["code"] in ("stale", "illegal"), m  # refused: fail, never hang
    raise AssertionError(f"no {kind} message")


def set_toggles(ws: Any, **toggles: bool) -> dict[str, bool]:
    ws.send_json({"type": "settings", **toggles})
    return until(ws, "settings")["settings"]


def seat_two(c: Any, a: str, b: str, toggles_a: dict[str, bool], toggles_b: dict[str, bool]) -> tuple[Any, Any]:
    """Connect alice (seat 0, the first dealer) and bob (seat 1), set their toggles, sit them and
    start the hand; the caller closes the two sockets."""
    wa = c.websocket_connect(f"/ws?token={a}").__enter__()
    wb = c.websocket_connect(f"/ws?token={b}").__enter__()
    try:
        until(wa, "welcome")
        until(wb, "welcome")
        if toggles_a:
            set_toggles(wa, **toggles_a)
        if toggles_b:
            set_toggles(wb, **toggles_b)
        wa.send_json({"type": "quick_join", "room": "t"})
        snap = until(wa, "table")
        assert snap["seat"] == 0
        wb.send_json({"type": "join", "table": snap["table"]["id"]})
        assert until(wb, "table")["seat"] == 1
        wa.send_json({"type": "add_bots"})
    except BaseException:
        close(wa, wb)  # a socket left open would hold the test client's shutdown
        raise
    return wa, wb


def close(*sockets: Any) -> None:
    for ws in sockets:
        ws.__exit__(None, None, None)


def first_decision(ws: Any) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """The first prompt or preset this seat gets in the hand: ("prompt" | "preset", the message, all seen)."""
    seen: list[dict[str, Any]] = []
    for _ in range(3000):
        m = ws.receive_json()
        seen.append(m)
        if m["type"] in ("prompt", "preset"):
            return m["type"], m, seen
        assert m["type"] != "error", m
    raise AssertionError("no decision")


# ---- auto-win -------------------------------------------------------------------------------------------
def test_auto_win_takes_a_legal_win_at_once_and_no_prompt_is_sent(client: Any, rig: Any) -> None:
    rig(dealer=COMPLETE)
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(client, a, b, {"auto_win": True}, {})
    try:
        kind, m, _ = first_decision(wa)
        assert kind == "preset" and m["toggle"] == "auto_win" and m["action"]["type"] == "win"
        end = until(wa, "hand_end")
        assert end["result"]["win"]["seat"] == 0 and end["result"]["win"]["points"] >= 8
    finally:
        close(wa, wb)


def test_without_auto_win_the_same_win_is_offered_as_a_prompt(client: Any, rig: Any) -> None:
    rig(dealer=COMPLETE)
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(client, a, b, {"auto_pass": True, "auto_discard": True}, {})  # neither passes a win
    try:
        kind, m, _ = first_decision(wa)
        assert kind == "prompt" and any(x["type"] == "win" for x in m["legal"])
    finally:
        close(wa, wb)


# ---- auto-discard (摸切) -----------------------------------------------------------------------------
def test_auto_discard_discards_the_drawn_tile_at_once(client: Any, rig: Any) -> None:
    rig(dealer=PLAIN)
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(client, a, b, {"auto_discard": True}, {})
    try:
        kind, m, seen = first_decision(wa)
        assert kind == "preset" and m["toggle"] == "auto_discard"
        assert m["action"] == {"type": "discard", "tile": "P"}  # the dealer's last dealt tile (白)
        msg = until(wa, "events", lambda e: any(x["type"] == "discard" for x in e["events"]), seen=seen)
        discard = next(x for x in msg["events"] if x["type"] == "discard")
        assert discard["seat"] == 0 and discard["tile"] == "P"
        assert not [x for x in seen if x["type"] == "prompt"]
    finally:
        close(wa, wb)


def test_auto_discard_leaves_a_kong_to_the_player(client: Any, rig: Any) -> None:
    rig(dealer="1111m258p147s123z5z")
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(client, a, b, {"auto_discard": True}, {})
    try:
        kind, m, _ = first_decision(wa)
        assert kind == "prompt" and any(x["type"] == "concealed_kong" for x in m["legal"])
    finally:
        close(wa, wb)


# ---- auto-pass (不吃碰杠) ----------------------------------------------------------------------------------
# the dealer alice discards 5z (白) by 摸切; bobby, her 下家, holds a pair of 白: pung offered (no win)
BOB_PAIR = "258m369p147s12z55z"


def test_auto_pass_passes_a_claim_at_once(client: Any, rig: Any) -> None:
    rig(dealer=PLAIN, right=BOB_PAIR)
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(client, a, b, {"auto_discard": True}, {"auto_pass": True})
    try:
        kind, m, _ = first_decision(wb)
        assert kind == "preset" and m["toggle"] == "auto_pass" and m["action"] == {"type": "pass"}
    finally:
        close(wa, wb)


def test_without_auto_pass_the_claim_is_a_prompt(client: Any, rig: Any) -> None:
    rig(dealer=PLAIN, right=BOB_PAIR)
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(client, a, b, {"auto_discard": True}, {})
    try:
        kind, m, _ = first_decision(wb)
        assert kind == "prompt" and {"type": "pung", "tile": "P"} in m["legal"]
    finally:
        close(wa, wb)


def test_auto_pass_never_passes_a_win_and_auto_win_takes_it(client: Any, rig: Any) -> None:
    # bobby waits on 白 or 1p with 清龙 (16 fan): 123m 456m 789m 1p1p 5z5z
    ready = "123456789m11p55z"
    cases = (({"auto_pass": True}, "prompt"), ({"auto_pass": True, "auto_win": True}, "preset"))
    for i, (toggles, expect) in enumerate(cases):
        rig(dealer=PLAIN, right=ready)
        a, b = register(client, f"alice{i}"), register(client, f"bobby{i}")
        wa, wb = seat_two(client, a, b, {"auto_discard": True}, toggles)
        try:
            kind, m, _ = first_decision(wb)
            assert kind == expect
            if kind == "prompt":
                assert {"type": "win", "tile": "P"} in m["legal"]
            else:
                assert m["toggle"] == "auto_win" and m["action"]["type"] == "win"
                assert until(wb, "hand_end")["result"]["win"]["seat"] == 1
        finally:
            close(wa, wb)


def test_toggle_decisions_never_count_as_timeouts(client: Any, rig: Any) -> None:
    """Bobby answers nothing for a whole hand: auto-pass and 摸切 decide for him (only a win or a kong
    would be asked), and his seat never goes into 托管."""
    rig(dealer=PLAIN, right=BOB_PAIR)
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(
        client, a, b, {"auto_discard": True, "auto_pass": True}, {"auto_discard": True, "auto_pass": True}
    )
    seen: list[dict[str, Any]] = []
    try:
        for _ in range(5000):
            m = wb.receive_json()
            seen.append(m)
            if m["type"] == "prompt":  # a win or a kong: answered, as a player would
                legal = m["legal"]
                a_ = next((x for x in legal if x["type"] == "win"), None) or next(
                    x for x in legal if x["type"] in ("pass", "discard")
                )
                wb.send_json({"type": "action", "seq": m["seq"], "action": a_})
            if m["type"] == "hand_end":
                break
        presets = [m for m in seen if m["type"] == "preset"]
        assert len(presets) >= 5 and {m["toggle"] for m in presets} >= {"auto_discard"}
        assert not [m for m in seen if m["type"] == "auto" and m["on"]]
        table = next(iter(client.app.state.hall.tables.values()))
        assert table.seats[1] is None or (table.seats[1].timeouts == 0 and not table.seats[1].auto)
    finally:
        close(wa, wb)


# ---- turning a toggle on with a prompt open, and remembering --------------------------------------------
def test_turning_auto_discard_on_answers_the_open_prompt(client: Any, rig: Any) -> None:
    rig(dealer=PLAIN)
    a, b = register(client, "alice"), register(client, "bobby")
    wa, wb = seat_two(client, a, b, {}, {})
    try:
        kind, m, _ = first_decision(wa)
        assert kind == "prompt"
        wa.send_json({"type": "settings", "auto_discard": True})
        p = until(wa, "preset")
        assert p["seq"] == m["seq"] and p["action"] == {"type": "discard", "tile": "P"}
    finally:
        close(wa, wb)


def remembered_flow(c: Any) -> None:
    tok = register(c, "alice")
    with c.websocket_connect(f"/ws?token={tok}") as ws:
        assert until(ws, "welcome")["settings"] == OFF
        assert set_toggles(ws, auto_win=True, auto_discard=True) == {**OFF, "auto_win": True, "auto_discard": True}
        assert set_toggles(ws, auto_discard=False) == {**OFF, "auto_win": True}  # the others stay
    again = c.post("/api/login", json={"username": "alice", "password": "correct horse"}).json()["token"]
    with c.websocket_connect(f"/ws?token={again}") as ws:
        assert until(ws, "welcome")["settings"] == {**OFF, "auto_win": True}
    auth = {"Authorization": f"Bearer {again}"}
    assert c.get("/api/settings", headers=auth).json() == {**OFF, "auto_win": True}
    assert c.put("/api/settings", json={"auto_pass": True}, headers=auth).json() == {
        **OFF,
        "auto_win": True,
        "auto_pass": True,
    }
    with c.websocket_connect(f"/ws?token={again}") as ws:
        assert until(ws, "welcome")["settings"] == {**OFF, "auto_win": True, "auto_pass": True}


def test_toggles_are_remembered_on_sqlite(client: Any) -> None:
    remembered_flow(client)


def test_toggles_are_remembered_on_postgresql(tmp_path: Any) -> None:
    with scratch_pg() as url:
        with make_client(tmp_path, [ROOM], db_url=url) as c:
            remembered_flow(c)
        db = Database(url)
        try:
            from sqlalchemy import inspect

            from majiang.hall.settings import Prefs, SettingsStore

            assert "account_settings" in inspect(db.engine).get_table_names()
            with db.engine.connect() as conn:
                rows = conn.exec_driver_sql("SELECT auto_win, auto_pass, auto_discard FROM account_settings").all()
            assert [tuple(r) for r in rows] == [(True, True, False)]
            assert SettingsStore(db).get(10**9) == Prefs()  # an account without a row: all off
        finally:
            db.dispose()


def test_migration_0007_matches_the_models(tmp_path: Any) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from majiang.store.models import Base

    db = Database(f"sqlite:///{tmp_path}/m.db")
    db.migrate()
    with db.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    db.dispose()


def test_bad_settings_are_refused_and_change_nothing(client: Any) -> None:
    tok = register(client)
    auth = {"Authorization": f"Bearer {tok}"}
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        until(ws, "welcome")
        for bad in (
            '{"type": "settings", "auto_win": "yes"}',
            '{"type": "settings", "auto_win": 1}',
            '{"type": "settings", "auto_pass": null, "autowin": true}',
            '{"type": "settings", "auto_discard": [true]}',
            '{"type": "settings", "auto_win": true, "x": "' + "y" * 5000 + '"}',
        ):
            ws.send_text(bad)
            assert until(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "settings"})  # nothing to change: the current settings
        assert until(ws, "settings")["settings"] == OFF
    for body in ({"auto_win": "true"}, {"auto_win": 0}, {"sound": True}, {}):
        assert client.put("/api/settings", json=body, headers=auth).status_code == 422
    assert client.put("/api/settings", json={"auto_win": True}).status_code == 401
    assert client.get("/api/settings", headers=auth).json() == OFF
    from majiang.hall.settings import Prefs

    with pytest.raises(ValueError):
        Prefs().with_changes({"auto_win": "yes"})  # type: ignore[dict-item]
    with pytest.raises(ValueError):
        Prefs().with_changes({"volume": True})


# ---- 托管 -------------------------------------------------------------------------------------------------
def test_tuoguan_plays_with_the_fan_aware_bot_and_wins_what_it_can(client: Any, rig: Any) -> None:
    """A seat in 托管 holding a complete hand wins it (the old 托管 discarded the drawn tile)."""
    rig(dealer=COMPLETE)
    a, b = register(client, "alice"), register(client, "bobby")
    wa = client.websocket_connect(f"/ws?token={a}").__enter__()
    wb = client.websocket_connect(f"/ws?token={b}").__enter__()
    try:
        until(wa, "welcome")
        until(wb, "welcome")
        wa.send_json({"type": "quick_join", "room": "t"})
        snap = until(wa, "table")
        wa.send_json({"type": "auto", "on": True})  # alice: 托管 from the first decision
        assert until(wa, "auto")["on"] is True
        wb.send_json({"type": "join", "table": snap["table"]["id"]})
        until(wb, "table")
        wa.send_json({"type": "add_bots"})
        seen: list[dict[str, Any]] = []
        end = until(wa, "hand_end", seen=seen)
        assert not [m for m in seen if m["type"] in ("prompt", "preset")]
        assert end["result"]["win"]["seat"] == 0
        first = next(e for m in seen if m["type"] == "events" for e in m["events"] if e["type"] in ("discard", "win"))
        assert first["type"] == "win"  # not a discard of the drawn tile
    finally:
        close(wa, wb)
