"""REINFORCE with a linear softmax policy, numpy only: one seat of ``majiang/MCR-v0`` against
three bots (docs/rl.md).

    python examples/rl_train.py --hands 3000 --opponents eff --curve reinforce.json

The policy scores each legal action with a linear function of the observation planes (illegal
ones masked out); after each hand the log-probabilities of the seat's choices move in the
direction of its result minus a running baseline.  A duplicate evaluation
(``majiang.sim.evaluate``, greedy policy) is printed before training, at each checkpoint and
after; ``--curve`` writes them as JSON (``examples/plot_curve.py`` draws them).
"""

import argparse
import json
import time

import gymnasium
import numpy as np

import majiang.rl  # noqa: F401 - registers majiang/MCR-v0
from majiang.rl import ACTION_SIZE, OBS_SHAPE
from majiang.sim import evaluate

ap = argparse.ArgumentParser()
ap.add_argument("--hands", type=int, default=3000, help="training hands")
ap.add_argument("--opponents", default="eff", help="bot kind of the three others: rand, eff, fan")
ap.add_argument("--checkpoints", type=int, default=5)
ap.add_argument("--eval-hands", type=int, default=96, help="hands of each evaluation (a multiple of 24)")
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--curve", help="write the learning curve here (JSON)")
args = ap.parse_args()

env = gymnasium.make("majiang/MCR-v0", opponents=args.opponents, seat=None)
rng = np.random.default_rng(args.seed)
features = OBS_SHAPE[0] * OBS_SHAPE[1]
W = np.zeros((features, ACTION_SIZE))  # the policy: logits = x @ W + b, masked
b = np.zeros(ACTION_SIZE)


def probabilities(obs: dict) -> np.ndarray:
    mask = obs["action_mask"].astype(bool)
    logits = np.where(mask, obs["observation"].ravel() @ W + b, -np.inf)
    p = np.exp(logits - logits.max())
    return p / p.sum()


def greedy(obs: dict) -> int:
    return int(np.argmax(probabilities(obs)))


def report(hand: int, t0: float) -> dict:
    me = evaluate(greedy, args.opponents, hands=args.eval_hands, seed=10_000).seats[0].to_dict()
    lo, hi = me["avg_score_ci95"]
    print(
        f"{hand:>6} hands  {time.perf_counter() - t0:6.0f} s  score/hand {me['avg_score']:+6.2f} "
        f"[{lo:+.2f}, {hi:+.2f}]  win {100 * me['win_rate']:4.1f} %  deal-in {100 * me['deal_in_rate']:4.1f} %",
        flush=True,
    )
    return {"hand": hand, "seconds": time.perf_counter() - t0, **me}


t0 = time.perf_counter()
curve = [report(0, t0)]  # before: W = 0, so the greedy policy plays the first legal action
baseline = 0.0
every = max(args.hands // args.checkpoints, 1)
for hand in range(1, args.hands + 1):
    obs, _ = env.reset(seed=int(rng.integers(2**31)))
    steps, ret, done = [], 0.0, False
    while not done:
        p = probabilities(obs)
        action = int(rng.choice(ACTION_SIZE, p=p))
        steps.append((obs["observation"].ravel(), action, p))
        obs, reward, done, _, _ = env.step(action)
        ret += reward
    advantage = (ret - baseline) / 10.0  # MCR scores run to tens of points
    baseline += 0.02 * (ret - baseline)
    X = np.stack([x for x, _, _ in steps])
    D = -np.stack([p for _, _, p in steps])  # ∇ log π(a|x) = x ⊗ (onehot(a) − p) for a masked linear softmax
    D[np.arange(len(steps)), [a for _, a, _ in steps]] += 1.0
    W += args.lr * advantage * (X.T @ D)
    b += args.lr * advantage * D.sum(axis=0)
    if hand % every == 0:
        curve.append(report(hand, t0))
print(
    f"before {curve[0]['avg_score']:+.2f}  after {curve[-1]['avg_score']:+.2f} points a hand against "
    f"{args.opponents} ({args.eval_hands} duplicate hands)"
)
if args.curve:
    with open(args.curve, "w") as f:
        json.dump({"algorithm": "REINFORCE (linear)", "opponents": args.opponents, "points": curve}, f, indent=1)
