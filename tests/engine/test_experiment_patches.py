"""The experiments of benchmarks/experiments (docs/bots.md, *How far information alone goes*) still
run against this checkout, so the figures measured with them can be made again: each patch applies to
the core, and the wall-estimate script's rows keep their invariants."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = ROOT / "benchmarks" / "experiments"


@pytest.mark.parametrize("name", ["ev_oracle.patch", "ev_trap_waits.patch", "ev_far_claims.patch"])
def test_the_patch_applies_to_the_core(name: str) -> None:
    patch = EXPERIMENTS / name
    done = subprocess.run(["git", "apply", "--check", "-v", str(patch)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ev_core.h" in done.stderr + done.stdout


def _wall_estimate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wall_estimate", EXPERIMENTS / "wall_estimate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["wall_estimate"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_wall_rows_count_only_copies_the_seat_cannot_see() -> None:
    we = _wall_estimate()
    rows = we.collect(3, seed=5)
    assert rows.x, "no rows from three hands"
    assert all(len(x) == len(we.FEATURES) for x in rows.x)
    # a copy in the wall is one the seat has not seen: never more in the wall than unseen
    assert all(0 <= w <= u <= 4 for w, u in zip(rows.in_wall, rows.unseen, strict=True))
    assert all(0.0 <= s <= 1.0 for s in rows.share)
    # over many rows the sizes' share is about right on average (the labels are the wall's, not noise)
    expected = sum(u * s for u, s in zip(rows.unseen, rows.share, strict=True))
    assert 0.8 < sum(rows.in_wall) / expected < 1.25
