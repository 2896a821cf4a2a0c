"""Ratings (等级分): a pairwise Elo per ruleset, updated by the hands at public tables (docs/ratings.md).

A four-player hand is read as six two-player games: for each pair of seats, the one with the higher
hand score wins (equal scores draw).  Each seat's change is ``K/3 · Σ (S − E)`` over the pairs that
count, with ``E = 1 / (1 + 10^((R_opp − R)/400))`` — the usual Elo with K shared out over the three
pairs a seat is in, so a hand moves a rating about as much as one two-player game.  A pair counts for
both or for neither, and S and E sum to 1 for the two of them, so ratings are conserved.

Which games count — the rule against farming with throw-away accounts (an attacker with two guests
who made a false win every hand reached rank 1 in 20 hands, and lifted the bot with him):

- only hands at **public** tables (a private table is a room of friends who pick each other);
- only **registered players and bots** are rated; a guest is neither rated nor an opponent that counts;
- a pair counts only between **established** accounts: a bot, or a player with ``ESTABLISHED_HANDS``
  finished hands at public tables before this one (a throw-away account must first play that many);
- two players move each other's ratings in at most ``PAIR_PER_DAY`` hands in 24 hours (a pair that
  keeps meeting stops counting; a bot is one account per kind that everybody meets, so its pairs are
  not capped);
- a hand is rated only with at least two registered players at the table (a human against three bots
  would mostly be rating the bots).

Bots are rated as their accounts (one per bot kind): the yardstick the humans are measured against.
:meth:`rate_hand` runs inside the hand's settlement transaction (majiang.hall.persist), after the
settlement posted, so a hand is rated exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from majiang.hall.rooms import PRIVATE_PREFIX, is_private_id
from majiang.store import Database
from majiang.store.models import Account, HandRow, PlayerHand
from majiang.store.rating_models import Rating, RatingChange

START = 1500.0
K = 32.0
MIN_HUMANS = 2  # registered players at the table
ESTABLISHED_HANDS = 20  # a player's finished hands at public tables before its games count
PAIR_PER_DAY = 12  # rated hands in 24 h in which two players move each other's ratings
RATED_KINDS = ("player", "bot")


def elo_deltas(
    ratings: Sequence[float], scores: Sequence[int], k: float = K, counts: Callable[[int, int], bool] | None = None
) -> list[float]:
    """Each seat's rating change: pairwise Elo by hand score, K divided among the n−1 pairs; with
    ``counts``, only the pairs (i, j) it accepts (it must be symmetric)."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j or (counts is not None and not counts(i, j)):
                continue
            s = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            e = 1.0 / (1.0 + 10.0 ** ((ratings[j] - ratings[i]) / 400.0))
            total += s - e
        out.append(k / (n - 1) * total)
    return out


def _public_hands(s: Session, account: int, before_hand: int) -> int:
    return int(
        s.scalar(
            select(func.count(PlayerHand.hand_id))
            .join(HandRow, HandRow.id == PlayerHand.hand_id)
            .where(
                PlayerHand.account_id == account,
                HandRow.id != before_hand,
                ~HandRow.table_id.startswith(PRIVATE_PREFIX),
            )
        )
        or 0
    )


def _met_today(s: Session, a: int, b: int, at: datetime) -> int:
    """Rated hands in the last 24 hours in which accounts ``a`` and ``b`` both had a rating change."""
    other = aliased(RatingChange)
    return int(
        s.scalar(
            select(func.count(RatingChange.hand_id))
            .join(other, other.hand_id == RatingChange.hand_id)
            .where(RatingChange.account_id == a, other.account_id == b, RatingChange.at > at - timedelta(days=1))
        )
        or 0
    )


def rate_hand(
    s: Session, hand_id: int, rules: str, accounts: Sequence[int], scores: Sequence[int], table_id: str = ""
) -> list[float] | None:
    """Rate one hand in the caller's transaction by the rule of the module's docstring: None (nothing
    written) when it is not rated or was rated before; else each seat's change (an account at several
    seats — a bot kind — gets their sum)."""
    if is_private_id(table_id):
        return None
    found = s.execute(select(Account.id, Account.kind).where(Account.id.in_(accounts)))
    kinds: dict[int, str] = {a: k for a, k in found}
    if len({a for a in accounts if kinds.get(a) == "player"}) < MIN_HUMANS:
        return None
    if s.scalar(select(RatingChange.hand_id).where(RatingChange.hand_id == hand_id).limit(1)) is not None:
        return None
    at = datetime.now(UTC)
    established = {
        a: kinds.get(a) == "bot" or (kinds.get(a) == "player" and _public_hands(s, a, hand_id) >= ESTABLISHED_HANDS)
        for a in set(accounts)
    }
    pair_ok: dict[tuple[int, int], bool] = {}

    def counts(i: int, j: int) -> bool:
        a, b = sorted((accounts[i], accounts[j]))
        if (a, b) not in pair_ok:
            both_players = kinds.get(a) == kinds.get(b) == "player"
            pair_ok[a, b] = (
                a != b
                and established[a]
                and established[b]
                and (not both_players or _met_today(s, a, b, at) < PAIR_PER_DAY)
            )
        return pair_ok[a, b]

    moved = {a for i, a in enumerate(accounts) for j in range(len(accounts)) if i != j and counts(i, j)}
    if not moved:
        return None
    q = select(Rating).where(Rating.rules == rules, Rating.account_id.in_(moved))
    rows = {r.account_id: r for r in s.scalars(q)}
    for a in moved:
        if a not in rows:
            rows[a] = Rating(account_id=a, rules=rules, rating=START, hands=0)
            s.add(rows[a])
    current = [rows[a].rating if a in rows else START for a in accounts]
    deltas = elo_deltas(current, scores, counts=counts)
    # one bot account may fill several seats: its seats' changes add up, and it is one row, one hand
    net: dict[int, float] = {}
    seat_scores: dict[int, int] = {}
    for a, d, sc in zip(accounts, deltas, scores, strict=True):
        if a in moved:
            net[a] = net.get(a, 0.0) + d
            seat_scores[a] = seat_scores.get(a, 0) + sc
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
    the ``owner`` sees when, which hand, room and score each point was (a hand history is private)."""
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
                "before": round(c.before, 1),
                "rating": round(c.after, 1),
                "delta": round(c.after - c.before, 2),
            }
            if owner:  # when and where he played: his own business
                point.update(at=c.at.isoformat(), hand=c.hand_id, room=room, score=c.score)
            points.append(point)
        return {"account": account_id, "ratings": current, "history": points}
