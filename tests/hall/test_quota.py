"""hall/quota.py: the per-account windows of private codes tried and tables opened (one process);
the cluster-wide side is in tests/hardening/test_hardening_redis.py."""

from __future__ import annotations

import asyncio

from majiang.hall.quota import Window


def test_a_refused_action_is_not_counted_and_keys_are_apart() -> None:
    w = Window(3, 60.0, "t")
    assert [w.take_here("a", now=float(t)) for t in range(5)] == [True, True, True, False, False]
    assert w.take_here("b", now=4.0)  # another account
    assert w.take_here("a", now=60.0)  # the first one left the window
    assert not w.take_here("a", now=60.5)
    assert w.refused == 3


def test_when_the_shared_window_fails_the_process_counts_alone() -> None:
    calls: list[tuple[str, str, int, float]] = []

    async def broken(name: str, key: str, limit: int, window_s: float) -> bool:
        calls.append((name, key, limit, window_s))
        raise ConnectionError("redis is down")

    async def shared_no(name: str, key: str, limit: int, window_s: float) -> bool:
        return False

    async def body() -> tuple[list[bool], bool]:
        w = Window(2, 60.0, "code")
        w.share(broken)
        fallback = [await w.take("7") for _ in range(3)]
        w.share(shared_no)
        return fallback, await w.take("8")

    fallback, refused_by_cluster = asyncio.run(body())
    assert fallback == [True, True, False]
    assert calls == [("code", "7", 2, 60.0)] * 3
    assert refused_by_cluster is False
