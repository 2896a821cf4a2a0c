"""Items in the database: migration 0003 matches the models; purchases and uses are atomic,
idempotent and audited, and coins are conserved."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, select

from majiang.hall.accounts import Accounts
from majiang.hall.items import PRICES, ItemError, ItemStore
from majiang.hall.ledger import audit
from majiang.store import Database
from majiang.store.item_models import ItemLog, ItemStock
from majiang.store.models import Account, LedgerTxn


@pytest.fixture
def db(tmp_path):
    d = Database(f"sqlite:///{tmp_path}/items.db")
    d.migrate()
    yield d
    d.dispose()


def test_migration_0003_creates_the_tables_and_matches_the_models(db):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from majiang.store.models import Base

    assert {"item_stock", "item_log"} <= set(inspect(db.engine).get_table_names())
    with db.engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), Base.metadata) == []


def test_purchase_is_one_balanced_ledger_transaction_and_an_audit_row(db):
    acc = Accounts(db, signup_grant=5_000).register("alice", "correct horse").account_id
    store = ItemStore(db)
    got = store.buy(acc, "qianliyan", 3, "r1")
    assert got["cost"] == 3 * PRICES["qianliyan"] and got["balance"] == 5_000 - got["cost"]
    assert store.buy(acc, "qianliyan", 3, "r1")["repeated"] is True
    with pytest.raises(ItemError) as e:
        store.buy(acc, "qiankun", 3)
    assert e.value.code == "funds"
    with pytest.raises(ItemError):
        store.buy(acc, "nothing")
    with db.session() as s:
        assert s.get(Account, acc).balance == 5_000 - 3 * PRICES["qianliyan"]
        assert s.get(ItemStock, (acc, "qianliyan")).quantity == 3
        txns = s.scalars(select(LedgerTxn).where(LedgerTxn.kind == "purchase")).all()
        assert len(txns) == 1 and txns[0].memo == {"item": "qianliyan", "count": 3, "price": PRICES["qianliyan"]}
        assert [(r.action, r.quantity) for r in s.scalars(select(ItemLog))] == [("buy", 3)]
    rep = audit(db)
    assert rep.ok and rep.total == 0


def test_consume_is_once_per_key_and_never_below_zero(db):
    acc = Accounts(db).register("bob", "correct horse").account_id
    store = ItemStore(db)
    assert store.consume(acc, "yihua", "use:x:1:5", "x", 1, {}) is False  # none held: nothing recorded
    store.grant(acc, "yihua", 2, "grant:1")
    store.grant(acc, "yihua", 2, "grant:1")  # once per key
    assert store.inventory(acc)["yihua"] == 2
    assert store.consume(acc, "yihua", "use:x:1:5", "x", 1, {"seat": 0}) is True
    assert store.consume(acc, "yihua", "use:x:1:5", "x", 1, {"seat": 0}) is True  # a retry consumes nothing
    assert store.inventory(acc)["yihua"] == 1
    assert store.consume(acc, "yihua", "use:x:1:9", "x", 1, {}) is True
    assert store.consume(acc, "yihua", "use:x:1:12", "x", 1, {}) is False
    assert store.inventory(acc)["yihua"] == 0
    with db.session() as s:
        rows = s.scalars(select(ItemLog).order_by(ItemLog.id)).all()
        assert [(r.action, r.key) for r in rows] == [("grant", "grant:1"), ("use", "use:x:1:5"), ("use", "use:x:1:9")]
    summary = store.summary(acc)
    assert summary["inventory"]["yihua"] == 0 and [x["action"] for x in summary["log"]] == ["use", "use", "grant"]
