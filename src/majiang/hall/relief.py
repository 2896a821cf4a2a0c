"""救济金, the daily relief grant: a player whose balance is below the cheapest room's minimum may
claim a fixed amount from the mint, a few times a (UTC) day.  It is for coins lost at the tables: what
the account paid the shop since its last grant (at most the last 7 days) counts as still its own, so
a player who spends his coins on items and falls below the line is not paid for it.

The grant is an ordinary ledger transaction (kind ``relief``, from the mint) whose key
``relief:<account>:<YYYY-MM-DD>:<n>`` names the account, the day and the claim's number that day, so
a claim is idempotent per account and day: two claims at the same moment compute the same key and
the ledger posts it once (the other answers ``already``).  ``majiang ledger audit`` balances as for
any other grant.

Configured per hall in the rooms file (docs/ratings.md, *Relief*)::

    [relief]
    amount = 2000        # coins per claim (0 turns relief off)
    per_day = 1          # claims per account and UTC day
    below = 500          # eligible below this balance (default: the smallest min_balance > 0 of the rooms)
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from majiang.hall.ledger import MINT, post, system_account
from majiang.hall.rooms import Room
from majiang.store import Database
from majiang.store.models import Account, LedgerEntry, LedgerTxn

CLAIMANTS = ("player", "guest")  # bots are refilled by the hall, not relieved
SHOP_WINDOW = timedelta(days=7)  # how far back shop spending counts against relief


@dataclass(frozen=True)
class ReliefPolicy:
    amount: int = 2000
    per_day: int = 1
    below: int | None = None  # None: the cheapest room's minimum (the smallest positive min_balance)

    def __post_init__(self) -> None:
        if self.amount < 0 or self.per_day < 0 or (self.below is not None and self.below < 0):
            raise ValueError("relief: amount, per_day and below are ≥ 0")

    def threshold(self, rooms: Iterable[Room]) -> int:
        """Eligible below this balance (0: nobody is)."""
        if self.below is not None:
            return self.below
        mins = [r.min_balance for r in rooms if r.min_balance > 0 and not r.competition]
        return min(mins, default=0)

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "per_day": self.per_day, "below": self.below}


def load_relief(path: str | Path | None = None) -> ReliefPolicy:
    """The ``[relief]`` table of a rooms file (the packaged one when None; TOML — a JSON rooms file is a
    list: the defaults)."""
    if path is None:
        data: Any = tomllib.loads(resources.files(__package__).joinpath("rooms.toml").read_text(encoding="utf-8"))
    else:
        p = Path(path)
        raw = p.read_text(encoding="utf-8")
        data = json.loads(raw) if p.suffix == ".json" else tomllib.loads(raw)
    d = data.get("relief", {}) if isinstance(data, dict) else {}
    unknown = set(d) - {"amount", "per_day", "below"}
    if unknown:
        raise ValueError(f"relief: unknown keys {sorted(unknown)}")
    return ReliefPolicy(**d)


def today() -> date:
    return datetime.now(UTC).date()


class Relief:
    """The relief desk of one hall: eligibility and claims (synchronous; run in the executor)."""

    def __init__(self, db: Database, policy: ReliefPolicy, rooms: Iterable[Room]) -> None:
        self.db = db
        self.policy = policy
        self.below = policy.threshold(rooms)

    def _claimed(self, s: Any, account: int, day: date) -> int:
        return int(
            s.scalar(
                select(func.count(LedgerTxn.id)).where(LedgerTxn.key.like(f"relief:{account}:{day.isoformat()}:%"))
            )
            or 0
        )

    def _shop_spending(self, s: Any, account: int) -> int:
        """Coins the account paid the shop since its last relief grant, or over the last SHOP_WINDOW
        if that grant is older (or there was none)."""
        since = datetime.now(UTC) - SHOP_WINDOW
        last = s.scalar(
            select(func.max(LedgerTxn.created_at)).where(
                LedgerTxn.kind == "relief", LedgerTxn.key.like(f"relief:{account}:%")
            )
        )
        if last is not None:
            since = max(since, last if last.tzinfo else last.replace(tzinfo=UTC))
        spent = s.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0))
            .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
            .where(LedgerEntry.account_id == account, LedgerTxn.kind == "purchase", LedgerTxn.created_at > since)
        )
        return -int(spent or 0)

    def _state(self, s: Any, acc: Account | None, day: date) -> dict[str, Any]:
        claimed = self._claimed(s, acc.id, day) if acc is not None else 0
        left = max(0, self.policy.per_day - claimed)
        balance = int(acc.balance) if acc is not None else 0
        shop = self._shop_spending(s, acc.id) if acc is not None and balance < self.below else 0
        reason = None
        if acc is None or acc.kind not in CLAIMANTS:
            reason = "not_player"
        elif self.policy.amount <= 0 or self.policy.per_day <= 0 or self.below <= 0:
            reason = "off"
        elif balance >= self.below:
            reason = "balance"
        elif balance + shop >= self.below:  # relief is for coins lost at the tables, not spent in the shop
            reason = "shop"
        elif left <= 0:
            reason = "used"
        return {
            "eligible": reason is None,
            "reason": reason,
            "amount": self.policy.amount,
            "below": self.below,
            "per_day": self.policy.per_day,
            "claimed_today": claimed,
            "left_today": left,
            "balance": balance,
            "shop_spent": shop,
            "day": day.isoformat(),
        }

    def status(self, account: int, day: date | None = None) -> dict[str, Any]:
        with self.db.session() as s:
            return self._state(s, s.get(Account, account), day or today())

    def claim(self, account: int, day: date | None = None) -> dict[str, Any]:
        """Pay the grant if eligible: ``{paid, ...status}``; ``paid`` is 0 (with ``reason``) when not."""
        day = day or today()
        with self.db.session() as s:
            acc = s.scalar(select(Account).where(Account.id == account).with_for_update())
            st = self._state(s, acc, day)
            if not st["eligible"]:
                return {**st, "paid": 0}
            key = f"relief:{account}:{day.isoformat()}:{st['claimed_today'] + 1}"
            mint = system_account(s, MINT)
            amount = self.policy.amount
            if not post(
                s, key, "relief", {mint.id: -amount, account: amount}, {"reason": "relief", "day": day.isoformat()}
            ):
                # the same claim at the same moment (another request, another process) was paid
                return {**st, "eligible": False, "reason": "already", "paid": 0}
            s.flush()
            s.refresh(acc)
            return {**self._state(s, acc, day), "paid": amount}
