"""Database tables shared by the hall and competitions (SQLAlchemy 2, typed declarative)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Account(Base):
    """A coin holder: a player, a guest, a server bot, the house (fees, compensation) or the mint
    (the source of granted coins; its balance is minus the coins in circulation)."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    kind: Mapped[str] = mapped_column(String(8))  # player guest bot house mint
    password_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    token_version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    __table_args__ = (CheckConstraint("kind = 'mint' OR balance >= 0", name="balance_not_negative"),)


class LedgerTxn(Base):
    """One coin movement: its entries sum to zero; ``key`` makes posting it idempotent."""

    __tablename__ = "ledger_txns"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(20))  # grant settle fee escape compensation purchase refill
    memo: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class LedgerEntry(Base):
    __tablename__ = "ledger_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txns.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class HandRow(Base):
    """A hand played in the hall: its commitment, its players and, at the end, its seed and result."""

    __tablename__ = "hands"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(40), index=True)
    room: Mapped[str] = mapped_column(String(40))
    hand_no: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(String(20))
    seed_hash: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str | None] = mapped_column(String(64), default=None)  # revealed when the hand ends
    players: Mapped[list[Any]] = mapped_column(JSON)  # account id (or None) per seat
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # set when one of its players shares it: the replay at /#replay/s/<token> for anyone with the link
    share_token: Mapped[str | None] = mapped_column(String(32), default=None, unique=True, index=True)


class HandEvent(Base):
    """The hand's event log, one row per event, written before it is acknowledged."""

    __tablename__ = "hand_events"
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    event: Mapped[dict[str, Any]] = mapped_column(JSON)


class PlayerHand(Base):
    """Per player and hand: what statistics are made of."""

    __tablename__ = "player_hands"
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    coins: Mapped[int] = mapped_column(BigInteger)
    won: Mapped[bool] = mapped_column(default=False)
    dealt_in: Mapped[bool] = mapped_column(default=False)
    fan: Mapped[int] = mapped_column(Integer, default=0)
    __table_args__ = (Index("ix_player_hands_account", "account_id"),)


class Setting(Base):
    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(60), primary_key=True)
    value: Mapped[str] = mapped_column(String(500))


class TableSession(Base):
    """The secret of a table's session: the seed every hand of the session is derived from.  Kept by
    the owning process and here, never in Redis (outside the trust boundary); a process taking the table over reads
    it by the id its (Redis) snapshot names.  Deleted when the table ends."""

    __tablename__ = "table_sessions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(40), index=True)
    seed: Mapped[str] = mapped_column(String(64))  # hex
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class MatchResult(Base):
    """A finished match (东风战: 4 hands, 全庄: 16) of a hall table: each seat's account, total and place."""

    __tablename__ = "match_results"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(40), index=True)
    room: Mapped[str] = mapped_column(String(40))
    rules: Mapped[str] = mapped_column(String(20))
    hands: Mapped[int] = mapped_column(Integer)
    first_hand: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    players: Mapped[list[Any]] = mapped_column(JSON)  # account id (or None) per seat, at the match's end
    totals: Mapped[list[Any]] = mapped_column(JSON)  # each seat's sum of hand scores
    places: Mapped[list[Any]] = mapped_column(JSON)  # 1–4 per seat
    points: Mapped[list[Any]] = mapped_column(JSON)  # the rank points each seat's place earned (0: unranked)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PlayerRank(Base):
    """An account's 段位 in one ruleset: its rank points from its matches' places (docs/ratings.md)."""

    __tablename__ = "player_ranks"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(String(20), primary_key=True)
    points: Mapped[int] = mapped_column(Integer, default=0)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Friendship(Base):
    """One direction of a friendship: ``account`` asked ``friend`` (pending), they are friends
    (accepted: a row each way), or ``account`` blocked ``friend`` (no requests, invites or presence)."""

    __tablename__ = "friendships"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    friend_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    state: Mapped[str] = mapped_column(String(10))  # pending accepted blocked
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    __table_args__ = (Index("ix_friendships_friend", "friend_id"),)
