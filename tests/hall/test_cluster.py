"""Three hall processes on PostgreSQL + Redis: players on different processes share a table; the
table's owner is killed with SIGKILL mid-hand; another process takes the table over and the same
hand continues; the ledger balances to the coin and every hand log replays exactly."""

from __future__ import annotations

import threading
import time

from cluster_helpers import Player, cluster, http
from sqlalchemy import select

from hall_helpers import eventually
from majiang.engine.log import events_from_json, verify
from majiang.hall.ledger import audit
from majiang.rulesets import from_header
from majiang.store import Database
from majiang.store.models import HandEvent, HandRow


def _register(node, name):
    return http(node.base + "/api/register", {"username": name, "password": "correct horse"})["token"]


def test_three_processes_survive_losing_the_owner(tmp_path):
    with cluster(3, tmp_path) as (nodes, db):
        n1, n2, n3 = nodes
        ta, tb = _register(n1, "alice"), _register(n2, "bob")
        a, b = Player(n1, ta), Player(n2, tb)
        a.until("welcome")
        b.until("welcome")
        a.send({"type": "create", "room": "c"})
        table_id = a.until("table")["table"]["id"]
        assert http(n1.base + "/healthz")["tables"] == 1  # owned by the first process
        # the lobby of another process sees the table; bob joins it through his own process
        eventually(lambda: http(n3.base + "/api/rooms")[0]["tables"] == 1, "the table in another process's lobby")
        assert http(n2.base + "/api/rooms/c/tables")[0]["id"] == table_id
        b.send({"type": "join", "table": table_id})
        b.until("table")
        a.send({"type": "add_bots"})

        # both play until the hand has run a few turns
        prompts = 0
        stop = threading.Event()

        def play(p: Player, until_prompts: int) -> None:
            nonlocal prompts
            while not stop.is_set():
                try:
                    m = p.recv(timeout=1)
                except TimeoutError:
                    continue
                except Exception:
                    return
                if m["type"] == "prompt":
                    prompts += 1
                    p.answer(m)

        tb_thread = threading.Thread(target=play, args=(b, 0), daemon=True)
        tb_thread.start()
        t0 = time.time()
        view_before = None
        while prompts < 6 and time.time() - t0 < 60:
            m = a.recv(timeout=30)
            if m["type"] == "prompt":
                prompts += 1
                view_before = m["view"]
                a.answer(m)
        assert view_before is not None
        hand_id = next(m["hand"] for m in a.seen if m["type"] == "events")

        # kill the owner mid-hand
        killed_at = time.time()
        n1.kill()
        a.close()
        a2 = Player(n3, ta)  # alice comes back through the third process
        assert a2.until("welcome")["table"] == table_id
        snap = a2.until("table", timeout=30)
        resumed = time.time() - killed_at
        assert snap["hand"] == hand_id  # the same hand continues
        v = snap["view"]
        assert v["seat"] == view_before["seat"]
        # every discard made before the crash is still there
        assert len(v["seats"][0]["discards"]) >= len(view_before["seats"][0]["discards"])
        print(f"table resumed {resumed:.2f} s after the owner was killed")
        assert resumed < 10

        # play the hand (and the next one) to the end
        ends = 0
        t0 = time.time()
        while ends < 1 and time.time() - t0 < 120:
            m = a2.recv(timeout=60)
            if m["type"] == "prompt":
                a2.answer(m)
            elif m["type"] == "hand_end":
                ends += 1
                assert m["hand"] == hand_id
        stop.set()
        a2.close()
        b.close()
        assert ends == 1
        takeovers = sum(http(n.base + "/healthz")["takeovers"] for n in (n2, n3))
        assert takeovers == 1
        _ledger_and_replays_exact(db)


def _ledger_and_replays_exact(db: str) -> None:
    database = Database(db)
    rep = audit(database)
    assert rep.ok, rep.problems
    with database.session() as s:
        hands = s.scalars(select(HandRow).where(HandRow.seed.is_not(None))).all()
        assert hands
        for h in hands:
            rows = s.scalars(select(HandEvent).where(HandEvent.hand_id == h.id).order_by(HandEvent.seq))
            ok, msg = verify(events_from_json(e.event for e in rows), from_header)
            assert ok, msg
    database.dispose()
