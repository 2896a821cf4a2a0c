"""REINFORCE with a small linear softmax policy, numpy only: one seat of ``majiang/MCR-v0``
against three bots (docs/rl.md).

    python examples/rl_train.py --hands 3000 --opponents rand --curve reinforce.json

The policy scores each legal action by a per-action bias (one for each of the 109 codes) plus,
for a discard of tile *t*, a linear function of a few features read from the observation planes:
how many *t* the seat holds, its neighbours in the suit, how many *t* it cannot see, whether *t*
is an honour.  Illegal actions are masked out.  The initial policy (all parameters zero) is
uniform over the legal actions, so "before" is a random player.  After each hand the
log-probabilities of the seat's choices move along its normalised advantage (result minus a
running baseline, over a running standard deviation), plus a small entropy bonus.  A duplicate
evaluation (``majiang.sim.evaluate``, the policy sampled with a fixed seed) is printed before
training, at each checkpoint and after; ``--curve`` writes them as JSON
(``examples/plot_curve.py`` draws them).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field

import numpy as np

N_ACTIONS = 109  # majiang.rl.ACTION_SIZE
N_TILES = 34
SUITED = np.arange(N_TILES) < 27
FEATURES = 10


def discard_features(planes: np.ndarray) -> np.ndarray:
    """(34, FEATURES): the features of discarding each tile kind, from the (204, 34) planes."""
    own = planes[0:4].sum(axis=0)  # copies held, 0 … 4
    unseen = planes[6:10].sum(axis=0)  # copies this seat cannot see
    rank = np.arange(N_TILES) % 9

    def near(d: int) -> np.ndarray:  # copies held of the tile d ranks away, in the same suit
        out = np.zeros(N_TILES)
        ok = SUITED & (rank + d >= 0) & (rank + d <= 8)
        out[ok] = own[np.arange(N_TILES)[ok] + d]
        return np.minimum(out, 1.0)

    isolated = (near(-1) + near(1) + near(-2) + near(2) == 0) & (own == 1)
    return np.stack(
        [
            own == 1,
            own == 2,
            own >= 3,
            near(-1) + near(1),
            near(-2) + near(2),
            unseen / 4.0,
            ~SUITED,
            (rank == 0) | (rank == 8),
            isolated,
            planes[4],  # the tile just drawn
        ],
        axis=1,
    ).astype(np.float64)


@dataclass
class Policy:
    """logits[a] = bias[a] (+ features(t) · w for a discard of t), masked to the legal codes."""

    bias: np.ndarray = field(default_factory=lambda: np.zeros(N_ACTIONS))
    w: np.ndarray = field(default_factory=lambda: np.zeros(FEATURES))

    def features(self, planes: np.ndarray) -> np.ndarray:
        phi = np.zeros((N_ACTIONS, FEATURES))
        phi[:N_TILES] = discard_features(planes)
        return phi

    def probabilities(self, phi: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask, self.bias + phi @ self.w, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def update(
        self, batch: list[tuple[np.ndarray, np.ndarray, int]], advantage: float, lr: float, entropy: float = 0.0
    ) -> None:
        """One REINFORCE step: ascend ``advantage`` · Σ ∇ log π(a|s) (+ ``entropy`` · ∇ H)."""
        g_bias = np.zeros(N_ACTIONS)
        g_w = np.zeros(FEATURES)
        for phi, mask, action in batch:
            p = self.probabilities(phi, mask)
            d = -p
            d[action] += 1.0  # ∇_logits log π(a) = onehot(a) − p
            if entropy:
                logp = np.log(np.where(p > 0, p, 1.0))
                h = -(p * logp).sum()
                d = advantage * d + entropy * (-p * (logp + h))  # ∇_logits H = −p (log p + H)
            else:
                d = advantage * d
            g_bias += d
            g_w += phi.T @ d
        n = max(len(batch), 1)
        self.bias += lr * g_bias / np.sqrt(n)
        self.w += lr * g_w / np.sqrt(n)


def main() -> None:
    import gymnasium

    import majiang.rl  # noqa: F401 - registers majiang/MCR-v0
    from majiang.sim import evaluate

    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=3000, help="training hands")
    ap.add_argument("--opponents", default="rand", help="bot kind of the three others: rand, eff, fan")
    ap.add_argument("--checkpoints", type=int, default=5)
    ap.add_argument("--eval-hands", type=int, default=240, help="hands of each evaluation (a multiple of 24)")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", help="write the learning curve here (JSON)")
    args = ap.parse_args()

    env = gymnasium.make("majiang/MCR-v0", opponents=args.opponents, seat=None)
    rng = np.random.default_rng(args.seed)
    pi = Policy()

    def report(hand: int, t0: float) -> dict:
        play_rng = np.random.default_rng(12345)  # the same sampling seed at every checkpoint

        def play(obs: dict) -> int:
            mask = obs["action_mask"].astype(bool)
            p = pi.probabilities(pi.features(obs["observation"]), mask)
            return int(play_rng.choice(N_ACTIONS, p=p))

        me = evaluate(play, args.opponents, hands=args.eval_hands, duplicate=True, seed=10_000).seats[0].to_dict()
        lo, hi = me["avg_score_ci95"]
        print(
            f"{hand:>6} hands  {time.perf_counter() - t0:6.0f} s  score/hand {me['avg_score']:+6.2f} "
            f"[{lo:+.2f}, {hi:+.2f}]  win {100 * me['win_rate']:4.1f} %  deal-in {100 * me['deal_in_rate']:4.1f} %",
            flush=True,
        )
        return {"hand": hand, "seconds": time.perf_counter() - t0, **me}

    t0 = time.perf_counter()
    curve = [report(0, t0)]  # before: all parameters zero, uniform over the legal actions
    mean, var = 0.0, 100.0  # running mean and variance of the hand's result
    every = max(args.hands // args.checkpoints, 1)
    for hand in range(1, args.hands + 1):
        obs, _ = env.reset(seed=int(rng.integers(2**31)))
        batch, ret, done = [], 0.0, False
        while not done:
            mask = obs["action_mask"].astype(bool)
            phi = pi.features(obs["observation"])
            action = int(rng.choice(N_ACTIONS, p=pi.probabilities(phi, mask)))
            batch.append((phi, mask, action))
            obs, reward, done, _, _ = env.step(action)
            ret += reward
        advantage = (ret - mean) / np.sqrt(var + 1e-6)
        mean += 0.02 * (ret - mean)
        var += 0.02 * ((ret - mean) ** 2 - var)
        pi.update(batch, float(np.clip(advantage, -5, 5)), args.lr, args.entropy)
        if hand % every == 0:
            curve.append(report(hand, t0))
    print(
        f"before {curve[0]['avg_score']:+.2f}  after {curve[-1]['avg_score']:+.2f} points a hand against "
        f"{args.opponents} ({args.eval_hands} duplicate hands)"
    )
    if args.curve:
        with open(args.curve, "w") as f:
            json.dump({"algorithm": "REINFORCE (linear)", "opponents": args.opponents, "points": curve}, f, indent=1)


if __name__ == "__main__":
    main()
