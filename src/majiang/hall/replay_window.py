"""Which relayed messages a process of a cluster accepts: fresh, and never twice.

Redis may record a sealed message and publish it again.  A process drops a message that is stale
(more than ``MAX_SKEW_S`` off), one whose nonce it has seen (a replay to a process that heard the
original), and one sent before it subscribed to the channel (a replay to a process started or
subscribed since: Redis delivers nothing sent before a subscription).  Times are on Redis's clock,
which every process shares: each reads its offset to it at start and with every heartbeat.
"""

from __future__ import annotations

import time
from typing import Any

MAX_SKEW_S = 30.0  # a relayed message older (or newer) than this is dropped
CLOCK_EPS_S = 0.5  # the error allowed in a process's reading of Redis's clock
NONCES_KEPT = 10_000


class ReplayWindow:
    def __init__(self) -> None:
        self.offset = 0.0  # Redis's clock minus this machine's
        self.nonces: dict[str, float] = {}
        self.listening: dict[str, float] = {}  # channel → when this process subscribed

    def now(self) -> float:
        """The time on Redis's clock."""
        return time.time() + self.offset

    async def sync(self, redis: Any) -> None:
        t0 = time.time()
        sec, usec = await redis.time()
        t1 = time.time()
        self.offset = sec + usec / 1e6 - (t0 + t1) / 2

    def subscribing(self, *channels: str) -> None:
        """Note that the channels are being subscribed now (call before subscribing)."""
        since = self.now() - CLOCK_EPS_S
        for c in channels:
            self.listening[c] = since

    def refuse(self, channel: str, nonce: str, at: str) -> str | None:
        """Why the message is dropped, or None when it is accepted (and its nonce remembered)."""
        now = self.now()
        try:
            sent = float(at)
        except ValueError:
            return "bad timestamp"
        if abs(now - sent) > MAX_SKEW_S:
            return "stale"
        if sent < self.listening.get(channel, 0.0):
            return "replayed (sent before this process listened)"
        if nonce in self.nonces:
            return "replayed"
        self.nonces[nonce] = now
        if len(self.nonces) > NONCES_KEPT:
            self.nonces = {n: t for n, t in self.nonces.items() if now - t <= MAX_SKEW_S}
        return None
