"""The coin statement (GET /api/me/statement): every ledger entry of your account, newest first,
with the running balance and its hand, paginated; owner only."""

from itertools import pairwise

from sqlalchemy import select

from hall_helpers import make_client, play_until, register
from majiang.store import Database
from majiang.store.models import LedgerEntry, LedgerTxn


def test_statement_matches_the_ledger_one_to_one(tmp_path):
    _statement_flow(tmp_path, f"sqlite:///{tmp_path}/hall.db")


def test_statement_on_postgresql(tmp_path):
    from cluster_helpers import scratch_pg

    with scratch_pg() as url:
        _statement_flow(tmp_path, url)


def _statement_flow(tmp_path, url):
    with make_client(tmp_path, db_url=url) as c:
        assert c.get("/api/me/statement").status_code == 401
        tok = register(c)
        auth = {"Authorization": f"Bearer {tok}"}
        with c.websocket_connect(f"/ws?token={tok}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            seen = play_until(ws, hands=2)
        bought = c.post("/api/shop/buy", json={"item": "yihua", "count": 1, "id": "stmt-1"}, headers=auth)
        assert bought.status_code == 200, bought.text
        me = c.get("/api/me", headers=auth).json()
        st = c.get("/api/me/statement", headers=auth).json()
        entries = st["entries"]
        assert st["next_before"] is None
        assert sum(e["amount"] for e in entries) == me["balance"]
        assert entries[0]["balance"] == me["balance"]  # newest first
        assert entries[0]["kind"] == "purchase" and entries[0]["amount"] == -bought.json()["cost"]
        assert entries[-1]["kind"] == "signup" and entries[-1]["balance"] == entries[-1]["amount"]
        for newer, older in pairwise(entries):
            assert newer["balance"] - newer["amount"] == older["balance"]
        hands = {m["hand"] for m in seen if m["type"] == "hand_end"}
        assert {e["hand"] for e in entries if e["kind"] == "settle"} == hands
        # one to one with the ledger's rows of this account
        db = Database(url)
        with db.session() as s:
            rows = s.execute(
                select(LedgerEntry.id, LedgerEntry.amount, LedgerTxn.kind)
                .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
                .where(LedgerEntry.account_id == me["id"])
                .order_by(LedgerEntry.id.desc())
            ).all()
        db.dispose()
        assert [(e["id"], e["amount"], e["kind"]) for e in entries] == [tuple(r) for r in rows]
        # pages: the same entries, the same running balances
        page1 = c.get("/api/me/statement?limit=2", headers=auth).json()
        page2 = c.get(f"/api/me/statement?limit=2&before={page1['next_before']}", headers=auth).json()
        assert page1["entries"] + page2["entries"] == entries[:4]
        # another account sees only its own
        other = register(c, "bob")
        theirs = c.get("/api/me/statement", headers={"Authorization": f"Bearer {other}"}).json()["entries"]
        assert [e["kind"] for e in theirs] == ["signup"]
