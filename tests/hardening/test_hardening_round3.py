"""Regression tests for the third red-team round (docs/hardening.md, "Round 3"): what a player may
write, the lobby chat's budget, spreadsheet formulas in exports.

Each test states the correct behaviour; its docstring says what the server did before the fix.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hardening_harness import Live, run_live

from majiang.hall.rooms import Room
from majiang.hall.service import LOBBY_LINES_BURST
from majiang.hall.text import clean_chat

ROOMS = [Room(id="r3", name="round 3", rules="gb", bots="rand", bot_fill_s=600, timers="relaxed")]
HOSTILE = "a\u202egnp.exe\u200b\u200d\x00\nforged: line\u2066\ufeff b"


def live_run(tmp_path: Any, body: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    return run_live(f"sqlite:///{tmp_path}/r3.db", ROOMS, body, timeout=120, **kwargs)


def test_clean_chat_keeps_words_and_drops_what_hides_or_forges() -> None:
    assert clean_chat(HOSTILE) == "agnp.exe forged: line b"
    assert clean_chat("碰！  好牌 🀄") == "碰！ 好牌 🀄"
    assert clean_chat("\u200b\u200c\u202e\x00 \n") == ""
    assert len(clean_chat("x" * 5000)) == 200


def test_chat_reaches_others_without_control_bidi_or_zero_width_characters(tmp_path: Any) -> None:
    """Was: chat delivered bidi overrides, zero-width characters, NUL and newlines unchanged."""

    async def body(live: Live) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        (ta, _), (tb, _) = await live.guest(), await live.guest()
        a, b = await live.connect(ta), await live.connect(tb)
        for ws in (a, b):
            ws.send({"type": "lobby"})
            await ws.until(lambda m: m["type"] == "lobby")
        a.send({"type": "chat", "scope": "lobby", "text": HOSTILE})
        heard = await b.until(lambda m: m["type"] == "chat")
        a.send({"type": "chat", "scope": "lobby", "text": "\u200b\u202e\x00"})
        refused = await a.until(lambda m: m["type"] == "error")
        a.send({"type": "create", "room": "r3"})
        await a.until(lambda m: m["type"] == "table")
        a.send({"type": "chat", "text": HOSTILE})
        at_table = await a.until(lambda m: m["type"] == "chat" and m["scope"] == "table")
        return heard, refused, at_table

    (heard, refused, at_table), errors = live_run(tmp_path, body)
    assert heard["text"] == at_table["text"] == "agnp.exe forged: line b"
    assert refused["code"] == "bad_message", refused
    assert not errors, errors[0]


def test_the_lobby_takes_a_bounded_number_of_lines_whatever_the_number_of_senders(tmp_path: Any) -> None:
    """Was: no hall-wide limit; 40 guests put 261 lines/s on every lobby reader."""
    senders, lines_each = 12, 6

    async def body(live: Live) -> tuple[int, int, float]:
        reader = await live.connect((await live.guest())[0])
        reader.send({"type": "lobby"})
        await reader.until(lambda m: m["type"] == "lobby")
        socks = [await live.connect((await live.guest())[0]) for _ in range(senders)]
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        for i in range(lines_each):
            for ws in socks:
                ws.send({"type": "chat", "scope": "lobby", "text": f"line {i}"})
        refused = 0
        for ws in socks:  # every line is answered: a refusal, or (for the said ones) nothing
            refused += sum(1 for m in await ws.settle(0.3) if m["type"] == "error" and m["code"] == "rate_limited")
        heard = sum(1 for m in await reader.settle(0.3) if m["type"] == "chat")
        return heard, refused, loop.time() - t0

    (heard, refused, elapsed), errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    allowed = LOBBY_LINES_BURST + 10.0 * elapsed  # LOBBY_LINES_PER_S over the time the flood took
    assert heard <= allowed, f"a reader got {heard} lines in {elapsed:.1f} s (bound {allowed:.0f})"
    assert heard + refused == senders * lines_each, (heard, refused)
    assert refused > 0


# ---- limits per network ---------------------------------------------------------------------------------
def _guests_from(db: Any, addresses: list[str], limits: Any, headers: dict[str, str] | None = None) -> list[int]:
    """The status of one POST /api/guest from each address, on a fresh hall (database file ``db``)."""
    import httpx
    from hardening_harness import LiveSession

    session = LiveSession(f"sqlite:///{db}", ROOMS, limits=limits)

    async def body() -> list[int]:
        codes = []
        for a in addresses:
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=session.live.app, client=(a, 40000)), base_url="http://testserver"
            ) as c:
                codes.append((await c.post("/api/guest", headers=headers or {})).status_code)
        return codes

    try:
        return session.run(body(), 60)
    finally:
        session.close()


def test_guest_limit_counts_an_ipv4_24_and_an_ipv6_64_once(tmp_path: Any) -> None:
    """Was: the limits keyed on the full address: 12 source addresses got 60 guests instead of 5, and
    an IPv6 /64 gave anyone 2^64 addresses."""
    from majiang.hall.limits import Limits

    limits = Limits(guests_per_address_per_hour=20.0, guest_burst=5.0)
    v4 = _guests_from(tmp_path / "v4.db", [f"198.51.100.{i}" for i in range(1, 13)], limits)
    v6 = _guests_from(tmp_path / "v6.db", [f"2001:db8:7:9::{i:x}" for i in range(1, 13)], limits)
    other = _guests_from(
        tmp_path / "other.db",
        ["198.51.100.9", "198.51.101.9"],
        Limits(guests_per_address_per_hour=20.0, guest_burst=1.0),
    )
    assert v4.count(200) == 5 and v4.count(429) == 7, v4
    assert v6.count(200) == 5 and v6.count(429) == 7, v6
    assert other == [200, 200]  # the next /24 is another network


def test_forwarded_for_is_believed_only_from_a_trusted_proxy(tmp_path: Any) -> None:
    from majiang.hall.limits import Limits

    one = Limits(guests_per_address_per_hour=20.0, guest_burst=1.0)
    spoof = {"X-Forwarded-For": "192.0.2.1"}
    # a client reaching the hall directly cannot pick the address it is counted as
    assert _guests_from(tmp_path / "direct.db", ["203.0.113.5", "203.0.113.5"], one, spoof) == [200, 429]
    # behind a trusted proxy, each client behind it is counted as itself (the client-written left part ignored)
    behind = Limits(guests_per_address_per_hour=20.0, guest_burst=1.0, trusted_proxies=("10.0.0.0/8",))
    codes = []
    for i, client in enumerate(("192.0.2.1", "198.51.100.1", "192.0.2.77")):
        codes += _guests_from(
            tmp_path / f"proxy{i}.db", ["10.0.0.2"], behind, {"X-Forwarded-For": f"6.6.6.6, {client}, 10.0.0.3"}
        )
    assert codes == [200, 200, 200]


# ---- expensive requests -----------------------------------------------------------------------------------
def _in_worker(tag: str, seconds: float = 0.0) -> tuple[str, int]:
    import os
    import time

    time.sleep(seconds)  # stands for seconds of CPU in the worker (the event loop never waits on it)
    return tag, os.getpid()


def test_heavy_work_runs_in_another_process_cached_rated_and_capped() -> None:
    """Was: a review ran in a thread of the hall's process (holding the GIL for 3-5 s), with no
    rate limit, cache or concurrency cap: eight at once cut a table from 9.3 to 1.1 steps/s."""
    import os

    from majiang.hall.heavy import HeavyLimits, HeavyRefused, HeavyWork

    async def body() -> None:
        heavy = HeavyWork(HeavyLimits(workers=1, queue=1, rates={"review": (0.01, 2.0)}))
        try:
            tag, pid = await heavy.run("review", "alice", ("hand", 1), _in_worker, "a")
            assert tag == "a" and pid != os.getpid()
            for _ in range(5):  # asked again: the cached answer, no computation, no rate taken
                assert await heavy.run("review", "alice", ("hand", 1), _in_worker, "a") == (tag, pid)
            assert heavy.computed == 1
            await heavy.run("review", "alice", ("hand", 2), _in_worker, "b")
            try:  # alice's burst of 2 is spent
                await heavy.run("review", "alice", ("hand", 3), _in_worker, "c")
                raise AssertionError("a third computation in the burst was not refused")
            except HeavyRefused as e:
                assert e.status == 429 and e.retry_after_s > 0
            slow = [asyncio.ensure_future(heavy.run("review", who, who, _in_worker, who, 2.0)) for who in ("b", "c")]
            await asyncio.sleep(0)  # both admitted: one running, one waiting (workers=1, queue=1)
            try:
                await heavy.run("review", "d", "d", _in_worker, "d")
                raise AssertionError("a request beyond the pool's cap was queued")
            except HeavyRefused as e:
                assert e.status == 503
            assert [t for t, _ in await asyncio.gather(*slow)] == ["b", "c"]
        finally:
            heavy.close()

    asyncio.run(body())


# a hall's heavy pool, in a process of its own that the test kills outright; prints the worker's pid
_HALL = """
import asyncio, os
from majiang.hall.heavy import HeavyWork

async def main():
    heavy = HeavyWork()
    print(await heavy.compute("probe", 1, os.getpid), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """The process exists and is not a zombie (an exited orphan some container init never reaps)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_heavy_worker_ends_when_its_hall_is_killed() -> None:
    """Was: a hall killed outright (SIGKILL, the OOM killer) left its review worker waiting on its
    queue for ever, 45 MB each (the failover tests left one per killed node)."""
    import signal
    import subprocess
    import sys

    hall = subprocess.Popen([sys.executable, "-c", _HALL], stdout=subprocess.PIPE, text=True)
    try:
        assert hall.stdout is not None
        worker = int(hall.stdout.readline())
        assert worker != hall.pid and _running(worker)
    finally:
        hall.send_signal(signal.SIGKILL)
        hall.wait()
    # the worker's own check comes every PARENT_CHECK_S; a minute bounds a failure, not a measure
    for _ in range(600):
        if not _running(worker):
            break
        time.sleep(0.1)
    else:
        os.kill(worker, signal.SIGKILL)
        raise AssertionError(f"the worker {worker} outlived its killed hall")


def test_shanten_queries_are_rated_per_network(tmp_path: Any) -> None:
    """Was: POST /api/shanten had no limit (a flood slowed the tables by 30 %)."""

    async def body(live: Live) -> list[int]:
        assert live.http is not None
        codes = []
        for i in range(40):  # distinct hands (the same hand again is answered from the cache)
            hand = {"hand": f"123456789m123p{1 + i % 9}s", "min_fan": 1 + i // 9}
            codes.append((await live.http.post("/api/shanten", json=hand)).status_code)
        return codes

    codes, errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    assert codes[:30] == [200] * 30, codes  # the burst
    assert 429 in codes[30:], codes


# ---- the cluster's replay window ---------------------------------------------------------------------------
def test_a_process_started_later_drops_a_replayed_lobby_message() -> None:
    """Was: each process remembered relayed message ids only in its own memory; a captured sealed lobby
    message was accepted, as the victim's, by a process started 16.8 s later."""
    import secrets

    import redis.asyncio as aioredis

    from majiang.hall.cluster import RedisCluster
    from majiang.hall.replay_window import CLOCK_EPS_S

    prefix = f"t{secrets.token_hex(4)}"
    url = f"redis://127.0.0.1:6379/0?prefix={prefix}"

    async def nothing(_t: str) -> None:
        return None

    async def body() -> tuple[list[Any], list[Any], int]:
        heard_first: list[Any] = []
        heard_later: list[Any] = []
        first = RedisCluster(url, key=b"k" * 32)
        raw = aioredis.Redis.from_url("redis://127.0.0.1:6379/0", decode_responses=True)
        later = None
        try:
            first.on_lobby(heard_first.append)
            await first.start(lambda _d: None, lambda _d: None, nothing)
            spy = raw.pubsub(ignore_subscribe_messages=True)
            await spy.subscribe(f"{prefix}:lobby")
            await first.lobby_publish({"type": "chat", "scope": "lobby", "account": 7, "text": "hello"})
            captured = None
            while captured is None:
                m = await spy.get_message(timeout=1.0)
                captured = m["data"] if m is not None else None
            await spy.aclose()
            while not heard_first:
                await asyncio.sleep(0.01)
            # the attacker waits until a new process has started, then replays the captured envelope
            await asyncio.sleep(CLOCK_EPS_S + 0.2)
            later = RedisCluster(url, key=b"k" * 32)
            later.on_lobby(heard_later.append)
            await later.start(lambda _d: None, lambda _d: None, nothing)
            await raw.publish(f"{prefix}:lobby", captured)
            await first.lobby_publish({"type": "chat", "scope": "lobby", "account": 8, "text": "live"})
            while not heard_later:  # the genuine message after the replay arrives; the replay does not
                await asyncio.sleep(0.01)
            return heard_first, heard_later, later.dropped
        finally:
            for c in (first, later):
                if c is not None:
                    await c.stop()
            keys = await raw.keys(f"{prefix}:*")
            if keys:
                await raw.delete(*keys)
            await raw.aclose()

    heard_first, heard_later, dropped = asyncio.run(body())
    assert [m["account"] for m in heard_later] == [8], heard_later
    assert dropped == 1
    assert [m["account"] for m in heard_first][:1] == [7]
