"""The hall on the real PostgreSQL server (127.0.0.1:5432): the same flow as on SQLite."""

from cluster_helpers import scratch_pg

from hall_helpers import make_client, play_until, register
from majiang.hall.ledger import audit
from majiang.store import Database


def test_hands_settle_on_postgresql(tmp_path):
    with scratch_pg() as url:
        with make_client(tmp_path, db_url=url) as c:
            tok = register(c)
            with c.websocket_connect(f"/ws?token={tok}") as ws:
                ws.receive_json()
                ws.send_json({"type": "quick_join", "room": "t"})
                seen = play_until(ws, hands=2)
            ends = [m for m in seen if m["type"] == "hand_end"]
            assert len(ends) == 2
            me = c.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).json()
            mine = next(m["seat"] for m in seen if m["type"] == "table")
            assert me["balance"] == 10_000 + sum(e["coins"][mine] for e in ends)
            assert me["hands"] == 2
            assert c.get(f"/api/hands/{ends[0]['hand']}").json()["seed"] == ends[0]["seed"]
        db = Database(url)
        rep = audit(db)
        assert rep.ok and rep.total == 0, rep.problems
        db.dispose()
