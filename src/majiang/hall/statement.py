"""A player's coin statement: every ledger entry of one account, newest first, with the balance
after it and the hand it belongs to.

The running balance is the sum of the account's entries up to and including each one (by entry
id), so a page is consistent with itself and with the ledger even while coins move: the top entry's
balance is one aggregate query, each older one is the previous minus its amount.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from majiang.store import Database
from majiang.store.models import LedgerEntry, LedgerTxn

# the hand id in a transaction's key when its memo does not say (``refill:<account>:<hand>``)
_REFILL = re.compile(r"^refill:\d+:(\d+)$")


def _hand_of(txn: LedgerTxn) -> int | None:
    hand = (txn.memo or {}).get("hand")
    if isinstance(hand, int):
        return hand
    m = _REFILL.match(txn.key)
    return int(m.group(1)) if m else None


def _reason(txn: LedgerTxn) -> str:
    """What the entry was for: the transaction's kind (settle fee escape compensation purchase refill
    relief …, a grant's reason: signup guest bot grant)."""
    return str(txn.kind)


def statement(db: Database, account_id: int, limit: int = 50, before: int | None = None) -> dict[str, Any]:
    """Up to ``limit`` entries of ``account_id`` older than entry id ``before`` (all when None),
    newest first; ``next_before`` is the cursor of the next page (None on the last)."""
    limit = max(1, min(limit, 200))
    with db.session() as s:
        q = (
            select(LedgerEntry, LedgerTxn)
            .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
            .where(LedgerEntry.account_id == account_id)
        )
        if before is not None:
            q = q.where(LedgerEntry.id < before)
        rows = s.execute(q.order_by(LedgerEntry.id.desc()).limit(limit + 1)).all()
        more = len(rows) > limit
        rows = rows[:limit]
        running = 0
        if rows:
            running = int(
                s.scalar(
                    select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                        LedgerEntry.account_id == account_id, LedgerEntry.id <= rows[0][0].id
                    )
                )
                or 0
            )
        entries = []
        for e, t in rows:
            memo = t.memo or {}
            entries.append(
                {
                    "id": e.id,
                    "txn": t.id,
                    "at": t.created_at.isoformat(),
                    "kind": _reason(t),
                    "amount": int(e.amount),
                    "balance": running,
                    "hand": _hand_of(t),
                    "table": memo.get("table"),
                    "item": memo.get("item"),
                    "count": memo.get("count"),
                }
            )
            running -= int(e.amount)
        return {
            "account": account_id,
            "entries": entries,
            "next_before": entries[-1]["id"] if more and entries else None,
        }
