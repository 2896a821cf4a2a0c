"""MaskablePPO (sb3-contrib) on ``majiang/MCR-v0``: one seat against three bots (docs/rl.md).

    pip install torch sb3-contrib
    python examples/rl_ppo.py --steps 40000 --opponents eff --curve ppo.json

Prints a duplicate evaluation (``majiang.sim.evaluate``: the seat in every seating of the same
walls, 95 % CI) before training, at each checkpoint and after; ``--curve`` writes the checkpoints
as JSON (``examples/plot_curve.py`` draws them).
"""

import argparse
import json
import time

import gymnasium
import torch
from sb3_contrib import MaskablePPO

import majiang.rl  # noqa: F401 - registers majiang/MCR-v0
from majiang.sim import evaluate

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=60_000, help="training decisions of the learning seat")
ap.add_argument("--opponents", default="eff", help="bot kind of the three others: rand, eff, fan")
ap.add_argument("--checkpoints", type=int, default=5)
ap.add_argument("--eval-hands", type=int, default=96, help="hands of each evaluation (a multiple of 24)")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--curve", help="write the learning curve here (JSON)")
args = ap.parse_args()
torch.set_num_threads(1)  # a small network: more threads only contend

env = gymnasium.make("majiang/MCR-v0", opponents=args.opponents, seat=None)
model = MaskablePPO(
    "MultiInputPolicy",
    env,
    n_steps=2048,
    batch_size=256,
    n_epochs=4,
    learning_rate=3e-4,
    gamma=0.99,
    ent_coef=0.01,
    seed=args.seed,
    verbose=0,
)


def policy(obs: dict) -> int:
    action, _ = model.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=True)
    return int(action)


def report(step: int, t0: float) -> dict:
    me = evaluate(policy, args.opponents, hands=args.eval_hands, seed=10_000).seats[0].to_dict()
    lo, hi = me["avg_score_ci95"]
    print(
        f"{step:>8} steps  {time.perf_counter() - t0:6.0f} s  score/hand {me['avg_score']:+6.2f} "
        f"[{lo:+.2f}, {hi:+.2f}]  win {100 * me['win_rate']:4.1f} %  deal-in {100 * me['deal_in_rate']:4.1f} %",
        flush=True,
    )
    return {"step": step, "seconds": time.perf_counter() - t0, **me}


t0 = time.perf_counter()
curve = [report(0, t0)]  # before: the untrained network
chunk = args.steps // args.checkpoints
for k in range(1, args.checkpoints + 1):
    model.learn(chunk, reset_num_timesteps=False)
    curve.append(report(k * chunk, t0))
print(
    f"before {curve[0]['avg_score']:+.2f}  after {curve[-1]['avg_score']:+.2f} points a hand against "
    f"{args.opponents} ({args.eval_hands} duplicate hands)"
)
if args.curve:
    with open(args.curve, "w") as f:
        json.dump({"algorithm": "MaskablePPO", "opponents": args.opponents, "points": curve}, f, indent=1)
