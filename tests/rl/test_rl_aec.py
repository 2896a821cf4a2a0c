import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)

from majiang.rl import (
    ACTION_SIZE,
    OBS_SHAPE,
    MahjongEnv,
    botzone_v0,
    decode_action,
    encode_action,
    mcr_v0,
    nanchang_v0,
)

MODULES = [mcr_v0, nanchang_v0, botzone_v0]
IDS = ["mcr", "nanchang", "botzone"]


def _quiet(fn, *args, **kwargs):
    # PettingZoo warns about every dict observation ("not a NumPy array"), as for its own classic games
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn(*args, **kwargs)


# ---- PettingZoo's own test functions, unmodified --------------------------------------------------
@pytest.mark.parametrize("mod", MODULES, ids=IDS)
def test_pettingzoo_api_test(mod):
    _quiet(api_test, mod.env(), num_cycles=200)
    _quiet(api_test, mod.raw_env(), num_cycles=200)


@pytest.mark.parametrize("mod", MODULES, ids=IDS)
def test_pettingzoo_seed_tests(mod):
    _quiet(seed_test, mod.env, num_cycles=50)
    _quiet(parallel_seed_test, mod.parallel_env, num_cycles=50)


@pytest.mark.parametrize("mod", MODULES, ids=IDS)
def test_pettingzoo_parallel_api_test(mod):
    _quiet(parallel_api_test, mod.parallel_env(), num_cycles=200)


@pytest.mark.parametrize("mod", MODULES, ids=IDS)
def test_pettingzoo_max_cycles_test(mod):
    for _ in range(3):  # reset without a seed: a few different hands
        _quiet(max_cycles_test, mod)


@pytest.mark.parametrize("mod", MODULES, ids=IDS)
def test_pettingzoo_render_and_state_tests(mod, capsys):
    _quiet(render_test, mod.env)
    _quiet(state_test, mod.env(), mod.parallel_env(), num_cycles=10)
    assert "pond" in capsys.readouterr().out  # render_mode="human" printed the table


def test_the_environments_are_pettingzoo_classes_with_gymnasium_spaces():
    import gymnasium

    raw = mcr_v0.raw_env()
    assert isinstance(raw, pettingzoo.AECEnv) and isinstance(raw, MahjongEnv)
    assert isinstance(mcr_v0.parallel_env(), pettingzoo.ParallelEnv)
    assert (
        raw.metadata["render_modes"] == ["ansi", "human"]
        and nanchang_v0.raw_env().metadata["name"] == "majiang_nanchang_v0"
    )
    space = raw.observation_space("player_0")
    assert isinstance(space, gymnasium.spaces.Dict)
    assert isinstance(raw.action_space("player_0"), gymnasium.spaces.Discrete)
    assert space["observation"].shape == OBS_SHAPE and space["observation"].dtype == np.float32
    assert space["action_mask"].dtype == np.int8 and raw.action_space("player_0").n == ACTION_SIZE
    raw.reset(seed=0)
    assert raw.num_agents == 4 and raw.max_num_agents == 4
    assert raw.state_space.contains(raw.state()) and raw.state().shape == (4, *OBS_SHAPE)


def test_observation_space_rejects_wrong_dtype_and_out_of_range_values():
    env = mcr_v0.raw_env()
    env.reset(seed=1)
    space = env.observation_space("player_0")
    obs = env.observe("player_0")
    assert space.contains(obs)
    assert not space.contains({"observation": np.full(OBS_SHAPE, 7.0), "action_mask": obs["action_mask"]})
    assert not space.contains({"observation": obs["observation"].astype(np.float64), "action_mask": obs["action_mask"]})
    assert not space.contains(
        {"observation": np.full(OBS_SHAPE, 2.0, dtype=np.float32), "action_mask": obs["action_mask"]}
    )
    assert not space.contains({"observation": obs["observation"], "action_mask": obs["action_mask"] * 2})
    assert not space.contains({"observation": obs["observation"], "action_mask": obs["action_mask"].astype(float)})


def test_reset_without_a_seed_deals_different_hands_and_a_seed_repeats_one():
    a, b = mcr_v0.raw_env(), mcr_v0.raw_env()
    a.reset()
    b.reset()
    assert a.hand.seed != b.hand.seed  # two vector workers do not play the same wall
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.hand.seed == b.hand.seed and a.hand.dealer == b.hand.dealer
    first = a.hand.seed
    a.reset()
    assert a.hand.seed != first  # the generator goes on after a seeded reset
    a.reset(seed=5, options={"dealer": 2, "prevalent": 1, "scores": [10, -10, 0, 0]})
    assert (a.hand.dealer, a.hand.prevalent, a.hand.scores_before) == (2, 1, [10, -10, 0, 0])


def test_env_runs_hands_with_masks_and_zero_sum_rewards():
    env = mcr_v0.raw_env()
    rng = np.random.default_rng(1)
    for ep in range(5):
        env.reset(seed=ep)
        steps = 0
        total = dict.fromkeys(env.possible_agents, 0.0)
        while not all(env.terminations.values()):
            obs, _, _, _, _ = env.last()
            assert obs["observation"].shape == OBS_SHAPE and obs["action_mask"].shape == (ACTION_SIZE,)
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            env.step(int(rng.choice(legal)))
            for a, r in env.rewards.items():
                total[a] += r
            steps += 1
        assert steps > 30
        assert sum(total.values()) == 0 and total == env._cumulative_rewards


def test_dead_step_protocol_removes_agents_and_clears_rewards():
    env = mcr_v0.env()
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    final: dict[str, float] = {}
    while not all(env.terminations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
    deltas = list(env.unwrapped.hand.deltas)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term and not trunc
        final[agent] = reward
        with pytest.raises(ValueError):  # a finished hand takes no more actions
            env.unwrapped.step(0)
        env.step(None)
        assert agent not in env.agents and agent not in env.rewards and agent not in env.infos
        assert all(r == 0 for r in env.rewards.values())  # cleared: nothing was paid by a dead step
    assert env.agents == [] and sorted(final) == env.possible_agents
    assert [final[f"player_{i}"] for i in range(4)] == deltas and sum(deltas) == 0


def test_illegal_actions_penalise_by_default_and_raise_on_request():
    env = mcr_v0.raw_env(illegal_reward=-5.0)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    env.step(bad)
    assert env.infos[agent] == {"illegal_action": True}
    assert env._cumulative_rewards[agent] == -5.0  # the default (discard the drawn tile) was played instead
    strict = mcr_v0.raw_env(illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)
    assert strict.agent_selection == agent and strict.hand.events[-1]["type"] != "discard"
    with pytest.raises(ValueError):
        mcr_v0.raw_env(illegal="ignore")


def test_max_cycles_truncates_each_agent_after_its_decisions_and_plays_its_seat_on_autopilot():
    env = mcr_v0.raw_env(max_cycles=6)
    env.reset(seed=4)
    counts = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter(10_000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        counts[agent] += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert set(counts.values()) == {6}
    par = mcr_v0.parallel_env(max_cycles=3)
    par.reset(seed=4)
    for _ in range(3):
        _, _, term, trunc, _ = par.step({a: 108 for a in par.agents})
    assert par.agents == [] and all(trunc.values()) and not any(term.values())


def test_parallel_env_asks_every_claimer_at_once():
    par = mcr_v0.parallel_env()
    obs, _ = par.reset(seed=8)
    rng = np.random.default_rng(0)
    together = 0
    while par.agents:
        asked = [a for a in par.agents if par.hand.legal(int(a[-1]))]
        assert all(obs[a]["action_mask"].tolist() == [0] * 108 + [1] for a in par.agents if a not in asked)
        together = max(together, len(asked))
        obs, rewards, *_ = par.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents})
        assert sum(rewards.values()) == 0
    assert together >= 1


def test_render_ansi_shows_the_table():
    env = mcr_v0.raw_env(render_mode="ansi")
    env.reset(seed=0, options={"prevalent": 1})
    text = env.render()
    assert "prevalent S" in text and text.count("pond") == 4
    assert mcr_v0.raw_env().render() is None
    with pytest.raises(ValueError):
        mcr_v0.raw_env(render_mode="rgb_array")


def test_action_codes_round_trip():
    env = MahjongEnv()
    env.reset(seed=3)
    legal = env.hand.legal(env.hand.current)
    for a in legal:
        assert decode_action(encode_action(a), legal) == a


def test_training_example_runs():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [
            sys.executable,
            str(root / "examples" / "rl_train.py"),
            "--hands",
            "2",
            "--checkpoints",
            "1",
            "--eval-hands",
            "24",
            "--opponents",
            "rand",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert out.stdout.count("score/hand") == 2  # the evaluation before and after training
    assert "before" in out.stdout and "after" in out.stdout
