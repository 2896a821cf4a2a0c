"""Self-play datasets: bots play hands and every decision they make is recorded as it is made
(``majiang dataset --selfplay BOTS --hands N -o DIR``).

Unlike a hand log, a recorder sees the choice itself, so a claim beaten by a higher one on the same
discard (a pung losing to a win) keeps the pung as ``action`` — what the seat wanted, the right
target for imitation — and ``taken`` says what the hand did with it (*pass*: the claim window
closed on the other seat's claim).  On a turn the two are equal.

With a *teacher* (``--teacher KIND``, DAgger's data) the seats play as their bots but ``action`` is
what the teacher would have chosen in the same view; ``taken`` stays what the hand did with the
played choice.  A policy cloned from a teacher then also learns the teacher's answer in the states
its own mistakes lead to, not only in the states the teacher itself reaches.

Where the compiled hand core plays the ruleset (MCR ``gb``, ``botzone``) the hands run on it and
the observation planes and masks are the core's (``CompiledHand.observe``: equal to
:func:`majiang.rl.encode`); the bots decide in Python, ``rand`` and ``eff`` with the same choices as
the core's own copies of them.  Elsewhere (Nanchang) the Python engine and its
:class:`~majiang.rl.incremental.HandEncoder` do the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from majiang.bots.base import Bot, make_bot
from majiang.bots.incore import core_choice, core_kind, has_look_rows, look_rows
from majiang.engine.compiled import BOT_EV, BOT_PYTHON, CompiledHand, new_hand
from majiang.engine.hand import Hand, IllegalAction, Phase
from majiang.engine.view import SeatView
from majiang.rl.actions import ACTION_SIZE, action_mask, encode_action
from majiang.rl.features import OBS_SHAPE
from majiang.rl.incremental import HandEncoder
from majiang.rl.shards import PASS_CODE, ShardWriter
from majiang.rulesets import make_ruleset

#: the events that close a claim or rob window with a seat's claim: their action codes
_CLAIM_CODES = {"pung": (102,), "chow": (104, 105, 106), "win": (107,), "robbed": (107,)}


@dataclass
class Choice:
    """One decision as it was made: the seat's planes, mask and chosen code; ``taken`` what the
    hand did with it; ``score`` the seat's score when it decided; ``events`` the hand's event count
    then (the window a claim belongs to)."""

    seat: int
    obs: np.ndarray
    mask: np.ndarray
    action: int
    taken: int
    score: int
    events: int
    claim: bool
    played: int
    look: np.ndarray | None = None


def play_recorded(
    hand: Hand | CompiledHand, bots: Sequence[Bot], teacher: Bot | None = None, look: Collection[int] = ()
) -> list[Choice]:
    """Play ``hand`` to its end with ``bots[seat]`` at each seat and return every decision; with a
    ``teacher`` each decision's ``action`` is the teacher's choice in that view (the bot's is played).
    The decisions of the seats in ``look`` carry the ``ev`` bot's look-ahead rows
    (:func:`majiang.bots.incore.look_rows`)."""
    out: list[Choice] = []
    enc = None if isinstance(hand, CompiledHand) else HandEncoder(hand)

    def decide(seat: int) -> None:
        view = SeatView(hand, seat)
        legal = view.legal
        obs = np.empty(OBS_SHAPE, dtype=np.float32)
        mask = np.empty(ACTION_SIZE, dtype=np.int8)
        if isinstance(hand, CompiledHand):
            hand.observe(seat, obs, mask)
        else:
            assert enc is not None
            enc.encode(seat, out=obs)
            action_mask(legal, out=mask)
        claim = hand.phase is not Phase.TURN
        events = len(hand.events)
        label = None if teacher is None else encode_action(core_choice(teacher, view, legal))
        rows, ev_choice = look_rows(view, legal) if seat in look else (None, None)
        if ev_choice is not None and core_kind(bots[seat]) == BOT_EV:
            action = ev_choice  # the same choice, already made
        else:
            action = core_choice(bots[seat], view, legal)
        try:
            hand.act(seat, action)
        except IllegalAction:  # recorded as the 托管 default the hand played instead
            action = hand.default_action(seat)
            hand.act(seat, action)
        code = encode_action(action)
        score = hand.scores_before[seat] + hand.deltas[seat]
        out.append(Choice(seat, obs, mask, code if label is None else label, code, score, events, claim, code, rows))

    if isinstance(hand, CompiledHand):
        hand.play([BOT_PYTHON] * 4, [None] * 4, decide)
    else:
        while not hand.over:
            for s in hand.prompted():
                if hand.legal(s):
                    decide(s)
                if hand.over:
                    break
    _outcomes(out, hand.events)
    return out


def _outcomes(choices: list[Choice], events: list[dict[str, Any]]) -> None:
    """A played claim stands if the event that closed its window is that seat's claim with that code;
    otherwise the hand passed it over (``taken`` = pass)."""
    for c in choices:
        if not c.claim or c.played == PASS_CODE:
            continue
        closing = events[c.events] if c.events < len(events) else {}
        et = str(closing.get("type"))
        codes = _CLAIM_CODES.get(et, (103,) if et == "kong" and closing.get("kind") == "exposed" else ())
        if closing.get("seat") != c.seat or c.played not in codes:
            c.taken = PASS_CODE


def rewards(choices: list[Choice], final: Sequence[int]) -> list[tuple[float, float]]:
    """(reward, ret) of each decision: the seat's score change to its next decision (or the end), and
    to the end — as :mod:`majiang.rl.dataset` computes them."""
    later: dict[int, int] = {}
    out: list[tuple[float, float]] = []
    for c in reversed(choices):
        out.append((float(later.get(c.seat, final[c.seat]) - c.score), float(final[c.seat] - c.score)))
        later[c.seat] = c.score
    return out[::-1]


def build(
    bots: Sequence[str],
    hands: int,
    out_dir: str | Path,
    seed: int = 0,
    rules: str = "gb",
    seats: Sequence[int] = (0, 1, 2, 3),
    shard_size: int = 4096,
    progress: Callable[[int], None] | None = None,
    teacher: str | None = None,
    look: bool = False,
) -> dict[str, Any]:
    """Play ``hands`` hands of ``bots`` (four specs of :func:`majiang.bots.make_bot`) and write the
    decisions of ``seats`` as compact shards in ``out_dir``; returns ``meta.json``'s content.  Hand
    *h*'s wall is seeded from (``seed``, *h*), its dealer and prevalent wind follow *h* as in
    ``majiang simulate``.  ``teacher``: a bot spec whose choice each record's ``action`` holds instead
    (the bots still play).  ``look``: each record also keeps the ``ev`` bot's look-ahead rows."""
    if len(bots) != 4:
        raise ValueError(f"give four bots (one per seat), got {len(bots)}: e.g. best,best,best,best")
    ruleset = make_ruleset(rules)
    if look and not has_look_rows(rules):
        raise ValueError("look-ahead rows are the MCR ev bot's: use them with --rules gb or botzone")
    players = [make_bot(spec, seed * 10 + i, rules=rules) for i, spec in enumerate(bots)]
    tutor = None if teacher is None else make_bot(teacher, seed * 10 + 4, rules=rules)
    info: dict[str, Any] = {
        "source": "selfplay",
        "bots": list(bots),
        "seed": seed,
        "rules": rules,
        "seats": list(seats),
    }
    if teacher is not None:
        info["teacher"] = teacher
    writer = ShardWriter(out_dir, shard_size, info, look=look)
    master = seed.to_bytes(8, "big", signed=True)
    keep = set(seats)
    for h in range(hands):
        wall_seed = hashlib.sha256(master + h.to_bytes(8, "big")).digest()
        hand = new_hand(ruleset, wall_seed, dealer=h % 4, prevalent=(h // 4) % 4, hand_no=h)
        choices = play_recorded(hand, players, tutor, keep if look else ())
        final = [b + d for b, d in zip(hand.scores_before, hand.deltas, strict=True)]
        for c, (reward, ret) in zip(choices, rewards(choices, final), strict=True):
            if c.seat in keep:
                writer.add(c.obs, c.mask, c.action, c.taken, reward, ret, c.seat, h, c.look)
        writer.end_hand()
        if progress:
            progress(h + 1)
    return writer.close()
