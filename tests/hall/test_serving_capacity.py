"""What one hall process needs to serve 1,500 tables at human pace (issue 28, BENCHMARKS.md "The hall"):
a collector that does not stop every table for a full collection every few seconds, and a latency
histogram that measures the server, not the room's deliberate holds."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from majiang.hall import metrics as metrics_mod
from majiang.hall.metrics import Metrics
from majiang.hall.serving import FULL_COLLECTION_EVERY


def test_serve_freezes_its_start_up_and_rarely_collects_everything(tmp_path: Any) -> None:
    """``majiang serve`` tunes the collector before uvicorn starts (uvicorn.run replaced by a probe)."""
    code = (
        "import gc, sys, uvicorn\n"
        "from majiang.cli import main\n"
        "seen = {}\n"
        "uvicorn.run = lambda *a, **k: seen.update(every=gc.get_threshold()[2], frozen=gc.get_freeze_count())\n"
        "before = gc.get_threshold()[2]\n"
        f"assert main(['serve', '--port', '1', '--db', 'sqlite:///{tmp_path}/x.db']) == 0\n"
        "print(before, seen['every'], seen['frozen'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    before, after, frozen = map(int, out[-3:])
    assert before == 10 and after == FULL_COLLECTION_EVERY >= 100 * before  # full collections ≥ 100× rarer
    assert frozen > 10_000  # the modules, classes and tables loaded at start-up are out of every scan


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(metrics_mod.time, "perf_counter", c)
    return c


def bucket_counts(m: Metrics) -> dict[str, float]:
    lines = m.prompt_latency.lines("x", "")
    return {ln.split()[0]: float(ln.split()[1]) for ln in lines if ln.startswith("x_bucket")}


def test_the_claim_window_is_not_counted_as_the_servers_latency(clock: Clock) -> None:
    m = Metrics()
    m.action_received("t1")  # a discard arrives
    clock.now += 1.0  # the room holds what follows for its claim window
    m.held_until_now("t1")
    clock.now += 0.003  # the server's own work
    m.prompt_sent("t1", 0)
    got = bucket_counts(m)
    assert got['x_bucket{le="0.005"}'] == 1 and m.prompt_latency.n == 1


def test_the_pause_between_hands_is_not_counted_either(clock: Clock) -> None:
    m = Metrics()
    m.action_received("t1")  # the winning decision
    m.hand_settled("t1")
    clock.now += 3.0  # next_hand_s, the ready step, the deal
    m.prompt_sent("t1", 0)  # the first prompt of the next hand
    assert m.prompt_latency.n == 0 and m.hands == 1


def test_a_decision_answered_late_is_still_counted(clock: Clock) -> None:
    m = Metrics()
    m.action_received("t1")
    clock.now += 0.3
    m.held_until_now("t2")  # another table's window says nothing of this one
    m.prompt_sent("t1", 2)
    assert bucket_counts(m)['x_bucket{le="0.25"}'] == 0 and bucket_counts(m)['x_bucket{le="0.5"}'] == 1
