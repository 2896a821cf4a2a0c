"""Per-account limits of the hall's own actions: at most ``limit`` in any ``window_s`` seconds (private
codes tried, tables opened — ``service.CODE_ATTEMPTS``, ``service.CREATE_RATE``).

One process counts in memory; the processes of a cluster count in one window in Redis
(:meth:`Window.share` with :meth:`majiang.hall.cluster.RedisCluster.take_window`), so N processes allow
the limit once, not N times (counted per process, each process allowed it anew).  If Redis fails,
the process counts alone again (logged), as the HTTP limits do (hall/limits.py).

>>> w = Window(2, 60.0, "demo")
>>> [w.take_here("7", now=t) for t in (0.0, 1.0, 2.0, 61.0)]
[True, True, False, True]
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

log = logging.getLogger("majiang.hall")

# (window name, key, limit, seconds) → allowed (and counted) or refused, in the window every process shares
SharedWindow = Callable[[str, str, int, float], Awaitable[bool]]


class Window:
    """Sliding-window counts by key (an account): an action is allowed while fewer than ``limit`` were
    allowed in the last ``window_s`` seconds; a refused one is not counted.  At most ``max_keys`` keys are
    remembered (the least recently used are forgotten)."""

    def __init__(self, limit: int, window_s: float, name: str, max_keys: int = 50_000) -> None:
        self.limit, self.window_s, self.name, self.max_keys = limit, window_s, name, max_keys
        self._times: OrderedDict[str, list[float]] = OrderedDict()
        self.shared: SharedWindow | None = None
        self.refused = 0

    def share(self, shared: SharedWindow | None) -> None:
        """Count in the cluster's shared window (None: in this process again)."""
        self.shared = shared

    def take_here(self, key: str, now: float | None = None) -> bool:
        """Count one action of ``key`` in this process: False (not counted) when the limit is reached."""
        now = time.monotonic() if now is None else now
        recent = [t for t in self._times.pop(key, []) if now - t < self.window_s]
        allowed = len(recent) < self.limit
        self._times[key] = [*recent, now] if allowed else recent
        while len(self._times) > self.max_keys:
            self._times.popitem(last=False)
        if not allowed:
            self.refused += 1
        return allowed

    async def take(self, key: str) -> bool:
        """Count one action of ``key`` — in the cluster's shared window when there is one."""
        if self.shared is None:
            return self.take_here(key)
        try:
            allowed = await self.shared(self.name, key, self.limit, self.window_s)
        except Exception:
            log.warning("the shared %s limit is unavailable: counting in this process", self.name, exc_info=True)
            return self.take_here(key)
        if not allowed:
            self.refused += 1
        return allowed
