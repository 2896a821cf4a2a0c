"""Simulation: many hands between bots, with per-seat statistics (``majiang simulate``).

``duplicate`` plays every wall in all 24 seatings of the bots (the Botzone evaluation format),
so luck of the deal cancels out between bots.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

from majiang.bots.base import Bot, make_bot
from majiang.engine.hand import OVER, Hand, IllegalAction
from majiang.engine.log import write_log
from majiang.engine.protocol import Ruleset
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset


@dataclass
class SeatStats:
    bot: str
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    fan_on_wins: int = 0
    score_sum: float = 0.0
    score_sq: float = 0.0

    def add(self, delta: int) -> None:
        self.hands += 1
        self.score_sum += delta
        self.score_sq += delta * delta

    def to_dict(self) -> dict[str, Any]:
        n = max(self.hands, 1)
        mean = self.score_sum / n
        var = max(self.score_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
        ci = 1.96 * math.sqrt(var / n)
        return {"bot": self.bot, "win_rate": self.wins / n, "deal_in_rate": self.deal_ins / n,
                "avg_fan_on_win": self.fan_on_wins / self.wins if self.wins else 0.0,
                "avg_score": mean, "avg_score_ci95": [mean - ci, mean + ci]}


@dataclass
class SimResult:
    hands: int = 0
    seconds: float = 0.0
    draws: int = 0
    illegal_actions: int = 0
    false_wins: int = 0
    zero_sum_violations: int = 0
    replay_mismatches: int = 0
    verified: bool = False  # replay_mismatches is a count only when every hand was replayed
    seats: list[SeatStats] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "hands_per_s": self.hands / self.seconds if self.seconds else 0.0,
                "draw_rate": self.draws / self.hands if self.hands else 0.0,
                "illegal_actions": self.illegal_actions, "false_wins": self.false_wins,
                "zero_sum_violations": self.zero_sum_violations,
                "replay_mismatches": self.replay_mismatches if self.verified else None,
                "seats": [s.to_dict() for s in self.seats]}


def play_hand(hand: Hand, bots: list[Bot], on_illegal: Callable[[int], None] | None = None) -> None:
    """Run a hand to its end, asking ``bots[seat]``; an illegal choice is counted and penalised by
    the ruleset (:meth:`~majiang.engine.hand.Hand.fault`, ``WA``), or where it has no such rule
    replaced by the default (托管) action."""
    while hand.phase is not OVER:
        for s in hand.prompted():
            view = SeatView(hand, s)
            legal = view.legal
            if not legal:  # no longer asked (the claim window closed)
                continue
            action = bots[s].choose(view, legal)
            try:
                hand.act(s, action)
            except IllegalAction:
                if on_illegal:
                    on_illegal(s)
                try:
                    hand.fault(s, "WA")  # a ruleset that penalises a wrong answer (Botzone: the hand ends)
                except IllegalAction:
                    hand.act(s, hand.default_action(s))
            if hand.phase is OVER:
                break
    hand_over(hand, bots)


def hand_over(hand: Hand, bots: Sequence[Bot]) -> None:
    """Show each bot that has the optional ``hand_over`` hook (:class:`~majiang.bots.base.Bot`) its
    view of the finished hand: the result and the seed."""
    for s, bot in enumerate(bots):
        hook = getattr(bot, "hand_over", None)
        if hook is not None:
            hook(SeatView(hand, s))


def close_bots(bots: Sequence[Bot]) -> None:
    """Call the optional ``close`` hook of each bot once (an external bot ends its program)."""
    seen: set[int] = set()
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None and id(bot) not in seen:
            seen.add(id(bot))
            close()


def bot_faults(bots: Sequence[Bot]) -> int:
    """Bad replies a bot replaced by a legal default itself (an external bot's ``faults``): the
    engine never sees them as illegal actions."""
    return sum(getattr(bot, "faults", 0) for bot in {id(b): b for b in bots}.values())


def simulate(hands: int, seed: int, bots: list[str], rules: str = "gb", duplicate: bool = False,
             log_dir: str | Path | None = None, verify: bool = False,
             progress: Callable[[int], None] | None = None) -> SimResult:
    if len(bots) != 4:
        raise ValueError(f"give four bots (e.g. fan,eff,eff,rand), got {len(bots)}")
    ruleset = make_ruleset(rules)
    players = [make_bot(spec, seed * 10 + i, rules=rules) for i, spec in enumerate(bots)]
    try:
        res = _run(hands, seed, players, bots, ruleset, duplicate, log_dir, verify, progress)
    finally:
        close_bots(players)
    res.illegal_actions += bot_faults(players)
    return res


def _run(hands: int, seed: int, players: list[Bot], specs: list[str], ruleset: Ruleset, duplicate: bool,
         log_dir: str | Path | None, verify: bool, progress: Callable[[int], None] | None) -> SimResult:
    res = SimResult(seats=[SeatStats(spec) for spec in specs], verified=verify)
    seatings = list(permutations(range(4))) if duplicate else [(0, 1, 2, 3)]
    master = seed.to_bytes(8, "big", signed=True)
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    done = 0
    wall_no = 0
    while done < hands:
        wall_seed = hashlib.sha256(master + wall_no.to_bytes(8, "big")).digest()
        dealer = wall_no % 4
        for seating in seatings:  # seating[seat] = the bot entry sitting there
            if done >= hands:
                break
            hand = Hand(ruleset, wall_seed, dealer=dealer, prevalent=(wall_no // 4) % 4, hand_no=done)

            def illegal(_s: int) -> None:
                res.illegal_actions += 1

            play_hand(hand, [players[seating[s]] for s in range(4)], illegal)
            _tally(res, hand, seating)
            if verify:
                from majiang.engine.log import verify as verify_log
                from majiang.rulesets import from_header

                ok, _ = verify_log(hand.events, from_header)
                res.replay_mismatches += not ok
            if log_dir is not None:
                write_log(hand.events, Path(log_dir) / f"hand-{done:06d}.jsonl")
            done += 1
            if progress:
                progress(done)
        wall_no += 1
    res.hands = done
    res.seconds = time.perf_counter() - t0
    return res


def _tally(res: SimResult, hand: Hand, seating: tuple[int, ...]) -> None:
    if sum(hand.deltas) != 0:
        res.zero_sum_violations += 1
    res.false_wins += sum(1 for e in hand.events if e["type"] == "false_win")
    for s in range(4):
        res.seats[seating[s]].add(hand.deltas[s])
    w = hand.win
    if w is None:
        res.draws += 1
        return
    st = res.seats[seating[w.seat]]
    st.wins += 1
    st.fan_on_wins += w.points
    if w.discarder is not None:
        res.seats[seating[w.discarder]].deal_ins += 1
