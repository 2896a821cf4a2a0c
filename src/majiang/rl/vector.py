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

Where the compiled hand core plays the ruleset (MCR, Botzone) every step is one C call for all the
hands — the actions applied, the hands played on, the planes and masks written — and ``opponents``
may seat the core's own bots: ``vector_env(64, opponents="eff")`` plays seat 0 of every hand against
three efficiency bots, which decide inside the core, so every decision returned is seat 0's.
Elsewhere (Nanchang) each hand is a :class:`~majiang.rl.table.Table` stepped in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from majiang.engine.compiled import BOT_EFF, BOT_PYTHON, BOT_RAND, core_batch, engine_choice
from majiang.rl.actions import ACTION_SIZE, action_mask
from majiang.rl.features import OBS_SHAPE
from majiang.rl.table import ILLEGAL_MODES, Table, deal_args
from majiang.rulesets import make_ruleset

#: the opponents the core plays itself
CORE_BOTS = {"rand": BOT_RAND, "eff": BOT_EFF}


class MahjongVectorEnv:
    def __init__(
        self,
        num_envs: int,
        rules: str = "gb",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        opponents: str | Sequence[str] | None = None,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
        self.num_envs = num_envs
        self.rules = rules
        self.illegal_mode = illegal
        self.illegal_reward = float(illegal_reward)
        self.observations = np.zeros((num_envs, *OBS_SHAPE), dtype=np.float32)
        self.action_masks = np.zeros((num_envs, ACTION_SIZE), dtype=np.int8)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, 4), dtype=np.float32)
        self.dones = np.zeros(num_envs, dtype=bool)
        self.illegal = np.zeros(num_envs, dtype=bool)  # the last step's action was illegal (replaced)
        self.hands_done = 0
        self._options: dict[str, Any] | None = None
        kinds = _kinds(opponents)
        ruleset = make_ruleset(rules)
        self._batch = core_batch(ruleset, num_envs, kinds) if engine_choice() != "python" else None
        self._rand = BOT_RAND in kinds  # the core's rand opponents draw from a generator seeded per hand
        if self._batch is None and kinds != (BOT_PYTHON,) * 4:
            raise ValueError(f"opponents inside the environment need the compiled core, which does not play {rules}")
        self._rngs = [np.random.default_rng() for _ in range(num_envs)]
        self.tables = (
            [] if self._batch is not None else [Table(rules, illegal, illegal_reward) for _ in range(num_envs)]
        )

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every hand (hand *i* seeded with ``seed + i`` when a seed is given; later hands go
        on from that generator)."""
        self._options = options
        if self._batch is not None:
            for i in range(self.num_envs):
                if seed is not None:
                    self._rngs[i] = np.random.default_rng(seed + i)
            self._deal_and_fill(range(self.num_envs))
        else:
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
        if self._batch is not None:
            codes = acts.astype(np.int64) if acts.dtype != np.int64 else np.ascontiguousarray(acts)
            ended = self._batch.step(
                codes,
                self.observations,
                self.action_masks,
                self.seats,
                rewards,
                dones,
                self.illegal,
                self.illegal_mode == "penalty",
                self.illegal_reward,
            )
            if ended:
                self.hands_done += len(ended)
                self._deal_and_fill(ended)
            return self.observations, self.action_masks, self.seats, rewards, dones
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

    def _deal_and_fill(self, hands: Sequence[int]) -> None:
        """Deal ``hands`` again and write their first decisions.  With the core's opponents a hand can
        end before the environment's seat is asked anything (another seat wins the dealer's first
        discard); such a hand has no decision to return, so it is dealt again from the same generator."""
        assert self._batch is not None
        while hands:
            for i in hands:
                self._deal(i)
            self._batch.fill(hands, self.observations, self.action_masks, self.seats)
            hands = [i for i in hands if self.seats[i] < 0]

    def _deal(self, i: int) -> None:
        """Hand *i* dealt again on the core, from its own generator (as a :class:`Table` deals)."""
        assert self._batch is not None
        args = deal_args(self._rngs[i], self._options)
        scores = args["scores"] or [0, 0, 0, 0]
        rng_seed = int(self._rngs[i].integers(2**62)) if self._rand else 0
        self._batch.deal(i, args["seed"], args["dealer"], args["prevalent"], args["hand_no"], tuple(scores), rng_seed)

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


def _kinds(opponents: str | Sequence[str] | None) -> tuple[int, int, int, int]:
    """Seat 0 plays through the environment; ``opponents`` (one kind for all three, or three, of
    :data:`CORE_BOTS`) sit at seats 1–3.  None: the environment decides for every seat."""
    if opponents is None:
        return (BOT_PYTHON,) * 4
    specs = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
    if len(specs) != 3 or any(s not in CORE_BOTS for s in specs):
        raise ValueError(
            f"opponents: one of {sorted(CORE_BOTS)} for all three seats, or three of them; got {opponents!r}"
        )
    return (BOT_PYTHON, CORE_BOTS[specs[0]], CORE_BOTS[specs[1]], CORE_BOTS[specs[2]])


def vector_env(num_envs: int, rules: str = "gb", **kwargs: Any) -> MahjongVectorEnv:
    """``num_envs`` hands in one process (see the module); ``rules``: gb, botzone, nanchang;
    ``opponents``: the core's bots at seats 1–3 (``"rand"``, ``"eff"``, or three of them)."""
    return MahjongVectorEnv(num_envs, rules, **kwargs)
