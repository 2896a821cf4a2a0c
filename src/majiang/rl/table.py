"""What the AEC, parallel and single-agent environments share: one hand driven seat by seat,
seeding, spaces, illegal actions, rewards as score changes, and a text rendering."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from majiang.engine.compiled import CompiledHand, new_hand
from majiang.engine.hand import Hand
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.rl.actions import ACTION_SIZE, action_mask, decode_action
from majiang.rl.features import ROWS, moqie_rows, obs_shape
from majiang.rl.incremental import HandEncoder
from majiang.rulesets import lookup, make_ruleset
from majiang.tiles import format_tiles, tile_str

AGENTS = tuple(f"player_{i}" for i in range(4))
ILLEGAL_MODES = ("penalty", "raise")
RENDER_MODES = ["ansi", "human"]


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}")


def env_name(rules: str) -> str:
    """PettingZoo's ``metadata["name"]``: the module a ruleset's environment is served from."""
    entry = lookup(rules)  # not registered: an MCR profile, served by the MCR environment
    return f"majiang_{entry.environment if entry is not None else 'mcr_v0'}"


def observation_space(moqie: bool = False) -> spaces.Dict:
    """``moqie``: with the 摸切 rows (:data:`majiang.rl.features.MOQIE_ROWS`)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, obs_shape(moqie), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_SIZE,), dtype=np.int8),
        }
    )


def state_space(moqie: bool = False) -> spaces.Box:
    """The full-information state: the four seats' observations, seat 0 first."""
    return spaces.Box(0.0, 1.0, (4, *obs_shape(moqie)), dtype=np.float32)


def deal_args(rng: np.random.Generator, options: dict[str, Any] | None) -> dict[str, Any]:
    """A new hand's arguments (:class:`~majiang.engine.hand.Hand`'s keywords and ``seed``) from the
    environment's generator: ``options`` may fix ``dealer``, ``prevalent`` (0–3, random by default),
    ``hand_no`` and ``scores`` (the four seats' scores before the hand); the generator is drawn alike
    whatever they fix, so a seed gives the same walls with or without them."""
    opts = options or {}
    dealer = int(opts.get("dealer", rng.integers(4)))
    prevalent = int(opts.get("prevalent", rng.integers(4)))
    hand_no = int(opts.get("hand_no", 4 * prevalent + dealer))
    scores = opts.get("scores")
    return {
        "seed": rng.bytes(32),
        "dealer": dealer,
        "prevalent": prevalent,
        "hand_no": hand_no,
        "scores": list(scores) if scores is not None else None,
    }


class Table:
    """One hand, its seeding and the bookkeeping every environment needs.

    ``illegal``: ``"penalty"`` replaces an illegal action (or one outside the action space) by the
    engine's default (托管: discard the drawn tile, pass a claim) and adds ``illegal_reward`` to the
    seat's reward; ``"raise"`` raises ValueError and changes nothing.  ``moqie``: the observations
    end with the 摸切 rows."""

    def __init__(self, rules: str, illegal: str, illegal_reward: float, moqie: bool = False) -> None:
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
        self.rules = rules
        self.ruleset = make_ruleset(rules)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.moqie = moqie
        self.np_random = np.random.default_rng()
        self.hand: Hand | CompiledHand | None = None
        self.encoder: HandEncoder | None = None  # the planes kept in step with the hand (encode's fast path)
        self._core: CompiledHand | None = None  # the hand when the compiled core plays it (planes in C)
        self._scores = [0, 0, 0, 0]
        self._cache: dict[int, dict[str, np.ndarray]] = {}  # this decision's observations

    def deal(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """A new hand.  ``seed`` reseeds the generator; without one the generator goes on (a fresh
        environment's draws fresh entropy).  ``options``: ``dealer``, ``prevalent`` (0–3, random
        by default), ``hand_no``, ``scores`` (the four seats' scores before the hand)."""
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        args = deal_args(self.np_random, options)
        hand = new_hand(self.ruleset, args.pop("seed"), **args)
        self.hand = hand
        if isinstance(hand, CompiledHand):
            self._core, self.encoder = hand, None
        else:
            self._core, self.encoder = None, HandEncoder(hand)
        self._scores = self.scores()
        self._cache = {}

    # ---- reading the hand through the seats' views ----------------------------------------------
    def view(self, seat: int) -> SeatView:
        assert self.hand is not None, "call reset() first"
        return SeatView(self.hand, seat)

    def scores(self) -> list[int]:
        h = self.hand
        assert h is not None, "call reset() first"
        return [b + d for b, d in zip(h.scores_before, h.deltas, strict=True)]

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        obs = self._cache.get(seat)
        if obs is None:
            planes = np.empty(obs_shape(self.moqie), dtype=np.float32)
            if self._core is not None:
                mask = np.empty(ACTION_SIZE, dtype=np.int8)
                self._core.observe(seat, planes[:ROWS], mask)
            else:
                assert self.hand is not None and self.encoder is not None
                self.encoder.encode(seat, out=planes[:ROWS])
                mask = action_mask(self.hand.legal(seat))
            if self.moqie:
                moqie_rows(self.view(seat), out=planes[ROWS:])
            obs = {"observation": planes, "action_mask": mask}
            self._cache[seat] = obs
        return obs

    def state(self) -> np.ndarray:
        return np.stack([self.observe(s)["observation"] for s in range(4)])

    def prompted(self) -> list[int]:
        assert self.hand is not None
        return self.hand.prompted()

    @property
    def over(self) -> bool:
        return self.hand is not None and self.hand.over

    # ---- acting ----------------------------------------------------------------------------------
    def choose(self, seat: int, action: Any) -> tuple[Action, bool]:
        """The engine action for ``action`` (a code) and whether it was illegal (then replaced)."""
        assert self.hand is not None
        ok = isinstance(action, int | np.integer) and not isinstance(action, bool) and 0 <= int(action) < ACTION_SIZE
        if ok and self._core is not None:
            chosen = self._core.rl_action(seat, int(action))
            if chosen is not None:
                return chosen, False
        elif ok:
            try:
                return decode_action(int(action), self.hand.legal(seat)), False
            except ValueError:
                pass
        if self.illegal == "raise":
            raise ValueError(f"action {action!r} is not legal for seat {seat} now (mask it with 'action_mask')")
        return self.hand.default_action(seat), True

    def act(self, seat: int, action: Action) -> None:
        assert self.hand is not None
        self.hand.act(seat, action)
        self._cache = {}

    def autoplay(self, seat: int) -> None:
        """托管 for a seat without an agent."""
        assert self.hand is not None
        self.act(seat, self.hand.default_action(seat))

    def score_changes(self) -> list[int]:
        """Each seat's score change since the last call (kong bonuses, false wins, the settlement)."""
        now = self.scores()
        out = [a - b for a, b in zip(now, self._scores, strict=True)]
        self._scores = now
        return out

    # ---- rendering -------------------------------------------------------------------------------
    def render(self, mode: str | None) -> str | None:
        """PettingZoo's ``render()``: the text for ``ansi``, printed for ``human``, nothing without a mode."""
        if mode is None:
            return None
        text = self.render_text()
        if mode == "human":
            print(text)
            return None
        return text

    def render_text(self) -> str:
        """The table as text: every seat's hand (this is a rendering, not an observation), melds,
        flowers, pond (claimed discards in parentheses) and score."""
        if self.hand is None:
            return "(no hand: call reset())"
        v0 = self.view(0)
        lines = [
            f"{self.rules} · hand {v0.hand_no} · prevalent {'ESWN'[v0.prevalent]} · wall {v0.wall} · "
            f"{v0.phase}" + (f" · on offer {tile_str(v0.pending[1])} from seat {v0.pending[0]}" if v0.pending else "")
        ]
        for s in range(4):
            v = self.view(s)
            marker = ">" if s == v.current and not v.over else " "
            melds = " ".join(m.compact() for m in v.melds[s])
            pond = " ".join(
                f"({tile_str(t)})" if taken else tile_str(t)
                for t, taken in zip(v.discards[s], v.claimed[s], strict=True)
            )
            flowers = format_tiles(v.flowers[s])
            drawn = f" (drew {tile_str(v.drawn)})" if v.drawn is not None else ""
            lines.append(
                f"{marker}{s} {'ESWN'[v.seat_wind]} {v.scores[s]:+d}  {format_tiles(v.concealed())}{drawn}"
                + (f"  melds {melds}" if melds else "")
                + (f"  flowers {flowers}" if flowers else "")
            )
            lines.append(f"     pond {pond}")
        if v0.over and v0.result is not None:
            win = v0.result.get("win")
            lines.append(f"result: seat {win['seat']} wins {win['points']}" if win else "result: draw")
        return "\n".join(lines)


class FourAgents:
    """What the AEC and the parallel environment share: a :class:`Table`, the agents, the spaces,
    ``state()`` and rendering (a mixin, listed before PettingZoo's base class)."""

    metadata: dict[str, Any]

    def _seat_table(
        self,
        rules: str,
        render_mode: str | None,
        max_cycles: int | None,
        illegal: str,
        illegal_reward: float,
        moqie: bool,
    ) -> None:
        check_render_mode(render_mode)
        self.metadata = {**type(self).metadata, "name": env_name(rules)}
        self.table = Table(rules, illegal, illegal_reward, moqie)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.state_space = state_space(moqie)
        self._observation_spaces = {a: observation_space(moqie) for a in AGENTS}
        self._action_spaces = {a: spaces.Discrete(ACTION_SIZE) for a in AGENTS}

    @property
    def hand(self) -> Hand | CompiledHand | None:
        return self.table.hand

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def state(self) -> np.ndarray:
        return self.table.state()

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass
