"""A table's pace under the floods of the third red-team round (docs/hardening.md, "Round 3").

Starts a fresh ``majiang serve`` (SQLite, server bots without delay), seats one client at its own
table with three bots and lets it play fast (it answers each prompt after 0.1 s), counting
the table's steps (events) a second.  Then, one phase at a time, the same table plays while an attacker floods:

- ``review``: the table's own player asks ``GET /api/hands/{id}/review`` for its finished hands,
  8 requests at a time, over and over;
- ``shanten``: one client posts distinct ``POST /api/shanten`` queries, 8 at a time;
- ``plain``: the control — the same 8 loops on ``GET /healthz``, a request that costs nothing: what
  any HTTP flood of that rate costs the process (a reverse proxy's per-client limit is the answer to
  that, docs/hardening.md);
- ``chat``: 40 guests say lines in the lobby as fast as the hall lets them, while a reader listens.

Reported per phase: steps/s of the table, as a ratio of the baseline, and what the floods got
(answered, refused 429/503, lines a lobby reader received a second).

    .venv/bin/python benchmarks/flood_pace.py --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import httpx
import websockets
from host import cpu_name

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import free_port

ROOT = Path(__file__).resolve().parent.parent
ROOMS = """
[[room]]
id = "flood"
name = "flood"
rules = "gb"
coefficient = 1
fee = 0
bots = "rand"
bot_fill_s = 0.2
next_hand_s = 0.05
ready_s = 0
claim_window_s = 0.0  # no pause after each discard: the table runs as fast as the server lets it
timers = "relaxed"
"""


class Player:
    """One client at its own table, answering every prompt after 0.1 s."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.actions = 0
        self.events = 0  # the table's steps, as its player sees them
        self.hands: list[tuple[int, int]] = []  # (hand id, seat) of finished hands
        self.seat: int | None = None

    async def run(self, stop: asyncio.Event) -> None:
        async with websockets.connect(f"{self.url}/ws?token={self.token}", max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "create", "room": "flood"}))
            while not stop.is_set():
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    continue
                if m["type"] == "table":
                    self.seat = m.get("seat", self.seat)
                    if m.get("table", {}).get("state") == "waiting":
                        await ws.send(json.dumps({"type": "add_bots"}))
                elif m["type"] == "events":
                    self.events += len(m["events"])
                elif m["type"] == "prompt":
                    await asyncio.sleep(0.1)  # quick, but within the hall's message rate (30 a second)
                    legal = m["legal"]
                    a = next((x for x in legal if x["type"] in ("win", "pass")), legal[-1])
                    await ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": a}))
                    self.actions += 1
                elif m["type"] == "hand_end" and self.seat is not None:
                    self.hands.append((m["hand"], self.seat))


async def flood_review(base: str, token: str, player: Player, stop: asyncio.Event, got: dict[int, int]) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, timeout=120) as c:

        async def one(k: int) -> None:
            while not stop.is_set():
                hands = player.hands or [(1, 0)]
                hand, seat = hands[k % len(hands)]
                k += 8
                r = await c.get(f"/api/hands/{hand}/review?seat={seat}", headers=auth)
                got[r.status_code] = got.get(r.status_code, 0) + 1

        await asyncio.gather(*(one(k) for k in range(8)))


async def flood_plain(base: str, stop: asyncio.Event, got: dict[int, int]) -> None:
    """The control: the same 8 loops on a request that costs nothing (GET /healthz)."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as c:

        async def one() -> None:
            while not stop.is_set():
                r = await c.get("/healthz")
                got[r.status_code] = got.get(r.status_code, 0) + 1

        await asyncio.gather(*(one() for _ in range(8)))


async def flood_shanten(base: str, stop: asyncio.Event, got: dict[int, int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as c:

        async def one(k: int) -> None:
            while not stop.is_set():
                k += 8
                body = {"hand": f"1{2 + k % 7}3456789m12p{1 + k % 9}s{1 + k // 9 % 9}s", "min_fan": 1 + k % 8}
                r = await c.post("/api/shanten", json=body)
                got[r.status_code] = got.get(r.status_code, 0) + 1

        await asyncio.gather(*(one(k) for k in range(8)))


async def flood_chat(base: str, ws_url: str, stop: asyncio.Event, got: dict[int, int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        tokens = [(await c.post("/api/guest")).json()["token"] for _ in range(41)]

    async def reader(token: str) -> None:
        async with websockets.connect(f"{ws_url}/ws?token={token}") as ws:
            await ws.send(json.dumps({"type": "lobby"}))
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    m = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    if m["type"] == "chat":
                        got[-1] = got.get(-1, 0) + 1

    async def sender(token: str) -> None:
        async with websockets.connect(f"{ws_url}/ws?token={token}") as ws:
            k = 0
            while not stop.is_set():
                k += 1
                await ws.send(json.dumps({"type": "chat", "scope": "lobby", "text": f"flood {k}"}))
                with contextlib.suppress(TimeoutError):
                    while True:  # drain what came back (refusals) without blocking the next line long
                        m = json.loads(await asyncio.wait_for(ws.recv(), 0.02))
                        if m["type"] == "error":
                            got[429] = got.get(429, 0) + 1

    await asyncio.gather(reader(tokens[0]), *(sender(t) for t in tokens[1:]))


async def main_async(args: argparse.Namespace) -> None:
    tmp = tempfile.mkdtemp()
    (Path(tmp) / "rooms.toml").write_text(ROOMS)
    port = free_port()
    cmd = [sys.executable, "-m", "majiang.cli", "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/f.db"]
    cmd += ["--rooms", str(Path(tmp) / "rooms.toml"), "--bot-delay", "0", "--log-level", "error"]
    cmd += ["--guests-per-hour", "1000000", "--logins-per-minute", "1000000"]
    log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    rows = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await c.get("/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            token = (await c.post("/api/guest")).json()["token"]
        player = Player(ws_url, token)
        stop_all = asyncio.Event()
        playing = asyncio.create_task(player.run(stop_all))
        await asyncio.sleep(args.warmup)
        baseline = None
        for phase in ("baseline", "plain", "review", "shanten", "chat"):
            got: dict[int, int] = {}
            stop = asyncio.Event()
            attack: Coroutine[Any, Any, None] | None = None
            if phase == "plain":
                attack = flood_plain(base, stop, got)
            elif phase == "review":
                attack = flood_review(base, token, player, stop, got)
            elif phase == "shanten":
                attack = flood_shanten(base, stop, got)
            elif phase == "chat":
                attack = flood_chat(base, ws_url, stop, got)
            task = asyncio.create_task(attack) if attack else None
            a0, t0 = player.events, time.monotonic()
            await asyncio.sleep(args.seconds)
            pace = (player.events - a0) / (time.monotonic() - t0)
            stop.set()
            if task is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 130)
            baseline = baseline or pace
            rows.append((phase, pace, pace / baseline, dict(sorted(got.items())), args.seconds))
        stop_all.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(playing, 10)
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
    print(f"# flood_pace — {platform.node()}, {cpu_name()}, {time.strftime('%Y-%m-%d')}")
    print(f"# {' '.join(sys.argv)}")
    print(f"{'phase':<10} {'steps/s':>12} {'of baseline':>12}  what the flood got")
    for phase, pace, ratio, got, secs in rows:
        lines = f", lobby reader {got.pop(-1, 0) / secs:.1f} lines/s" if -1 in got else ""
        print(f"{phase:<10} {pace:>12.2f} {ratio:>11.0%}  {got}{lines}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=20.0, help="seconds a phase (default 20)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds of play before the baseline (default 5)")
    asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    main()
