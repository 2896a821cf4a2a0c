"""The Gymnasium single-agent environment: one seat against three opponents, one hand per episode.

``gymnasium.make("majiang/MCR-v0", opponents="eff", seat=0)`` (registered on ``import majiang.rl``;
``majiang/Nanchang-v0`` likewise).  ``opponents``: one spec for all three or a list of three, each a
bot kind of :func:`majiang.bots.make_bot` (``"rand"``, ``"eff"``, ``"fan"``), an object with
``choose(view, legal) -> Action`` (a :class:`~majiang.bots.Bot`), or a policy callable given the
seat's observation dict that returns an action code (self-play with a trained model); an opponent's
illegal code is replaced by the engine's default.  ``seat``: 0–3, or None for a random seat each hand.
The reward is the seat's score change (plus ``illegal_reward`` for an illegal action, which is
replaced by the default: discard the drawn tile / pass); :meth:`action_masks` serves
sb3-contrib's ``MaskablePPO``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from majiang.bots import make_bot
from majiang.engine.protocol import Action
from majiang.rl.actions import ACTION_SIZE, decode_action
from majiang.rl.table import RENDER_MODES, Table, check_render_mode, observation_space

Opponent = str | Callable[[dict[str, np.ndarray]], Any] | Any


class MahjongGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}  # noqa: RUF012 - as Gymnasium declares it

    def __init__(
        self,
        rules: str = "gb",
        opponents: Opponent | Sequence[Opponent] = "eff",
        seat: int | None = 0,
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        moqie: bool = False,
    ) -> None:
        check_render_mode(render_mode)
        if seat is not None and seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0–3 or None, got {seat!r}")
        specs = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * 3
        if len(specs) != 3:
            raise ValueError(f"opponents: one spec or three, got {len(specs)}")
        for spec in specs:
            if isinstance(spec, str):
                make_bot(spec, 0, rules)  # an unknown kind fails here, not at the first reset
        self.table = Table(rules, illegal, illegal_reward, moqie)
        self.rules = rules
        self.specs = specs
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.render_mode = render_mode
        self.observation_space = observation_space(moqie)
        self.action_space = spaces.Discrete(ACTION_SIZE)
        self._players: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.table.np_random = self.np_random
        rng = self.np_random
        while True:  # a hand the opponents end before this seat's first decision (天和, 地和) is no episode
            self.table.deal(None, options)
            if self.fixed_seat is None:
                self.seat = int(rng.integers(4))
            others = [s for s in range(4) if s != self.seat]
            self._players = {
                s: make_bot(spec, int(rng.integers(2**31)), self.rules) if isinstance(spec, str) else spec
                for s, spec in zip(others, self.specs, strict=True)
            }
            self._play_others()  # what is paid meanwhile (Nanchang's kong bonuses) comes with the first step
            if not self.table.over:
                break
        return self.table.observe(self.seat), {"seat": self.seat}

    def _opponent_action(self, seat: int) -> Action:
        t = self.table
        player = self._players[seat]
        legal = t.hand.legal(seat) if t.hand is not None else []
        if hasattr(player, "choose"):
            a = player.choose(t.view(seat), legal)
            return a if a in legal else t.hand.default_action(seat)  # type: ignore[union-attr]
        code = player(t.observe(seat))
        try:
            return decode_action(int(code), legal)
        except (TypeError, ValueError):
            return t.hand.default_action(seat)  # type: ignore[union-attr]

    def _play_others(self) -> None:
        t = self.table
        while not t.over:
            others = [s for s in t.prompted() if s != self.seat]
            if not others:
                return
            t.act(others[0], self._opponent_action(others[0]))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        t = self.table
        if t.hand is None or t.over:
            raise RuntimeError("the hand is over: call reset()")
        choice, illegal = t.choose(self.seat, action)
        t.act(self.seat, choice)
        self._play_others()
        reward = float(t.score_changes()[self.seat]) + (t.illegal_reward if illegal else 0.0)
        info: dict[str, Any] = {"seat": self.seat}
        if illegal:
            info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return t.observe(self.seat), reward, t.over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (sb3-contrib's MaskablePPO asks for this)."""
        return self.table.observe(self.seat)["action_mask"].astype(bool)

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode is None:
            return None
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register() -> None:
    """``majiang/MCR-v0`` and ``majiang/Nanchang-v0`` in Gymnasium's registry (once)."""
    for env_id, rules in (("majiang/MCR-v0", "gb"), ("majiang/Nanchang-v0", "nanchang")):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="majiang.rl.gym_env:MahjongGymEnv", kwargs={"rules": rules})
