"""The experiment patches of benchmarks/experiments (docs/bots.md, *How far information alone goes*)
still apply to the core, so the figures measured with them can be made again from this checkout."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_oracle_patch_applies_to_the_core() -> None:
    patch = ROOT / "benchmarks" / "experiments" / "ev_oracle.patch"
    done = subprocess.run(["git", "apply", "--check", "-v", str(patch)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ev_core.h" in done.stderr + done.stdout
