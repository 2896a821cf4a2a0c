"""The REINFORCE update of examples/rl_train.py moves the policy the right way."""

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np


def _example() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "examples" / "rl_train.py"
    spec = importlib.util.spec_from_file_location("rl_train_example", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _batch(mod: ModuleType) -> list[tuple[np.ndarray, np.ndarray, int]]:
    planes = np.zeros((204, 34), dtype=np.float32)
    planes[0, [0, 1, 9, 27]] = 1.0  # holds 1m 2m 1p E
    planes[4, 27] = 1.0  # drew E
    mask = np.zeros(mod.N_ACTIONS, dtype=bool)
    mask[[0, 1, 9, 27]] = True
    phi = mod.Policy().features(planes)
    return [(phi, mask, 9), (phi, mask, 9)]  # discarded 1p twice


def test_initial_policy_is_uniform_over_legal_actions():
    mod = _example()
    phi, mask, _ = _batch(mod)[0]
    p = mod.Policy().probabilities(phi, mask)
    assert np.allclose(p[mask], 0.25) and p[~mask].sum() == 0


def test_update_raises_rewarded_and_lowers_punished_action():
    mod = _example()
    batch = _batch(mod)
    phi, mask, action = batch[0]
    for advantage, sign in ((1.0, 1), (-1.0, -1)):
        for entropy in (0.0, 0.01):
            pi = mod.Policy()
            before = np.log(pi.probabilities(phi, mask)[action])
            pi.update(batch, advantage, lr=0.1, entropy=entropy)
            after = np.log(pi.probabilities(phi, mask)[action])
            assert sign * (after - before) > 0, (advantage, entropy)
