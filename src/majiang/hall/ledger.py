"""The double-entry coin ledger.

Every movement of game coins is one transaction whose entries sum to zero, posted in one database
transaction together with the balance updates.  A transaction's ``key`` (e.g.
``settle:<table>:<hand>``) is unique, so posting it twice — after a crash, a retry, a second
process — is a no-op: a payment is made exactly once.  Balances never go below zero (a database
CHECK); only the mint account, the source of granted coins, is negative.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from majiang.store import Database
from majiang.store.models import Account, LedgerEntry, LedgerTxn

HOUSE = "house"  # takes fees, pays compensation
MINT = "mint"  # issues granted coins


class LedgerError(ValueError):
    pass


def system_account(s: Session, kind: str) -> Account:
    """The mint's or the house's account, made on first use (by whichever transaction gets there
    first: another one making it at the same moment is waited for and its row used)."""
    name = f"@{kind}"
    acc = s.scalar(select(Account).where(Account.username == name))
    if acc is None:
        try:
            with s.begin_nested():
                acc = Account(username=name, kind=kind, balance=0)
                s.add(acc)
        except IntegrityError:
            acc = s.scalar(select(Account).where(Account.username == name))
            assert acc is not None
    return acc


def post(s: Session, key: str, kind: str, amounts: Mapping[int, int], memo: dict[str, Any] | None = None) -> bool:
    """Post one balanced transaction inside the caller's database transaction.  Returns False when
    ``key`` was posted before (nothing changes).  Raises :class:`LedgerError` if the entries do not
    sum to zero or a balance would go negative."""
    moves = {a: v for a, v in amounts.items() if v}
    if sum(moves.values()) != 0:
        raise LedgerError(f"transaction {key!r} does not balance: {dict(moves)}")
    try:
        with s.begin_nested():
            txn = LedgerTxn(key=key, kind=kind, memo=memo or {})
            s.add(txn)
            s.flush()
    except IntegrityError:
        return False  # already posted
    try:
        for account_id, amount in sorted(moves.items()):
            s.add(LedgerEntry(txn_id=txn.id, account_id=account_id, amount=amount))
            s.execute(update(Account).where(Account.id == account_id).values(balance=Account.balance + amount))
        s.flush()
    except IntegrityError as e:
        raise LedgerError(f"transaction {key!r} would make a balance negative") from e
    return True


def grant(db: Database, account_id: int, amount: int, key: str, reason: str = "grant") -> bool:
    """Coins enter circulation only here (sign-up bonus, admin grant): from the mint."""
    with db.session() as s:
        mint = system_account(s, MINT)
        return post(s, key, reason, {mint.id: -amount, account_id: amount}, {"reason": reason})


@dataclass
class Audit:
    accounts: int = 0
    transactions: int = 0
    total: int = 0  # the sum of all balances, the mint included: always 0
    in_circulation: int = 0  # coins held by everyone but the mint
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "accounts": self.accounts,
            "transactions": self.transactions,
            "total": self.total,
            "in_circulation": self.in_circulation,
            "problems": self.problems,
        }


def audit(db: Database) -> Audit:
    """Prove conservation: every transaction balances, every balance equals the sum of its entries,
    all balances (mint included) sum to zero, and none but the mint's is negative."""
    rep = Audit()
    with db.session() as s:
        rep.transactions = s.scalar(select(func.count(LedgerTxn.id))) or 0
        unbalanced = s.execute(
            select(LedgerEntry.txn_id, func.sum(LedgerEntry.amount))
            .group_by(LedgerEntry.txn_id)
            .having(func.sum(LedgerEntry.amount) != 0)
        ).all()
        for txn_id, total in unbalanced:
            rep.problems.append(f"transaction {txn_id} sums to {total}")
        sums = dict(
            s.execute(
                select(LedgerEntry.account_id, func.sum(LedgerEntry.amount)).group_by(LedgerEntry.account_id)
            ).all()
        )
        for acc in s.scalars(select(Account)):
            rep.accounts += 1
            rep.total += acc.balance
            if acc.kind != MINT:
                rep.in_circulation += acc.balance
            if int(sums.get(acc.id, 0) or 0) != acc.balance:
                rep.problems.append(
                    f"account {acc.username}: balance {acc.balance} but entries sum to {sums.get(acc.id, 0)}"
                )
            if acc.kind != MINT and acc.balance < 0:
                rep.problems.append(f"account {acc.username} is negative: {acc.balance}")
        if rep.total != 0:
            rep.problems.append(f"balances sum to {rep.total}, not 0")
    return rep


def totals(db: Database) -> tuple[int, int]:
    """(coins in circulation, coins the house holds) — for /metrics."""
    with db.session() as s:
        rows = dict(s.execute(select(Account.kind, func.sum(Account.balance)).group_by(Account.kind)).all())
    circulation = sum(int(v or 0) for k, v in rows.items() if k != MINT)
    return circulation, int(rows.get(HOUSE, 0) or 0)
