"""救济金, the daily relief grant: eligible only below the cheapest room's minimum, a few times a
day, from the mint through the ledger (the audit balances), and a double claim at the same moment
pays once — on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from cluster_helpers import scratch_pg
from fastapi.testclient import TestClient
from sqlalchemy import select

from hall_helpers import FAST, register
from majiang.hall.app import create_app
from majiang.hall.ledger import audit, grant
from majiang.hall.relief import Relief, ReliefPolicy, load_relief
from majiang.hall.rooms import Room
from majiang.store import Database
from majiang.store.models import Account, LedgerTxn

ROOMS = [
    Room(id="cheap", name="cheap", rules="gb", coefficient=10, fee=5, min_balance=0, **FAST),  # type: ignore[arg-type]
    Room(id="mid", name="mid", rules="gb", coefficient=10, fee=5, min_balance=15_000, **FAST),  # type: ignore[arg-type]
    Room(id="top", name="top", rules="gb", coefficient=100, fee=50, min_balance=50_000, **FAST),
]  # type: ignore[arg-type]


def test_claims_over_http(tmp_path):
    app = create_app(
        f"sqlite:///{tmp_path}/hall.db", ROOMS, bot_delay=(0, 0), relief=ReliefPolicy(amount=2000, per_day=2)
    )
    with TestClient(app) as c:
        assert c.post("/api/me/relief").status_code == 401
        auth = {"Authorization": f"Bearer {register(c)}"}
        st = c.get("/api/me/relief", headers=auth).json()
        # the cheapest room with a minimum asks 15 000; a fresh account has 10 000
        assert st["below"] == 15_000 and st["eligible"] and st["left_today"] == 2 and st["balance"] == 10_000
        r = c.post("/api/me/relief", headers=auth)
        assert r.status_code == 200 and r.json()["paid"] == 2000 and r.json()["balance"] == 12_000
        assert c.post("/api/me/relief", headers=auth).json()["balance"] == 14_000
        r = c.post("/api/me/relief", headers=auth)  # twice a day, no more
        assert r.status_code == 409 and r.json()["detail"]["reason"] == "used"
        assert c.get("/api/me", headers=auth).json()["balance"] == 14_000
        kinds = [e["kind"] for e in c.get("/api/me/statement", headers=auth).json()["entries"]]
        assert kinds == ["relief", "relief", "signup"]
        rep = c.get("/api/ledger/audit").json()
        assert rep["ok"] and rep["total"] == 0


def test_not_eligible_at_or_above_the_minimum(tmp_path):
    app = create_app(
        f"sqlite:///{tmp_path}/hall.db",
        ROOMS,
        bot_delay=(0, 0),
        relief=ReliefPolicy(amount=2000, per_day=1, below=10_000),
    )
    with TestClient(app) as c:
        auth = {"Authorization": f"Bearer {register(c)}"}  # exactly 10 000: not below
        st = c.get("/api/me/relief", headers=auth).json()
        assert not st["eligible"] and st["reason"] == "balance"
        r = c.post("/api/me/relief", headers=auth)
        assert r.status_code == 409 and r.json()["detail"]["reason"] == "balance"
        assert c.get("/api/me", headers=auth).json()["balance"] == 10_000


def test_policy_from_the_rooms_file(tmp_path):
    f = tmp_path / "rooms.toml"
    f.write_text('[relief]\namount = 300\nper_day = 3\nbelow = 100\n\n[[room]]\nid = "a"\nname = "a"\n')
    assert load_relief(f) == ReliefPolicy(amount=300, per_day=3, below=100)
    f.write_text("[relief]\namout = 300\n")
    with pytest.raises(ValueError, match="unknown"):
        load_relief(f)
    assert ReliefPolicy().threshold([ROOMS[0]]) == 0  # no room asks a minimum: nobody is eligible


def _player(db: Database, balance: int) -> int:
    with db.session() as s:
        a = Account(username="poor", kind="player", balance=0)
        s.add(a)
        s.flush()
        aid = a.id
    grant(db, aid, balance, f"signup:{aid}", "signup")
    return aid


def _double_claims(db: Database) -> None:
    db.migrate()
    aid = _player(db, 100)
    relief = Relief(db, ReliefPolicy(amount=1000, per_day=1), ROOMS)
    day = date(2026, 12, 1)
    paid: list[int] = []
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def claim() -> None:
        try:
            start.wait()
            paid.append(relief.claim(aid, day)["paid"])
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=claim) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sorted(paid) == [0] * 5 + [1000]
    with db.session() as s:
        assert s.scalar(select(Account.balance).where(Account.id == aid)) == 1100
        keys = s.scalars(select(LedgerTxn.key).where(LedgerTxn.kind == "relief")).all()
        assert keys == [f"relief:{aid}:2026-12-01:1"]
    assert relief.status(aid, day)["reason"] == "used"
    # the next day it may be claimed again
    assert relief.claim(aid, date(2026, 12, 2))["paid"] == 1000
    rep = audit(db)
    assert rep.ok and rep.total == 0, rep.problems


def test_double_claims_pay_once_on_sqlite(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/r.db")
    try:
        _double_claims(db)
    finally:
        db.dispose()


def test_double_claims_pay_once_on_postgresql():
    with scratch_pg() as url:
        db = Database(url)
        try:
            _double_claims(db)
        finally:
            db.dispose()


def test_coins_spent_in_the_shop_are_not_relieved(tmp_path):
    """Was: a guest spent 1,800 coins on items, dropped below 500 and was paid the 2,000 grant."""
    app = create_app(f"sqlite:///{tmp_path}/hall.db", ROOMS, bot_delay=(0, 0), relief=ReliefPolicy(below=9_000))
    with TestClient(app) as c:
        auth = {"Authorization": f"Bearer {register(c)}"}  # 10 000 coins
        shop = {i["item"]: i["price"] for i in c.get("/api/shop").json()}
        item, price = max(shop.items(), key=lambda kv: kv[1])
        count = -(-1_500 // price)  # enough to fall below 9 000
        r = c.post("/api/shop/buy", json={"item": item, "count": count, "id": "buy-1"}, headers=auth)
        assert r.status_code == 200, r.text
        st = c.get("/api/me/relief", headers=auth).json()
        assert st["balance"] < 9_000 and st["shop_spent"] == count * price
        assert not st["eligible"] and st["reason"] == "shop"
        r = c.post("/api/me/relief", headers=auth)
        assert r.status_code == 409 and r.json()["detail"]["reason"] == "shop"
        assert c.get("/api/me", headers=auth).json()["balance"] == 10_000 - count * price
        assert c.get("/api/ledger/audit").json()["ok"]
