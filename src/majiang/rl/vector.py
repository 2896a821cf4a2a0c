"""Many hands stepped in one process, with batched numpy observations, masks and rewards.

``env = majiang.rl.vector_env(64)`` plays 64 hands side by side.  Each hand is at one decision
at a time (the seat the engine asks, claims one seat after another, as in the AEC environment);
:meth:`MahjongVectorEnv.step` takes one action code per hand and applies it for that hand's
deciding seat::

    obs, masks, seats = env.reset(seed=0)          # (n, 204, 34) float32, (n, 109) int8, (n,) seat
    obs, masks, seats, rewards, dones = env.step(actions)   # rewards (n, 4): every seat's change

A hand that ends is dealt again at once (auto-reset): ``dones[i]`` says so, ``rewards[i]`` holds
the settlement, and ``obs[i]`` is already the new hand's first decision.  The arrays returned are
the environment's own buffers, overwritten by the next step (copy what you keep).  Illegal codes
follow ``illegal`` as in the other environments.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from majiang.rl.actions import ACTION_SIZE, action_mask
from majiang.rl.features import OBS_SHAPE
from majiang.rl.table import Table


class MahjongVectorEnv:
    def __init__(
        self, num_envs: int, rules: str = "gb", illegal: str = "penalty", illegal_reward: float = -1.0
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = num_envs
        self.rules = rules
        self.tables = [Table(rules, illegal, illegal_reward) for _ in range(num_envs)]
        self.observations = np.zeros((num_envs, *OBS_SHAPE), dtype=np.float32)
        self.action_masks = np.zeros((num_envs, ACTION_SIZE), dtype=np.int8)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, 4), dtype=np.float32)
        self.dones = np.zeros(num_envs, dtype=bool)
        self.illegal = np.zeros(num_envs, dtype=bool)  # the last step's action was illegal (replaced)
        self.hands_done = 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every hand (hand *i* seeded with ``seed + i`` when a seed is given; later hands go
        on from that generator)."""
        self._options = options
        for i, t in enumerate(self.tables):
            t.deal(None if seed is None else seed + i, options)
            self._settle(i)
        self.rewards.fill(0)
        self.dones.fill(False)
        return self.observations, self.action_masks, self.seats

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"give one action per hand: shape ({self.num_envs},), got {acts.shape}")
        rewards, dones = self.rewards, self.dones
        for i, t in enumerate(self.tables):
            seat = int(self.seats[i])
            choice, illegal = t.choose(seat, int(acts[i]))
            t.act(seat, choice)
            self.illegal[i] = illegal
            rewards[i] = t.score_changes()
            if illegal:
                rewards[i, seat] += t.illegal_reward
            dones[i] = t.over
            if t.over:
                self.hands_done += 1
                t.deal(None, self._options)
            self._settle(i)
        return self.observations, self.action_masks, self.seats, rewards, dones

    def _settle(self, i: int) -> None:
        """Hand *i*'s next deciding seat, its observation and mask into the buffers."""
        t = self.tables[i]
        assert t.hand is not None and t.encoder is not None
        seat = t.prompted()[0]
        self.seats[i] = seat
        t.encoder.encode(seat, out=self.observations[i])
        action_mask(t.hand.legal(seat), out=self.action_masks[i])

    def close(self) -> None:
        pass


def vector_env(num_envs: int, rules: str = "gb", **kwargs: Any) -> MahjongVectorEnv:
    """``num_envs`` hands in one process (see the module); ``rules``: gb, botzone, nanchang."""
    return MahjongVectorEnv(num_envs, rules, **kwargs)
