"""Regression tests for the server bugs the hardening suite found, each as its smallest case.

Each test states the correct behaviour; its docstring says what the server did before the fix.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import secrets
import sqlite3
import threading
import types
from typing import Any

import pytest
from hardening_harness import Live, WSClosed, run_live

from majiang.engine.session import Session
from majiang.hall import turns as table_module  # where a new session draws its seed
from majiang.hall.rooms import Room
from majiang.rulesets import make_ruleset

ROOMS = [
    Room(
        id="kb",
        name="known bugs",
        rules="gb",
        bots="rand",
        bot_fill_s=600,
        next_hand_s=0.05,
        timers="relaxed",
        spectate_delay_s=0.0,
    ),
    Room(id="kb-vip", name="vip", rules="gb", bots="rand", min_balance=10**9),
]


def live_run(tmp_path: Any, body: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    return run_live(f"sqlite:///{tmp_path}/kb.db", ROOMS, body, timeout=120, **kwargs)


async def seated_with_prompt(live: Live) -> tuple[Any, str, dict[str, Any]]:
    tok, _ = await live.guest()
    ws = await live.connect(tok)
    ws.send({"type": "create", "room": "kb"})
    m = await ws.until(lambda m: m["type"] == "table")
    ws.send({"type": "add_bots"})
    prompt = await ws.until(lambda m: m["type"] == "prompt")
    return ws, m["table"]["id"], prompt


def test_a_binary_frame_is_refused_like_any_bad_message(tmp_path: Any) -> None:
    """Was: a binary WebSocket frame raises KeyError('text') in the /ws handler (websocket.receive_text) —
    an unhandled exception, the connection dies."""

    async def body(live: Live) -> list[dict[str, Any]]:
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        ws.send_bytes(b'{"type": "ping"}')
        first = await ws.recv()
        ws.send({"type": "ping"})
        return [first, await ws.recv()]

    (first, second), errors = live_run(tmp_path, body)
    assert first["type"] in ("error", "pong") and second["type"] == "pong"
    assert not errors, errors[0]


def dealer_flower_seed() -> bytes:
    """A session seed whose first hand leaves the dealer (seat 0) with no drawn tile: the 14th tile
    dealt was a flower."""
    for i in range(100_000):
        seed = hashlib.sha256(b"hardening %d" % i).digest()
        hand = Session(make_ruleset("gb"), seed).new_hand()
        assert hand is not None
        if hand.current == 0 and hand.seats[0].drawn is None and hand.turn_drawn:
            return seed
    raise AssertionError("no such seed")


def test_a_false_win_on_the_first_turn_after_a_flower(tmp_path: Any, monkeypatch: Any) -> None:
    """Was: a 'win' declared by the dealer whose 14th tile was a flower (no drawn tile) reaches MCR
    false_win with the client's tile: ValueError 'count out of range' / IndexError in the table runner,
    logged, 'internal' error."""
    seed = dealer_flower_seed()
    monkeypatch.setattr(
        table_module, "secrets", types.SimpleNamespace(token_hex=secrets.token_hex, token_bytes=lambda n: seed)
    )

    async def body(live: Live) -> list[dict[str, Any]]:
        ws, _tid, prompt = await seated_with_prompt(live)
        view = prompt["view"]
        assert view["seat"] == 0 and view["drawn"] is None and view["phase"] == "turn"
        tile = next(t for t in ["1m", "9p", "E", "C", "5s"] if t not in view["hand"])
        ws.send({"type": "action", "seq": prompt["seq"], "action": {"type": "win", "tile": tile}})
        return await ws.settle(0.1)

    got, errors = live_run(tmp_path, body)
    assert not any(m.get("code") == "internal" for m in got), got
    assert not errors, errors[0]


def test_spectate_while_seated_is_refused(tmp_path: Any) -> None:
    """Was: 'spectate' is not refused while seated: the player's table mapping moves to the watched table,
    so their own seat stops getting their actions (and stand/quick_join then act on the wrong table)."""

    async def body(live: Live) -> tuple[dict[str, Any], str | None, bool]:
        ws, mine, _prompt = await seated_with_prompt(live)
        await seated_with_prompt(live)
        other_id = next(t for t in live.hall.tables if t != mine)
        ws.send({"type": "spectate", "table": other_id})
        m = await ws.until(lambda m: m["type"] in ("error", "table"))
        await asyncio.sleep(0.05)
        acc = next(s.account_id for s in live.hall.tables[mine].seats if s is not None and s.human)
        return m, await live.hall.where_of(acc), acc in live.hall.tables[other_id].spectators

    (reply, where, watching), errors = live_run(tmp_path, body)
    assert reply["type"] == "error" and reply["code"] == "seated", reply
    assert where is not None and not watching
    assert not errors


def test_a_refused_create_leaves_no_table(tmp_path: Any) -> None:
    """Was: create/quick_join in a room the player may not enter (balance) makes the table first and refuses
    the seat after: an empty table stays forever (one per refused 'create'), listed in the lobby."""

    async def body(live: Live) -> tuple[list[str], int, int]:
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        codes = []
        for kind in ("create", "create", "quick_join", "create"):
            ws.send({"type": kind, "room": "kb-vip"})
            codes.append((await ws.recv())["code"])
        await asyncio.sleep(0.1)
        assert live.http is not None
        listed = next(r["tables"] for r in (await live.http.get("/api/rooms")).json() if r["id"] == "kb-vip")
        return codes, len(live.hall.tables), listed

    (codes, tables, listed), _errors = live_run(tmp_path, body)
    assert codes == ["balance"] * 4
    assert tables == 0 and listed == 0, f"{tables} empty tables left behind"


def test_a_spectator_who_disconnects_is_no_longer_at_the_table(tmp_path: Any) -> None:
    """Was: a spectator who disconnects is dropped from the spectators but stays mapped to the table
    (on_disconnected never calls hall.left): on reconnect 'welcome' names that table and sits/quick_join are
    sent there."""

    async def body(live: Live) -> tuple[str | None, dict[str, Any]]:
        _ws, tid, _prompt = await seated_with_prompt(live)
        tok, _ = await live.guest()
        w = await live.connect(tok)
        w.send({"type": "spectate", "table": tid})
        await w.until(lambda m: m["type"] == "table")
        await w.close()
        await asyncio.sleep(0.05)
        w = await live.connect(tok, welcome=False)
        welcome = await w.recv()
        w.send({"type": "quick_join", "room": "kb"})
        m = await w.until(lambda m: m["type"] in ("table", "error"))
        return welcome["table"], m

    (table, joined), _errors = live_run(tmp_path, body)
    assert table is None
    assert joined["type"] == "table" and joined.get("seat") is not None, joined


def test_first_add_bots_while_another_connection_writes(tmp_path: Any) -> None:
    """Was: hall.bot_account creates the bot account on the event loop thread (table.fill_bots →
    accounts.bot_account → ledger.grant, a blocking write): while another connection writes, SQLite says
    'database is locked', the table runner logs it and the player gets 'internal'; add_bots fails."""

    async def body(live: Live) -> dict[str, Any]:
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        ws.send({"type": "create", "room": "kb"})
        await ws.until(lambda m: m["type"] == "table")
        other = sqlite3.connect(tmp_path / "kb.db", timeout=30, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # what the executor does while it commits hand events or a sign-up
        threading.Timer(0.5, lambda: other.execute("COMMIT")).start()
        ws.send({"type": "add_bots"})
        return await ws.until(lambda m: m["type"] in ("events", "error"), timeout=30)

    first, errors = live_run(tmp_path, body)
    assert first["type"] == "events", first
    assert not errors, errors[0]


@pytest.mark.parametrize(
    "path",
    ["/api/players/9223372036854775808", "/api/hands/9223372036854775808", "/api/players/-9223372036854775809/hands"],
)
def test_a_huge_id_is_a_404_not_a_500(tmp_path: Any, path: str) -> None:
    """Was: integer path parameters were unbounded: an id ≥ 2**63 reached the database (OverflowError → 500)."""

    async def body(live: Live) -> int:
        assert live.http is not None
        return (await live.http.get(path)).status_code

    status, _errors = live_run(tmp_path, body)
    assert status in (401, 404, 422)  # 401: a hand history needs its owner's token (it shows the owner's hands)


def test_the_csp_lets_docs_load_what_it_needs(tmp_path: Any) -> None:
    """Was: /docs loads Swagger UI from cdn.jsdelivr.net but every page gets Content-Security-Policy script-
    src 'self': the browser blocks it, /docs is blank."""

    async def body(live: Live) -> tuple[str, str]:
        assert live.http is not None
        r = await live.http.get("/docs")
        return r.text, r.headers["Content-Security-Policy"]

    (html, csp), _errors = live_run(tmp_path, body)
    external = set(re.findall(r"""(?:src|href)=['"](https?://[^/'"]+)""", html))
    policy = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    blocked = sorted(
        o
        for o in external
        if not any(o in policy.get(k, []) for k in ("script-src", "style-src", "img-src", "default-src"))
    )
    assert not blocked, f"/docs loads from {blocked}, which its own CSP forbids: {csp}"


def test_the_fan_calculator_validates_its_body(tmp_path: Any) -> None:
    """Was: pOST /api/fan takes any JSON object (dict[str, Any]) and answers an invalid hand with 200
    {'error': …} instead of a 422 validation error."""

    async def body(live: Live) -> list[int]:
        assert live.http is not None
        return [
            (await live.http.post("/api/fan", json=b)).status_code
            for b in ({"hand": 5}, {"zzz": 1}, {"rules": 5, "hand": ["1m"]})
        ]

    statuses, _errors = live_run(tmp_path, body)
    assert statuses == [422, 422, 422], statuses


def test_logout_closes_the_open_websocket(tmp_path: Any) -> None:
    """Was: POST /api/logout revoked the tokens, but the account's open WebSocket stayed connected and kept
    playing."""

    async def body(live: Live) -> tuple[list[dict[str, Any]], int | None]:
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        assert live.http is not None
        await live.http.post("/api/logout", headers={"Authorization": f"Bearer {tok}"})
        got = []
        with contextlib.suppress(WSClosed):
            while True:
                got.append(await ws.recv(2))
        return got, ws.close_code

    (got, code), errors = live_run(tmp_path, body)
    assert [m["type"] for m in got] == ["kicked"] and "logged out" in got[0]["reason"]
    assert code == 4401
    assert not errors, errors[0]
