"""Ratings (docs/ratings.md): pairwise Elo per ruleset in the settlement's transaction — a hand with
two humans moves all four ratings (bots too) and sums to zero, a hand with one human moves none, a
hand is rated once; the leaderboard's order and a player's history over HTTP."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from hall_helpers import establish, make_client, play_until, register
from majiang.hall.ledger import grant
from majiang.hall.persist import HandStore
from majiang.hall.ratings import START, elo_deltas
from majiang.store import Database
from majiang.store.models import Account
from majiang.store.rating_models import Rating, RatingChange


def test_pairwise_elo_is_zero_sum():
    d = elo_deltas([1500, 1500, 1500, 1500], [30, -10, -10, -10])
    assert d[0] == pytest.approx(32 / 3 * 1.5) and d[1] == pytest.approx(32 / 3 * -0.5)
    assert sum(d) == pytest.approx(0)
    d = elo_deltas([1700, 1400, 1500, 1550], [-8, 24, -8, -8])
    assert sum(d) == pytest.approx(0) and d[1] > 0 > d[0]
    assert elo_deltas([1500] * 4, [0] * 4) == [0.0] * 4  # a draw between equals moves nothing


def _accounts(db: Database, kinds: list[str], prefix: str = "p", established: bool = True) -> list[int]:
    """Accounts of these kinds with coins; the players ``established`` (their games count) unless told."""
    ids = []
    for i, kind in enumerate(kinds):
        with db.session() as s:
            a = Account(username=f"{prefix}{i}", kind=kind, balance=0)
            s.add(a)
            s.flush()
            ids.append(a.id)
        grant(db, ids[-1], 100_000, f"g:{ids[-1]}")
    if established:
        establish(str(db.engine.url), [a for a, k in zip(ids, kinds, strict=True) if k == "player"])
    return ids


def _play(store: HandStore, accounts: list[int], scores: list[int], humans: int, rules: str = "gb") -> int:
    hand = store.start_hand("tab", "room", 0, rules, "00" * 32, list(accounts))
    stats = [
        {"account_id": accounts[i], "seat": i, "score": scores[i], "won": scores[i] > 0, "dealt_in": False, "fan": 0}
        for i in range(humans)
    ]
    store.finish_hand(hand, "tab", "11" * 32, {"scores": scores}, accounts, scores, 10, 5, stats)
    return hand


def _ratings(db: Database, accounts: list[int], rules: str = "gb") -> dict[int, float]:
    with db.session() as s:
        return {
            r.account_id: r.rating
            for r in s.scalars(select(Rating).where(Rating.rules == rules, Rating.account_id.in_(accounts)))
        }


@pytest.fixture
def db(tmp_path):
    d = Database(f"sqlite:///{tmp_path}/r.db")
    d.migrate()
    yield d
    d.dispose()


def test_two_humans_move_every_rating_zero_sum_and_once(db):
    accs = _accounts(db, ["player", "player", "bot", "bot"])
    store = HandStore(db)
    hand = _play(store, accs, [30, -10, -10, -10], humans=2)
    r = _ratings(db, accs)
    assert set(r) == set(accs)  # the bots are rated as their accounts
    assert r[accs[0]] > START > r[accs[1]] and r[accs[2]] < START
    assert sum(v - START for v in r.values()) == pytest.approx(0)
    # settling the same hand again (a retry) rates nothing twice
    store.finish_hand(hand, "tab", "11" * 32, {}, accs, [30, -10, -10, -10], 10, 5, [])
    assert _ratings(db, accs) == r
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(RatingChange)) == 4
        assert {x.hands for x in s.scalars(select(Rating))} == {1}


def test_one_bot_account_at_two_seats_is_one_rating(db):
    p1, p2, bot = _accounts(db, ["player", "player", "bot"])
    _play(HandStore(db), [p1, bot, p2, bot], [-8, 24, -8, -8], humans=2)
    r = _ratings(db, [p1, p2, bot])
    assert set(r) == {p1, p2, bot} and sum(v - START for v in r.values()) == pytest.approx(0)
    with db.session() as s:
        assert s.scalar(select(Rating.hands).where(Rating.account_id == bot)) == 1
        assert s.scalar(select(func.count()).select_from(RatingChange)) == 3


def test_one_human_moves_no_rating(db):
    accs = _accounts(db, ["player", "bot", "bot", "bot"])
    _play(HandStore(db), accs, [30, -10, -10, -10], humans=1)
    assert _ratings(db, accs) == {}


def test_leaderboard_order_and_history(tmp_path):
    with make_client(tmp_path) as c:
        tok = register(c, "solo")
        with c.websocket_connect(f"/ws?token={tok}") as ws:  # one human with bots: not rated
            ws.receive_json()
            ws.send_json({"type": "quick_join", "room": "t"})
            play_until(ws, hands=1)
        assert c.get("/api/leaderboard?rules=gb").json()["players"] == []
        db = Database(f"sqlite:///{tmp_path}/hall.db")
        accs = _accounts(db, ["player", "player", "player", "bot"], prefix="lb")
        store = HandStore(db)
        _play(store, accs, [30, -10, -10, -10], humans=3)
        _play(store, accs, [-8, 24, -8, -8], humans=3)
        _play(store, accs, [40, -20, -10, -10], humans=3)
        _play(store, accs, [0, 0, 0, 0], humans=3, rules="nanchang")
        db.dispose()
        board = c.get("/api/leaderboard?rules=gb").json()["players"]
        assert [p["account"] for p in board][:1] == [accs[0]]
        assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
        assert [p["rank"] for p in board] == [1, 2, 3, 4] and all(p["hands"] == 3 for p in board)
        assert next(p for p in board if p["account"] == accs[3])["kind"] == "bot"
        assert sum(p["rating"] - START for p in board) == pytest.approx(0, abs=0.3)
        assert [p["hands"] for p in c.get("/api/leaderboard?rules=nanchang").json()["players"]] == [1] * 4
        h = c.get(f"/api/players/{accs[0]}/ratings?rules=gb").json()
        assert all("hand" not in x and "score" not in x for x in h["history"])  # a hand history is private
        assert [x["rating"] for x in h["history"]][-1] == h["ratings"]["gb"]["rating"]
        assert len(h["history"]) == 3 and h["history"][0]["before"] == START
        assert all(a["rating"] == b["before"] for a, b in zip(h["history"], h["history"][1:], strict=False))


def _schema_matches(db: Database) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import inspect

    from majiang.store.models import Base

    assert {"ratings", "rating_changes"} <= set(inspect(db.engine).get_table_names())
    with db.engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), Base.metadata) == []


def test_migration_0005_ratings_matches_the_models(db):
    _schema_matches(db)


def test_rated_on_postgresql():
    from cluster_helpers import scratch_pg

    with scratch_pg() as url:
        pg = Database(url)
        try:
            pg.migrate()
            _schema_matches(pg)
            accs = _accounts(pg, ["player", "player", "bot", "bot"])
            _play(HandStore(pg), accs, [-8, 24, -8, -8], humans=2)
            r = _ratings(pg, accs)
            assert len(r) == 4 and r[accs[1]] > START and sum(v - START for v in r.values()) == pytest.approx(0)
        finally:
            pg.dispose()


def _two_at_a_table(c, a: str, b: str, private: bool) -> dict:
    """Alice and Bobby at one table (public: Bobby joins by its id; private: by its code) with two bots,
    one hand played; alice's hand_end."""
    import threading

    with c.websocket_connect(f"/ws?token={a}") as wa, c.websocket_connect(f"/ws?token={b}") as wb:
        wa.receive_json()
        wb.receive_json()
        wa.send_json({"type": "create", "room": "t", "private": private})
        m = next(m for m in iter(wa.receive_json, None) if m["type"] == "table")
        wb.send_json({"type": "join", "code": m["code"]} if private else {"type": "join", "table": m["table"]["id"]})
        next(m for m in iter(wb.receive_json, None) if m["type"] == "table")
        wa.send_json({"type": "add_bots"})
        seen: dict[str, list] = {}
        threads = [
            threading.Thread(target=lambda n=n, ws=ws: seen.__setitem__(n, play_until(ws, hands=1)))
            for n, ws in (("a", wa), ("b", wb))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    return next(m for m in seen["a"] if m["type"] == "hand_end")


def _fast_rooms() -> list:
    from hall_helpers import FAST
    from majiang.hall.rooms import Room

    return [Room(id="t", name="t", rules="gb", coefficient=10, fee=5, **{**FAST, "bot_fill_s": 300})]  # type: ignore[arg-type]


def test_a_real_public_table_with_two_established_players_rates_the_hand(tmp_path):
    with make_client(tmp_path, _fast_rooms()) as c:
        a, b = register(c, "alice"), register(c, "bobby")
        me = {t: c.get("/api/me", headers={"Authorization": f"Bearer {t}"}).json()["id"] for t in (a, b)}
        establish(f"sqlite:///{tmp_path}/hall.db", list(me.values()))
        end = _two_at_a_table(c, a, b, private=False)
        board = c.get("/api/leaderboard?rules=gb").json()["players"]
        assert {p["name"] for p in board} >= {"alice", "bobby"} and len(board) >= 3  # the bots too
        assert all(p["hands"] == 1 for p in board)
        assert sum(p["rating"] - START for p in board) == pytest.approx(0, abs=0.3)
        ids = {p["name"]: p["account"] for p in board}
        changes = [
            c.get(f"/api/players/{ids[n]}/ratings", headers={"Authorization": f"Bearer {t}"}).json()["history"]
            for n, t in (("alice", a), ("bobby", b))
        ]
        other = c.get(f"/api/players/{ids['alice']}/ratings", headers={"Authorization": f"Bearer {b}"}).json()
        assert "hand" not in other["history"][0] and other["history"][0]["rating"] == changes[0][0]["rating"]
        assert all(len(h) == 1 and h[0]["hand"] == end["hand"] for h in changes)
        if any(end["scores"]):
            assert any(h[0]["delta"] != 0 for h in changes)


def test_private_tables_guests_and_new_accounts_move_no_rating(tmp_path):
    """Was: private tables and guests were rated: a player with two throw-away guests that made a false
    win every hand reached rank 1 of the leaderboard (1631) in 20 hands, and the bot rose with him."""
    with make_client(tmp_path, _fast_rooms()) as c:
        a, b = register(c, "alice"), register(c, "bobby")
        me = {t: c.get("/api/me", headers={"Authorization": f"Bearer {t}"}).json()["id"] for t in (a, b)}
        establish(f"sqlite:///{tmp_path}/hall.db", list(me.values()))
        _two_at_a_table(c, a, b, private=True)  # friends who pick each other
        assert c.get("/api/leaderboard?rules=gb").json()["players"] == []
        g1, g2 = (c.post("/api/guest").json()["token"] for _ in range(2))
        _two_at_a_table(c, a, g1, private=False)  # a guest is no opponent that counts
        _two_at_a_table(c, g1, g2, private=False)  # nor rated
        assert c.get("/api/leaderboard?rules=gb").json()["players"] == []
        n1, n2 = register(c, "newbie1"), register(c, "newbie2")  # registered, but nothing played yet
        _two_at_a_table(c, n1, n2, private=False)
        assert c.get("/api/leaderboard?rules=gb").json()["players"] == []
        _two_at_a_table(c, a, n1, private=False)  # alice against the bots counts; against newbie1 not
        board = c.get("/api/leaderboard?rules=gb").json()["players"]
        assert "alice" in {p["name"] for p in board} and {p["kind"] for p in board} == {"player", "bot"}
        assert not {p["name"] for p in board} & {"newbie1", "newbie2"}


def test_two_players_stop_moving_each_other_after_the_daily_pair_cap(db):
    from majiang.hall.ratings import PAIR_PER_DAY

    p1, p2, g1, g2 = _accounts(db, ["player", "player", "guest", "guest"])
    store = HandStore(db)
    for _ in range(PAIR_PER_DAY + 3):  # the guests feed p1 every hand
        _play(store, [p1, p2, g1, g2], [30, -10, -10, -10], humans=4)
    with db.session() as s:
        assert s.scalar(select(Rating.hands).where(Rating.account_id == p1)) == PAIR_PER_DAY
        assert (
            s.scalar(select(func.count()).select_from(RatingChange).where(RatingChange.account_id.in_([g1, g2]))) == 0
        )
    r = _ratings(db, [p1, p2])
    assert sum(v - START for v in r.values()) == pytest.approx(0)
