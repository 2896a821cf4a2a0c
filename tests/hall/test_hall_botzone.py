"""Botzone bots (outside programs) at hall tables: they think off the event loop, players see a short
label and never the command line, and a room caps how many it runs (majiang.hall.botprocs)."""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hall_helpers import FAST, make_client, register
from majiang.hall import botprocs
from majiang.hall.rooms import Room, load_rooms

BOT = Path(__file__).resolve().parents[1] / "bots" / "botzone_bot.py"
CMD = f"{sys.executable} {BOT}"


def _until(ws: Any, kind: str, limit: int = 5000, pred: Any = lambda m: True) -> dict[str, Any]:
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == kind and pred(m):
            return dict(m)
    raise AssertionError(f"no {kind}")


def _answer(m: dict[str, Any]) -> dict[str, Any]:
    legal = m["legal"]
    return dict(next((x for x in legal if x["type"] == "pass"), legal[-1]))


def _prompt_latencies(ws: Any, n: int, seconds: float = 0.0) -> list[float]:
    """Seconds from each answer to the next prompt of the same hand (the three bots of the table
    play in between), for ``n`` prompts and at least ``seconds``."""
    out: list[float] = []
    sent: float | None = None
    until = time.monotonic() + seconds
    while len(out) < n or time.monotonic() < until:
        m = ws.receive_json()
        if m["type"] == "hand_end":
            sent = None
        elif m["type"] == "prompt":
            if sent is not None:
                out.append(time.monotonic() - sent)
            time.sleep(0.05)  # a human's pace: the hall allows an account 30 messages a second
            ws.send_json({"type": "action", "seq": m["seq"], "action": _answer(m)})
            sent = time.monotonic()
    return out


def test_a_slow_botzone_bot_does_not_hold_up_other_tables(tmp_path: Path) -> None:
    """Table A's Botzone bots think 0.5 s a turn; table B (built-in bots) must not wait for them.
    On a hall that asked the bot on the event loop, B waited about as long as A's bots thought."""
    log = tmp_path / "answers.jsonl"
    slow = f"botzone@5:{CMD} --sleep 0.5 --log {log}"
    rooms = [
        Room(id="a", name="slow", rules="botzone", **{**FAST, "bots": slow, "timers": "relaxed"}),  # type: ignore[arg-type]
        Room(id="b", name="fast", rules="gb", **{**FAST, "timers": "relaxed"}),  # type: ignore[arg-type]
    ]
    with make_client(tmp_path, rooms) as c:
        ta, tb = register(c, "alice"), register(c, "bobby")
        with c.websocket_connect(f"/ws?token={tb}") as wb:
            wb.receive_json()
            wb.send_json({"type": "quick_join", "room": "b"})
            alone = _prompt_latencies(wb, 12)  # B alone
            with c.websocket_connect(f"/ws?token={ta}") as wa:
                wa.receive_json()
                wa.send_json({"type": "quick_join", "room": "a"})
                _until(wa, "table")
                wa.send_json({"type": "auto", "on": True})  # A plays itself: 托管 and three slow bots
                _until(wa, "table_info", pred=lambda m: m["table"]["state"] == "playing")  # A's hand is on
                start = time.time()
                busy = _prompt_latencies(wb, 12, seconds=8)  # B while A's bots think
                end = time.time()
                wa.send_json({"type": "stand"})
    answered = [json.loads(x)["answered"] for x in log.read_text().splitlines() if "answered" in x]
    during = [t for t in answered if start <= t <= end]
    held = sum(max(0.0, x - 0.2) for x in busy)  # B's waiting beyond 0.2 s a prompt, summed
    thought = 0.5 * len(during)  # A's bots' thinking meanwhile (at least)
    print(
        f"B's latency to its next prompt: alone median {statistics.median(alone):.3f} s max {max(alone):.3f} s; "
        f"with A's slow bots median {statistics.median(busy):.3f} s max {max(busy):.3f} s over {len(busy)} prompts; "
        f"B held up {held:.2f} s while A's bots thought {thought:.1f} s ({len(during)} answers)"
    )
    assert len(during) >= 4, "A's slow bot should have been thinking while B was measured"
    # a loop blocked by A's bot holds B's prompt in flight up for about all of A's thinking time; generous
    # for a loaded machine: B may be held up a quarter of it
    assert held < 0.25 * thought
    assert statistics.median(busy) < statistics.median(alone) + 0.2


def test_players_see_a_label_not_the_command_line(tmp_path: Path) -> None:
    rooms = [
        Room(id="t", name="t", rules="botzone", **{**FAST, "bots": f"botzone:{CMD}"}),  # type: ignore[arg-type]
        Room(
            id="n",
            name="n",
            rules="botzone",
            **{**FAST, "bots": f"botzone-simple:{CMD} --simple", "bot_name": "测试 Bot"},
        ),  # type: ignore[arg-type]
    ]
    with make_client(tmp_path, rooms) as c:
        listed = json.dumps(c.get("/api/rooms").json(), ensure_ascii=False)
        for room, want in (("t", "Botzone bot botzone_bot"), ("n", "测试 Bot")):
            tok = register(c, f"player{room}")
            with c.websocket_connect(f"/ws?token={tok}") as ws:
                ws.receive_json()
                ws.send_json({"type": "quick_join", "room": room})
                snap = _until(ws, "table")
                info = _until(ws, "table_info", pred=lambda m: all(m["table"]["seats"]))
                seen = json.dumps([snap, info], ensure_ascii=False)
                names = [s["name"] for s in info["table"]["seats"] if s["bot"]]
                assert len(names) == 3 and all(n.startswith(want) for n in names), names
                for secret in (str(BOT), BOT.name, sys.executable, "botzone:", "--simple"):
                    assert secret not in seen and secret not in listed
                ws.send_json({"type": "stand"})


def test_a_room_caps_its_outside_programs_and_falls_back_to_built_in_bots(tmp_path: Path) -> None:
    room = Room(id="cap", name="cap", rules="botzone", bots=f"botzone:{CMD}", bot_processes=4, bot_fallback="rand")

    class Host:  # the cap is per hall
        pass

    host, other = Host(), Host()
    first = [botprocs.seat_bot(host, room, i, seed=i) for i in range(3)]
    second = [botprocs.seat_bot(host, room, i, seed=i) for i in range(3)]
    made = first + second
    assert [isinstance(m.bot, botprocs.ProcessBot) for m in made] == [True] * 4 + [False] * 2
    assert [m.name for m in made[4:]] == ["rand-bot-1", "rand-bot-2"] and made[4].account == "rand"
    assert botprocs.CAP.held(host, room) == 4
    assert isinstance(botprocs.seat_bot(other, room, 0, seed=0).bot, botprocs.ProcessBot)  # another hall's count
    botprocs.close_all([m.bot for m in first])  # the first table ends: its three places are free again
    assert botprocs.CAP.held(host, room) == 1
    again = [botprocs.seat_bot(host, room, i, seed=i) for i in range(4)]
    assert [isinstance(m.bot, botprocs.ProcessBot) for m in again] == [True, True, True, False]
    botprocs.close_all([m.bot for m in second + again])
    assert botprocs.CAP.held(host, room) == 0


def test_a_table_past_the_cap_plays_with_the_fallback_bots(tmp_path: Path) -> None:
    rooms = [Room(id="t", name="t", rules="botzone", **{**FAST, "bots": f"botzone:{CMD}", "bot_processes": 2})]  # type: ignore[arg-type]
    with make_client(tmp_path, rooms) as c:
        tok = register(c)
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            info = _until(ws, "table_info", pred=lambda m: all(m["table"]["seats"]))
            names = sorted(s["name"] for s in info["table"]["seats"] if s["bot"])
            assert [n.split()[0] for n in names] == ["Botzone", "Botzone", "fan-bot-3"], names
            _until(ws, "prompt")  # and the hand plays


def test_rooms_file_checks_the_bot_settings(tmp_path: Path) -> None:
    def load(extra: str) -> list[Room]:
        p = tmp_path / "rooms.toml"
        p.write_text(f'[[room]]\nid = "x"\nname = "x"\n{extra}\n', encoding="utf-8")
        return load_rooms(p)

    (room,) = load(f"bots = 'botzone:{CMD}'\nbot_processes = 3")
    assert room.bot_processes == 3 and room.to_dict()["bots"] == "Botzone bot botzone_bot"
    for bad, why in (
        ("bots = 'botzone:/no/such/bot'", "no such program"),
        ("bots = 'smart'", "use one of"),
        (f"bots = 'botzone:{CMD}'\nbot_fallback = 'ext:/bin/cat'", "built-in"),
        ("bot_processes = -1", "bot_processes"),
    ):
        with pytest.raises(ValueError, match=why):
            load(bad)


class _LateInner:
    """A bot program's driver whose every answer was late: it plays the replacement and says so."""

    name = "botzone:./late"

    def __init__(self) -> None:
        self.faults = 0
        self.last_fault: str | None = None

    def prepare(self, view: Any, legal: list[Any]) -> list[Any]:
        return list(legal)

    def answer(self, legal: list[Any]) -> Any:
        self.faults += 1
        self.last_fault = "TLE"
        return legal[-1]


def test_the_hall_logs_each_fault_of_a_bot_program_by_kind(caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    from majiang.engine.hand import Hand
    from majiang.rulesets import make_ruleset

    hand = Hand(make_ruleset("gb"), bytes(32))
    seat = hand.current
    bot = botprocs.ProcessBot(_LateInner(), "Botzone bot late", lambda: None)
    with caplog.at_level("WARNING", logger="majiang.hall.bots"):
        action = asyncio.run(bot.decide(hand, seat, hand.legal(seat), lambda: True))
    assert action == hand.legal(seat)[-1] and bot.fault_kinds == {"TLE": 1}
    line = next(r.getMessage() for r in caplog.records if r.name == "majiang.hall.bots")
    assert f"Botzone bot late at seat {seat}: timeout fault (TLE)" in line and "timeout 1" in line
