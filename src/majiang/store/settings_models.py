"""Per-account table settings in the database (migration 0007): the auto toggles 自动和 (win),
不吃碰杠 (pass claims) and 摸切 (discard the drawn tile), one row per account that changed any
(docs/protocol.md, *Settings*).  :mod:`majiang.hall.settings` reads and writes them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, false
from sqlalchemy.orm import Mapped, mapped_column

from majiang.store.models import Base, now


class AccountSettings(Base):
    """An account's remembered toggles; an account without a row has them all off."""

    __tablename__ = "account_settings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    auto_win: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    auto_pass: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    auto_discard: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
