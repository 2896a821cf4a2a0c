import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from majiang.rl import ACTION_SIZE, MahjongEnv, decode_action, encode_action


def test_env_runs_hands_with_masks_and_zero_sum_rewards():
    env = MahjongEnv()
    rng = np.random.default_rng(1)
    for ep in range(5):
        env.reset(seed=ep)
        steps = 0
        while not all(env.terminations.values()):
            obs, _, _, _, _ = env.last()
            assert obs["observation"].shape == (18, 34) and obs["action_mask"].shape == (ACTION_SIZE,)
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            env.step(int(rng.choice(legal)))
            steps += 1
        assert steps > 30
        assert sum(env._cumulative_rewards.values()) == 0


def test_action_codes_round_trip():
    env = MahjongEnv()
    env.reset(seed=3)
    legal = env.hand.legal(env.hand.current)
    for a in legal:
        assert decode_action(encode_action(a), legal) == a


def test_training_example_runs():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "examples" / "rl_train.py"), "2"], capture_output=True,
                         text=True, timeout=120, check=True)
    assert out.stdout.count("player_0") == 2


def test_the_standard_aec_loop_ends_with_every_agent_removed():
    env = MahjongEnv()
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    assert env.action_space("player_0").n == ACTION_SIZE
    final: dict[str, float] = {}
    steps = 0
    for agent in env.agent_iter(max_iter=10_000):
        obs, reward, term, trunc, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        action = env.action_space(agent).sample(obs["action_mask"], rng)
        assert obs["action_mask"][action] == 1
        env.step(action)
        steps += 1
    assert env.agents == [] and steps > 30
    assert sorted(final) == env.possible_agents and sum(final.values()) == 0
    with pytest.raises(ValueError):  # a finished hand takes no more actions
        env.reset(seed=12)
        while not all(env.terminations.values()):
            env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
        env.step(0)
