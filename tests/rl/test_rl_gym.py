"""The Gymnasium single-agent environment: one seat against majiang bots or policies."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import majiang.rl  # noqa: F401 - registers majiang/MCR-v0 and majiang/Nanchang-v0
from majiang.engine.protocol import Action
from majiang.rl import ACTION_SIZE, OBS_SHAPE, MahjongGymEnv


@pytest.mark.parametrize(
    "kwargs",
    [{"opponents": "rand"}, {"opponents": ["eff", "fan", "rand"], "seat": 2}, {"opponents": "eff", "seat": None}],
    ids=["rand", "mixed", "random-seat"],
)
def test_gymnasium_check_env_passes(kwargs, capsys):
    env = gymnasium.make("majiang/MCR-v0", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from the checker either
        check_env(env.unwrapped)
    assert isinstance(env.unwrapped, MahjongGymEnv)


def test_nanchang_is_registered_too():
    env = gymnasium.make("majiang/Nanchang-v0", opponents="eff")
    check_env(env.unwrapped)
    assert env.unwrapped.table.rules == "nanchang"


def _play(env, policy, seed):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(obs, env))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


def test_a_hand_against_bots_pays_the_seat_its_score_change():
    env = gymnasium.make("majiang/MCR-v0", opponents="eff", seat=1)
    rng = np.random.default_rng(0)
    for seed in range(3):
        total, steps, info = _play(env, lambda obs, e: int(rng.choice(np.flatnonzero(obs["action_mask"]))), seed)
        hand = env.unwrapped.table.hand
        assert hand.over and steps > 5 and info["seat"] == 1
        assert total == hand.deltas[1] and "illegal_action" not in info


def test_illegal_actions_are_penalised_and_replaced_by_the_default():
    env = gymnasium.make("majiang/MCR-v0", opponents="rand", illegal_reward=-3.0)
    obs, _ = env.reset(seed=4)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    hand = env.unwrapped.table.hand
    drawn = hand.seats[0].drawn
    _, reward, _, _, info = env.step(bad)
    assert info["illegal_action"] and reward == -3.0
    assert any(
        e["type"] == "discard" and (e["seat"], e["tile"]) == (0, drawn) for e in hand.events
    )  # 托管: the drawn tile went out
    strict = gymnasium.make("majiang/MCR-v0", opponents="rand", illegal="raise")
    strict.reset(seed=4)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)


def test_action_masks_for_maskable_ppo_and_policy_callables_as_opponents():
    calls = []

    def first_legal(obs):
        calls.append(obs["observation"].shape)
        return int(np.flatnonzero(obs["action_mask"])[0])

    class Stubborn:  # a Bot-like object; its illegal choice is replaced by the default
        name = "stubborn"

        def choose(self, view, legal):
            return Action("win")

    env = gymnasium.make("majiang/MCR-v0", opponents=[first_legal, "rand", Stubborn()], seat=3)
    obs, _ = env.reset(seed=1)
    while True:
        masks = env.unwrapped.action_masks()
        assert masks.dtype == bool and masks.shape == (ACTION_SIZE,)
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(masks)[-1]))
        if terminated or truncated:
            break
    assert calls and set(calls) == {OBS_SHAPE}


def test_seeding_repeats_a_hand_and_no_seed_draws_fresh_ones():
    a = gymnasium.make("majiang/MCR-v0", opponents="eff")
    b = gymnasium.make("majiang/MCR-v0", opponents="eff")

    def policy(obs, env):
        return int(np.flatnonzero(obs["action_mask"])[0])

    assert _play(a, policy, 9) == _play(b, policy, 9)
    c = gymnasium.make("majiang/MCR-v0", opponents="eff")
    d = gymnasium.make("majiang/MCR-v0", opponents="eff")
    c.reset()
    d.reset()
    assert c.unwrapped.table.hand.seed != d.unwrapped.table.hand.seed


def test_bad_arguments_fail_at_construction():
    with pytest.raises(ValueError, match="unknown bot"):
        MahjongGymEnv(opponents="nobody")
    with pytest.raises(ValueError, match="seat"):
        MahjongGymEnv(seat=4)
    with pytest.raises(ValueError, match="three"):
        MahjongGymEnv(opponents=["eff", "eff"])


def test_stable_baselines3_check_env_and_maskable_ppo():
    """Runs where sb3-contrib is installed (it brings PyTorch, so it is no dev dependency)."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make("majiang/MCR-v0", opponents="rand")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3 suggests flattening 2-D observations
        sb3_check_env(env.unwrapped)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(32)
    obs, _ = env.reset(seed=3)
    masks = get_action_masks(env)
    action, _ = model.predict(obs, action_masks=masks)
    assert masks[int(action)]
