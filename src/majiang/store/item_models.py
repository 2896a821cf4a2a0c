"""Items (道具) in the database (migration 0003): each player's inventory and the audit log of every
purchase and every use.  Coins for purchases move in the ledger (``ledger_txns``, kind
``purchase``); :mod:`majiang.hall.items` writes both in one database transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from majiang.store.models import Base, now


class ItemStock(Base):
    """How many of one item an account holds."""

    __tablename__ = "item_stock"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    item: Mapped[str] = mapped_column(String(20), primary_key=True)
    quantity: Mapped[int] = mapped_column(Integer, default=0)
    __table_args__ = (CheckConstraint("quantity >= 0", name="item_quantity_not_negative"),)


class ItemLog(Base):
    """One purchase (``quantity`` > 0, ``coins`` paid) or one use (``quantity`` −1, where: table,
    hand, and in ``memo`` the seat, the parameters and the event index).  ``key`` is unique, so a
    retried purchase or use is recorded (and paid, and consumed) once."""

    __tablename__ = "item_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    item: Mapped[str] = mapped_column(String(20))
    action: Mapped[str] = mapped_column(String(10))  # buy use
    quantity: Mapped[int] = mapped_column(Integer)
    coins: Mapped[int] = mapped_column(BigInteger, default=0)
    table_id: Mapped[str | None] = mapped_column(String(40), default=None)
    hand_id: Mapped[int | None] = mapped_column(Integer, default=None)
    memo: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
