"""A PettingZoo AEC-style environment: agents take turns (claims on a discard are asked one seat
after another), each observation is a fixed-size array from the seat's own view plus a mask of the
legal actions, and the reward is the hand's score change at its end.

Action space (109): 0–33 discard tile t · 34–67 concealed kong t · 68–101 added kong t · 102 pung
· 103 kong from a discard · 104–106 chow with the claimed tile lowest / middle / highest · 107 win
· 108 pass.

Observation (18 × 34 float32 planes): own concealed counts ≥1..≥4 (4) · drawn tile (1) · for each
seat from oneself counter-clockwise: exposed meld tiles and pond (8) · the tile on offer (1) · seat
wind and prevalent wind as one-hots on E–N (2) · live wall fraction (1) · tiles visible to this
seat / 4 (1).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from majiang.engine.hand import Hand
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.tiles import EAST, NUM_KINDS

ACTION_SIZE = 109
OBS_SHAPE = (18, NUM_KINDS)
_DISCARD, _CKONG, _AKONG, _PUNG, _KONG, _CHOW, _WIN, _PASS = 0, 34, 68, 102, 103, 104, 107, 108


@dataclass(frozen=True)
class Discrete:
    """The action space (Gymnasium's ``Discrete`` in its few used parts; no Gymnasium needed)."""

    n: int

    def contains(self, x: Any) -> bool:
        return isinstance(x, int | np.integer) and 0 <= int(x) < self.n

    def sample(self, mask: np.ndarray | None = None, rng: np.random.Generator | None = None) -> int:
        rng = rng or np.random.default_rng()
        choices = np.flatnonzero(mask) if mask is not None else np.arange(self.n)
        return int(rng.choice(choices))


@dataclass(frozen=True)
class ObservationSpace:
    """What :meth:`MahjongEnv.observe` returns: ``observation`` (float32, ``shape``) and
    ``action_mask`` (int8, ``mask_size``)."""

    shape: tuple[int, int]
    mask_size: int

    def contains(self, obs: Any) -> bool:
        return (isinstance(obs, dict) and getattr(obs.get("observation"), "shape", None) == self.shape
                and getattr(obs.get("action_mask"), "shape", None) == (self.mask_size,))


def encode_action(a: Action) -> int:
    if a.type == "discard":
        return _DISCARD + a.tile
    if a.type == "concealed_kong":
        return _CKONG + a.tile
    if a.type == "added_kong":
        return _AKONG + a.tile
    if a.type == "pung":
        return _PUNG
    if a.type == "kong":
        return _KONG
    if a.type == "chow":
        return _CHOW + a.tiles.index(a.tile)
    if a.type == "win":
        return _WIN
    return _PASS


def decode_action(index: int, legal: list[Action]) -> Action:
    for a in legal:
        if encode_action(a) == index:
            return a
    raise ValueError(f"action {index} is not legal now (mask it with 'action_mask')")


class MahjongEnv:
    """Four agents ``player_0``…``player_3`` at seats 0–3; one hand per episode."""

    metadata: ClassVar[dict[str, Any]] = {"name": "majiang_mcr_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "gb") -> None:
        self.ruleset = make_ruleset(rules)
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents: list[str] = []
        self.hand: Hand | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = ""
        self._episode = 0

    def observation_shape(self, agent: str) -> tuple[int, int]:
        return OBS_SHAPE

    def action_size(self, agent: str) -> int:
        return ACTION_SIZE

    def action_space(self, agent: str) -> Discrete:
        return Discrete(ACTION_SIZE)

    def observation_space(self, agent: str) -> ObservationSpace:
        return ObservationSpace(OBS_SHAPE, ACTION_SIZE)

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The AEC loop: the agent to act, until every agent has taken its last (``None``) step."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._episode += 1
        base = seed if seed is not None else self._episode
        hand_seed = hashlib.sha256(f"majiang-rl-{base}".encode()).digest()
        dealer = (options or {}).get("dealer", base % 4)
        self.hand = Hand(self.ruleset, hand_seed, dealer=dealer)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.hand is not None
        if self.hand.over:
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(self.hand.deltas[i])
                self._cumulative_rewards[a] += self.rewards[a]
                self.terminations[a] = True
            self.agent_selection = self.possible_agents[0]
            return
        self.agent_selection = f"player_{self.hand.prompted()[0]}"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.hand is not None
        seat = int(agent.split("_")[1])
        v = SeatView(self.hand, seat)
        obs = np.zeros(OBS_SHAPE, dtype=np.float32)
        c = np.asarray(v.counts)
        for k in range(4):
            obs[k] = c > k
        if v.drawn is not None:
            obs[4, v.drawn] = 1
        for k in range(4):
            s = (seat + k) % 4
            for m in v.melds[s]:
                if not m.concealed or s == seat:
                    for t in m.tiles:
                        obs[5 + 2 * k, t] += 0.25
            for t, taken in zip(v.discards[s], v.claimed[s], strict=True):
                if not taken:
                    obs[6 + 2 * k, t] += 0.25
        if v.pending is not None:
            obs[13, v.pending[1]] = 1
        obs[14, EAST + v.seat_wind] = 1
        obs[15, EAST + v.prevalent] = 1
        obs[16, :] = v.wall / 144.0
        obs[17] = np.asarray(v.visible, dtype=np.float32) / 4.0
        mask = np.zeros(ACTION_SIZE, dtype=np.int8)
        for a in v.legal:
            mask[encode_action(a)] = 1
        return {"observation": obs, "action_mask": mask}

    def last(self) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        a = self.agent_selection
        return (self.observe(a), self._cumulative_rewards[a], self.terminations[a], self.truncations[a],
                self.infos[a])

    def step(self, action: int | None) -> None:
        """The selected agent's action; once the hand is over each agent steps ``None`` once and
        leaves ``agents`` (PettingZoo's dead step), which ends :meth:`agent_iter`."""
        if self.hand is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            if action is not None:
                raise ValueError(f"{agent} is done: step(None) to remove it, or reset() for a new hand")
            self.agents.remove(agent)
            self.agent_selection = self.agents[0] if self.agents else ""
            return
        seat = int(agent.split("_")[1])
        for a in self.possible_agents:
            self.rewards[a] = 0.0
        self.hand.act(seat, decode_action(int(action if action is not None else _PASS), self.hand.legal(seat)))
        self._select()
