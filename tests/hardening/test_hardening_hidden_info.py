"""Hidden information over the real protocol: ≥ 1,000 complete hands, every message every human
seat (and some spectators) received, each checked against the hand's full log.

Tables of 1, 2 or 4 humans (the rest server bots, ``rand`` or ``eff``) play through ``/ws``; the
humans take every kong they are offered (concealed and added kongs are where faces could leak),
claim sometimes, discard at random, and now and then log in again mid-hand (a takeover: the table
snapshot and the resent prompt are scanned too).  Afterwards every hand's log is fetched from
``GET /api/hands/{id}`` (all events, the seed) and :mod:`hardening_knowledge` replays it to decide,
for each message, what that seat could legitimately know at that moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hall"))  # the PostgreSQL scratch database
from cluster_helpers import REDIS, scratch_pg
from hardening_harness import Live, WSClosed, check_server_message, run_live, tile_strings
from hardening_knowledge import NOT_TILES, SeatStream

from majiang.hall.rooms import TIMER_PRESETS, Room

MIN_HANDS = int(os.environ.get("HARDENING_SCAN_HANDS", "1000"))
WORKERS = int(os.environ.get("HARDENING_SCAN_PROCESSES", "2"))
ROOMS = [
    Room(
        id=f"hs-{b}",
        name=f"scan {b}",
        rules="gb",
        bots=b,
        bot_fill_s=600,
        next_hand_s=0.3,
        timers="hardening",
        spectate_delay_s=0.0,
    )
    for b in ("eff", "rand")
]
SLOW_TIMERS = {"first_discard": 600.0, "action": 600.0, "claim": 600.0}  # a busy machine never times a seat out
# (room, humans, with a spectator): 43 tables per process; the hands per table follow from MIN_HANDS
PLAN = (
    [("hs-eff", 1, False)] * 30
    + [("hs-rand", 1, False)] * 8
    + [("hs-eff", 1, True)] * 2
    + [("hs-eff", 2, True)]
    + [("hs-rand", 2, False)]
    + [("hs-eff", 4, True)]
)
RESULTS: dict[str, Any] = {}
HERE = Path(__file__).resolve().parent


class Player:
    def __init__(self, live: Live, token: str, account: int, rng: random.Random, name: str) -> None:
        self.live, self.token, self.account, self.rng, self.name = live, token, account, rng, name
        self.ws: Any = None
        self.seen: list[dict[str, Any]] = []
        self.hands = 0
        self.seat: int | None = None
        self.takeovers = 0
        self.rate_limited = 0  # times the server asked this player to slow down

    async def connect(self) -> None:
        ws = await self.live.connect(self.token, welcome=False)
        self.seen.append(await ws.recv())
        self.ws = ws

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        by = defaultdict(list)
        for a in legal:
            by[a["type"]].append(a)
        for t in ("win", "concealed_kong", "added_kong", "kong"):
            if by[t]:
                return by[t][0]
        for t in ("pung", "chow"):
            if by[t] and self.rng.random() < 0.35:
                return self.rng.choice(by[t])
        if by["discard"]:
            return self.rng.choice(by["discard"])
        return by["pass"][0] if by["pass"] else legal[-1]

    async def take_over(self) -> None:
        """Log in again on a second connection: the first is kicked, the new one gets the snapshot."""
        old = self.ws
        new = await self.live.connect(self.token, welcome=False)
        while True:  # what the old connection got before the kick, in order
            try:
                self.seen.append(await old.recv(10))
            except WSClosed:
                break
        await old.close()
        self.seen.append(await new.recv())
        self.ws = new
        self.takeovers += 1

    def stuck(self) -> str:
        """What the table looked like when this player waited in vain."""
        hall = self.live.hall
        t = next((t for t in hall.tables.values() if any(s and s.account_id == self.account for s in t.seats)), None)
        if t is None:
            return f"{self.name}: no table; last messages {[m['type'] for m in self.seen[-8:]]}"
        return (
            f"{self.name} (seat {self.seat}): table {t.id} {t.state}, hands {t.hands_played}, prompts "
            f"{ {k: v.seq for k, v in t.prompts.items()} }, inbox {t.inbox.qsize()}, seats "
            f"{[(s.name, s.auto, s.escaped) if s else None for s in t.seats]}, phase "
            f"{t.hand.phase if t.hand else None}, hand events {len(t.hand.events) if t.hand else None} "
            f"shown {t.shown}, hand id {t.hand_id}; event writer {hall.events.task} queue "
            f"{hall.events.queue.qsize()}, executor queue {hall.executor._work_queue.qsize()}; "
            f"last messages {[m['type'] for m in self.seen[-8:]]}"
        )

    async def play(self, target: int) -> None:
        last: dict[str, Any] = {}
        while self.hands < target:
            try:
                m = await self.ws.recv(60)
            except TimeoutError:
                raise AssertionError("a table stalled: " + self.stuck()) from None
            self.seen.append(m)
            t = m["type"]
            if t == "table" and m.get("seat") is not None:
                self.seat = m["seat"]
            elif t == "prompt":
                if self.rng.random() < 0.004:
                    await self.take_over()
                    continue  # the prompt is resent on the new connection
                last = {"type": "action", "seq": m["seq"], "action": self.choose(m["legal"])}
                self.ws.send(last)
            elif t == "hand_end":
                self.hands += 1
            elif t == "error" and m["code"] == "rate_limited":
                # faster than any person (0-delay bots): slow down and send it again, as a client should
                self.rate_limited += 1
                await asyncio.sleep(0.2)
                self.ws.send(last)
            elif t == "error" and not (m["code"] == "stale" and self.rate_limited):
                raise AssertionError(f"{self.name}: the server refused a legal action: {m}")
        self.ws.send({"type": "stand"})
        self.seen.extend(await self.ws.settle(0.01, 1))
        await self.ws.close()


async def run_table(live: Live, i: int, room: str, humans: int, spectator: bool, hands: int) -> dict[str, Any]:
    assert live.http is not None
    rng = random.Random(1000 + i)
    accounts = [await live.guest() for _ in range(humans)]
    r = await live.http.post(
        "/api/tables", json={"room": room, "private": True}, headers={"Authorization": f"Bearer {accounts[0][0]}"}
    )
    assert r.status_code == 200, r.text
    table_id, code = r.json()["table"], r.json()["code"]
    players = [
        Player(live, tok, acc, random.Random(rng.random()), f"table {i} human {k}")
        for k, (tok, acc) in enumerate(accounts)
    ]
    for p in players:
        await p.connect()
        p.ws.send({"type": "join", "code": code})
        m = await p.ws.until(lambda m: m["type"] in ("table", "error"), seen=p.seen)
        assert m["type"] == "table", m
        p.seat = m["seat"]
    watcher = None
    if spectator:
        tok, acc = await live.guest()
        watcher = Player(live, tok, acc, rng, f"table {i} spectator")
        await watcher.connect()
        watcher.ws.send({"type": "spectate", "code": code})  # a private table: watched with its code
    if humans < 4:
        players[0].ws.send({"type": "add_bots"})
    await asyncio.gather(*(p.play(hands) for p in players))
    if watcher is not None:
        watcher.seen.extend(watcher.ws.drain())
        await watcher.ws.close()
    return {"table": table_id, "players": players, "watcher": watcher}


def split_by_hand(seen: list[dict[str, Any]]) -> tuple[dict[int, list[dict[str, Any]]], list[dict[str, Any]]]:
    """Messages grouped by the hand they belong to; the rest (between hands, before the first)."""
    by: dict[int, list[dict[str, Any]]] = defaultdict(list)
    between: list[dict[str, Any]] = []
    cur: int | None = None
    for m in seen:
        h = m.get("hand") if m["type"] in ("events", "prompt", "hand_end", "table") else None
        if h is not None:
            cur = h
            by[h].append(m)
            if m["type"] == "hand_end":
                cur = None
        elif cur is not None:
            by[cur].append(m)
        else:
            between.append(m)
    return by, between


def scan(
    db_dir: Path,
    hands: int,
    plan: list[tuple[str, int, bool]],
    seed: int,
    db_url: str | None = None,
    redis_url: str | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands (at least) on ``plan``'s tables and check every seat's traffic (on SQLite
    in ``db_dir``, or on ``db_url`` with the Redis cluster layer at ``redis_url``)."""
    per_table = -(-hands // len(plan))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)  # the database thread waits less for the GIL
    previous = TIMER_PRESETS.get("hardening")
    TIMER_PRESETS["hardening"] = SLOW_TIMERS

    async def body(live: Live) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]]]:
        live.hall.auto_delay_s = 0.02  # a seat in 托管 (an escape at the very end) plays on at once
        tables = await asyncio.gather(
            *(run_table(live, seed + i, room, n, spec, per_table) for i, (room, n, spec) in enumerate(plan))
        )
        for _ in range(600):  # a hand that began before a stand arrived plays out in 托管 first
            if not live.hall.tables:
                break
            await asyncio.sleep(0.05)
        ids = sorted({m["hand"] for t in tables for p in t["players"] for m in p.seen if m["type"] == "hand_end"})
        assert live.http is not None
        logs = {}
        played = {m["hand"]: p.token for t in tables for p in t["players"] for m in p.seen if m["type"] == "hand_end"}
        for h in ids:  # a private table's hand: for those who played it
            r = await live.http.get(f"/api/hands/{h}", headers={"Authorization": f"Bearer {played[h]}"})
            assert r.status_code == 200, r.text
            logs[h] = r.json()
        return tables, logs

    t0 = time.time()
    try:
        (tables, logs), errors = run_live(
            db_url or f"sqlite:///{db_dir}/scan.db", ROOMS, body, timeout=900, redis_url=redis_url
        )
    finally:
        sys.setswitchinterval(interval)
        if previous is None:
            TIMER_PRESETS.pop("hardening", None)
        else:
            TIMER_PRESETS["hardening"] = previous
    t_play = time.time() - t0
    assert not errors, "server errors:\n" + "\n".join(errors[:5])

    hands_checked: set[int] = set()
    seat_hands = messages = spectator_hands = takeovers = slowed = 0
    for t in tables:
        streams = [(p.seat, p.name, p.seen) for p in t["players"]]
        if t["watcher"] is not None:
            streams.append((-1, t["watcher"].name, t["watcher"].seen))
        takeovers += sum(p.takeovers for p in t["players"])
        slowed += sum(p.rate_limited for p in t["players"])
        for seat, who, seen in streams:
            for m in seen:
                check_server_message(m)
            by, between = split_by_hand(seen)
            for m in between:
                leaked = tile_strings(m, NOT_TILES)
                assert not leaked, f"{who}: tiles {leaked} outside a hand: {json.dumps(m)[:500]}"
            for h, msgs in by.items():
                if h not in logs:
                    continue  # a hand still starting when the players stood up (not finished)
                stream = SeatStream(logs[h], seat, who)
                for m in msgs:
                    stream.feed(m)
                messages += stream.messages
                if seat >= 0 and stream.ended:
                    seat_hands += 1
                    hands_checked.add(h)
                elif seat < 0:
                    spectator_hands += 1
    return {
        "hands": len(hands_checked),
        "seat_hands": seat_hands,
        "spectator_hands": spectator_hands,
        "messages": messages,
        "takeovers": takeovers,
        "rate_limited": slowed,
        "seconds": round(time.time() - t0, 1),
        "play_seconds": round(t_play, 1),
    }


def test_no_seat_ever_receives_hidden_information(tmp_path):
    """Half the tables run in a second process (its own hall): two cores, half the time.  That
    process runs the multi-process set-up — PostgreSQL and the Redis cluster layer — the other the
    default SQLite hall."""
    share = MIN_HANDS // 2 if WORKERS > 1 else 0
    t0 = time.time()
    with contextlib.ExitStack() as stack:
        worker = None
        if share:
            (tmp_path / "w").mkdir()
            db = stack.enter_context(scratch_pg())
            redis = f"{REDIS}?prefix=hs{secrets.token_hex(4)}"
            path = os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])
            worker = subprocess.Popen(
                [sys.executable, __file__, str(tmp_path / "w"), str(share), "5000", db, redis],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=HERE.parents[1],
                env={**os.environ, "PYTHONPATH": path},
            )
        (tmp_path / "l").mkdir()
        try:
            local = scan(tmp_path / "l", MIN_HANDS - share, PLAN, 0)
        finally:
            out, err = worker.communicate(timeout=900) if worker else ("", "")
    results = [local]
    if worker is not None:
        assert worker.returncode == 0, f"the second scan process failed:\n{err[-6000:]}"
        results.append(json.loads(out.strip().splitlines()[-1]))
    total = {
        k: sum(r[k] for r in results)
        for k in ("hands", "seat_hands", "spectator_hands", "messages", "takeovers", "rate_limited")
    }
    total["seconds"] = round(time.time() - t0, 1)
    total["processes"] = len(results)
    RESULTS.update(total)
    print(f"\nhidden-information scan: {total}")
    assert total["hands"] >= MIN_HANDS, total
    assert total["takeovers"] > 0 and total["spectator_hands"] > 0, total


if __name__ == "__main__":  # the second scan process: python test_hardening_hidden_info.py DIR HANDS SEED [DB REDIS]
    db_url, redis_url = (sys.argv[4], sys.argv[5]) if len(sys.argv) > 5 else (None, None)
    print(json.dumps(scan(Path(sys.argv[1]), int(sys.argv[2]), PLAN, int(sys.argv[3]), db_url, redis_url)))
