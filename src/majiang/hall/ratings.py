"""Ratings (等级分): a pairwise Elo per ruleset, updated by every hand at a table with at least two
humans (docs/ratings.md).

A four-player hand is read as six two-player games: for each pair of seats, the one with the higher
hand score wins (equal scores draw).  Each seat's change is ``K/(n-1) · Σ (S − E)`` over its n−1
opponents, with ``E = 1 / (1 + 10^((R_opp − R)/400))`` — the usual Elo with K shared out over the
pairs, so a hand moves a rating about as much as one two-player game.  Every pair's S and E sum to
1 for the two of them, so a hand's changes sum to zero: ratings are conserved at the table.

Bots are rated as their accounts (one per bot kind), so a bot's rating is the yardstick the humans
are measured against; hands with fewer than two humans are not rated (a human against three bots
would mostly be rating the bots).  :meth:`rate_hand` runs inside the hand's settlement transaction
(majiang.hall.persist), after the settlement posted, so a hand is rated exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from majiang.store import Database
from majiang.store.models import Account, HandRow
from majiang.store.rating_models import Rating, RatingChange

START = 1500.0
K = 32.0
MIN_HUMANS = 2


def elo_deltas(ratings: Sequence[float], scores: Sequence[int], k: float = K) -> list[float]:
    """Each seat's rating change: pairwise Elo by hand score, K divided among the n−1 pairs."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j:
                continue
            s = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            e = 1.0 / (1.0 + 10.0 ** ((ratings[j] - ratings[i]) / 400.0))
            total += s - e
        out.append(k / (n - 1) * total)
    return out


def rate_hand(
    s: Session, hand_id: int, rules: str, accounts: Sequence[int], scores: Sequence[int], humans: int
) -> list[float] | None:
    """Rate one hand in the caller's transaction: None (nothing written) with fewer than two humans
    or if the hand was rated before; else each seat's change (an account at several seats — a bot
    kind — gets their sum)."""
    if humans < MIN_HUMANS:
        return None
    if s.scalar(select(RatingChange.hand_id).where(RatingChange.hand_id == hand_id).limit(1)) is not None:
        return None
    rows = {
        r.account_id: r for r in s.scalars(select(Rating).where(Rating.rules == rules, Rating.account_id.in_(accounts)))
    }
    for a in accounts:
        if a not in rows:
            rows[a] = Rating(account_id=a, rules=rules, rating=START, hands=0)
            s.add(rows[a])
    deltas = elo_deltas([rows[a].rating for a in accounts], scores)
    # one bot account may fill several seats: its seats' changes add up (their game with each other
    # cancels out, S + S' = 1 and E = E' = ½), and it is one row, one hand
    net: dict[int, float] = {}
    seat_scores: dict[int, int] = {}
    for a, d, sc in zip(accounts, deltas, scores, strict=True):
        net[a] = net.get(a, 0.0) + d
        seat_scores[a] = seat_scores.get(a, 0) + sc
    at = datetime.now(UTC)
    for a, d in net.items():
        r = rows[a]
        b = r.rating
        r.rating = b + d
        r.hands = (r.hands or 0) + 1
        r.updated_at = at
        s.add(
            RatingChange(hand_id=hand_id, account_id=a, rules=rules, before=b, after=b + d, score=seat_scores[a], at=at)
        )
    s.flush()
    return deltas


def leaderboard(db: Database, rules: str, limit: int = 50) -> list[dict[str, Any]]:
    """The ruleset's rated accounts, best first (then more hands, then the older account)."""
    limit = max(1, min(limit, 200))
    with db.session() as s:
        rows = s.execute(
            select(Rating, Account)
            .join(Account, Account.id == Rating.account_id)
            .where(Rating.rules == rules)
            .order_by(Rating.rating.desc(), Rating.hands.desc(), Account.id)
            .limit(limit)
        ).all()
        return [
            {
                "rank": i + 1,
                "account": a.id,
                "name": a.username,
                "kind": a.kind,
                "rating": round(r.rating, 1),
                "hands": r.hands,
            }
            for i, (r, a) in enumerate(rows)
        ]


def history(
    db: Database, account_id: int, rules: str | None = None, limit: int = 200, owner: bool = False
) -> dict[str, Any]:
    """An account's ratings (per ruleset) and its rating after each rated hand, oldest first.  Only
    the ``owner`` sees which hand, room and score each point was (a hand history is private)."""
    limit = max(1, min(limit, 1000))
    with db.session() as s:
        current = {
            r.rules: {"rating": round(r.rating, 1), "hands": r.hands}
            for r in s.scalars(select(Rating).where(Rating.account_id == account_id))
        }
        q = (
            select(RatingChange, HandRow.room)
            .join(HandRow, HandRow.id == RatingChange.hand_id)
            .where(RatingChange.account_id == account_id)
        )
        if rules is not None:
            q = q.where(RatingChange.rules == rules)
        rows = list(reversed(s.execute(q.order_by(RatingChange.hand_id.desc()).limit(limit)).all()))
        points = []
        for c, room in rows:
            point: dict[str, Any] = {
                "rules": c.rules,
                "at": c.at.isoformat(),
                "before": round(c.before, 1),
                "rating": round(c.after, 1),
                "delta": round(c.after - c.before, 2),
            }
            if owner:
                point.update(hand=c.hand_id, room=room, score=c.score)
            points.append(point)
        return {"account": account_id, "ratings": current, "history": points}
