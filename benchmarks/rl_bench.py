"""Steps per second of the RL environments with an observation at every decision, random legal
actions, one core, in one run: rlcard's mahjong env (``pip install -e '.[bench]'`` brings it; skipped with a message
when missing) — the yardstick —, the AEC env (``mcr_v0.raw_env``), the parallel env, the
vectorised env (``vector_env``), and, for a before/after, the pre-PettingZoo ``MahjongEnv`` (18 × 34
planes) read from git (``--baseline REV``).  Rates are decisions (agent steps) per CPU second of
this process (``time.process_time``: a loaded machine slows the wall clock, not this) and per wall
second; ratios are against rlcard's CPU rate.

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
from host import cpu_name

from majiang.rl import mcr_v0, vector_env

ROOT = Path(__file__).resolve().parents[1]


Run = tuple[int, float, float]  # decisions, CPU seconds, wall seconds


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _since(t: tuple[float, float]) -> tuple[float, float]:
    return time.process_time() - t[0], time.perf_counter() - t[1]


def aec_run(env: Any, hands: int, seed: int) -> Run:
    """(decisions, CPU s, wall s) for ``hands`` hands of the AEC loop with ``last()`` at every step."""
    rng = np.random.default_rng(seed)
    steps = 0
    t = _clock()
    for h in range(hands):
        env.reset(seed=seed + h)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return (steps, *_since(t))


def parallel_run(hands: int, seed: int) -> Run:
    """Parallel steps (decision points), each with the four agents' observations."""
    env = mcr_v0.parallel_env()
    rng = np.random.default_rng(seed)
    steps = 0
    t = _clock()
    for h in range(hands):
        obs, _ = env.reset(seed=seed + h)
        while env.agents:
            obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()})
            steps += 1
    return (steps, *_since(t))


def vector_run(hands: int, seed: int, n: int, opponents: str | None = None) -> Run:
    """About as many decisions as ``hands`` hands, ``n`` hands at a time, random legal actions drawn
    for the whole batch at once (``opponents``: the core's bots at seats 1–3, so every decision
    returned is seat 0's)."""
    env = vector_env(n, opponents=opponents)
    rng = np.random.default_rng(seed)
    _, masks, _ = env.reset(seed=seed)
    want = hands * 105  # decisions in a hand of random play
    steps = 0
    t = _clock()
    while steps < want:
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        _, masks, *_ = env.step(actions)
        steps += n
    return (steps, *_since(t))


def engine_run(hands: int, seed: int, core: bool) -> Run:
    """The floor under every environment: the engine alone (the compiled core, or the Python
    reference), random legal actions through its Python interface, no observation."""
    from majiang.engine.compiled import CompiledHand
    from majiang.engine.hand import Hand
    from majiang.rulesets import make_ruleset

    rules = make_ruleset("gb")
    make = CompiledHand if core else Hand
    rng = np.random.default_rng(seed)
    steps = 0
    t = _clock()
    for h in range(hands):
        hand = make(rules, (seed + h).to_bytes(32, "big"))
        while not hand.over:
            s = hand.prompted()[0]
            legal = hand.legal(s)
            hand.act(s, legal[int(rng.integers(len(legal)))])
            steps += 1
    return (steps, *_since(t))


def observation_us(seed: int, n: int = 200_000) -> float:
    """CPU µs per observation and mask of one seat, mid-hand (``CompiledHand.observe``, the call the
    environments make, Python call included)."""
    from majiang.engine.compiled import CompiledHand
    from majiang.rulesets import make_ruleset

    hand = CompiledHand(make_ruleset("gb"), seed.to_bytes(32, "big"))
    rng = np.random.default_rng(seed)
    for _ in range(40):
        s = hand.prompted()[0]
        legal = hand.legal(s)
        hand.act(s, legal[int(rng.integers(len(legal)))])
    obs, mask = np.empty((204, 34), dtype=np.float32), np.empty(109, dtype=np.int8)
    t = time.process_time()
    for i in range(n):
        hand.observe(i & 3, obs, mask)
    return (time.process_time() - t) / n * 1e6


def vector_memory(n: int) -> float:
    """MB a vector env of ``n`` hands adds to a process (its buffers and hands, after 200 steps):
    the growth of the resident set in a fresh process."""
    code = f"""
import resource, numpy as np
from majiang.rl import vector_env
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
env = vector_env({n}); _, masks, _ = env.reset(seed=0); rng = np.random.default_rng(0)
for _ in range(200):
    _, masks, *_ = env.step(np.argmax(masks * rng.random(masks.shape), axis=1))
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def rlcard_run(hands: int, seed: int) -> Run | None:
    """rlcard's mahjong env with random legal actions; its ``step`` builds the next state (its
    observation) every time, as ``env.run`` does.  None without rlcard."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = 0
    t = _clock()
    for _ in range(hands):
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(int(rng.choice(list(state["legal_actions"]))))
            steps += 1
    return (steps, *_since(t))


def baseline_env(rev: str) -> Any:
    """The ``MahjongEnv`` of ``majiang/rl/env.py`` at git revision ``rev``, or None."""
    try:
        src = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:src/majiang/rl/env.py"], capture_output=True, text=True, check=True
        ).stdout
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
    ap.add_argument("--vector", type=int, default=64, help="hands side by side in the vectorised env")
    ap.add_argument("--memory", type=int, default=1024, help="hands of the vector env whose memory is measured")
    ap.add_argument(
        "--baseline",
        default="ac85c46",
        help="git revision with the old src/majiang/rl/env.py "
        "(default: the last one before the PettingZoo environments; '' = none)",
    )
    args = ap.parse_args()
    print(
        f"# rl benchmark · {datetime.date.today()} · {cpu_name()} · "
        f"{os.cpu_count()} cores · Python {platform.python_version()} · load {os.getloadavg()[0]:.1f}"
    )
    print(f"({args.hands} hands of random legal actions, an observation at every decision; best of {args.repeat})")
    rows: list[tuple[str, str, Any]] = []
    rows.append(("rlcard 'mahjong' (yardstick)", "6 × 34 × 4", lambda: rlcard_run(args.hands, args.seed)))
    old = baseline_env(args.baseline) if args.baseline else None
    if old is not None:
        rows.append((f"MahjongEnv at {args.baseline} (before)", "18 × 34", lambda: aec_run(old, args.hands, args.seed)))
    new = mcr_v0.raw_env()
    rows.append(("mcr_v0.raw_env() AEC", "204 × 34", lambda: aec_run(new, args.hands, args.seed)))
    rows.append(("mcr_v0.parallel_env()", "204 × 34 × 4 agents", lambda: parallel_run(args.hands, args.seed)))
    rows.append(("engine alone, the core (the floor)", "—", lambda: engine_run(args.hands, args.seed, True)))
    rows.append(("engine alone, the Python reference", "—", lambda: engine_run(args.hands, args.seed, False)))
    rows.append(
        (
            f"vector_env({args.vector})",
            f"{args.vector} × 204 × 34",
            lambda: vector_run(args.hands, args.seed, args.vector),
        )
    )
    rows.append(
        (
            f"vector_env({args.vector}, opponents='eff'): seat 0's decisions",
            f"{args.vector} × 204 × 34",
            lambda: vector_run(args.hands, args.seed, args.vector, "eff"),
        )
    )
    print(
        "| environment | observation | decisions | steps/CPU s | steps/wall s | × rlcard (CPU) |\n"
        "|---|---|---:|---:|---:|---:|"
    )
    yardstick = None
    for name, obs, fn in rows:
        if fn() is None:  # warm-up: lazily built tables
            print(f"| {name} | {obs} | — | skipped: pip install -e '.[bench]' (rlcard) | | |")
            continue
        runs = [fn() for _ in range(args.repeat)]
        steps, cpu, wall = runs[0][0], min(r[1] for r in runs), min(r[2] for r in runs)
        rate = steps / cpu
        yardstick = yardstick or rate
        print(f"| {name} | {obs} | {steps} | {rate:,.0f} | {steps / wall:,.0f} | {rate / yardstick:.2f} |", flush=True)
    print(f"\none observation (planes and mask, one seat, mid-hand): {observation_us(args.seed):.2f} µs CPU")
    print(f"memory of vector_env({args.memory}) after 200 steps: {vector_memory(args.memory):.0f} MB")


if __name__ == "__main__":
    main()
