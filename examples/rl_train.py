"""Train a tiny linear softmax policy with REINFORCE against itself (docs/rl.md)."""
import sys

import numpy as np

from majiang.rl import ACTION_SIZE, OBS_SHAPE, mcr_v0

env, rng = mcr_v0.env(), np.random.default_rng(0)
W = np.zeros((OBS_SHAPE[0] * OBS_SHAPE[1], ACTION_SIZE))  # one linear policy shared by the four seats
for episode in range(int(sys.argv[1]) if len(sys.argv) > 1 else 20):
    env.reset(seed=episode)
    trajectory = {a: [] for a in env.possible_agents}  # (features, action, probabilities)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward  # what was paid to this seat since it last acted
        if terminated or truncated:
            env.step(None)
            continue
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
            W += 1e-3 * returns[agent] * np.outer(x, grad)
    print(episode, returns)
