"""HTTP rate limits: token buckets keyed by client address or account name (login, register,
guests), answered with 429 and ``Retry-After``; the hall's settings for them (:class:`Limits`).

One process keeps its buckets in memory; the processes of a cluster share theirs through Redis
(:meth:`HttpLimiter.share` with :meth:`majiang.hall.cluster.RedisCluster.take_token`), so N processes
give one budget, not N: otherwise a client spreading its messages over the processes of a cluster
would get N times the limit."""

from __future__ import annotations

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

    @classmethod
    def from_flags(cls, logins_per_minute: float, guests_per_hour: float) -> Limits:
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


def client_address(conn: HTTPConnection) -> str:
    """The peer's address as the ASGI server saw it (behind a reverse proxy, run uvicorn with
    ``--proxy-headers`` and ``--forwarded-allow-ips`` so this is the client's, not the proxy's)."""
    return conn.client.host if conn.client else "?"
