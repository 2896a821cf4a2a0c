"""HTTP rate limits: token buckets keyed by the client's network or an account name (login, register,
guests), answered with 429 and ``Retry-After``; the hall's settings for them (:class:`Limits`).

An address limit keys on the client's network, not its full address: an IPv4 /24 and an IPv6 /64 by
default (one home or one cloud host holds a whole /64, so a per-address limit there is no limit).
Behind a reverse proxy the peer is the proxy; its ``X-Forwarded-For`` is believed only when the peer
is one of ``Limits.trusted_proxies`` (``majiang serve --trusted-proxy``).

One process keeps its buckets in memory; the processes of a cluster share theirs through Redis
(:meth:`HttpLimiter.share` with :meth:`majiang.hall.cluster.RedisCluster.take_token`), so N processes
give one budget, not N: otherwise a client spreading its messages over the processes of a cluster
would get N times the limit."""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import HTTPException
from starlette.requests import HTTPConnection

log = logging.getLogger("majiang.hall")

# (bucket name, key, tokens a second, burst) → seconds to wait (0.0: allowed), shared by the processes
SharedTake = Callable[[str, str, float, float], Awaitable[float]]


class Buckets:
    """Token buckets by key: ``burst`` at once, then ``per_s`` a second.  At most ``max_keys`` keys
    are remembered (the least recently used are forgotten, so a flood of keys costs bounded memory)."""

    def __init__(self, per_s: float, burst: float, max_keys: int = 50_000, name: str = "") -> None:
        self.per_s, self.burst, self.max_keys, self.name = per_s, burst, max_keys, name
        self._b: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.refused = 0

    def peek(self, key: str, now: float | None = None) -> float:
        """The seconds until ``key`` has a token (0.0: it has one now), taking nothing."""
        now = time.monotonic() if now is None else now
        tokens, t = self._b.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - t) * self.per_s)
        if tokens >= 1:
            return 0.0
        return (1 - tokens) / self.per_s if self.per_s > 0 else 3600.0

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token for ``key``: 0.0 when allowed, else the seconds until one is available."""
        now = time.monotonic() if now is None else now
        tokens, t = self._b.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - t) * self.per_s)
        if tokens >= 1:
            self._b[key] = (tokens - 1, now)
            wait = 0.0
        else:
            self._b[key] = (tokens, now)
            self.refused += 1
            wait = (1 - tokens) / self.per_s if self.per_s > 0 else 3600.0
        while len(self._b) > self.max_keys:
            self._b.popitem(last=False)
        return wait


@dataclass(frozen=True)
class Limits:
    """The hall's HTTP limits (``create_app(limits=…)``; ``majiang serve --guests-per-hour``)."""

    login_per_address_per_min: float = 20.0  # logins and registrations from one address
    login_burst: float = 10.0
    login_per_account_per_min: float = 5.0  # attempts on one username, from anywhere
    login_account_burst: float = 5.0
    guests_per_address_per_hour: float = 20.0
    guest_burst: float = 5.0
    hash_workers: int = 2  # argon2 threads (never the database worker)
    hash_queue: int = 32  # hashes waiting or running before new ones are refused (503)
    v4_prefix: int = 24  # the network an IPv4 client is counted with
    v6_prefix: int = 64  # the network an IPv6 client is counted with
    trusted_proxies: tuple[str, ...] = ()  # networks whose X-Forwarded-For names the client

    @classmethod
    def from_flags(
        cls, logins_per_minute: float, guests_per_hour: float, trusted_proxies: tuple[str, ...] = ()
    ) -> Limits:
        """``majiang serve --logins-per-minute N --guests-per-hour M``: bursts of up to 10 logins and 5
        guests (more when N or M is 1000 or more); one username gets a quarter of N."""
        login_burst = logins_per_minute if logins_per_minute >= 1000 else min(10.0, max(1.0, logins_per_minute))
        guest_burst = guests_per_hour if guests_per_hour >= 1000 else min(5.0, max(1.0, guests_per_hour))
        return cls(
            login_per_address_per_min=logins_per_minute,
            login_burst=login_burst,
            login_per_account_per_min=logins_per_minute / 4,
            login_account_burst=max(1.0, login_burst / 2),
            guests_per_address_per_hour=guests_per_hour,
            guest_burst=guest_burst,
            trusted_proxies=tuple(str(parse_network(n)) for n in trusted_proxies),
        )


class HttpLimiter:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.login_address = Buckets(limits.login_per_address_per_min / 60, limits.login_burst, name="login-address")
        self.login_account = Buckets(
            limits.login_per_account_per_min / 60, limits.login_account_burst, name="login-account"
        )
        self.guest_address = Buckets(limits.guests_per_address_per_hour / 3600, limits.guest_burst, name="guest")
        self.shared: SharedTake | None = None
        self.proxies = [parse_network(n) for n in limits.trusted_proxies]

    def key(self, conn: HTTPConnection) -> str:
        """The network a request is counted in (``203.0.113.0/24``, ``2001:db8:1:2::/64``)."""
        return network_of(client_address(conn, self.proxies), self.limits.v4_prefix, self.limits.v6_prefix)

    def share(self, take: SharedTake | None) -> None:
        """Take every token from the cluster's shared buckets (None: this process's own again)."""
        self.shared = take

    @staticmethod
    def refuse(wait: float, what: str) -> HTTPException:
        return HTTPException(
            429,
            f"too many {what}; try again in {math.ceil(wait)} s",
            headers={"Retry-After": str(max(1, math.ceil(wait)))},
        )

    async def check(self, buckets: Buckets, key: str, what: str) -> None:
        """Raise 429 when ``key`` has no token left in ``buckets`` — the cluster's shared bucket when
        there is one (if Redis fails, this process's own: the limit then counts per process)."""
        if self.shared is not None:
            try:
                wait = await self.shared(buckets.name, key, buckets.per_s, buckets.burst)
                if wait > 0:
                    buckets.refused += 1
            except Exception:
                log.warning("the shared rate limit is unavailable: counting in this process", exc_info=True)
                wait = buckets.take(key)
        else:
            wait = buckets.take(key)
        if wait > 0:
            raise self.refuse(wait, what)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_network(text: str) -> Network:
    """``10.0.0.0/8``, ``10.0.0.7`` or ``fd00::/8`` → the network; a clear error for anything else."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(f"not an address or network: {text!r} (e.g. 10.0.0.1 or 10.0.0.0/8 or fd00::/8)") from None


def client_address(conn: HTTPConnection, proxies: list[Network] | None = None) -> str:
    """The client's address: the peer's, or — when the peer is a trusted proxy — the last address in
    ``X-Forwarded-For`` that is not itself a trusted proxy (the left part of that header is whatever
    the client wrote, so it is never believed)."""
    peer = conn.client.host if conn.client else "?"
    if not proxies or not _within(peer, proxies):
        return peer
    hops = [h.strip() for part in conn.headers.getlist("x-forwarded-for") for h in part.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _within(hop, proxies):
            return hop
    return peer


def _within(address: str, networks: list[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in n for n in networks)


def network_of(address: str, v4_prefix: int = 24, v6_prefix: int = 64) -> str:
    """The network an address is counted in; an address that does not parse counts as itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = v4_prefix if ip.version == 4 else v6_prefix
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))
