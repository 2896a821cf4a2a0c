"""The 摸切 rows (``moqie=True``): every environment can append, for each seat from the observer, which
of its discards threw the tile just drawn — read from the hand's log, equal on the compiled core and
the Python engine, and nothing else of the observation changes."""

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test

from majiang.bots.ev import LOOK_ROWS
from majiang.rl import OBS_SHAPE, mcr_v0, nanchang_v0, vector_env
from majiang.rl.features import MOQIE_ROWS, ROWS

SHAPE = (ROWS + MOQIE_ROWS, OBS_SHAPE[1])


def _rows_from_log(hand, seat):
    """The rows built from the log's discard events alone (the reference)."""
    rows = np.zeros((MOQIE_ROWS, OBS_SHAPE[1]), dtype=np.float32)
    for k in range(4):
        flags = [e["moqie"] for e in hand.events if e["type"] == "discard" and e["seat"] == (seat + k) % 4]
        rows[k, : len(flags[:34])] = flags[:34]
    return rows


@pytest.mark.parametrize("engine", ["auto", "python"])
@pytest.mark.parametrize("make", [mcr_v0.raw_env, nanchang_v0.raw_env])
def test_the_aec_env_appends_the_moqie_rows_and_changes_nothing_else(make, engine, monkeypatch):
    monkeypatch.setenv("MAJIANG_ENGINE", engine)
    env, plain = make(moqie=True), make()
    assert env.observation_space("player_0")["observation"].shape == SHAPE
    assert env.state_space.shape == (4, *SHAPE)
    marked = 0
    for seed in range(3):
        env.reset(seed=seed)
        plain.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(2000):
            obs, _, term, trunc, _ = env.last()
            assert obs is not None and env.observation_space(agent).contains(obs)
            seat = int(agent[-1])
            x = obs["observation"]
            assert np.array_equal(x[:ROWS], plain.observe(agent)["observation"])
            assert np.array_equal(x[ROWS:], _rows_from_log(env.table.hand, seat))
            marked += int(x[ROWS:].sum())
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            plain.step(action)
    assert marked > 50


def test_the_gym_env_takes_the_option():
    env = gymnasium.make("majiang/MCR-v0", opponents="eff", moqie=True)
    obs, _ = env.reset(seed=3)
    assert obs["observation"].shape == SHAPE and env.observation_space.contains(obs)


def test_the_moqie_env_passes_pettingzoo_s_api_test():
    api_test(mcr_v0.env(moqie=True), num_cycles=200)


def _run(steps, seed, **kwargs):
    env = vector_env(4, **kwargs)
    obs, masks, _ = env.reset(seed=seed)
    out = [obs.copy()]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, masks, *_ = env.step(np.argmax(masks * rng.random(masks.shape), axis=1))
        out.append(obs.copy())
    return np.stack(out)


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
def test_the_vector_env_appends_the_same_rows_on_the_core_and_in_python(monkeypatch):
    core = _run(400, 11, moqie=True)
    assert core.shape == (401, 4, *SHAPE) and core[:, :, ROWS:].sum() > 100
    assert np.array_equal(core[:, :, :ROWS], _run(400, 11))  # the option adds rows, changes none
    monkeypatch.setenv("MAJIANG_ENGINE", "python")
    assert np.array_equal(core, _run(400, 11, moqie=True))


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
def test_the_vector_env_appends_the_ev_look_ahead_rows_alike_on_the_core_and_in_python(monkeypatch):
    """``look=True`` appends the ev bot's look-ahead rows after the planes (and after the 摸切 rows):
    the core's Batch.look and EVBot.look on the Python engine give the same observations."""
    core = _run(150, 12, moqie=True, look=True)
    assert core.shape == (151, 4, SHAPE[0] + LOOK_ROWS, SHAPE[1])
    assert np.array_equal(core[:, :, : SHAPE[0]], _run(150, 12, moqie=True))  # the option adds rows, changes none
    look = core[:, :, SHAPE[0] :]
    assert (look[:, :, 0] > 0).any() and (look[:, :, 1] != 0).sum() > 100  # dangers, valued discards
    monkeypatch.setenv("MAJIANG_ENGINE", "python")
    assert np.array_equal(core, _run(150, 12, moqie=True, look=True))
    with pytest.raises(ValueError, match="MCR"):
        vector_env(1, rules="nanchang", look=True)
