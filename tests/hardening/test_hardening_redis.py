"""Redis outside the trust boundary, and the rate limits the processes of a cluster share.

With the real Redis and PostgreSQL (``majiang serve`` processes, tests/hall/cluster_helpers.py):

* everything the hall writes to Redis during a hand — every key, sampled all the time, and every message
  published — holds no seed (session or hand; hex, base64, or one from which a hand's seed derives), no
  tile, no token and no password hash;
* a table taken over mid-hand reveals the right seeds at each hand's end (commit–reveal exact), its
  session seed read from PostgreSQL;
* the HTTP rate limits are one budget for the whole cluster;
* a cluster refuses a Redis URL without a password (or no ``MAJIANG_CLUSTER_KEY``) unless
  ``--insecure-redis``; an ACL user with a password works.

Each test failed on the code before the fix: the snapshot carried the session seed, relays were
signed but not sealed (prompts with the seat's tiles in the clear), each process had its own buckets,
and any Redis URL was taken.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import secrets
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hall"))  # the multi-process helpers
import redis
from cluster_helpers import CLUSTER_KEY, REDIS, ROOT, Node, Player, cluster, free_port, http, scratch_pg
from hardening_harness import tile_strings
from sqlalchemy import select, text

from majiang.engine.log import events_from_json, verify
from majiang.engine.wall import seed_hash
from majiang.hall.ledger import audit
from majiang.rulesets import from_header
from majiang.store import Database
from majiang.store.models import HandEvent, HandRow

HEX64 = re.compile(r"[0-9a-fA-F]{64}")
B64_32 = re.compile(r"[A-Za-z0-9+/_-]{43}=?")


# ---- the Redis side -----------------------------------------------------------------------------------
@contextlib.contextmanager
def acl_user(prefix: str) -> Iterator[str]:
    """A Redis ACL user for the hall, its own keys and channels only (docs/ARCHITECTURE.md); yields the
    ``redis://user:password@…`` URL and deletes the user afterwards."""
    admin = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    user, password = f"mjt_{secrets.token_hex(4)}", secrets.token_hex(16)
    admin.execute_command(
        "ACL", "SETUSER", user, "on", f">{password}", f"~{prefix}:*", f"&{prefix}:*", "+@all", "-@dangerous"
    )
    try:
        yield f"redis://{user}:{password}@127.0.0.1:6379/0?prefix={prefix}"
    finally:
        admin.execute_command("ACL", "DELUSER", user)
        keys = list(admin.scan_iter(match=f"{prefix}:*"))
        if keys:
            admin.delete(*keys)
        admin.close()


class RedisSpy:
    """What an attacker reading this Redis sees: every message published on the hall's channels, and
    every key's value, sampled every 0.2 s (as the default, password-less user)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.r = redis.Redis.from_url("redis://127.0.0.1:6379/0", decode_responses=True)
        self.published: list[tuple[str, str]] = []
        self.values: dict[str, str] = {}  # key (and field) → each distinct value seen, one per line
        self.samples = 0
        self._stop = threading.Event()
        self._ps = self.r.pubsub(ignore_subscribe_messages=True)
        self._ps.psubscribe(f"{prefix}:*")
        self._threads = [threading.Thread(target=f, daemon=True) for f in (self._listen, self._scan)]
        for t in self._threads:
            t.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            m = self._ps.get_message(timeout=0.1)
            if m is not None and m["type"] == "pmessage":
                self.published.append((m["channel"], m["data"]))

    def _scan(self) -> None:
        while not self._stop.is_set():
            for key in self.r.scan_iter(match=f"{self.prefix}:*"):
                kind = self.r.type(key)
                got: dict[str, str] = {}
                if kind == "string":
                    got = {key: self.r.get(key) or ""}
                elif kind == "hash":
                    got = {f"{key} {f}": v for f, v in self.r.hgetall(key).items()}
                    got.update({f"{key} field {f}": f for f in got})
                elif kind == "set":
                    got = {key: "\n".join(sorted(self.r.smembers(key)))}
                elif kind == "list":
                    got = {key: "\n".join(self.r.lrange(key, 0, -1))}
                elif kind == "zset":
                    got = {key: "\n".join(self.r.zrange(key, 0, -1))}
                got[f"key {key}"] = key
                for k, v in got.items():
                    if v not in self.values.get(k, "").split("\n"):
                        self.values[k] = self.values.get(k, "") + "\n" + v
            self.samples += 1
            time.sleep(0.2)

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(5)
        self._ps.close()
        self.r.close()

    def everything(self) -> list[tuple[str, str]]:
        return [(f"published on {c}", d) for c, d in self.published] + [
            (f"Redis {k}", v) for k, v in self.values.items()
        ]


def deep(x: Any) -> Any:
    """``x`` with every string that holds JSON decoded, recursively (an envelope's message, a snapshot)."""
    if isinstance(x, dict):
        return {k: deep(v) for k, v in x.items()}
    if isinstance(x, list):
        return [deep(v) for v in x]
    if isinstance(x, str) and x[:1] in "{[":
        with contextlib.suppress(ValueError):
            return deep(json.loads(x))
    return x


def seed_forms(seed: bytes) -> list[str]:
    return [
        seed.hex(),
        seed.hex().upper(),
        base64.b64encode(seed).decode(),
        base64.urlsafe_b64encode(seed).decode().rstrip("="),
        base64.b64encode(seed).decode().rstrip("="),
    ]


def derives(candidate: bytes, hand_seeds: set[bytes]) -> bool:
    """Whether a hand's seed is derived from ``candidate`` as a session seed (Session.hand_seed)."""
    return any(hashlib.sha256(candidate + n.to_bytes(4, "big")).digest() in hand_seeds for n in range(64))


def candidates(s: str) -> Iterator[bytes]:
    """Every 32-byte value written in ``s`` as hex or base64."""
    for m in HEX64.finditer(s):
        yield bytes.fromhex(m.group())
    for m in B64_32.finditer(s):
        tok = m.group().rstrip("=")
        for dec in (base64.b64decode, base64.urlsafe_b64decode):
            with contextlib.suppress(ValueError):
                raw = dec(tok + "=" * (-len(tok) % 4))
                if len(raw) == 32:
                    yield raw


# ---- the players ------------------------------------------------------------------------------------
def register(node: Node, name: str) -> str:
    return str(http(node.base + "/api/register", {"username": name, "password": "correct horse"})["token"])


def play(p: Player, stop: threading.Event, ends: list[int], errors: list[str]) -> None:
    """Answer every prompt; count the hands that ended (their ids in ``ends``)."""
    while not stop.is_set():
        try:
            m = p.recv(timeout=1)
        except TimeoutError:
            continue
        except Exception as e:  # the socket closed under us
            if not stop.is_set():
                errors.append(repr(e))
            return
        if m["type"] == "prompt":
            p.answer(m)
        elif m["type"] == "hand_end":
            ends.append(m["hand"])


def wait_for(cond: Any, timeout: float, what: str) -> None:
    t0 = time.time()
    while not cond():
        if time.time() - t0 > timeout:
            raise TimeoutError(what)
        time.sleep(0.1)


def two_seated(nodes: list[Node]) -> tuple[Player, Player, str, list[str]]:
    """Alice on the first process opens a table (it owns it), Bob on the second joins (every message
    between him and the table crosses Redis), bots fill the rest."""
    n1, n2 = nodes[0], nodes[1]
    ta, tb = register(n1, "alice"), register(n2, "bob")
    a, b = Player(n1, ta), Player(n2, tb)
    a.until("welcome")
    b.until("welcome")
    a.send({"type": "create", "room": "c"})
    table_id = a.until("table")["table"]["id"]
    time.sleep(0.5)
    b.send({"type": "join", "table": table_id})
    b.until("table")
    a.send({"type": "add_bots"})
    return a, b, table_id, [ta, tb]


def hand_rows(db: str, table_id: str) -> list[HandRow]:
    database = Database(db)
    try:
        with database.session() as s:
            return list(s.scalars(select(HandRow).where(HandRow.table_id == table_id).order_by(HandRow.id)))
    finally:
        database.dispose()


def session_seeds(db: str, table_id: str) -> list[bytes]:
    """The table's session seeds as PostgreSQL keeps them (none before the fix: no such table)."""
    database = Database(db)
    try:
        with database.session() as s:
            rows = s.execute(text("SELECT seed FROM table_sessions WHERE table_id = :t"), {"t": table_id}).all()
            return [bytes.fromhex(r[0]) for r in rows]
    except Exception:
        return []
    finally:
        database.dispose()


# ---- the tests --------------------------------------------------------------------------------------
def test_redis_sees_no_seed_no_tile_no_secret_during_a_hand(tmp_path: Path) -> None:
    """Was (#4): the snapshot in ``mj:state`` held the session seed (every hand's seed derives from it)
    and the relayed prompts, events and snapshots held the seat's concealed tiles in the clear."""
    prefix = f"t{secrets.token_hex(4)}"
    with acl_user(prefix) as url, cluster(2, tmp_path, redis=url) as (nodes, db):
        spy = RedisSpy(prefix)
        stop, errors = threading.Event(), []
        try:
            a, b, table_id, tokens = two_seated(nodes)
            ends: list[int] = []
            threads = [threading.Thread(target=play, args=(p, stop, ends, errors), daemon=True) for p in (a, b)]
            for t in threads:
                t.start()
            wait_for(lambda: len(ends) >= 2, 180, "the hand did not end")  # both seats saw it end
            sessions = session_seeds(db, table_id)
            time.sleep(0.5)
        finally:
            stop.set()
            spy.stop()
        for p in (a, b):
            p.close()
        assert not errors, errors
        rows = hand_rows(db, table_id)
        hand_seeds = {bytes.fromhex(r.seed) for r in rows if r.seed}
        assert hand_seeds, "no hand was revealed"

    relays = [c for c, _ in spy.published if c.startswith(f"{prefix}:a:")]
    to_table = [c for c, _ in spy.published if c.startswith(f"{prefix}:t:")]
    assert len(relays) > 20 and len(to_table) > 5, (len(relays), len(to_table))  # Bob's messages crossed Redis
    assert any(k.startswith(f"{prefix}:state ") for k in spy.values) and spy.samples > 5
    forms = [f for s in (*hand_seeds, *sessions) for f in seed_forms(s)]
    leaks: list[str] = []
    for where, payload in spy.everything():
        for f in forms:
            if f in payload:
                leaks.append(f"{where}: a seed ({f[:12]}…)")
        for c in candidates(payload):
            if c in hand_seeds or derives(c, hand_seeds):
                leaks.append(f"{where}: {c.hex()[:12]}… is a seed or derives one")
        tiles = tile_strings(deep(payload))
        if tiles:
            leaks.append(f"{where}: tiles {tiles[:8]}")
        if any(tok in payload for tok in tokens) or "$argon2" in payload:
            leaks.append(f"{where}: a token or a password hash")
    n_pub, n_vals = len(spy.published), len(spy.values)
    print(f"\nRedis spy: {n_pub} messages published, {n_vals} distinct values in {spy.samples} samples")
    assert not leaks, f"{len(leaks)} leaks, e.g. {leaks[:5]}"


def test_a_takeover_reveals_the_right_seeds(tmp_path: Path) -> None:
    """The owner is killed mid-hand; another process takes the table over with the session seed read
    from PostgreSQL (it is no longer in Redis): that hand and the next one, dealt from the session seed
    after the takeover, reveal seeds that match their commitments and derive from that session seed."""
    prefix = f"t{secrets.token_hex(4)}"
    spy = redis.Redis.from_url("redis://127.0.0.1:6379/0", decode_responses=True)
    snapshots: list[str] = []
    with cluster(3, tmp_path, redis=f"{REDIS}?prefix={prefix}") as (nodes, db):
        n1, _n2, n3 = nodes
        a, b, table_id, tokens = two_seated(nodes)
        stop, errors = threading.Event(), []
        ends_b: list[int] = []
        tb = threading.Thread(target=play, args=(b, stop, ends_b, errors), daemon=True)
        tb.start()
        prompts = 0
        t0 = time.time()
        while prompts < 4 and time.time() - t0 < 60:
            m = a.recv(timeout=30)
            if m["type"] == "prompt":
                prompts += 1
                a.answer(m)
        hand_id = next(m["hand"] for m in a.seen if m["type"] == "events")
        sessions_before = session_seeds(db, table_id)
        snapshots.append(spy.hget(f"{prefix}:state", table_id) or "")
        n1.kill()  # SIGKILL mid-hand
        a.close()
        a2 = Player(n3, tokens[0])
        assert a2.until("welcome")["table"] == table_id
        assert a2.until("table", timeout=30)["hand"] == hand_id
        ends_a: list[int] = []
        ta = threading.Thread(target=play, args=(a2, stop, ends_a, errors), daemon=True)
        ta.start()
        try:
            wait_for(lambda: len(set(ends_a)) >= 2, 240, "two hands did not end after the takeover")
            sessions_after = session_seeds(db, table_id)
            snapshots.append(spy.hget(f"{prefix}:state", table_id) or "")
        finally:
            stop.set()
            spy.close()
        ta.join(5)
        tb.join(5)
        a2.close()
        b.close()
        takeovers = sum(http(n.base + "/healthz")["takeovers"] for n in nodes[1:])
        rows = hand_rows(db, table_id)
        database = Database(db)
        try:
            rep = audit(database)
            with database.session() as s:
                logs = {
                    r.id: events_from_json(
                        e.event
                        for e in s.scalars(select(HandEvent).where(HandEvent.hand_id == r.id).order_by(HandEvent.seq))
                    )
                    for r in rows
                    if r.seed
                }
        finally:
            database.dispose()

    assert takeovers == 1
    assert not errors, errors
    revealed = [r for r in rows if r.seed and r.result and "void" not in r.result]
    hand_seeds = {bytes.fromhex(str(r.seed)) for r in revealed}
    for snap in snapshots:  # what the process taking over found in Redis: no seed, nothing a seed derives from
        assert snap and '"seed"' not in snap, snap
        assert not any(c in hand_seeds or derives(c, hand_seeds) for c in candidates(snap)), snap
    assert sessions_before and sessions_before == sessions_after, "the session seed is kept in PostgreSQL"
    (session,) = sessions_before
    assert not any(f in snap for snap in snapshots for f in seed_forms(session))
    assert [r.id for r in revealed][:1] == [hand_id] and len(revealed) >= 2, [(r.id, r.seed) for r in rows]
    for r in revealed:
        seed = bytes.fromhex(str(r.seed))
        assert seed_hash(seed) == r.seed_hash  # the commitment made when the hand began
        ok, why = verify(logs[r.id], from_header)  # the log replays from the revealed seed, commitment included
        assert ok, why
        assert derives(session, {seed}), f"hand {r.id}: its seed does not derive from the session seed"
    assert rep.ok, rep.problems


def _status(url: str, body: dict[str, Any] | None) -> int:
    req = urllib.request.Request(
        url, data=json.dumps(body or {}).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_the_cluster_shares_one_rate_limit_budget(tmp_path: Path) -> None:
    """Was (#2/#9, cluster): each process had its own token buckets, so two processes gave twice the
    budget.  With ``--logins-per-minute 8`` one username gets 4 login attempts (a burst of 4, then one
    every 30 s: a slow machine's argon2 cannot refill it during the test) and one address 5 guests (the
    default burst), whichever process they go to: the next attempt across both is refused (429)."""
    with cluster(2, tmp_path, extra=("--logins-per-minute", "8")) as (nodes, _db):
        register(nodes[0], "carol")  # a sign-up spends one token of the address's login bucket (burst 8)
        logins = [
            _status(nodes[i % 2].base + "/api/login", {"username": "carol", "password": "wrong password"})
            for i in range(5)
        ]
        guests = [_status(nodes[i % 2].base + "/api/guest", None) for i in range(6)]
    assert logins == [401] * 4 + [429], logins
    assert guests == [200] * 5 + [429], guests


def test_a_redis_without_password_is_refused(tmp_path: Path) -> None:
    """Was: any Redis URL was taken.  ``majiang serve --redis`` refuses a URL without a password, or a
    hall without ``MAJIANG_CLUSTER_KEY``, unless ``--insecure-redis``; a wrong password does not start."""
    env = {**os.environ, "MAJIANG_CLUSTER_KEY": CLUSTER_KEY}
    no_key = {k: v for k, v in env.items() if k != "MAJIANG_CLUSTER_KEY"}
    db = "postgresql://postgres@127.0.0.1:5432/majiang_never_used"  # refused before any connection

    def serve(url: str, environ: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "majiang.cli", "serve", "--db", db, "--redis", url, "--port", str(free_port())]
        return subprocess.run(
            [*cmd, *extra], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60, check=False
        )

    bare = serve("redis://127.0.0.1:6379/0", env)
    assert bare.returncode == 2 and "no password" in bare.stderr and "--insecure-redis" in bare.stderr, bare.stderr
    keyless = serve("redis://u:secret@127.0.0.1:6379/0", no_key)
    assert keyless.returncode == 2 and "MAJIANG_CLUSTER_KEY" in keyless.stderr, keyless.stderr
    with scratch_pg() as scratch:
        db = scratch
        wrong = serve(f"redis://mjt_nobody_{secrets.token_hex(3)}:wrong@127.0.0.1:6379/0", env)
    assert wrong.returncode != 0  # Redis refuses the credentials: the process stops, it does not run unprotected

    # the rules themselves
    from majiang.hall.cluster import InsecureRedis, check_redis_url

    assert check_redis_url("redis://hall:pw@127.0.0.1:6379/0", "k") == []
    assert check_redis_url("rediss://hall:pw@redis.internal:6380/0", "k") == []
    assert "TLS" in check_redis_url("redis://hall:pw@10.0.0.5:6379/0", "k")[0]
    assert check_redis_url("redis://127.0.0.1:6379/0", None, insecure=True)  # allowed, with warnings
    for url, key in (("redis://127.0.0.1/0", "k"), ("redis://hall@127.0.0.1/0", "k"), ("redis://:pw@h/0", None)):
        try:
            check_redis_url(url, key)
        except InsecureRedis:
            continue
        raise AssertionError(f"{url} accepted")
    try:
        check_redis_url("http://hall:pw@127.0.0.1/", "k")
        raise AssertionError("http:// accepted")
    except InsecureRedis:
        pass

    # with --insecure-redis (the tests' password-less Redis) it starts, and an ACL user with a password works
    prefix = f"t{secrets.token_hex(4)}"
    with acl_user(prefix) as url, cluster(1, tmp_path, redis=url) as (nodes, _db):
        health = http(nodes[0].base + "/healthz")
        assert health["ok"] and health["node"].startswith("node-")
        assert http(nodes[0].base + "/api/guest", {})["token"]


def test_session_seeds_are_kept_in_the_database(tmp_path: Path) -> None:
    """Migration 0006 on SQLite and PostgreSQL: a session's seed is kept by row id, read back only for
    its own table, deleted when the table ends, and cleared at start-up for tables no process holds."""
    from majiang.hall.persist import HandStore

    with scratch_pg() as pg:
        for url in (f"sqlite:///{tmp_path}/seeds.db", pg):
            database = Database(url)
            database.migrate()
            store = HandStore(database)
            seed_a, seed_b = secrets.token_hex(32), secrets.token_hex(32)
            ra, rb = store.save_session("A", seed_a), store.save_session("B", seed_b)
            assert store.session_seed(ra, "A") == seed_a and store.session_seed(rb, "B") == seed_b
            assert store.session_seed(ra, "B") is None  # another table's row
            store.drop_sessions("A")
            assert store.session_seed(ra, "A") is None and store.session_seed(rb, "B") == seed_b
            store.void_orphans({"B"})
            assert store.session_seed(rb, "B") == seed_b  # a live table keeps its seed
            store.void_orphans(set())
            assert store.session_seed(rb, "B") is None
            database.dispose()


# ---- the per-account limits of the hall's own actions, cluster-wide ----------------------------------------
async def _two_halls(tmp_path: Path, act: Any) -> Any:
    """Two Hall instances of one hall (one SQLite database, one Redis prefix, one cluster key), as two
    ``majiang serve --redis`` processes would be; ``act(a, b)`` runs between their start and close, and
    the prefix's keys are deleted afterwards."""
    import redis.asyncio as aioredis

    from majiang.hall.cluster import RedisCluster
    from majiang.hall.service import Hall

    prefix = f"t{secrets.token_hex(4)}"
    url = f"{REDIS}?prefix={prefix}"
    database = Database(f"sqlite:///{tmp_path}/hall.db")
    database.migrate()
    halls = [Hall(database, cluster=RedisCluster(url, key=CLUSTER_KEY.encode())) for _ in range(2)]
    raw = aioredis.Redis.from_url(REDIS, decode_responses=True)
    try:
        for h in halls:
            await h.start()
        return await act(*halls)
    finally:
        for h in halls:
            await h.close()
        keys = await raw.keys(f"{prefix}:*")
        if keys:
            await raw.delete(*keys)
        await raw.aclose()
        database.dispose()


def test_the_cluster_counts_private_codes_tried_once(tmp_path: Path) -> None:
    """Was: each process counted an account's private codes alone, so two processes
    allowed twice ``CODE_ATTEMPTS`` a minute.  Tried in turn on two halls of one Redis, the first
    ``CODE_ATTEMPTS`` codes are looked up (no such table) and the next is refused; another account may
    still try."""
    import asyncio

    from majiang.hall.service import CODE_ATTEMPTS, HallError

    async def act(a: Any, b: Any) -> tuple[list[str], str]:
        async def answer(hall: Any, account: int) -> str:
            try:
                return str(await hall.find_table(code="ZZZZZZ", by=account))
            except HallError as e:
                return str(e)

        tries = [await answer((a, b)[i % 2], 7) for i in range(CODE_ATTEMPTS + 1)]
        return tries, await answer(b, 8)

    tries, other = asyncio.run(_two_halls(tmp_path, act))
    assert tries == ["no private table with that code"] * CODE_ATTEMPTS + [
        "too many private codes tried: wait a minute"
    ], tries
    assert other == "no private table with that code"


async def _close(hall: Any, table: Any) -> None:
    """End ``table`` as a table left empty ends (TableRunner.on_empty_check), and wait until ``hall`` has
    dropped it (its registry entry and its owner's open-table mark go with tasks of their own)."""
    import asyncio

    table.put("empty_check")
    for _ in range(200):
        if table.id not in hall.tables:
            break
        await asyncio.sleep(0.01)
    assert table.id not in hall.tables, "the empty table did not end"
    await asyncio.sleep(0.05)


def test_one_open_table_per_account_in_the_whole_cluster(tmp_path: Path) -> None:
    """Was: "one open table per account" was counted per process, so an account
    with a table open on one process of a Redis hall opened another on the next.  Now: refused on the
    other process while the first is open, naming it; allowed once it has ended; another account is
    not affected; and two openings at once on two processes give one table."""
    import asyncio

    from majiang.hall.service import TableLimit

    async def act(a: Any, b: Any) -> dict[str, Any]:
        room = next(iter(a.rooms))

        async def answer(hall: Any, account: int) -> Any:
            try:
                return await hall.create_table(room, by=account)
            except TableLimit as e:
                return str(e)

        out: dict[str, Any] = {}
        first = await answer(a, 7)
        await asyncio.sleep(0.05)  # its registry entry written (a spawned task)
        out["first"] = first.id
        out["elsewhere"] = await answer(b, 7)
        out["another account"] = await answer(b, 8)
        await _close(a, first)
        out["after it ended"] = await answer(b, 7)
        both = await asyncio.gather(answer(a, 9), answer(b, 9))
        out["at once"] = sorted("opened" if not isinstance(x, str) else x.split(" (")[0] for x in both)
        return out

    out = asyncio.run(_two_halls(tmp_path, act))
    assert out["elsewhere"] == f"you have an open table ({out['first']}): sit there or leave it first", out
    assert not isinstance(out["another account"], str), out
    assert not isinstance(out["after it ended"], str), out
    assert out["at once"] == ["opened", "you have an open table"], out


def test_the_cluster_counts_tables_opened_once(tmp_path: Path) -> None:
    """Was: each process counted the tables an account opened alone, so two processes
    allowed twice ``CREATE_RATE`` a minute.  Opened in turn on two halls of one Redis (each table ended
    before the next, so the one-open-table rule does not answer), the first ``CREATE_RATE`` open and the
    next is refused; another account may still open one."""
    import asyncio

    from majiang.hall.service import CREATE_RATE, TableLimit

    async def act(a: Any, b: Any) -> tuple[list[str], str]:
        room = next(iter(a.rooms))

        async def answer(hall: Any, account: int) -> str:
            try:
                t = await hall.create_table(room, by=account)
            except TableLimit as e:
                return str(e)
            await _close(hall, t)  # each table ended before the next
            return "opened"

        opened = [await answer((a, b)[i % 2], 7) for i in range(CREATE_RATE + 1)]
        return opened, await answer(b, 8)

    opened, other = asyncio.run(_two_halls(tmp_path, act))
    assert opened == ["opened"] * CREATE_RATE + ["too many tables opened: wait a minute"], opened
    assert other == "opened"
