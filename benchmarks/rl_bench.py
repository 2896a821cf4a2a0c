"""Steps per second of the RL environments with an observation at every decision, random legal
actions, one core: the AEC env (``mcr_v0.raw_env``), the parallel env, and — in the same run, for a
before/after — the pre-PettingZoo ``MahjongEnv`` (18 × 34 planes) read from git (``--baseline REV``).

    .venv/bin/python benchmarks/rl_bench.py --hands 100
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from majiang.rl import mcr_v0

ROOT = Path(__file__).resolve().parents[1]


def aec_run(env: Any, hands: int, seed: int) -> tuple[int, float]:
    """(decisions, seconds) for ``hands`` hands of the AEC loop with ``last()`` at every step."""
    rng = np.random.default_rng(seed)
    steps = 0
    t = time.perf_counter()
    for h in range(hands):
        env.reset(seed=seed + h)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - t


def parallel_run(hands: int, seed: int) -> tuple[int, float]:
    env = mcr_v0.parallel_env()
    rng = np.random.default_rng(seed)
    steps = 0
    t = time.perf_counter()
    for h in range(hands):
        obs, _ = env.reset(seed=seed + h)
        while env.agents:
            obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()})
            steps += 1
    return steps, time.perf_counter() - t


def baseline_env(rev: str) -> Any:
    """The ``MahjongEnv`` of ``majiang/rl/env.py`` at git revision ``rev``, or None."""
    try:
        src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:src/majiang/rl/env.py"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = Path(tempfile.mkdtemp()) / "rl_env_baseline.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("rl_env_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rl_env_baseline"] = module
    spec.loader.exec_module(module)
    return module.MahjongEnv()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs, the best is shown")
    ap.add_argument("--baseline", default="ac85c46", help="git revision with the old src/majiang/rl/env.py "
                    "(default: the last one before the PettingZoo environments; '' = none)")
    args = ap.parse_args()
    print(f"# rl benchmark · {datetime.date.today()} · {platform.processor() or platform.machine()} · "
          f"{os.cpu_count()} cores · Python {platform.python_version()}")
    print(f"({args.hands} hands of random legal actions, an observation at every decision; best of {args.repeat})")
    print("| environment | observation | decisions | steps/s | hands/s |\n|---|---|---:|---:|---:|")
    rows: list[tuple[str, str, Any]] = []
    old = baseline_env(args.baseline) if args.baseline else None
    if old is not None:
        rows.append((f"MahjongEnv at {args.baseline} (before)", "18 × 34", lambda: aec_run(old, args.hands, args.seed)))
    new = mcr_v0.raw_env()
    rows.append(("mcr_v0.raw_env() AEC", "204 × 34", lambda: aec_run(new, args.hands, args.seed)))
    rows.append(("mcr_v0.parallel_env()", "204 × 34 × 4 agents", lambda: parallel_run(args.hands, args.seed)))
    for name, obs, fn in rows:
        fn()  # warm-up: lazily built tables
        runs = [fn() for _ in range(args.repeat)]
        steps, best = runs[0][0], min(dt for _, dt in runs)
        print(f"| {name} | {obs} | {steps} | {steps / best:,.0f} | {args.hands / best:,.1f} |")


if __name__ == "__main__":
    main()
