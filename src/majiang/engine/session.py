"""A session (局): rounds of hands with the prevalent wind per round, the deal rotating by the
ruleset, seat changes between rounds (mcr.md §1), a starting score and an optional time limit
(the hand in play finishes)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from majiang.engine.hand import Hand
from majiang.engine.protocol import Ruleset

#: seat changes after rounds 1, 2, 3: new_seat_of_player_at[old seat]
#: East round: E↔S, W↔N; South round: E→W, W→S, S→N, N→E; West round: E↔S, W↔N.
SEAT_CHANGES: tuple[tuple[int, int, int, int], ...] = ((1, 0, 3, 2), (2, 3, 1, 0), (1, 0, 3, 2))


@dataclass
class SessionConfig:
    rounds: int = 4
    start_score: int = 500
    seat_changes: bool = True
    time_limit_s: float | None = None  # after this, the hand in play finishes and the session ends


@dataclass
class HandRecord:
    hand_no: int
    round: int
    dealer_seat: int
    players: list[int]  # player at each seat
    deltas: list[int]  # per player
    winner: int | None  # player
    discarder: int | None  # player
    points: int
    events: list[dict[str, Any]] = field(repr=False, default_factory=list)


class Session:
    """Players 0–3 keep their identity; ``seat_of[p]`` is where player p sits now."""

    def __init__(
        self,
        rules: Ruleset,
        seed: bytes,
        config: SessionConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.config = config or SessionConfig()
        self.clock = clock
        self.started = clock()
        self.seat_of = [0, 1, 2, 3]
        self.scores = [self.config.start_score] * 4
        self.round = 0
        self.dealer = 0  # seat
        self.passes = 0
        self.hand_no = 0
        self.records: list[HandRecord] = []
        self.over = False
        self.previous: dict[str, Any] = {}  # the last hand's public ruleset state (Nanchang: its jing)

    @property
    def seat_changes(self) -> bool:
        """Whether players change seats between rounds: MCR's rule (mcr.md §1), unless the ruleset
        says its tables do not (:attr:`Ruleset.seat_changes` False: Nanchang passes the deal round the
        table and nobody moves, nanchang.md §2.2)."""
        return self.config.seat_changes and self.rules.seat_changes

    def player_at(self, seat: int) -> int:
        return self.seat_of.index(seat)

    def hand_seed(self, hand_no: int) -> bytes:
        return hashlib.sha256(self.seed + hand_no.to_bytes(4, "big")).digest()

    def new_hand(self) -> Hand | None:
        if self.over:
            return None
        seat_scores = [self.scores[self.player_at(s)] for s in range(4)]
        extra: dict[str, Any] = {"round": self.round, "players": [self.player_at(s) for s in range(4)]}
        if self.previous:  # what a ruleset may carry over (Nanchang's 回头一笑 looks at the last jing)
            extra["previous"] = self.previous
        return Hand(
            self.rules,
            self.hand_seed(self.hand_no),
            dealer=self.dealer,
            prevalent=self.round % 4,
            scores=seat_scores,
            hand_no=self.hand_no,
            extra=extra,
        )

    def finish_hand(self, hand: Hand) -> HandRecord:
        players = [self.player_at(s) for s in range(4)]
        deltas = [0, 0, 0, 0]
        for s in range(4):
            deltas[players[s]] = hand.deltas[s]
            self.scores[players[s]] += hand.deltas[s]
        w = hand.win
        rec = HandRecord(
            hand_no=self.hand_no,
            round=self.round,
            dealer_seat=self.dealer,
            players=players,
            deltas=deltas,
            winner=players[w.seat] if w else None,
            discarder=players[w.discarder] if w and w.discarder is not None else None,
            points=w.points if w else 0,
            events=hand.events,
        )
        self.records.append(rec)
        self.previous = self.rules.public(hand)
        self.hand_no += 1
        self.dealer, passed = self.rules.next_dealer(self.dealer, w)
        if passed:
            self.passes += 1
        if self.passes == 4:
            self.passes = 0
            self.round += 1
            if self.round >= self.config.rounds:
                self.over = True
            elif self.seat_changes and self.round - 1 < len(SEAT_CHANGES):
                change = SEAT_CHANGES[self.round - 1]
                self.seat_of = [change[s] for s in self.seat_of]
        limit = self.config.time_limit_s
        if limit is not None and self.clock() - self.started >= limit:
            self.over = True
        return rec
