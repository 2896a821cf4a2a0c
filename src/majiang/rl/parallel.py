"""The PettingZoo parallel environment: one step is one decision point of the hand.

Mahjong is not played in a fixed cycle, so PettingZoo's ``aec_to_parallel`` (which needs every
agent to act once per cycle, in order) does not fit it.  Here every live agent sends an action each
step; the engine applies the actions of the seats it asks — the one seat on its turn, or every seat
that may claim the discard on offer, all at once, as at a real table — and ignores the others
(an agent with nothing to decide sees only *pass* in its mask).  ``max_cycles`` bounds the steps;
then every agent is truncated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from majiang.rl.table import AGENTS, RENDER_MODES, FourAgents


class MahjongParallelEnv(FourAgents, ParallelEnv):
    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention: a class attribute)
        "name": "majiang_mcr_v0",
        "render_modes": RENDER_MODES,
        "is_parallelizable": True,
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
        self._seat_table(rules, render_mode, max_cycles, illegal, illegal_reward, moqie)
        self._steps = 0

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self.table.observe(AGENTS.index(a)) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self.table.deal(seed, options)
        self.agents = list(self.possible_agents)
        self._steps = 0
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        t = self.table
        if not self.agents:
            raise RuntimeError("the hand is over: call reset()")
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        for seat in t.prompted():  # the seats asked now, all answering this same decision point
            if t.over:
                break
            agent = AGENTS[seat]
            choice, illegal = t.choose(seat, actions.get(agent))
            t.act(seat, choice)
            if illegal:
                rewards[agent] += t.illegal_reward
                infos[agent]["illegal_action"] = True
        for a, delta in zip(AGENTS, t.score_changes(), strict=True):
            rewards[a] += float(delta)
        self._steps += 1
        over = t.over
        cut = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos


def parallel_env(**kwargs: Any) -> MahjongParallelEnv:
    return MahjongParallelEnv(**kwargs)
