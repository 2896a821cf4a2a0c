"""Train a tiny linear softmax policy with REINFORCE against itself (docs/rl.md)."""
import sys

import numpy as np

from majiang.rl import ACTION_SIZE, MahjongEnv

env, rng = MahjongEnv(), np.random.default_rng(0)
W = np.zeros((18 * 34, ACTION_SIZE))  # one linear policy shared by the four seats
for episode in range(int(sys.argv[1]) if len(sys.argv) > 1 else 20):
    env.reset(seed=episode)
    trajectory = {a: [] for a in env.possible_agents}  # (features, action, probabilities)
    while not all(env.terminations.values()):
        agent = env.agent_selection
        obs, _, done, _, _ = env.last()
        x, mask = obs["observation"].ravel(), obs["action_mask"].astype(bool)
        logits = np.where(mask, x @ W, -np.inf)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        action = rng.choice(ACTION_SIZE, p=p)
        trajectory[agent].append((x, action, p))
        env.step(action)
    for agent, steps in trajectory.items():  # REINFORCE: push up the log-probability of rewarded choices
        for x, action, p in steps:
            grad = -p
            grad[action] += 1.0
            W += 1e-3 * env._cumulative_rewards[agent] * np.outer(x, grad)
    print(episode, {a: env._cumulative_rewards[a] for a in env.possible_agents})
