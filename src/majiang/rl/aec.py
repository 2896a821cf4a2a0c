"""The PettingZoo AEC environment: agents ``player_0``…``player_3`` at seats 0–3, one hand per
episode, the agent selected is the one the engine asks (claims on a discard one seat after
another, in the engine's order).

Rewards are score changes as they happen (MCR: the settlement at the end; Nanchang also kong
bonuses), zero-sum.  When the hand ends every agent is terminated and steps ``None`` once, which
removes it.  ``max_cycles``: each agent decides at most that many times; after its last decision
it is truncated (and leaves after its ``None`` step) while its seat plays on 托管 for the others;
the hand stops when no agent is left.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from majiang.rl.table import AGENTS, RENDER_MODES, FourAgents

SEATS = {a: s for s, a in enumerate(AGENTS)}


class MahjongEnv(FourAgents, AECEnv):
    """The raw AEC environment (``mcr_v0.raw_env()``); ``mcr_v0.env()`` wraps it."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention: a class attribute)
        "name": "majiang_mcr_v0",
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "gb",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        moqie: bool = False,
    ) -> None:
        super().__init__()
        self._seat_table(rules, render_mode, max_cycles, illegal, illegal_reward, moqie)
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = AGENTS[0]
        self._decisions: dict[str, int] = {}
        self._out: list[str] = []  # the agents terminated or truncated, not yet removed
        self._paid = False  # some reward is not zero (to clear before the next step)

    @property
    def np_random(self) -> np.random.Generator:
        return self.table.np_random

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.deal(seed, options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._decisions = dict.fromkeys(self.agents, 0)
        self._out = []
        self._paid = False
        self._advance()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(SEATS[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if agent in self._out:
            self._dead_step(action)
            return
        seat = SEATS[agent]
        t = self.table
        choice, illegal = t.choose(seat, action)
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        if self._paid:  # the dicts are updated in place; only non-zero rewards need clearing
            for a in rewards:
                rewards[a] = 0.0
            self._paid = False
        t.act(seat, choice)
        n = self._decisions[agent] = self._decisions[agent] + 1
        if illegal:
            rewards[agent] += t.illegal_reward
            self._paid = True
            self.infos[agent] = {"illegal_action": True}
        elif self.infos[agent]:
            self.infos[agent] = {}
        if self.max_cycles is not None and n >= self.max_cycles and not t.over:
            self.truncations[agent] = True
            self._out.append(agent)
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """托管 for seats whose agent is done while some agent still plays, the rewards, the end,
        and the next agent (done agents first, for their ``None`` step)."""
        t = self.table
        out = self._out
        if out or len(self.agents) < len(AGENTS):  # some seat plays on 托管 (none while every agent plays)
            while not t.over and len(out) < len(self.agents):
                auto = [s for s in t.prompted() if AGENTS[s] in out or AGENTS[s] not in self.rewards]
                if not auto:
                    break
                t.autoplay(auto[0])
        rewards = self.rewards
        changes = t.score_changes()
        if any(changes):
            for a, delta in zip(AGENTS, changes, strict=True):
                if a in rewards:
                    rewards[a] += float(delta)
        if t.over:
            for a in self.agents:
                if not self.terminations[a]:
                    self.terminations[a] = True
                    if a not in out:
                        out.append(a)
        cumulative = self._cumulative_rewards
        for a, r in rewards.items():
            if r:
                cumulative[a] += r
                self._paid = True
        self._select()

    def _select(self) -> None:
        out = self._out
        if out:
            self.agent_selection = min(out, key=SEATS.__getitem__)
        elif self.agents:
            self.agent_selection = AGENTS[self.table.prompted()[0]]

    def _dead_step(self, action: Any) -> None:
        if action is not None:
            raise ValueError(f"{self.agent_selection} is done: step(None) removes it (or reset() for a new hand)")
        agent = self.agent_selection
        for d in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            del d[agent]
        self.agents.remove(agent)
        self._out.remove(agent)
        for a in self.rewards:
            self.rewards[a] = 0.0
        self._paid = False
        self._select()


def raw_env(**kwargs: Any) -> MahjongEnv:
    return MahjongEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The AEC environment as PettingZoo serves its own: out-of-range actions assert, the order
    of calls is enforced."""
    e: Any = MahjongEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
