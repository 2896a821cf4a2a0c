"""Ratings in the database (migration 0005): each account's rating per ruleset and the
history of every change, one row per rated hand and seat (docs/ratings.md).
:mod:`majiang.hall.ratings` writes both in the hand's settlement transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from majiang.store.models import Base, now


class Rating(Base):
    """An account's current rating in one ruleset and the number of rated hands behind it."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(String(20), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    __table_args__ = (Index("ix_ratings_rules_rating", "rules", "rating"),)


class RatingChange(Base):
    """One seat's rating change by one hand; (hand, account) is the key, so a hand is rated once."""

    __tablename__ = "rating_changes"
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(String(20))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    score: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    __table_args__ = (Index("ix_rating_changes_account", "account_id", "rules", "hand_id"),)
