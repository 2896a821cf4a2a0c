"""Online sessions through disconnects (a player away plays on in 托管), reopening, and duplicate walls (复式).

The hall plays the event tables in a competition room; a linked player who disconnects keeps his chair and
plays 托管 until he is back, the table finishes its 16 hands, the organiser can open the session again, and
sync enters what the hall played.  With duplicate walls every table deals the same seed for hand k, and the
hall hands stay sealed (no seed sent, no /api/hands, no spectators) until every table of the session is done.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from hall_helpers import play_until, register
from majiang.cli.serve_cmd import tournament_features
from majiang.engine.session import Session
from majiang.hall.app import create_app
from majiang.hall.rooms import Room
from majiang.hall.service import Hall, HallError
from majiang.rulesets import make_ruleset
from majiang.store import Database
from majiang.store.models import HandRow
from majiang.tournament.adapters.online import ResultHook, open_session, seating_plan, sync_session
from majiang.tournament.adapters.repository import TournamentRepository
from majiang.tournament.draw import draw_session
from majiang.tournament.organiser import issue_token
from majiang.tournament.registration import build_group, count_entries, new_event

EVENT = "online"
LIMIT_S = 240.0  # generous: a loaded machine plays a 16-hand session of bots in seconds, not minutes


def competition_room(**kw: Any) -> Room:
    base: dict[str, Any] = dict(
        id="ev",
        name="event",
        rules="gb",
        bots="rand",
        bot_fill_s=0.05,
        next_hand_s=0.0,
        timers="blitz",
        competition=True,
        reconnect_grace_s=0.1,  # before the fix: a disconnect turned into an escape after this
    )
    return Room(**{**base, **kw})


def setup_event(db: Database) -> tuple[TournamentRepository, str]:
    repo = TournamentRepository(db)
    repo.save(new_event(EVENT, "Online", build_group(count_entries(16)), sessions=2, seed=3))
    repo.put_session(EVENT, "A", draw_session(repo.load(EVENT), "A", 1))
    token, key = issue_token()
    repo.set_extra(EVENT, **key)
    return repo, token


def first_of_tables(repo: TournamentRepository) -> list[str]:
    """The East player of each table of session 1."""
    return [t.seats[0].player for t in seating_plan(repo.load(EVENT), 1, {})]


def hall_hands(db: Database, table_id: str) -> list[HandRow]:
    with db.session() as s:
        rows = s.scalars(select(HandRow).where(HandRow.table_id == table_id).order_by(HandRow.hand_no)).all()
        s.expunge_all()
        return list(rows)


def wait(pred: Any, limit: float = LIMIT_S, step: float = 0.05) -> bool:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if pred():
            return True
        time.sleep(step)
    return bool(pred())


def table_done(hall: Hall, table_id: str) -> bool:
    """The hall table has ended: gone from the hall, or still there in its ``ended`` state."""
    runner = hall.tables.get(table_id)
    return runner is None or runner.state == "ended"


async def await_until(pred: Any, limit: float = LIMIT_S) -> bool:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if pred():
            return True
        await asyncio.sleep(0.02)
    return bool(pred())


def test_a_disconnected_player_plays_on_in_auto_and_the_session_finishes(tmp_path):
    """Defect 13 through the real WebSocket and the serve wiring: the linked player disconnects at hand 3 of
    16; the table finishes its 16 hands (托管), reopening answers 200 (not 409), sync has them all."""
    url = f"sqlite:///{tmp_path}/hall.db"
    db = Database(url)
    db.migrate()
    repo, token = setup_event(db)
    hall = Hall(db, rooms=[competition_room()], bot_delay=(0, 0), auto_delay_s=0.0)
    app = create_app(url, hall=hall, bot_delay=(0, 0), **tournament_features())
    auth = {"Authorization": f"Bearer {token}"}
    with TestClient(app) as c:
        alice = register(c, "alice")
        acc = c.get("/api/me", headers={"Authorization": f"Bearer {alice}"}).json()["id"]
        player = first_of_tables(repo)[0]
        repo.set_account(EVENT, player, acc)
        with c.websocket_connect(f"/ws?token={alice}") as ws:
            ws.receive_json()
            r = c.post(f"/tournaments/{EVENT}/sessions/1/open", headers=auth, json={"room": "ev"})
            assert r.status_code == 200, r.text
            mine = next(t for t in r.json()["tables"] if not t["engine"])
            table_id, code = mine["hall_table"], mine["code"]
            seen = play_until(ws, hands=3)
            assert sum(1 for m in seen if m["type"] == "hand_end") == 3
        # the socket is closed (hand 3 over, hand 4 on its way): the table plays on with her chair in 托管
        assert wait(lambda: table_id not in hall.tables), "the hall table did not finish its session"
        rows = hall_hands(db, table_id)
        assert len(rows) == 16 and all(r.result is not None for r in rows)
        assert all(acc in (r.players or []) for r in rows)  # her chair, every hand: nobody took it over
        table = repo.table(EVENT, 1, mine["table"])
        assert len(table.hands) == 16
        again = c.post(f"/tournaments/{EVENT}/sessions/1/open", headers=auth)
        assert again.status_code == 200, again.text
        assert {t["table"]: t["state"] for t in again.json()["tables"]}[mine["table"]] == "done"
        synced = c.post(f"/tournaments/{EVENT}/sessions/1/sync", headers=auth)
        assert synced.status_code == 200
        assert {t["table"]: t["hands"] for t in synced.json()["tables"]}[mine["table"]] == 16
        assert code  # the table had a code while it ran (the next test joins with it)
    db.dispose()


def test_托管_until_he_returns_the_code_still_works_and_sync_enters_every_hand(tmp_path):
    """Hall level, without the result hook (the hands are entered by sync only): disconnect at hand 3, the
    table plays on; reconnect: his chair is back in his hands (托管 off); the join code still finds the table;
    disconnect again, the table plays all 16 hands and sync enters them."""
    db = Database(f"sqlite:///{tmp_path}/hall.db")
    db.migrate()
    repo, _ = setup_event(db)

    async def main() -> dict[str, Any]:
        hall = Hall(db, rooms=[competition_room()], bot_delay=(0, 0), auto_delay_s=0.0)
        p = hall.accounts.register("player01", "correct horse")
        player = first_of_tables(repo)[0]
        repo.set_account(EVENT, player, p.account_id)
        tables = await open_session(hall, repo, EVENT, 1, room_id="ev")
        mine = next(t for t in tables if t.hall_table)
        runner = hall.tables[mine.hall_table or ""]
        out: dict[str, Any] = {"table": mine.table, "id": runner.id}
        assert await await_until(lambda: runner.seat_of(p.account_id) is not None)
        seat = runner.seat_of(p.account_id)
        info = runner.seats[seat or 0]
        assert info is not None
        out["away_at_start"] = (info.online, info.auto)
        hall.route(runner.id, "connected", p.account_id)
        assert await await_until(lambda: info.online)
        assert await await_until(lambda: runner.hands_played >= 3)
        hall.route(runner.id, "disconnected", p.account_id)
        assert await await_until(lambda: not info.online)
        out["kept_playing"] = await await_until(lambda: runner.hands_played >= 6 or runner.state == "ended")
        out["state_while_away"] = runner.state
        out["seat_while_away"] = runner.seat_of(p.account_id)
        try:
            out["code_finds"] = await hall.find_table(code=runner.code) == runner.id
        except HallError as e:
            out["code_finds"] = str(e)
        hall.route(runner.id, "connected", p.account_id)
        assert await await_until(lambda: info.online)
        out["back"] = (info.online, info.auto, runner.seat_of(p.account_id))
        hall.route(runner.id, "disconnected", p.account_id)
        out["finished"] = await await_until(lambda: runner.hands_played >= 16 or runner.state == "ended")
        out["played"] = runner.hands_played
        runner.put("close")  # no hook here: the hall would deal a 17th hand
        assert await await_until(lambda: runner.id not in hall.tables)
        await hall.close()
        return out

    out = asyncio.run(main())
    assert out["away_at_start"] == (False, True)  # seated by the event while not connected: 托管
    assert out["kept_playing"] and out["state_while_away"] != "ended"
    assert out["seat_while_away"] is not None
    assert out["code_finds"] is True
    assert out["back"][:2] == (True, False) and out["back"][2] is not None
    assert out["finished"] and out["played"] >= 16
    assert sync_session(repo, EVENT, 1) == 16
    assert len(repo.table(EVENT, 1, out["table"]).hands) == 16
    assert sync_session(repo, EVENT, 1) == 0
    db.dispose()


def test_reopening_a_session_whose_hall_table_is_gone_plays_on_from_the_next_hand(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/hall.db")
    db.migrate()
    repo, _ = setup_event(db)

    async def main() -> dict[str, Any]:
        hall = Hall(db, rooms=[competition_room()], bot_delay=(0, 0), auto_delay_s=0.0)
        hall.hand_end_hooks.append(ResultHook(repo))
        p = hall.accounts.register("player01", "correct horse")
        repo.set_account(EVENT, first_of_tables(repo)[0], p.account_id)
        first = await open_session(hall, repo, EVENT, 1, room_id="ev")
        mine = next(t for t in first if t.hall_table)
        runner = hall.tables[mine.hall_table or ""]
        assert await await_until(lambda: runner.hands_played >= 3)
        runner.put("close")  # the hall table is lost mid-session (a restart, an operator)
        assert await await_until(lambda: runner.id not in hall.tables)
        again = await open_session(hall, repo, EVENT, 1, room_id="ev")
        redo = next(t for t in again if t.table == mine.table)
        others = {t.state for t in again if t.table != mine.table}
        # the new table plays bots at full speed: it may have ended (and left the hall) before
        # open_session returned, so it is looked up by id each time, never held
        assert await await_until(lambda: table_done(hall, redo.hall_table or ""))
        await hall.close()
        return {"old": runner.id, "new": redo, "others": others, "played_before": runner.hands_played}

    out = asyncio.run(main())
    redo = out["new"]
    assert redo.state == "opened" and redo.hall_table != out["old"]
    assert out["others"] == {"done"}  # the tables played by bots on the engine are finished
    n = redo.first_hand - 1
    assert 3 <= n <= out["played_before"]
    rows = hall_hands(db, redo.hall_table)
    assert [r.hand_no for r in rows] == list(range(n, 16))  # the session's hands n+1 … 16, not a new session
    assert len(repo.table(EVENT, 1, redo.table).hands) == 16
    db.dispose()


def test_duplicate_walls_are_the_same_at_every_table_and_sealed_until_the_session_ends(tmp_path):
    url = f"sqlite:///{tmp_path}/hall.db"
    db = Database(url)
    db.migrate()
    repo, token = setup_event(db)
    hall = Hall(db, rooms=[competition_room()], bot_delay=(0, 0), auto_delay_s=0.0)
    app = create_app(url, hall=hall, bot_delay=(0, 0), **tournament_features())
    auth = {"Authorization": f"Bearer {token}"}
    with TestClient(app) as c:
        toks = [register(c, f"player{i}") for i in range(3)]
        ids = [c.get("/api/me", headers={"Authorization": f"Bearer {t}"}).json()["id"] for t in toks]
        watcher = register(c, "watcher")
        east = first_of_tables(repo)
        for player, acc in zip(east[:3], ids, strict=True):  # tables 1–3 in the hall, table 4 on the engine
            repo.set_account(EVENT, player, acc)
        with c.websocket_connect(f"/ws?token={toks[0]}") as ws:
            ws.receive_json()
            r = c.post(f"/tournaments/{EVENT}/sessions/1/open", headers=auth, json={"room": "ev", "duplicate": True})
            assert r.status_code == 200, r.text
            opened = r.json()["tables"]
            assert all(t["duplicate"] for t in opened)
            hall_tables = [t for t in opened if t["hall_table"]]
            assert len(hall_tables) == 3 and sum(t["engine"] for t in opened) == 1
            # nobody may watch another table of the session, even with its code
            with c.websocket_connect(f"/ws?token={watcher}") as wv:
                wv.receive_json()
                wv.send_json({"type": "spectate", "code": hall_tables[1]["code"]})
                m = next(m for m in (wv.receive_json() for _ in range(50)) if m["type"] in ("error", "table"))
                assert m["type"] == "error" and m["code"] == "sealed", m
            seen = play_until(ws, hands=2)
        ends = [m for m in seen if m["type"] == "hand_end"]
        assert ends and all(m["seed"] is None and m["sealed"] for m in ends)  # no seed revealed at the table
        for m in seen:  # nor in the event stream
            for e in m.get("events", []) if m["type"] in ("events", "table") else []:
                assert "seed" not in e
        # while the session runs: the hands of a finished hall hand are closed to everyone, their players too
        first_hand = hall_hands(db, hall_tables[0]["hall_table"])[0]
        assert first_hand.result is not None and first_hand.seed is None
        got = c.get(f"/api/hands/{first_hand.id}", headers={"Authorization": f"Bearer {toks[0]}"})
        assert got.status_code == 404
        assert (
            c.get(
                f"/api/hands/{first_hand.id}/review?seat=0", headers={"Authorization": f"Bearer {toks[0]}"}
            ).status_code
            == 404
        )
        engine_table = next(t["table"] for t in opened if t["engine"])  # its 16 hands are entered already
        sheet = c.get(f"/tournaments/{EVENT}/sheet/1/{engine_table}")
        assert sheet.status_code == 403 and "sealed" in sheet.json()["detail"]
        assert wait(lambda: all(t["hall_table"] not in hall.tables for t in hall_tables))
        assert wait(lambda: hall_hands(db, hall_tables[0]["hall_table"])[0].seed is not None, limit=10)
        per_table = [hall_hands(db, t["hall_table"]) for t in hall_tables]
        assert all(len(rows) == 16 for rows in per_table)
        session = repo.load(EVENT).groups[0].sessions[0]
        assert all(len(t.hands) == 16 for t in session.tables)
        secret = repo.load(EVENT).extra["duplicate_walls"]["1"]["seed"]
        deal = Session(make_ruleset("gb"), bytes.fromhex(secret))
        for k in range(16):
            seeds = {rows[k].seed for rows in per_table}
            assert seeds == {deal.hand_seed(k).hex()}  # hand k: one wall at every table
            for rows in per_table:  # the commitment made at the hand's start holds
                assert hashlib.sha256(bytes.fromhex(rows[k].seed or "")).hexdigest() == rows[k].seed_hash
        # after the session: the hand is open (to its players, as any private table's), the sheets too
        assert c.get(f"/tournaments/{EVENT}/sheet/1/{engine_table}").status_code == 200
        got = c.get(f"/api/hands/{first_hand.id}", headers={"Authorization": f"Bearer {toks[0]}"})
        assert got.status_code == 200 and got.json()["seed"] == deal.hand_seed(0).hex()
    db.dispose()


def take(ws: Any, kinds: tuple[str, ...], n: int, limit: int = 2000) -> list[dict[str, Any]]:
    """The next ``n`` messages of those kinds."""
    out: list[dict[str, Any]] = []
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] in kinds and m.get("code") != "stale":  # a late answer to a withdrawn prompt
            out.append(m)
            if len(out) == n:
                break
    return out


def test_standing_up_steps_away_and_the_code_takes_him_back(tmp_path):
    """At an event table standing up is stepping away (托管, the chair kept, no escape); the table's code (or the
    WebSocket reconnecting) takes him back to his chair with 托管 off."""
    url = f"sqlite:///{tmp_path}/hall.db"
    db = Database(url)
    db.migrate()
    repo, token = setup_event(db)
    hall = Hall(db, rooms=[competition_room(timers="fast")], bot_delay=(0, 0), auto_delay_s=0.0)
    app = create_app(url, hall=hall, bot_delay=(0, 0), **tournament_features())
    with TestClient(app) as c:
        alice = register(c, "alice")
        acc = c.get("/api/me", headers={"Authorization": f"Bearer {alice}"}).json()["id"]
        repo.set_account(EVENT, first_of_tables(repo)[0], acc)
        with c.websocket_connect(f"/ws?token={alice}") as ws:
            ws.receive_json()
            r = c.post(
                f"/tournaments/{EVENT}/sessions/1/open",
                headers={"Authorization": f"Bearer {token}"},
                json={"room": "ev"},
            )
            mine = next(t for t in r.json()["tables"] if not t["engine"])
            play_until(ws, hands=1)
            ws.send_json({"type": "stand"})
            (m,) = take(ws, ("auto", "escape", "error"), 1)
            assert m["type"] == "auto" and m["on"] and m["reason"] == "away", m
            runner = hall.tables[mine["hall_table"]]
            assert runner.seat_of(acc) == 0  # the chair is still his
            ws.send_json({"type": "join", "code": mine["code"]})
            got = take(ws, ("auto", "table", "error"), 2)
            assert [m["type"] for m in got] == ["auto", "table"], got
            assert got[0]["on"] is False and got[1]["seat"] == 0 and got[1]["table"]["id"] == mine["hall_table"]
            runner.put("close")
    db.dispose()
