"""The hall as players found it in the third round: a claim window that runs out is 过 (docs/protocol.md,
"Timers and 托管"); an escape costs the escaper the room's penalty and nothing the bot does afterwards is
his (docs/protocol.md, ``stand``)."""

from __future__ import annotations

from typing import Any

import pytest
from hardening_harness import Live, run_live

from majiang.bots.base import Bot
from majiang.engine.protocol import PASS, Action
from majiang.hall import table as table_module
from majiang.hall.rooms import Room

ROOMS = [
    Room(
        id="ct",
        name="claim timeout",
        rules="gb",
        bots="rand",
        bot_fill_s=600,
        next_hand_s=0.05,
        timers="blitz",  # a claim window of 0.3 s
        claim_window_s=0.0,
        auto_after_timeouts=1000,  # the player never slides into 托管 here
    )
]


class Greedy(Bot):
    """Claims whatever it may (the last legal action that is not a pass): what an automatic decision
    would do at its worst for a player who wanted his hand concealed."""

    def choose(self, view: Any, legal: list[Action]) -> Action:
        claims = [a for a in legal if a.type != PASS]
        return claims[-1] if claims else legal[-1]


@pytest.fixture
def greedy_autoplay(monkeypatch: Any) -> None:
    monkeypatch.setattr(table_module, "autoplay_bot", lambda *_a, **_k: Greedy())


def test_a_claim_left_to_run_out_is_a_pass(tmp_path: Any, greedy_autoplay: None) -> None:
    """Was: letting the 3 s window for 碰 南 run out exposed a pung of 南 the player never chose."""

    async def body(live: Live) -> tuple[int, list[str]]:
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        ws.send({"type": "create", "room": "ct"})
        seat = (await ws.until(lambda m: m["type"] == "table"))["seat"]
        ws.send({"type": "add_bots"})
        ignored, melds = 0, []
        while True:
            m = await ws.recv(60)
            if m["type"] == "events":
                melds += [
                    e["type"] for e in m["events"] if e.get("seat") == seat and e["type"] in ("chow", "pung", "kong")
                ]
            elif m["type"] == "prompt":
                claim = any(a["type"] == "pass" for a in m["legal"])
                if claim:
                    ignored += 1  # left to run out
                else:  # our turn: discard at once
                    ws.send(
                        {
                            "type": "action",
                            "seq": m["seq"],
                            "action": next(a for a in m["legal"] if a["type"] == "discard"),
                        }
                    )
            elif m["type"] == "hand_end" and ignored:
                return ignored, melds

    (ignored, melds), errors = run_live(f"sqlite:///{tmp_path}/ct.db", ROOMS, body, timeout=300)
    assert not errors, errors[0]
    assert ignored > 0 and melds == [], (ignored, melds)


def test_an_escaper_pays_the_penalty_and_nothing_of_what_the_bot_does_after(tmp_path: Any) -> None:
    """Was: 离座 mid-hand cost 205; 托管 then won the hand and paid the escaper +315, and the stats listed
    it as a win.  Seed 001: the escaper pays, the others are compensated."""
    rooms = [
        Room(
            id="esc",
            name="escape",
            rules="gb",
            bots="fan",
            bot_fill_s=600,
            next_hand_s=0.05,
            timers="blitz",
            coefficient=10,
            fee=1,
            claim_window_s=0.0,
        )
    ]

    async def body(live: Live) -> tuple[int, int, dict[str, Any], dict[str, Any], dict[str, Any]]:
        (tok, acc), (tok2, _) = await live.guest(), await live.guest()
        ws, friend = await live.connect(tok), await live.connect(tok2)
        ws.send({"type": "create", "room": "esc"})
        table = (await ws.until(lambda m: m["type"] == "table"))["table"]["id"]
        friend.send({"type": "join", "table": table})
        await friend.until(lambda m: m["type"] == "table")
        ws.send({"type": "add_bots"})
        await ws.until(lambda m: m["type"] == "prompt")
        before = await _balance(live, acc)
        ws.send({"type": "stand"})
        esc = await friend.until(lambda m: m["type"] == "escape")
        end = await friend.until(lambda m: m["type"] == "hand_end", timeout=240)
        after = await _balance(live, acc)
        assert live.http is not None
        profile = (await live.http.get(f"/api/players/{acc}", headers={"Authorization": f"Bearer {tok}"})).json()
        audit = (await live.http.get("/api/ledger/audit")).json()
        return before - after, esc["penalty"], end, profile, audit

    (paid, penalty, end, profile, audit), errors = run_live(f"sqlite:///{tmp_path}/esc.db", rooms, body, timeout=300)
    assert not errors, errors[0]
    assert paid == penalty == rooms[0].penalty(), (paid, penalty)  # whatever the escaped seat's hand did
    assert audit["ok"] and audit["total"] == 0
    assert profile["escapes"] == 1 and profile["hands"] == 0 and profile["wins"] == 0, profile
    assert sum(end["coins"]) <= 0  # the house took the fees (and the escaped seat's result)


async def _balance(live: Live, account: int) -> int:
    return int((await live.hall.run_db(live.hall.store.balances, [account]))[0])
