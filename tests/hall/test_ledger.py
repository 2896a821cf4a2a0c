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


def _players(db, *balances):
    ids = []
    for i, b in enumerate(balances):
        with db.session() as s:
            a = Account(username=f"p{i}", kind="player")
            s.add(a)
            s.flush()
            ids.append(a.id)
        if b:
            grant(db, ids[-1], b, f"g{i}")
    return ids


def _balance(db, account):
    with db.session() as s:
        return s.scalar(select(Account.balance).where(Account.id == account))


def test_escape_pays_the_penalty_and_compensates_out_of_it(db):
    from majiang.hall.persist import HandStore

    runner, a, b = _players(db, 1000, 0, 0)
    paid, each = HandStore(db).escape("t1", 7, runner, 205, [a, b], 50)
    assert (paid, each) == (205, 50)
    assert [_balance(db, x) for x in (runner, a, b)] == [795, 50, 50]
    # the same escape posted again (a retried request) moves nothing more
    assert HandStore(db).escape("t1", 7, runner, 205, [a, b], 50) == (205, 50)
    assert [_balance(db, x) for x in (runner, a, b)] == [795, 50, 50]
    with db.session() as s:
        house = system_account(s, "house").balance
    assert house == 105  # the house keeps the rest of the penalty
    rep = audit(db)
    assert rep.ok and rep.in_circulation == 1000


def test_escape_compensation_never_exceeds_what_was_paid(db):
    from majiang.hall.persist import HandStore

    poor, a, b, c = _players(db, 30, 0, 0, 0)
    paid, each = HandStore(db).escape("t2", 1, poor, 205, [a, b, c], 50)
    assert (paid, each) == (30, 10)  # a player cannot go below 0; the others share what was paid
    assert [_balance(db, x) for x in (poor, a, b, c)] == [0, 10, 10, 10]
    assert audit(db).ok


def test_room_escape_amounts_and_competition_tables():
    from majiang.hall.rooms import Room

    room = Room(id="r", name="r", coefficient=10, fee=5)
    assert (room.penalty(), room.compensation()) == (205, 50)
    assert room.to_dict()["escape_penalty"] == 205 and room.to_dict()["escape_compensation"] == 50
    assert Room(id="r", name="r", escape_penalty=0, escape_compensation=0).penalty() == 0
    event = Room(id="e", name="e", coefficient=10, competition=True)
    assert (event.penalty(), event.compensation()) == (0, 0)  # no coins move at a competition table


def test_ledger_audit_command(db, capsys):
    import json

    from majiang.cli import main

    _players(db, 500, 0)
    assert main(["ledger", "audit", "--db", db.url, "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["ok"] and rep["in_circulation"] == 500 and rep["total"] == 0
    with db.session() as s:  # a balance changed behind the ledger's back is caught
        s.execute(Account.__table__.update().where(Account.username == "p1").values(balance=7))
    assert main(["ledger", "audit", "--db", db.url]) == 1
    out = capsys.readouterr().out
    assert "PROBLEMS" in out and "p1" in out


def test_a_settlement_retried_after_a_crash_pays_exactly_once(db):
    """A process that died after paying a hand (before telling anyone) and the process that takes
    the table over and settles it again: the second settlement reports what was paid, pays nothing."""
    from majiang.hall.persist import HandStore

    players = _players(db, 1000, 1000, 1000, 1000)
    store = HandStore(db)
    hand = store.start_hand("t9", "r", 0, "gb", "ab" * 32, players)
    args = (hand, "t9", "cd" * 32, {"win": {"seat": 0}}, players, [24, -8, -8, -8], 10, 5, [])
    first = store.finish_hand(*args)
    after_first = [_balance(db, p) for p in players]
    again = store.finish_hand(*args)
    assert again.changes == first.changes == [235, -85, -85, -85]
    assert [_balance(db, p) for p in players] == after_first == [1235, 915, 915, 915]
    assert audit(db).ok
