"""Where things live when the hall runs as several processes.

:class:`LocalCluster` is the single process of ``majiang serve`` without ``--redis``: everything is in
memory.  :class:`RedisCluster` shares it through Redis:

* **the table registry** — hash ``mj:tables`` (table id → public info, for every lobby) and
  ``mj:state`` (table id → the snapshot a new owner restores from); ``mj:codes`` maps private codes;
* **ownership** — ``mj:owner:<table>`` holds the owning process's id with a lease (``PX``), taken
  atomically with ``SET NX`` and renewed by heartbeat only by its holder; a process that cannot renew
  stops the table at once;
* **messages** — every table listens on channel ``mj:t:<table>`` (its owner subscribes), every
  connection on ``mj:a:<account>`` (the process holding it subscribes).  A message published to a
  table nobody listens to means its owner is gone: the publishing process takes the table over;
* **where people sit** — hash ``mj:where`` (account → table);
* **one seat per account** — ``mj:seat:<account>`` holds the one table the account has a seat at (or
  is on its way to), set atomically (a compare-and-set script): a burst of joins gets one seat;
* **one open table per account** — ``mj:opened:<account>`` names the last table the account opened and
  when; a new one is refused while that table is in the registry (or was opened less than
  ``OPEN_GRACE_MS`` ago: its first registry write may not have landed yet);
* **shared rate limits** — ``mj:rl:<bucket>:<keyed hash>``: the HTTP token buckets of every process
  (an atomic script), so N processes give one budget, not N.

Redis is outside the trust boundary (whoever reads it learns nothing): nothing in it is secret.  Every relayed message
is sealed (AES-256-GCM under a key derived from ``MAJIANG_CLUSTER_KEY``; the channel, nonce and time are authenticated
with it) — a forged, stale or replayed one is dropped (a replay to a process that heard the original by the nonces it
remembers; to one that was not listening yet because the message is older than its subscription, on Redis's clock,
which every process shares), and no tile, prompt or private chat crosses Redis in the clear;
the session seed is not in the snapshot (PostgreSQL's ``table_sessions`` holds it, the snapshot names its row), and
the snapshot itself is sealed the same way (the private code and a queued item's pattern are in it, and a takeover
must restore exactly what the owner wrote); ``mj:codes`` is keyed by a keyed hash of each code, the rate-limit keys by
one of the client address or name.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from majiang.hall.replay_window import ReplayWindow

log = logging.getLogger("majiang.cluster")

LEASE_MS = 3000
RENEW_S = 1.0
SCAN_S = 1.0

Deliver = Callable[[dict[str, Any]], Awaitable[None] | None]


class InsecureRedis(ValueError):
    """A cluster would trust a Redis anyone on the network could use (no password, or no shared key)."""


def check_redis_url(url: str, key: str | None, insecure: bool = False) -> list[str]:
    """Refuse (:class:`InsecureRedis`) a ``--redis`` URL without a password (``redis://user:pass@host``,
    ``rediss://`` for TLS) or a hall without ``MAJIANG_CLUSTER_KEY``, unless ``insecure`` (``majiang
    serve --insecure-redis``: a Redis on a trusted loopback for development).  Returns the warnings to
    print (TLS off towards another host)."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss", "unix"):
        raise InsecureRedis(f"--redis must be redis://, rediss:// or unix://, not {parts.scheme or url!r}")
    problems = []
    if not parts.password:
        problems.append(
            "the Redis URL has no password: give the hall its own ACL user, "
            "redis://USER:PASSWORD@HOST:6379/0 (rediss:// for TLS)"
        )
    if not key:
        problems.append("MAJIANG_CLUSTER_KEY is not set: give every process of the hall the same long random key")
    if problems and not insecure:
        raise InsecureRedis("; ".join(problems) + " — or pass --insecure-redis (development only)")
    warnings = [f"insecure Redis: {p}" for p in problems]
    host = parts.hostname or ""
    if parts.scheme == "redis" and host not in ("127.0.0.1", "localhost", "::1", ""):
        warnings.append(f"Redis at {host} without TLS: use rediss:// when it is not on this machine")
    return warnings


def derive_key(secret: bytes, label: str) -> bytes:
    """A 256-bit key for one use (``relay``, ``seal``, ``names``) from the hall's shared secret."""
    return hmac.new(secret, f"majiang cluster {label} v1".encode(), hashlib.sha256).digest()


class Sealer:
    """AES-256-GCM with a random 96-bit nonce; ``aad`` is authenticated, not hidden."""

    def __init__(self, secret: bytes, label: str) -> None:
        self._aead = AESGCM(derive_key(secret, label))

    def seal(self, plain: str, aad: str = "") -> str:
        nonce = secrets.token_bytes(12)
        box = self._aead.encrypt(nonce, plain.encode(), aad.encode())
        return base64.b64encode(nonce + box).decode()

    def open(self, sealed: str, aad: str = "") -> str:
        """The plaintext; ``ValueError`` when it was not sealed with this key and ``aad``."""
        try:
            raw = base64.b64decode(sealed, validate=True)
            return self._aead.decrypt(raw[:12], raw[12:], aad.encode()).decode()
        except (InvalidTag, ValueError, TypeError) as e:
            raise ValueError("not sealed with this key") from e


class Cluster(Protocol):
    node: str
    multi: bool

    async def start(
        self, on_table: Deliver, on_account: Deliver, on_orphan: Callable[[str], Awaitable[None]]
    ) -> None: ...

    async def stop(self) -> None: ...

    # registry
    async def save_table(self, table_id: str, info: dict[str, Any], state: dict[str, Any]) -> None: ...
    async def drop_table(self, table_id: str, code: str | None) -> None: ...
    async def all_tables(self) -> list[dict[str, Any]]: ...
    async def table_info(self, table_id: str) -> dict[str, Any] | None: ...
    async def table_state(self, table_id: str) -> dict[str, Any] | None: ...
    async def find_code(self, code: str) -> str | None: ...
    async def set_code(self, code: str, table_id: str) -> bool: ...

    # ownership
    async def claim(self, table_id: str) -> bool: ...
    async def release(self, table_id: str) -> None: ...
    def owns(self, table_id: str) -> bool: ...

    # messages
    async def to_table(self, table_id: str, msg: dict[str, Any]) -> bool: ...
    async def to_account(self, account: int, msg: dict[str, Any]) -> None: ...
    async def listen_account(self, account: int) -> None: ...
    async def unlisten_account(self, account: int) -> None: ...

    # seating
    async def set_where(self, account: int, table_id: str | None) -> None: ...
    async def where(self, account: int) -> str | None: ...
    async def hold_seat(self, account: int, table_id: str, expect: str | None = None) -> str | None: ...
    async def free_seat(self, account: int, table_id: str) -> None: ...
    async def seat(self, account: int) -> str | None: ...

    # one open table per account, hall-wide: counted per process, N processes would allow N
    async def open_table(self, account: int, table_id: str = "", ended: str = "") -> str | None: ...
    async def table_closed(self, account: int, table_id: str) -> None: ...

    # lobby chat, seen by every process
    async def lobby_publish(self, msg: dict[str, Any]) -> None: ...


class LocalCluster:
    """One process: the registry and the messages stay in memory."""

    multi = False

    def __init__(self) -> None:
        self.node = "local"
        self._tables: dict[str, dict[str, Any]] = {}
        self._states: dict[str, dict[str, Any]] = {}
        self._codes: dict[str, str] = {}
        self._where: dict[int, str] = {}
        self._seats: dict[int, str] = {}
        self._owned: set[str] = set()
        self._on_table: Deliver | None = None
        self._on_account: Deliver | None = None
        self._on_lobby: Deliver | None = None

    async def start(self, on_table: Deliver, on_account: Deliver, on_orphan: Callable[[str], Awaitable[None]]) -> None:
        self._on_table, self._on_account = on_table, on_account

    async def stop(self) -> None:
        return None

    async def save_table(self, table_id: str, info: dict[str, Any], state: dict[str, Any]) -> None:
        self._tables[table_id] = info
        self._states[table_id] = state

    async def drop_table(self, table_id: str, code: str | None) -> None:
        self._tables.pop(table_id, None)
        self._states.pop(table_id, None)
        self._owned.discard(table_id)
        if code:
            self._codes.pop(code, None)

    async def all_tables(self) -> list[dict[str, Any]]:
        return list(self._tables.values())

    async def table_info(self, table_id: str) -> dict[str, Any] | None:
        return self._tables.get(table_id)

    async def table_state(self, table_id: str) -> dict[str, Any] | None:
        return self._states.get(table_id)

    async def find_code(self, code: str) -> str | None:
        return self._codes.get(code)

    async def set_code(self, code: str, table_id: str) -> bool:
        """Map a private code to its table unless a live table has it already."""
        return self._codes.setdefault(code, table_id) == table_id

    async def claim(self, table_id: str) -> bool:
        self._owned.add(table_id)
        return True

    async def release(self, table_id: str) -> None:
        self._owned.discard(table_id)

    def owns(self, table_id: str) -> bool:
        return table_id in self._owned

    async def to_table(self, table_id: str, msg: dict[str, Any]) -> bool:
        return False  # every table of a single process is local

    async def to_account(self, account: int, msg: dict[str, Any]) -> None:
        return None

    async def listen_account(self, account: int) -> None:
        return None

    async def unlisten_account(self, account: int) -> None:
        return None

    async def set_where(self, account: int, table_id: str | None) -> None:
        if table_id is None:
            self._where.pop(account, None)
        else:
            self._where[account] = table_id

    async def where(self, account: int) -> str | None:
        return self._where.get(account)

    async def hold_seat(self, account: int, table_id: str, expect: str | None = None) -> str | None:
        """The account's seat is ``table_id`` now if it held ``expect`` (None: no seat); otherwise
        the seat it holds is returned and nothing changes."""
        held = self._seats.get(account)
        if held != expect:
            return held
        self._seats[account] = table_id
        return None

    async def free_seat(self, account: int, table_id: str) -> None:
        if self._seats.get(account) == table_id:
            del self._seats[account]

    async def seat(self, account: int) -> str | None:
        return self._seats.get(account)

    async def open_table(self, account: int, table_id: str = "", ended: str = "") -> str | None:
        """Always None: one process is the whole hall, and the Hall's own tables answer."""
        return None

    async def table_closed(self, account: int, table_id: str) -> None:
        return None

    async def lobby_publish(self, msg: dict[str, Any]) -> None:
        if self._on_lobby is not None:
            r = self._on_lobby(msg)
            if asyncio.iscoroutine(r):
                await r

    def on_lobby(self, callback: Deliver) -> None:
        self._on_lobby = callback


_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_HOLD_SEAT = """
local cur = redis.call('get', KEYS[1])
if (cur == false and ARGV[2] == '') or cur == ARGV[2] then
  redis.call('set', KEYS[1], ARGV[1])
  return ''
end
return cur
"""
_TAKE_TOKEN = """
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('hmget', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
elseif rate > 0 then
  wait = (1 - tokens) / rate
else
  wait = 3600
end
redis.call('hset', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
local ttl = 3600000
if rate > 0 then ttl = math.ceil(burst / rate * 1000) + 1000 end
redis.call('pexpire', KEYS[1], ttl)
return tostring(wait)
"""
_TAKE_WINDOW = """
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('zremrangebyscore', KEYS[1], '-inf', now - window)
if redis.call('zcard', KEYS[1]) >= limit then
  return 0
end
redis.call('zadd', KEYS[1], now, ARGV[3])
redis.call('pexpire', KEYS[1], window + 1000)
return 1
"""
#: a table opened this recently counts as open though it is not in the registry yet (its first write is spawned)
OPEN_GRACE_MS = 2_000
#: how long ``mj:opened:<account>`` is kept (a stale entry only ever names a table that is gone)
OPEN_TTL_MS = 24 * 3600 * 1000
_OPEN_TABLE = """
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cur = redis.call('get', KEYS[1])
if cur then
  local id, at = string.match(cur, '^(.*)|(%d+)$')
  if id and id ~= ARGV[1] and id ~= ARGV[2] then
    if redis.call('hexists', KEYS[2], id) == 1 or now - tonumber(at) < tonumber(ARGV[3]) then
      return id
    end
  end
end
if ARGV[1] ~= '' then
  redis.call('set', KEYS[1], ARGV[1] .. '|' .. now, 'px', ARGV[4])
end
return ''
"""
_CLOSE_TABLE = """
local cur = redis.call('get', KEYS[1])
if cur and string.sub(cur, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. '|' then
  return redis.call('del', KEYS[1])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class RedisCluster:
    """Several ``majiang serve`` processes sharing Redis (and one PostgreSQL database)."""

    multi = True

    def __init__(self, url: str, lease_ms: int = LEASE_MS, key: bytes | None = None) -> None:
        """``url`` may end in ``?prefix=NAME`` to keep several halls apart on one Redis (keys and
        channels start with the prefix; default ``mj``).  ``key`` (default: the environment's
        ``MAJIANG_CLUSTER_KEY``) seals every relayed message (AES-256-GCM, the channel, a nonce and a
        timestamp authenticated with it): a forged, stale or replayed one is dropped and logged.
        Without a key everything is sealed with an empty key (a warning: no protection; ``majiang
        serve`` refuses that without ``--insecure-redis``, see :func:`check_redis_url`)."""
        import os

        import redis.asyncio as aioredis

        if key is None:
            env = os.environ.get("MAJIANG_CLUSTER_KEY", "")
            if not env:
                log.warning("no MAJIANG_CLUSTER_KEY: messages relayed through Redis are not authenticated")
            key = env.encode()
        self.key = key
        self._relay = Sealer(key, "relay")
        self._sealer = Sealer(key, "seal")
        self._names = derive_key(key, "names")
        self.window = ReplayWindow()  # fresh messages only, never twice (majiang.hall.replay_window)
        self.dropped = 0

        self.url = url
        base, _, query = url.partition("?")
        params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
        self.p = params.pop("prefix", "mj")
        rest = "&".join(f"{k}={v}" for k, v in params.items())
        # a blocking pool: under load a command waits for a free connection instead of failing
        pool = aioredis.BlockingConnectionPool.from_url(
            base + (f"?{rest}" if rest else ""), max_connections=64, timeout=20, decode_responses=True
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.node = f"node-{secrets.token_hex(4)}"
        self.lease_ms = lease_ms
        self._owned: set[str] = set()
        self._pubsub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._on_table: Deliver | None = None
        self._on_account: Deliver | None = None
        self._on_orphan: Callable[[str], Awaitable[None]] | None = None
        self._lost: Callable[[str], None] | None = None
        self._on_lobby: Deliver | None = None
        self.takeovers = 0

    def on_lobby(self, callback: Deliver) -> None:
        self._on_lobby = callback

    async def lobby_publish(self, msg: dict[str, Any]) -> None:
        await self._publish(f"{self.p}:lobby", json.dumps(msg, ensure_ascii=False))

    # ---- sealed relays: Redis may read and replay, never learn or forge ------------------------------
    def _sign(self, channel: str, body: str) -> str:
        """The envelope of a relayed message: its nonce and time in the clear, the message sealed
        (AES-256-GCM; channel, nonce and time authenticated): Redis carries nothing readable."""
        nonce, at = secrets.token_hex(12), f"{self.window.now():.3f}"
        box = self._relay.seal(body, "\n".join((channel, nonce, at)))
        return json.dumps({"n": nonce, "t": at, "c": box})

    async def _publish(self, channel: str, body: str) -> int:
        return int(await self.redis.publish(channel, self._sign(channel, body)))

    def _open(self, channel: str, raw: str) -> Any:
        """The message of a sealed envelope, or None (dropped and logged) when it is forged, stale or
        a replay (majiang.hall.replay_window)."""
        try:
            env = json.loads(raw)
            nonce, at, box = str(env["n"]), str(env["t"]), str(env["c"])
        except (ValueError, KeyError, TypeError):
            return self._drop(channel, "not a sealed message")
        try:
            body = self._relay.open(box, "\n".join((channel, nonce, at)))
        except ValueError:
            return self._drop(channel, "bad seal (another key, or altered)")
        why = self.window.refuse(channel, nonce, at)
        return self._drop(channel, why) if why else json.loads(body)

    async def _subscribe(self, *channels: str) -> None:
        self.window.subscribing(*channels)  # a message sent before this is a replay
        await self._pubsub.subscribe(*channels)

    def name_hash(self, kind: str, name: str) -> str:
        """A keyed hash standing for a private code or a client address in a Redis key."""
        return hmac.new(self._names, f"{kind}\n{name}".encode(), hashlib.sha256).hexdigest()[:32]

    def _drop(self, channel: str, why: str) -> None:
        self.dropped += 1
        log.warning("dropped a message on %s: %s", channel, why)
        return None

    # ---- lifecycle -------------------------------------------------------------------------
    async def start(self, on_table: Deliver, on_account: Deliver, on_orphan: Callable[[str], Awaitable[None]]) -> None:
        self._on_table, self._on_account, self._on_orphan = on_table, on_account, on_orphan
        await self.redis.ping()
        await self.window.sync(self.redis)
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._subscribe(f"{self.p}:n:{self.node}", f"{self.p}:lobby")
        self._tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._heartbeat()),
            asyncio.create_task(self._scan()),
        ]
        await self.redis.set(f"{self.p}:node:{self.node}", str(time.time()), px=self.lease_ms)

    def on_lost(self, callback: Callable[[str], None]) -> None:
        """``callback(table_id)`` when a lease could not be renewed: stop that table now."""
        self._lost = callback

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for table_id in list(self._owned):
            await self.release(table_id)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
            await self.redis.aclose()

    # ---- registry ----------------------------------------------------------------------------
    async def save_table(self, table_id: str, info: dict[str, Any], state: dict[str, Any]) -> None:
        if "seed" in (state.get("session") or {}):
            raise ValueError("a session seed never goes to Redis")  # it lives in PostgreSQL (table_sessions)
        # sealed whole (the private code, a queued item's pattern; and nobody can alter what a takeover restores)
        sealed = self._sealer.seal(json.dumps(state), f"state\n{table_id}")
        pipe = self.redis.pipeline()
        pipe.hset(f"{self.p}:tables", table_id, json.dumps({**info, "node": self.node}))
        pipe.hset(f"{self.p}:state", table_id, sealed)
        await pipe.execute()

    async def drop_table(self, table_id: str, code: str | None) -> None:
        pipe = self.redis.pipeline()
        pipe.hdel(f"{self.p}:tables", table_id)
        pipe.hdel(f"{self.p}:state", table_id)
        if code:
            pipe.hdel(f"{self.p}:codes", self.name_hash("code", code))
        await pipe.execute()
        await self.release(table_id)

    async def all_tables(self) -> list[dict[str, Any]]:
        raw = await self.redis.hvals(f"{self.p}:tables")
        return [json.loads(x) for x in raw]

    async def table_info(self, table_id: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(f"{self.p}:tables", table_id)
        return json.loads(raw) if raw else None

    async def table_state(self, table_id: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(f"{self.p}:state", table_id)
        if not raw:
            return None
        try:
            state: dict[str, Any] = json.loads(self._sealer.open(str(raw), f"state\n{table_id}"))
        except ValueError:
            log.warning("the snapshot of table %s is not sealed with this hall's key: ignored", table_id)
            return None
        return state

    async def find_code(self, code: str) -> str | None:
        got = await self.redis.hget(f"{self.p}:codes", self.name_hash("code", code))
        return str(got) if got is not None else None

    async def set_code(self, code: str, table_id: str) -> bool:
        field = self.name_hash("code", code)
        if await self.redis.hsetnx(f"{self.p}:codes", field, table_id):
            return True
        return bool(await self.redis.hget(f"{self.p}:codes", field) == table_id)

    # ---- ownership -----------------------------------------------------------------------------
    async def claim(self, table_id: str) -> bool:
        ok = await self.redis.set(f"{self.p}:owner:{table_id}", self.node, nx=True, px=self.lease_ms)
        if ok:
            self._owned.add(table_id)
            await self._subscribe(f"{self.p}:t:{table_id}")
        return bool(ok)

    async def release(self, table_id: str) -> None:
        self._owned.discard(table_id)
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe(f"{self.p}:t:{table_id}")
            await self.redis.eval(_RELEASE, 1, f"{self.p}:owner:{table_id}", self.node)

    def owns(self, table_id: str) -> bool:
        return table_id in self._owned

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(RENEW_S)
            try:
                await self.window.sync(self.redis)
                await self.redis.set(f"{self.p}:node:{self.node}", str(time.time()), px=self.lease_ms)
                owned = list(self._owned)
                pipe = self.redis.pipeline()
                for t in owned:
                    pipe.eval(_RENEW, 1, f"{self.p}:owner:{t}", self.node, self.lease_ms)
                results = await pipe.execute()
                for t, ok in zip(owned, results, strict=True):
                    if not ok:
                        log.warning("lost the lease of table %s", t)
                        self._owned.discard(t)
                        await self._pubsub.unsubscribe(f"{self.p}:t:{t}")
                        if self._lost:
                            self._lost(t)
            except Exception:
                log.exception("heartbeat failed")

    async def _scan(self) -> None:
        """Take over tables whose owner stopped renewing its lease."""
        while True:
            await asyncio.sleep(SCAN_S + (hash(self.node) % 100) / 1000)
            try:
                ids = [str(x) for x in await self.redis.hkeys(f"{self.p}:tables")]
                if not ids:
                    continue
                pipe = self.redis.pipeline()
                for t in ids:
                    pipe.exists(f"{self.p}:owner:{t}")
                alive = await pipe.execute()
                for t, exists in zip(ids, alive, strict=True):
                    if not exists and self._on_orphan is not None:
                        await self._on_orphan(t)
            except Exception:
                log.exception("orphan scan failed")

    # ---- messages ------------------------------------------------------------------------------
    async def to_table(self, table_id: str, msg: dict[str, Any]) -> bool:
        n = await self._publish(f"{self.p}:t:{table_id}", json.dumps({"to": table_id, **msg}))
        if n == 0 and self._on_orphan is not None:
            await self._on_orphan(table_id)  # its owner is gone: take it over, then deliver
            n = await self._publish(f"{self.p}:t:{table_id}", json.dumps({"to": table_id, **msg}))
        return bool(n)

    async def to_account(self, account: int, msg: dict[str, Any]) -> None:
        await self._publish(f"{self.p}:a:{account}", json.dumps(msg, ensure_ascii=False))

    async def listen_account(self, account: int) -> None:
        await self._subscribe(f"{self.p}:a:{account}")

    async def unlisten_account(self, account: int) -> None:
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe(f"{self.p}:a:{account}")

    async def _listen(self) -> None:
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except Exception:
                log.exception("pub/sub read failed")
                await asyncio.sleep(0.5)
                continue
            if msg is None:
                continue
            channel: str = msg["channel"]
            data = self._open(channel, msg["data"])
            if not isinstance(data, dict):
                continue
            if channel == f"{self.p}:lobby":
                target = self._on_lobby
            else:
                target = self._on_table if channel.startswith(f"{self.p}:t:") else self._on_account
            if channel.startswith(f"{self.p}:a:"):
                data["_account"] = int(channel.rsplit(":", 1)[1])
            if target is not None:
                try:
                    r = target(data)
                    if asyncio.iscoroutine(r):
                        await r
                except Exception:
                    log.exception("handling a message on %s failed", channel)

    # ---- seating ---------------------------------------------------------------------------
    async def set_where(self, account: int, table_id: str | None) -> None:
        if table_id is None:
            await self.redis.hdel(f"{self.p}:where", str(account))
        else:
            await self.redis.hset(f"{self.p}:where", str(account), table_id)

    async def where(self, account: int) -> str | None:
        got = await self.redis.hget(f"{self.p}:where", str(account))
        return str(got) if got is not None else None

    async def hold_seat(self, account: int, table_id: str, expect: str | None = None) -> str | None:
        got = await self.redis.eval(_HOLD_SEAT, 1, f"{self.p}:seat:{account}", table_id, expect or "")
        return str(got) if got else None

    async def free_seat(self, account: int, table_id: str) -> None:
        await self.redis.eval(_RELEASE, 1, f"{self.p}:seat:{account}", table_id)

    async def seat(self, account: int) -> str | None:
        got = await self.redis.get(f"{self.p}:seat:{account}")
        return str(got) if got is not None else None

    async def open_table(self, account: int, table_id: str = "", ended: str = "") -> str | None:
        """The id of another table ``account`` opened that is still open anywhere in the hall, or None;
        with ``table_id`` (and None), ``table_id`` is recorded as its open table — check and record in one
        atomic script.  ``ended``: a table this process saw end (its registry entry may still be on its
        way out)."""
        got = await self.redis.eval(
            _OPEN_TABLE,
            2,
            f"{self.p}:opened:{account}",
            f"{self.p}:tables",
            table_id,
            ended,
            str(OPEN_GRACE_MS),
            str(OPEN_TTL_MS),
        )
        return str(got) if got else None

    async def table_closed(self, account: int, table_id: str) -> None:
        """``table_id``, which ``account`` opened, has ended: it is no longer the account's open table."""
        await self.redis.eval(_CLOSE_TABLE, 1, f"{self.p}:opened:{account}", table_id)

    # ---- rate limits shared by the processes: one budget per account, not one per process ------------
    async def take_token(self, bucket: str, key: str, per_s: float, burst: float) -> float:
        """Take a token of ``bucket`` for ``key`` (a client address, a username) from the bucket every
        process shares: 0.0 when allowed, else the seconds until one is available (one atomic script,
        Redis's own clock)."""
        got = await self.redis.eval(
            _TAKE_TOKEN, 1, f"{self.p}:rl:{bucket}:{self.name_hash(bucket, key)}", repr(per_s), repr(burst)
        )
        return float(got)

    async def take_window(self, window: str, key: str, limit: int, window_s: float) -> bool:
        """Count an action of ``key`` (an account) in ``window``, shared by every process: True when
        fewer than ``limit`` were counted in the last ``window_s`` seconds (a refused one is not
        counted; one atomic script, Redis's own clock in milliseconds)."""
        got = await self.redis.eval(
            _TAKE_WINDOW,
            1,
            f"{self.p}:qw:{window}:{self.name_hash(window, key)}",
            str(limit),
            str(max(1, round(window_s * 1000))),
            secrets.token_hex(8),
        )
        return bool(int(got))
