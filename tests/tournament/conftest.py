"""A deterministic random hand-record generator standing in for the game engine in the demo tests."""

import random
from collections.abc import Callable

import pytest

from majiang.tournament import HandRecord, Penalty, PenaltyCode, TableSeating

# (fans, points) that are legal-looking MCR hands of at least 8 fan
FAN_SETS = [
    ("清一色",),
    ("碰碰和", "双箭刻"),
    ("七对", "断幺"),
    ("三色三步高", "平和"),
    ("花龙", "门前清"),
    ("混一色", "碰碰和"),
    ("全求人", "双箭刻"),
    ("十三幺",),
    ("无番和",),
]


def random_hands(seating: TableSeating, *, penalties: bool = True) -> list[HandRecord]:
    """16 hands: ~15% exhaustive draws, the rest wins (a third self-drawn), now and then a warning or a
    false win by another player; seeded by the seating, so every run is the same."""
    rng = random.Random(seating.seed)
    hands = []
    for no in range(1, 17):
        pens = []
        if penalties and rng.random() < 0.08:
            pens.append(Penalty(rng.randrange(4), PenaltyCode.WARNING))
        if rng.random() < 0.15:
            hands.append(HandRecord(no=no, penalties=tuple(pens)))
            continue
        winner = rng.randrange(4)
        others = [s for s in range(4) if s != winner]
        discarder = None if rng.random() < 0.33 else rng.choice(others)
        if penalties and rng.random() < 0.05:
            pens.append(Penalty(rng.choice(others), PenaltyCode.FALSE_WIN))
        hands.append(
            HandRecord(
                no=no,
                winner=winner,
                discarder=discarder,
                fans=rng.choice(FAN_SETS),
                flowers=rng.randrange(3),
                penalties=tuple(pens),
            )
        )
    return hands


@pytest.fixture
def hand_generator() -> Callable[[TableSeating], list[HandRecord]]:
    return random_hands


# ---- databases: a temp SQLite file, and a scratch PostgreSQL database per test run -------------------
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=3"


@pytest.fixture(scope="session")
def pg_url():
    """``postgresql://…/majiang_tt_<pid>``, created for this run and dropped afterwards (skipped when no
    PostgreSQL server answers at 127.0.0.1:5432)."""
    import os

    psycopg = pytest.importorskip("psycopg")
    name = f"majiang_tt_{os.getpid()}"
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True)
    except psycopg.OperationalError as e:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432: {e}")
    admin.execute(f"DROP DATABASE IF EXISTS {name}")
    admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A migrated :class:`majiang.store.Database` on SQLite and on PostgreSQL (tournament tables emptied)."""
    from sqlalchemy import delete

    from majiang.store import Database
    from majiang.store.tournament_models import TTEntry, TTEvent

    url = f"sqlite:///{tmp_path}/t.db" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    database = Database(url)
    database.migrate()
    with database.session() as s:
        s.execute(delete(TTEvent))  # cascades to every tournament table
        s.execute(delete(TTEntry))  # but the entries log, which outlives a re-saved event
    yield database
    database.dispose()
