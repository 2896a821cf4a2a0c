"""Matches (东风战 and 全庄): hands played as one match, with running totals, final places, place points
and 段位 ranks (docs/ratings.md, "Matches and 段位").

A room with ``match_hands`` 4 plays 东风战 (the East round: each seat deals once), with 16 全庄 (the four
rounds, the seat changes of seed 000 as the session plays them).  Each hand settles its coins as any
hand does; the match adds its places: the seats ranked by their total of hand scores, a tie going to
the seat nearer the match's first dealer (East before South …).  Each place earns the room's
``place_points`` (default +30 / +10 / −10 / −30 rank points) for a ranked account: a registered player
at a public table, as for ratings.  An account's rank points give its 段位 (``LEVELS``): it is promoted
on reaching a level's threshold and demoted on falling below it; rank points never go below 0.  Then
the next match starts: a fresh session, East round, seat 0 deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from majiang.hall.rooms import is_private_id
from majiang.store.models import Account, MatchResult, PlayerRank

#: 段位: (Chinese, English, rank points needed)
LEVELS: tuple[tuple[str, str, int], ...] = (
    ("新人", "Novice", 0),
    ("初段", "1 dan", 60),
    ("二段", "2 dan", 150),
    ("三段", "3 dan", 270),
    ("四段", "4 dan", 420),
    ("五段", "5 dan", 600),
    ("六段", "6 dan", 810),
    ("七段", "7 dan", 1050),
)
RANKED_KINDS = ("player",)  # guests and bots play matches but hold no 段位


def level(points: int) -> dict[str, Any]:
    """The 段位 of ``points``, with the points to the next one (None at the top)."""
    i = max(k for k, (_, _, need) in enumerate(LEVELS) if points >= need)
    zh, en, need = LEVELS[i]
    nxt = LEVELS[i + 1][2] if i + 1 < len(LEVELS) else None
    return {"level": i, "zh": zh, "en": en, "points": points, "from": need, "next": nxt}


def places(totals: Sequence[int]) -> list[int]:
    """1–4 per seat by total, a tie going to the lower seat (the one nearer the match's first dealer)."""
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out = [0] * len(totals)
    for k, s in enumerate(order):
        out[s] = k + 1
    return out


@dataclass
class Match:
    """The match a table is playing: how many hands it has, how many are played, each seat's total."""

    hands: int
    played: int = 0
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    first_hand_id: int | None = None

    def add(self, hand_id: int, deltas: Sequence[int]) -> None:
        if self.first_hand_id is None:
            self.first_hand_id = hand_id
        self.played += 1
        self.totals = [t + d for t, d in zip(self.totals, deltas, strict=True)]

    @property
    def over(self) -> bool:
        return self.played >= self.hands

    def progress(self) -> dict[str, Any]:
        """What a hand_end message says of the match."""
        return {"hand": self.played, "of": self.hands, "totals": list(self.totals)}

    def to_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "played": self.played, "totals": self.totals, "first": self.first_hand_id}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Match:
        return cls(int(d["hands"]), int(d["played"]), [int(x) for x in d["totals"]], d.get("first"))


def finish_match(
    s: Session,
    match: Match,
    table_id: str,
    room: str,
    rules: str,
    accounts: Sequence[int | None],
    place_points: Sequence[int],
) -> dict[str, Any]:
    """Store a finished match and move the ranked accounts' 段位 (in the caller's transaction): the
    ``match_end`` message's body — totals, places, points, and each ranked seat's level before and after."""
    placed = places(match.totals)
    kinds = dict(s.execute(select(Account.id, Account.kind).where(Account.id.in_([a for a in accounts if a]))).all())
    ranked = not is_private_id(table_id)
    points: list[int] = []
    ranks: list[dict[str, Any] | None] = []
    at = datetime.now(UTC)
    for seat, acc in enumerate(accounts):
        if not ranked or acc is None or kinds.get(acc) not in RANKED_KINDS or accounts.index(acc) != seat:
            points.append(0)
            ranks.append(None)
            continue
        got = place_points[placed[seat] - 1]
        row = s.get(PlayerRank, (acc, rules))
        if row is None:
            row = PlayerRank(account_id=acc, rules=rules, points=0, matches=0)
            s.add(row)
        before = level(row.points or 0)
        row.points = max(0, (row.points or 0) + got)
        row.matches = (row.matches or 0) + 1
        row.updated_at = at
        points.append(got)
        ranks.append({"before": before, "after": level(row.points)})
    assert match.first_hand_id is not None
    s.add(
        MatchResult(
            table_id=table_id,
            room=room,
            rules=rules,
            hands=match.played,
            first_hand=match.first_hand_id,
            players=list(accounts),
            totals=list(match.totals),
            places=placed,
            points=points,
            ended_at=at,
        )
    )
    s.flush()
    return {"hands": match.played, "totals": list(match.totals), "places": placed, "points": points, "ranks": ranks}


def rank_board(s: Session, rules: str, limit: int = 50) -> list[dict[str, Any]]:
    """The ruleset's 段位 leaderboard: most rank points first."""
    rows = s.execute(
        select(PlayerRank, Account)
        .join(Account, Account.id == PlayerRank.account_id)
        .where(PlayerRank.rules == rules)
        .order_by(PlayerRank.points.desc(), PlayerRank.matches.desc(), Account.id)
        .limit(max(1, min(limit, 200)))
    ).all()
    return [
        {"rank": i + 1, "account": a.id, "name": a.username, "matches": r.matches, **level(r.points)}
        for i, (r, a) in enumerate(rows)
    ]
