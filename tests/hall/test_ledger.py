"""The coin ledger: balanced, idempotent, never negative, nothing left behind by a refused post."""

import pytest
from sqlalchemy import select

from majiang.hall.coins import settle_coins
from majiang.hall.ledger import LedgerError, audit, grant, post, system_account
from majiang.store import Database
from majiang.store.models import Account, LedgerTxn


@pytest.fixture
def db(tmp_path):
    d = Database(f"sqlite:///{tmp_path}/l.db")
    d.migrate()
    yield d
    d.dispose()


def _accounts(db):
    with db.session() as s:
        a = Account(username="a", kind="player")
        s.add(a)
        s.flush()
        return a.id, system_account(s, "house").id


def test_refused_post_leaves_nothing_and_can_be_retried(db):
    a, house = _accounts(db)
    with pytest.raises(LedgerError, match="negative"), db.session() as s:
        post(s, "k", "test", {a: -5, house: 5})
    with db.session() as s:
        assert s.scalar(select(LedgerTxn).where(LedgerTxn.key == "k")) is None
    grant(db, a, 10, "g")
    with db.session() as s:
        assert post(s, "k", "test", {a: -5, house: 5}) is True
    with db.session() as s:
        assert post(s, "k", "test", {a: -5, house: 5}) is False  # the same key pays once
    rep = audit(db)
    assert rep.ok and rep.total == 0 and rep.in_circulation == 10


def test_unbalanced_transaction_is_refused(db):
    a, _house = _accounts(db)
    with pytest.raises(LedgerError, match="does not balance"), db.session() as s:
        post(s, "u", "test", {a: 5})


def test_coin_settlement_is_zero_sum_and_caps_at_the_balance():
    # seed example: N=200, X=10, self-draw, A=20 → winner +6000−20, losers −2000−20
    c = settle_coins([30, -10, -10, -10], [10**6] * 4, 200, 20)
    assert c.changes == [6000 - 20, -2020, -2020, -2020] and c.house == 80
    assert sum(c.changes) + c.house == 0
    # a payer who cannot pay everything pays what it has; the shortfall is recorded, not invented
    c = settle_coins([24 + 10, -18, -8, -8], [0, 100, 10**6, 10**6], 10, 5)
    assert c.changes[1] == -100 and c.shortfall[0] == 180 - 100
    balances = [0, 100, 10**6, 10**6]
    assert sum(c.changes) + c.house == 0 and all(x >= -b for x, b in zip(c.changes, balances, strict=True))
