"""Hall load test: bot clients over real WebSockets on loopback, at human pace.

For each table count N it starts a fresh ``majiang serve`` process (SQLite, or --db), opens N guest
connections, seats each at its own table with three server bots, and lets them play for --seconds.
Every table makes about one decision a second (server bots think 0.7–1.3 s, the client 1 s).
Reported per N: decisions/s, hands settled, the client-measured latency from sending a discard
to receiving the server's answer (p50/p99), the server's own prompt-latency histogram p99 (from a
decision arriving, or the room's claim window ending, to the next prompt going out, persistence
included), and the CPU the hall process and the load generator spent per decision.

    .venv/bin/python benchmarks/load.py --tables 50,100,200,300,400,500 --seconds 30
    .venv/bin/python benchmarks/load.py --fast --tables 20 --seconds 20    # bots without delay
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets
from host import cpu_name

ROOT = Path(__file__).resolve().parent.parent
ROOMS = """
[[room]]
id = "load"
name = "load"
rules = "gb"
coefficient = 1
fee = 0
bots = "{bots}"
bot_fill_s = 0.2
next_hand_s = 1.0
ready_s = 0  # no ready step between hands (the next one after next_hand_s)
timers = "relaxed"
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(method: str, url: str) -> dict:
    req = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def cpu_seconds(pid: int) -> float | None:
    """A process's CPU time so far (user + system, Linux /proc), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def metrics(base: str) -> dict[str, float]:
    with urllib.request.urlopen(base + "/metrics", timeout=30) as r:
        text = r.read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            k, v = line.rsplit(" ", 1)
            out[k] = float(v)
    return out


def histogram_p99(
    m: dict[str, float], name: str = "majiang_prompt_latency_seconds", m0: dict[str, float] | None = None
) -> float | None:
    """The bucket bound under which 99 % of the observations made between ``m0`` and ``m`` fall."""
    m0 = m0 or {}
    total = m.get(f"{name}_count", 0) - m0.get(f"{name}_count", 0)
    if not total:
        return None
    buckets = sorted(
        (float(k.split('le="')[1].rstrip('"}')), v - m0.get(k, 0))
        for k, v in m.items()
        if k.startswith(f"{name}_bucket") and "+Inf" not in k
    )
    for le, cum in buckets:
        if cum >= 0.99 * total:
            return le
    return float("inf")


class Client:
    def __init__(self, base_ws: str, token: str, pace: float, lat: list[float]) -> None:
        self.url = f"{base_ws}/ws?token={token}"
        self.pace = pace
        self.lat = lat
        self.sent_at: float | None = None
        self.actions = 0

    async def run(self, stop: float) -> None:
        async with websockets.connect(self.url, max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "create", "room": "load"}))
            while time.monotonic() < stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                except TimeoutError:
                    break
                m = json.loads(raw)
                if self.sent_at is not None and m["type"] in ("events", "prompt", "hand_end"):
                    self.lat.append(time.perf_counter() - self.sent_at)
                    self.sent_at = None
                if m["type"] == "prompt":
                    if self.pace:
                        await asyncio.sleep(self.pace)
                    legal = m["legal"]
                    a = (
                        next((x for x in legal if x["type"] == "win"), None)
                        or next((x for x in legal if x["type"] == "pass"), None)
                        or legal[-1]
                    )
                    # timed: a discard, which the server shows at once; what follows a pass or a claim
                    # waits for the claim window (the room's hold, not the server's latency)
                    self.sent_at = time.perf_counter() if a["type"] == "discard" else None
                    await ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": a}))
                    self.actions += 1
                elif m["type"] == "table" and m.get("table", {}).get("state") == "waiting":
                    await ws.send(json.dumps({"type": "add_bots"}))


async def run_level(n: int, seconds: float, args: argparse.Namespace) -> dict:
    tmp = tempfile.mkdtemp()
    rooms = Path(tmp) / "rooms.toml"
    rooms.write_text(ROOMS.format(bots=args.bots))
    delay = "0" if args.fast else "0.7,1.3"
    nodes = args.nodes
    if nodes > 1 or args.redis:
        db = args.db or create_pg_database()
        redis = f"{args.redis or 'redis://127.0.0.1:6379/0'}?prefix=load{os.getpid()}{n}"
        from majiang.store import Database

        Database(db).migrate()
    else:
        db = args.db or f"sqlite:///{tmp}/load.db"
        redis = None
    ports = [free_port() for _ in range(nodes)]
    servers = []
    for port in ports:
        cmd = [
            sys.executable,
            "-m",
            "majiang.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--rooms",
            str(rooms),
            "--bot-delay",
            delay,
            "--log-level",
            "error",
            # one address opens every connection: lift the per-address guest limit (a burst of 5 a
            # day's default) that would refuse the sixth
            "--guests-per-hour",
            "1000000",
        ]
        if redis:  # the local Redis has no password (and the processes share a random key)
            cmd += ["--redis", redis] + ([] if "@" in redis else ["--insecure-redis"])
        # the server's log goes to a file (a pipe nobody reads would block the server once full)
        log = open(Path(tmp) / f"server-{port}.log", "wb")  # noqa: SIM115
        servers.append(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log))
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    try:
        for base in bases:
            for _ in range(300):
                try:
                    http("GET", base + "/healthz")
                    break
                except OSError:
                    await asyncio.sleep(0.1)
        tokens = [http("POST", bases[i % nodes] + "/api/guest")["token"] for i in range(n)]
        lat: list[float] = []
        clients = [
            Client(f"ws://127.0.0.1:{ports[i % nodes]}", t, 0.0 if args.fast else 1.0, lat)
            for i, t in enumerate(tokens)
        ]
        stop = time.monotonic() + args.warmup + seconds
        runs = asyncio.gather(*(c.run(stop) for c in clients), return_exceptions=True)
        await asyncio.sleep(args.warmup)  # connections, seats and first deals are not what we measure
        lat.clear()
        m0 = await asyncio.gather(*(asyncio.to_thread(metrics, b) for b in bases))
        cpu0 = [cpu_seconds(s.pid) for s in servers]
        client0 = time.process_time()
        start = time.monotonic()
        results = await runs
        elapsed = time.monotonic() - start
        cpu1 = [cpu_seconds(s.pid) for s in servers]
        client_cpu = time.process_time() - client0
        errors = [r for r in results if isinstance(r, BaseException)]
        if errors:
            print(f"  {len(errors)} client(s) failed, e.g. {errors[0]!r}", file=sys.stderr)
        m1 = await asyncio.gather(*(asyncio.to_thread(metrics, b) for b in bases))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
        if (nodes > 1 or args.redis) and not args.db:
            drop_pg_database(db)
        for port in ports:
            text = (Path(tmp) / f"server-{port}.log").read_text(errors="replace")
            if text.strip():
                print(
                    f"  server :{port} logged {len(text.splitlines())} line(s), the last:\n{text[-1500:]}",
                    file=sys.stderr,
                )

    def total(key: str) -> float:
        return sum(b.get(key, 0) - a.get(key, 0) for a, b in zip(m0, m1, strict=True))

    actions = total("majiang_actions_total")
    spent = [b - a for a, b in zip(cpu0, cpu1, strict=True) if a is not None and b is not None]
    cpu = sum(spent) if len(spent) == len(servers) else None
    merged1 = {k: sum(m.get(k, 0) for m in m1) for k in m1[0]}
    merged0 = {k: sum(m.get(k, 0) for m in m0) for k in m0[0]}
    lat.sort()
    if args.buckets:
        name = "majiang_prompt_latency_seconds_bucket"
        print(f"  server histogram ({n} tables):", file=sys.stderr)
        for k in sorted((k for k in merged1 if k.startswith(name)), key=lambda k: float(k.split('"')[1])):
            print(f"    {k.split('{')[1].rstrip('}')}: {merged1[k] - merged0.get(k, 0):.0f}", file=sys.stderr)
        print("  client latency, slowest:", [round(1000 * x) for x in lat[-20:]], file=sys.stderr)
    return {
        "tables": n,
        "seconds": round(elapsed, 1),
        "actions_per_s": total("majiang_actions_total") / elapsed,
        "hands": int(total("majiang_hands_total")),
        "hands_per_s": total("majiang_hands_total") / elapsed,
        "client_p50_ms": 1000 * statistics.median(lat) if lat else None,
        "client_p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else None,
        "server_p99_ms": (1000 * p) if (p := histogram_p99(merged1, m0=merged0)) is not None else None,
        "samples": len(lat),
        # the hall processes' CPU per decision (user + system): what a table costs, whatever the client
        "server_cpu_ms_per_decision": 1000 * cpu / actions if cpu is not None and actions else None,
        "server_cpu_share": cpu / elapsed if cpu is not None else None,  # cores busy
        "client_cpu_share": client_cpu / elapsed,  # the load generator's share of the same machine
    }


def create_pg_database() -> str:
    import psycopg

    name = f"majiang_load_{os.getpid()}_{int(time.time())}"
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql://postgres@127.0.0.1:5432/{name}"


def drop_pg_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def main_async(args: argparse.Namespace) -> None:
    levels = [int(x) for x in args.tables.split(",")]
    print(
        f"# hall load · {datetime.date.today()} · {cpu_name()} · "
        f"{os.cpu_count()} cores · {args.nodes} process(es) · bots {args.bots} · "
        f"{'no delay' if args.fast else 'human pace'}"
    )
    print(
        "| tables | decisions/s | hands | hands/s | client p50 ms | client p99 ms | server p99 ms (bucket) "
        "| server CPU ms / decision | server cores busy | client cores busy |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in levels:
        # the load generator's own collector off while it measures: a full collection over its 1,500
        # connections pauses it for a few hundred ms and would be read as the server's latency
        gc.collect()
        gc.disable()
        try:
            r = await run_level(n, args.seconds, args)
        finally:
            gc.enable()

        def fmt(v: float | None) -> str:
            return "–" if v is None else f"{v:.1f}"

        def fmt3(v: float | None) -> str:
            return "–" if v is None else f"{v:.2f}"

        print(
            f"| {n} | {r['actions_per_s']:.0f} | {r['hands']} | {r['hands_per_s']:.2f} | {fmt(r['client_p50_ms'])} "
            f"| {fmt(r['client_p99_ms'])} | {fmt(r['server_p99_ms'])} | {fmt3(r['server_cpu_ms_per_decision'])} "
            f"| {fmt3(r['server_cpu_share'])} | {fmt3(r['client_cpu_share'])} |",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", default="50,100,200", help="comma-separated table counts")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds measured per level")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds of play before measuring")
    ap.add_argument("--bots", default="eff", help="server bot kind (rand, eff, fan)")
    ap.add_argument(
        "--db",
        default=None,
        help="database URL (default: a fresh SQLite file per level; a scratch PostgreSQL database with --nodes > 1)",
    )
    ap.add_argument("--nodes", type=int, default=1, help="hall processes sharing PostgreSQL + Redis (default 1)")
    ap.add_argument("--redis", default=None, help="Redis URL (default redis://127.0.0.1:6379/0 when --nodes > 1)")
    ap.add_argument("--buckets", action="store_true", help="print the server histogram and the slowest answers")
    ap.add_argument("--fast", action="store_true", help="no thinking delays: measures hands settled per second")
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
