"""Many hands stepped in one process, with batched numpy observations, masks and rewards.

``env = majiang.rl.vector_env(64)`` plays 64 hands side by side.  Each hand is at one decision
at a time (the seat the engine asks, claims one seat after another, as in the AEC environment);
:meth:`MahjongVectorEnv.step` takes one action code per hand and applies it for that hand's
deciding seat::

    obs, masks, seats = env.reset(seed=0)          # (n, 204, 34) float32, (n, 109) int8, (n,) seat
    obs, masks, seats, rewards, dones = env.step(actions)   # rewards (n, 4): every seat's change

A hand that ends is dealt again at once (auto-reset): ``dones[i]`` says so, ``rewards[i]`` holds
the settlement, and ``obs[i]`` is already the new hand's first decision.

``episode="session"`` (where the core plays) makes an episode a session of ``session_hands``
hands (16 by default: four rounds, the deal passing every hand and the prevalent wind every four,
as in the 1998 rules; players keep their seats, the seat changes between rounds left out): each
hand is dealt with the scores the session has reached, ``hand_over[i]`` marks the end of each hand
and ``dones[i]`` only the end of the session.  ``reward="rank"`` then pays the session's places
instead of points: 4 / 2 / 1 / 0 at its last hand (tied seats share the average of their places),
0 on every other step (an illegal action's ``illegal_reward`` still applies).  The arrays returned are
the environment's own buffers, overwritten by the next step (copy what you keep).  Illegal codes
follow ``illegal`` as in the other environments.

Where the compiled hand core plays the ruleset (MCR, Botzone) every step is one C call for all the
hands — the actions applied, the hands played on, the planes and masks written — and ``opponents``
may seat the core's own bots: ``vector_env(64, opponents="eff")`` plays seat 0 of every hand against
three efficiency bots, which decide inside the core, so every decision returned is seat 0's;
``opponents=("eff", None, None)`` returns seats 0, 2 and 3's decisions (``seats`` says whose), for a
league of policies the caller runs beside the core's bots.
Elsewhere (Nanchang) each hand is a :class:`~majiang.rl.table.Table` stepped in Python.
``moqie=True`` appends the 摸切 rows to every observation (``(n, 208, 34)``; docs/rl.md), and
``look=True`` (MCR) the ``ev`` bot's look-ahead rows of the deciding seat after them
(:meth:`majiang.bots.ev.EVBot.look`: ``(n, 207, 34)`` alone; they cost an ``ev`` decision a step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from majiang.bots.ev import LOOK_ROWS
from majiang.bots.incore import has_look_rows, look_rows
from majiang.engine.compiled import BOT_EFF, BOT_EV, BOT_FAN, BOT_PYTHON, BOT_RAND, core_batch, engine_choice
from majiang.rl.actions import ACTION_SIZE, action_mask
from majiang.rl.features import MOQIE_ROWS, OBS_SHAPE, ROWS, moqie_rows, obs_shape
from majiang.rl.table import ILLEGAL_MODES, Table, deal_args
from majiang.rulesets import make_ruleset

#: the opponents the core plays itself
CORE_BOTS = {"rand": BOT_RAND, "eff": BOT_EFF, "fan": BOT_FAN, "ev": BOT_EV}
EPISODES = ("hand", "session")
REWARDS = ("score", "rank")
#: a session's places: 4 / 2 / 1 / 0 (the table points of club and EMA practice)
PLACE_POINTS = (4.0, 2.0, 1.0, 0.0)


def place_points(scores: Sequence[int]) -> np.ndarray:
    """The four seats' place points for a session's ``scores``: tied seats share the average of the
    places they occupy, so the four always sum to 7."""
    sc = np.asarray(scores)
    return np.array([np.mean([PLACE_POINTS[k] for k in range(int((sc > x).sum()), int((sc >= x).sum()))]) for x in sc])


class MahjongVectorEnv:
    def __init__(
        self,
        num_envs: int,
        rules: str = "gb",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        opponents: str | Sequence[str | None] | None = None,
        episode: str = "hand",
        reward: str = "score",
        session_hands: int = 16,
        moqie: bool = False,
        look: bool = False,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if episode not in EPISODES or reward not in REWARDS:
            raise ValueError(f"episode: one of {EPISODES}, reward: one of {REWARDS}; got {episode!r}, {reward!r}")
        if reward == "rank" and episode != "session":
            raise ValueError("reward='rank' pays a session's places: use it with episode='session'")
        if session_hands < 1:
            raise ValueError(f"session_hands must be at least 1, got {session_hands}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
        self.num_envs = num_envs
        self.rules = rules
        self.illegal_mode = illegal
        self.illegal_reward = float(illegal_reward)
        self.moqie, self.look = moqie, look
        rows, columns = obs_shape(moqie)
        self.observations = np.zeros((num_envs, rows + (LOOK_ROWS if look else 0), columns), dtype=np.float32)
        # what the core writes: the observations themselves, or the 204 rows the other rows are added to
        self._planes = np.zeros((num_envs, *OBS_SHAPE), dtype=np.float32) if moqie or look else self.observations
        self._look = np.zeros((num_envs, LOOK_ROWS, columns), dtype=np.float32)
        self._moqie = np.zeros((num_envs, MOQIE_ROWS, OBS_SHAPE[1]), dtype=np.float32)
        self.action_masks = np.zeros((num_envs, ACTION_SIZE), dtype=np.int8)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, 4), dtype=np.float32)
        self.dones = np.zeros(num_envs, dtype=bool)
        self.illegal = np.zeros(num_envs, dtype=bool)  # the last step's action was illegal (replaced)
        self.hands_done = 0
        self.hand_over = np.zeros(num_envs, dtype=bool)  # the step ended a hand (in a session, not always the episode)
        self.episode, self.reward, self.session_hands = episode, reward, session_hands
        #: per hand of the batch: the session's hands played and its scores so far (episode="session")
        self.session_hand = np.zeros(num_envs, dtype=np.int64)
        self.session_scores = np.zeros((num_envs, 4), dtype=np.int64)
        self._options: dict[str, Any] | None = None
        kinds = _kinds(opponents)
        ruleset = make_ruleset(rules)
        self._batch = core_batch(ruleset, num_envs, kinds) if engine_choice() != "python" else None
        self._rand = BOT_RAND in kinds  # the core's rand opponents draw from a generator seeded per hand
        if self._batch is None and kinds != (BOT_PYTHON,) * 4:
            raise ValueError(f"opponents inside the environment need the compiled core, which does not play {rules}")
        if look and not has_look_rows(rules):
            raise ValueError("look-ahead rows are the MCR ev bot's: use look=True with rules gb or botzone")
        if self._batch is None and episode == "session":
            raise ValueError(f"session episodes need the compiled core (MCR, Botzone), which does not play {rules}")
        self._rngs = [np.random.default_rng() for _ in range(num_envs)]
        self.tables = (
            [] if self._batch is not None else [Table(rules, illegal, illegal_reward) for _ in range(num_envs)]
        )

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every hand (hand *i* seeded with ``seed + i`` when a seed is given; later hands go
        on from that generator)."""
        if options and self.episode == "session":
            raise ValueError("a session deals its own hands: options apply to episode='hand' only")
        self._options = options
        self.session_hand.fill(0)
        self.session_scores.fill(0)
        if self._batch is not None:
            for i in range(self.num_envs):
                if seed is not None:
                    self._rngs[i] = np.random.default_rng(seed + i)
            self._deal_and_fill(range(self.num_envs))
            self._add_rows()
        else:
            for i, t in enumerate(self.tables):
                t.deal(None if seed is None else seed + i, self._deal_options(i))
                self._settle(i)
        self.rewards.fill(0)
        self.dones.fill(False)
        self.hand_over.fill(False)
        return self.observations, self.action_masks, self.seats

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"give one action per hand: shape ({self.num_envs},), got {acts.shape}")
        rewards, dones = self.rewards, self.dones
        if self._batch is not None:
            acting = self.seats.copy() if self.reward == "rank" else None  # the buffer is overwritten
            codes = acts.astype(np.int64) if acts.dtype != np.int64 else np.ascontiguousarray(acts)
            ended = self._batch.step(
                codes,
                self._planes,
                self.action_masks,
                self.seats,
                rewards,
                dones,
                self.illegal,
                self.illegal_mode == "penalty",
                self.illegal_reward,
            )
            self.hand_over[:] = dones
            if self.episode == "session":
                for i in ended:
                    self._hand_ended(i, self._batch.deltas(i))
            if ended:
                self.hands_done += len(ended)
                self._deal_and_fill(ended)
            if acting is not None:
                self._rank_rewards(acting)
            self._add_rows()
            return self.observations, self.action_masks, self.seats, rewards, dones
        for i, t in enumerate(self.tables):
            seat = int(self.seats[i])
            choice, illegal = t.choose(seat, int(acts[i]))
            t.act(seat, choice)
            self.illegal[i] = illegal
            rewards[i] = t.score_changes()
            if illegal:
                rewards[i, seat] += t.illegal_reward
            dones[i] = self.hand_over[i] = t.over
            if t.over:
                self.hands_done += 1
                t.deal(None, self._deal_options(i))
            self._settle(i)
        return self.observations, self.action_masks, self.seats, rewards, dones

    def _deal_options(self, i: int) -> dict[str, Any] | None:
        """The options of hand *i*'s next deal: the caller's, or the session's hand and scores."""
        if self.episode != "session":
            return self._options
        k = int(self.session_hand[i])
        return {"dealer": k % 4, "prevalent": k // 4 % 4, "hand_no": k, "scores": self.session_scores[i].tolist()}

    def _hand_ended(self, i: int, deltas: Sequence[int]) -> None:
        """Hand *i*'s result into its session (before it is dealt again); ``dones[i]`` stays only where
        the episode ends."""
        self.session_scores[i] += np.asarray(deltas, dtype=np.int64)
        self.session_hand[i] += 1
        self.dones[i] = self.session_hand[i] == self.session_hands
        if self.dones[i]:
            if self.reward == "rank":
                self.rewards[i] = place_points(self.session_scores[i])
            self.session_hand[i] = 0
            self.session_scores[i] = 0

    def _rank_rewards(self, acting: np.ndarray) -> None:
        """reward="rank": nothing but the places at a session's end, and an illegal action's penalty
        to the seat that acted (``acting``)."""
        self.rewards[~self.dones] = 0
        for i in np.flatnonzero(self.illegal):
            self.rewards[i, acting[i]] += self.illegal_reward

    def _deal_and_fill(self, hands: Sequence[int]) -> None:
        """Deal ``hands`` again and write their first decisions.  With the core's opponents a hand can
        end before the environment's seat is asked anything (another seat wins the dealer's first
        discard); such a hand has no decision to return, so it is dealt again from the same generator
        (in a session it counts: its points go to the step's rewards and its scores to the session)."""
        assert self._batch is not None
        while hands:
            for i in hands:
                self._deal(i)
            self._batch.fill(hands, self._planes, self.action_masks, self.seats)
            hands = [i for i in hands if self.seats[i] < 0]
            for i in hands if self.episode == "session" else ():  # it was played: it counts in the session
                deltas = self._batch.deltas(i)
                if self.reward == "score":
                    self.rewards[i] += deltas
                self._hand_ended(i, deltas)

    def _deal(self, i: int) -> None:
        """Hand *i* dealt again on the core, from its own generator (as a :class:`Table` deals)."""
        assert self._batch is not None
        args = deal_args(self._rngs[i], self._deal_options(i))
        scores = args["scores"] or [0, 0, 0, 0]
        rng_seed = int(self._rngs[i].integers(2**62)) if self._rand else 0
        self._batch.deal(i, args["seed"], args["dealer"], args["prevalent"], args["hand_no"], tuple(scores), rng_seed)

    def _add_rows(self) -> None:
        """With ``moqie`` or ``look``: the core's planes, then the deciding seats' 摸切 rows and
        look-ahead rows, into the observations."""
        if self.moqie or self.look:
            assert self._batch is not None
            self.observations[:, :ROWS] = self._planes
            if self.moqie:
                self._batch.moqie(self._moqie)
                self.observations[:, ROWS : ROWS + MOQIE_ROWS] = self._moqie
            if self.look:
                self._batch.look(self._look)
                self.observations[:, -LOOK_ROWS:] = self._look

    def _settle(self, i: int) -> None:
        """Hand *i*'s next deciding seat, its observation and mask into the buffers."""
        t = self.tables[i]
        assert t.hand is not None and t.encoder is not None
        seat = t.prompted()[0]
        self.seats[i] = seat
        t.encoder.encode(seat, out=self.observations[i, :ROWS])
        if self.moqie:
            moqie_rows(t.view(seat), out=self.observations[i, ROWS : ROWS + MOQIE_ROWS])
        legal = t.hand.legal(seat)
        if self.look:
            self.observations[i, -LOOK_ROWS:] = look_rows(t.view(seat), legal)[0]
        action_mask(legal, out=self.action_masks[i])

    def close(self) -> None:
        pass


def _kinds(opponents: str | Sequence[str | None] | None) -> tuple[int, int, int, int]:
    """Seat 0 plays through the environment; ``opponents`` (one kind for all three, or three, of
    :data:`CORE_BOTS`, or None for a seat the caller plays too) sit at seats 1–3.  None: the
    environment decides for every seat."""
    if opponents is None:
        return (BOT_PYTHON,) * 4
    specs = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
    if len(specs) != 3 or any(s is not None and s not in CORE_BOTS for s in specs):
        raise ValueError(
            f"opponents: one of {sorted(CORE_BOTS)} for all three seats, or three of them (None: a seat you"
            f" play); got {opponents!r}"
        )
    kinds = [BOT_PYTHON if s is None else CORE_BOTS[s] for s in specs]
    return (BOT_PYTHON, kinds[0], kinds[1], kinds[2])


def vector_env(num_envs: int, rules: str = "gb", **kwargs: Any) -> MahjongVectorEnv:
    """``num_envs`` hands in one process (see the module); ``rules``: gb, botzone, nanchang;
    ``opponents``: the core's bots at seats 1–3 (``"rand"``, ``"eff"``, or three of them)."""
    return MahjongVectorEnv(num_envs, rules, **kwargs)
