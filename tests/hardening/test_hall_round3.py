"""The hall as players found it in the third round: a claim window that runs out is 过 (docs/protocol.md,
"Timers and 托管"); an escape costs the escaper the room's penalty and nothing the bot does afterwards is
his (docs/protocol.md, ``stand``)."""

from __future__ import annotations

from typing import Any

import pytest
from hardening_harness import Live, run_live

from majiang.bots.base import Bot
from majiang.engine.protocol import PASS, Action
from majiang.hall import turns as turns_module
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
    monkeypatch.setattr(turns_module, "autoplay_bot", lambda *_a, **_k: Greedy())


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
            auto_delay_s=0.02,  # 托管's pause per move (the hall's 0.5 s) is not what this tests
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


def test_a_dongfeng_match_places_the_seats_and_moves_the_rank(tmp_path: Any) -> None:
    """Was: every hand stood alone — no 东风战 / 全庄, no places, no 段位.  A room with match_hands 4 plays
    東風戦: four hands with running totals, then the places, the rank points and a fresh East round."""
    from majiang.hall.match import level, places

    rooms = [
        Room(
            id="m4",
            name="东风战",
            rules="gb",
            bots="rand",
            bot_fill_s=600,
            next_hand_s=0.05,
            timers="blitz",
            claim_window_s=0.0,
            match_hands=4,
            place_points=(30, 10, -10, -30),
            auto_delay_s=0.02,  # 托管's pause per move (the hall's 0.5 s) is not what this tests
        )
    ]

    async def body(live: Live) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any], dict[str, Any], int]:
        assert live.http is not None
        r = await live.http.post("/api/register", json={"username": "matcher", "password": "correct horse"})
        tok = r.json()["token"]
        ws = await live.connect(tok)
        ws.send({"type": "create", "room": "m4"})
        seat = (await ws.until(lambda m: m["type"] == "table"))["seat"]
        ws.send({"type": "auto", "on": True})  # 托管 plays the hands
        ws.send({"type": "add_bots"})
        ends = [await ws.until(lambda m: m["type"] == "hand_end", timeout=300) for _ in range(4)]
        match_end = await ws.until(lambda m: m["type"] == "match_end", timeout=60)
        nxt = await ws.until(lambda m: m["type"] == "events" and m["events"][0]["type"] == "hand_start", timeout=60)
        board = (await live.http.get("/api/leaderboard?rules=gb&by=rank")).json()
        return ends, match_end, nxt["events"][0], board, seat

    (ends, match_end, start, board, seat), errors = run_live(f"sqlite:///{tmp_path}/m4.db", rooms, body, timeout=600)
    assert not errors, errors[0]
    totals = [sum(e["scores"][s] for e in ends) for s in range(4)]
    assert [e["match"]["hand"] for e in ends] == [1, 2, 3, 4] and all(e["match"]["of"] == 4 for e in ends)
    assert ends[-1]["match"]["totals"] == totals == match_end["totals"]
    assert match_end["places"] == places(totals) and sorted(match_end["places"]) == [1, 2, 3, 4]
    mine = match_end["places"][seat]
    assert match_end["points"][seat] == (30, 10, -10, -30)[mine - 1]
    assert [p for s, p in enumerate(match_end["points"]) if s != seat] == [0, 0, 0]  # bots hold no 段位
    got = max(0, (30, 10, -10, -30)[mine - 1])
    assert match_end["ranks"][seat]["after"] == level(got)
    assert [(p["name"], p["points"]) for p in board["players"]] == [("matcher", got)]
    assert start["dealer"] == 0 and start.get("round", 0) == 0  # the next match: East round, seat 0 deals


def test_the_review_marks_what_tuoguan_decided_and_does_not_count_it(tmp_path: Any) -> None:
    """Was: the AI review credited 托管's moves to the player, unmarked."""
    rooms = [
        Room(
            id="rv",
            name="review",
            rules="gb",
            bots="rand",
            bot_fill_s=600,
            next_hand_s=0.05,
            timers="blitz",
            auto_delay_s=0.02,  # 托管's pause per move (the hall's 0.5 s) is not what this tests
            claim_window_s=0.0,
        )
    ]

    async def body(live: Live) -> tuple[dict[str, Any], dict[str, Any], int]:
        assert live.http is not None
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        ws.send({"type": "create", "room": "rv"})
        seat = (await ws.until(lambda m: m["type"] == "table"))["seat"]
        ws.send({"type": "auto", "on": True})  # 托管 from the first decision on
        ws.send({"type": "add_bots"})
        end = await ws.until(lambda m: m["type"] == "hand_end", timeout=300)
        ws.send({"type": "stand"})
        r = await live.http.get(
            f"/api/hands/{end['hand']}/review?seat={seat}", headers={"Authorization": f"Bearer {tok}"}
        )
        assert r.status_code == 200, r.text
        return end, r.json(), seat

    (end, review, seat), errors = run_live(f"sqlite:///{tmp_path}/rv.db", rooms, body, timeout=600)
    assert not errors, errors[0]
    auto = end["result"]["auto"][str(seat)]
    assert review["decisions"] and all(d["auto"] for d in review["decisions"]), review["decisions"][:3]
    assert sorted(d["event"] for d in review["decisions"]) == sorted(set(auto))
    assert review["summary"]["decisions"] == 0 and review["mistakes"] == []
