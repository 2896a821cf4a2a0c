"""Expensive requests — the AI review of a hand, the shanten search — off the tables' way.

One review replays a hand with a bot per decision: seconds of CPU.  Run on the event loop, or in a
thread (which holds the GIL while it computes), it slows every table of the process; eight at once
stopped them.  Here each runs in a small pool of worker *processes*, behind three bounds:

- a cache by what was asked (a finished hand's review for a seat never changes): asking again costs
  nothing and counts against no limit;
- a rate per requester (an account, or a client network for the calculator), by kind: reviews 6 a
  minute (bursts of 3), shanten searches 120 (bursts of 30); 429 beyond;
- a global cap: ``workers`` running and ``queue`` waiting; more gets 503 at once instead of a queue
  that grows with the attackers;
- the workers run at a lower priority (nice 10): when the machine is busy the tables come first;
- a worker ends with its hall: a hall killed outright (SIGKILL, the OOM killer) cannot shut its pool
  down, and the worker would wait on its queue for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from majiang.hall.limits import Buckets


class HeavyRefused(Exception):
    """Refused by a bound: ``status`` 429 (this requester's rate) or 503 (the pool is full)."""

    def __init__(self, status: int, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.status, self.retry_after_s = status, retry_after_s


def _default_rates() -> dict[str, tuple[float, float]]:
    return {"review": (6.0, 3.0), "shanten": (120.0, 30.0)}


@dataclass(frozen=True)
class HeavyLimits:
    workers: int = 1  # worker processes (each a CPU while it computes)
    queue: int = 16  # requests waiting for a worker before new ones get 503
    # computations one requester may start a minute, and its burst, by kind (a review costs seconds,
    # a shanten search at most ~0.1 s)
    rates: dict[str, tuple[float, float]] = field(default_factory=_default_rates)
    cache: int = 512  # answers kept
    repeats_per_min: float = 120.0  # cached answers one requester may fetch a minute (bursts of 30)
    repeat_burst: float = 30.0


class HeavyWork:
    """``await heavy.run(kind, requester, key, fn, *args)``: ``fn(*args)`` in a worker process, once per
    ``(kind, key)`` while cached.  ``fn`` must be a module-level function (it is pickled by name)."""

    def __init__(self, limits: HeavyLimits | None = None) -> None:
        self.limits = limits or HeavyLimits()
        self.rates: dict[str, Buckets] = {}
        self.repeats: Buckets | None = None
        self._cache: OrderedDict[tuple[str, Hashable], Any] = OrderedDict()
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[tuple[str, Hashable], asyncio.Future[Any]] = {}
        self.admitted = 0  # computing or waiting for a worker
        self.computed = 0  # computations finished (cache misses)

    def _pool_now(self) -> ProcessPoolExecutor:
        if self._pool is None:  # spawn: a fork of a process with threads and an event loop is unsafe
            self._pool = ProcessPoolExecutor(
                self.limits.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start
            )
        return self._pool

    def _rate(self, kind: str) -> Buckets:
        if kind not in self.rates:
            per_min, burst = self.limits.rates.get(kind, (6.0, 3.0))
            self.rates[kind] = Buckets(per_min / 60, burst, name=f"heavy-{kind}")
        return self.rates[kind]

    async def run(self, kind: str, requester: str, key: Hashable, fn: Callable[..., Any], *args: Any) -> Any:
        """The cached answer, else (admitted by the bounds) ``fn(*args)`` computed in a worker."""
        k = (kind, key)
        if k in self._cache:
            return self.cached(kind, key)
        if k not in self._running:
            self.admit(kind, requester)
        return await self.compute(kind, key, fn, *args)

    def cached(self, kind: str, key: Hashable, requester: str | None = None) -> Any:
        """The cached answer to ``(kind, key)``, or None; with ``requester``, a hit takes one of its
        repeats (a cached answer costs little, not nothing: a loop asking for it gets 429 too)."""
        k = (kind, key)
        if k not in self._cache:
            return None
        if requester is not None:
            if self.repeats is None:
                self.repeats = Buckets(self.limits.repeats_per_min / 60, self.limits.repeat_burst, name="heavy-repeat")
            wait = self.repeats.take(f"{kind}:{requester}")
            if wait > 0:
                raise HeavyRefused(429, f"too many {kind} requests; try again in {math.ceil(wait)} s", wait)
        self._cache.move_to_end(k)
        return self._cache[k]

    def admit(self, kind: str, requester: str) -> None:
        """Take one of the requester's computations and check the pool's cap; HeavyRefused when either
        is spent.  Called before any other work for the request (a refusal costs nothing more)."""
        wait = self._rate(kind).take(requester)
        if wait > 0:
            raise HeavyRefused(429, f"too many {kind} requests; try again in {math.ceil(wait)} s", wait)
        if self.admitted >= self.limits.workers + self.limits.queue:
            raise HeavyRefused(503, f"the server is busy with other {kind} requests; try again shortly", 2.0)

    async def compute(self, kind: str, key: Hashable, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker process (one computation per ``(kind, key)`` at a time), cached."""
        k = (kind, key)
        if k not in self._running:
            self.admitted += 1
            fut = asyncio.get_running_loop().run_in_executor(self._pool_now(), fn, *args)
            self._running[k] = fut
            fut.add_done_callback(lambda f: self._finished(k, f))
        return await asyncio.shield(self._running[k])  # a requester who leaves cancels nobody's answer

    def _finished(self, k: tuple[str, Hashable], fut: asyncio.Future[Any]) -> None:
        self.admitted -= 1
        self._running.pop(k, None)
        if fut.cancelled() or fut.exception() is not None:
            return
        self.computed += 1
        self._cache[k] = fut.result()
        while len(self._cache) > self.limits.cache:
            self._cache.popitem(last=False)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


# ---- the jobs (module-level: a worker process finds them by name) --------------------------------------
WORKER_NICE = 10  # a worker yields the CPU to the tables' process when both want it
PARENT_CHECK_S = 1.0  # how often a worker looks whether its hall is still there


def _worker_start() -> None:
    """A worker runs at a lower priority, and watches its hall."""
    with contextlib.suppress(OSError, AttributeError):  # not on every platform
        os.nice(WORKER_NICE)
    threading.Thread(target=_end_with, args=(os.getppid(),), name="heavy-parent", daemon=True).start()


def _end_with(parent: int) -> None:
    """Once the hall process is gone (the worker is handed to another parent), end the worker."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def review_job(
    stored: list[dict[str, Any]], seat: int, label: str, top: int, auto: list[int] | None = None
) -> dict[str, Any]:
    """The AI review of ``seat`` in a finished hand's stored log (``auto``: the events at which 托管
    decided for it); ``{"error": …}`` when it cannot be."""
    from majiang.engine.log import events_from_json
    from majiang.review import METHOD, review_hand

    try:
        review = review_hand(events_from_json(stored), seat, label=label, auto_events=auto or ())
    except ValueError as e:
        return {"error": str(e)}
    return {"method": METHOD, **review.to_dict(top)}


def shanten_job(body: dict[str, Any]) -> dict[str, Any]:
    """The shanten query of docs/hand-json.md (min_fan and winds included)."""
    from majiang.shanten import analyze_dict

    return analyze_dict(body)
