"""Regression tests for issue 14 (second half): seats, escapes, private tables, false wins, stakes,
table creation, the claim-window side channel, Redis as a trust boundary.

Each test states the correct behaviour; its docstring says what the server did before the fix.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hardening_harness import Live, WSClosed, run_live

from majiang.hall.rooms import Room

ROOMS = [Room(id="i14", name="issue 14", rules="gb", bots="rand", bot_fill_s=600, next_hand_s=0.05, timers="relaxed",
              spectate_delay_s=0.0, reconnect_grace_s=0.3)]


def live_run(tmp_path: Any, body: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    return run_live(f"sqlite:///{tmp_path}/i14.db", ROOMS, body, timeout=120, **kwargs)


def seats_of(live: Live, account: int) -> list[str]:
    return [t.id for t in live.hall.tables.values() for s in t.seats
            if s is not None and s.human and s.account_id == account and not s.escaped]


async def balance(live: Live, account: int) -> int:
    return int((await live.hall.run_db(live.hall.store.balances, [account]))[0])


def test_a_burst_of_joins_takes_one_seat(tmp_path: Any) -> None:
    """Was (#1): every 'join' of a burst was routed before the first seat was taken: one guest sat at 20
    of 20 tables; after it left one, the others played on for ever."""
    async def body(live: Live) -> tuple[list[str], list[str], int]:
        ids = [(await live.hall.create_table("i14")).id for _ in range(20)]
        tok, acc = await live.guest()
        ws = await live.connect(tok)
        for t in ids:
            ws.send({"type": "join", "table": t})
        for kind in ("quick_join", "create"):
            ws.send({"type": kind, "room": "i14"})
        await ws.settle(0.2)
        seated = seats_of(live, acc)
        ws.send({"type": "add_bots"})
        await ws.until(lambda m: m["type"] == "prompt")
        await ws.close()
        for _ in range(200):  # the grace, then the hand plays out in 托管 and the table ends
            await asyncio.sleep(0.05)
            if not any(t.humans() for t in live.hall.tables.values()):
                break
        playing = [t.id for t in live.hall.tables.values() if t.humans()]
        return seated, playing, len(live.hall.tables)

    (seated, playing, _n), errors = live_run(tmp_path, body)
    assert len(seated) == 1, f"one account seated at {len(seated)} tables"
    assert not playing, f"{len(playing)} table(s) play on with nobody connected"
    assert not errors, errors[0]


def test_a_socket_closed_mid_hand_is_an_escape_after_the_grace(tmp_path: Any) -> None:
    """Was (#14): closing the socket mid-hand put the seat in 托管 and the seat was given up at the hand's
    end: no escape penalty, unlike 'stand'."""
    async def body(live: Live) -> tuple[int, int, int]:
        tok, acc = await live.guest()
        ws = await live.connect(tok)
        ws.send({"type": "create", "room": "i14"})
        await ws.until(lambda m: m["type"] == "table")
        ws.send({"type": "add_bots"})
        await ws.until(lambda m: m["type"] == "prompt")
        before = await balance(live, acc)
        await ws.close()
        await asyncio.sleep(0.8)
        after = await balance(live, acc)
        # a player back within the grace pays nothing
        tok2, acc2 = await live.guest()
        ws2 = await live.connect(tok2)
        ws2.send({"type": "create", "room": "i14"})
        await ws2.until(lambda m: m["type"] == "table")
        ws2.send({"type": "add_bots"})
        await ws2.until(lambda m: m["type"] == "prompt")
        before2 = await balance(live, acc2)
        await ws2.close()
        ws3 = await live.connect(tok2)
        await asyncio.sleep(0.6)
        with_return = before2 - await balance(live, acc2)
        await ws3.close()
        return before - after, ROOMS[0].penalty(), with_return

    (paid, penalty, with_return), errors = live_run(tmp_path, body)
    assert paid == penalty, f"paid {paid}, the room's penalty is {penalty}"
    assert with_return == 0
    assert not errors, errors[0]


__all__ = ["WSClosed"]
