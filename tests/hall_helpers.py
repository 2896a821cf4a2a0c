"""Shared helpers for hall tests: an app on a fresh SQLite file, and a scripted WebSocket player."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from majiang.cli.serve_cmd import tournament_features
from majiang.hall.app import create_app
from majiang.hall.rooms import Room

#: how long a state may take to come before the test calls the hall hung: a watchdog, not a budget
#: (a loaded machine is slow at every step, never silent this long)
WATCHDOG_S = 180.0


def eventually(state: Callable[[], Any], what: str, watchdog_s: float = WATCHDOG_S) -> Any:
    """Until ``state()`` is truthy (its value is returned): a wait on the hall's state, however slow
    the machine; fails saying ``what`` never came only when the hall is hung."""
    deadline = time.monotonic() + watchdog_s
    while not (got := state()):
        assert time.monotonic() < deadline, f"{what} never came"
        time.sleep(0.02)
    return got


FAST = dict(bots="rand", bot_fill_s=0.1, next_hand_s=0.05, timers="fast")


def make_client(tmp_path: Any, rooms: list[Room] | None = None, db_url: str | None = None) -> TestClient:
    rooms = rooms or [Room(id="t", name="test", rules="gb", coefficient=10, fee=5, **FAST)]  # type: ignore[arg-type]
    app = create_app(db_url or f"sqlite:///{tmp_path}/hall.db", rooms, bot_delay=(0, 0), **tournament_features())
    return TestClient(app)


def register(c: TestClient, name: str = "alice") -> str:
    r = c.post("/api/register", json={"username": name, "password": "correct horse"})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def play_until(ws: Any, hands: int = 1, limit: int = 5000, choose: Any = None) -> list[dict[str, Any]]:
    """Answer every prompt (win when offered, else pass, else the last legal discard) and collect
    every message until ``hands`` hands ended."""
    seen: list[dict[str, Any]] = []
    done = 0
    for _ in range(limit):
        m = ws.receive_json()
        seen.append(m)
        if m["type"] == "prompt":
            legal = m["legal"]
            a = choose(m) if choose else None
            a = (
                a
                or next((x for x in legal if x["type"] == "win"), None)
                or next((x for x in legal if x["type"] == "pass"), None)
                or legal[-1]
            )
            ws.send_json({"type": "action", "seq": m["seq"], "action": a})
        elif m["type"] == "hand_end":
            done += 1
            if done >= hands:
                break
    return seen


def establish(db_url: str, accounts: list[int]) -> None:
    """Give players the finished public-table hands after which their games count for ratings
    (majiang.hall.ratings.ESTABLISHED_HANDS), as the hall records them (hands and player_hands rows)."""
    from majiang.hall.ratings import ESTABLISHED_HANDS
    from majiang.store import Database
    from majiang.store.models import HandRow, PlayerHand

    db = Database(db_url)
    try:
        with db.session() as s:
            for n in range(ESTABLISHED_HANDS):
                row = HandRow(table_id="warm-up", room="warm-up", hand_no=n, rules="gb", seed_hash="0" * 64, players=[])
                s.add(row)
                s.flush()
                for seat, a in enumerate(accounts):
                    s.add(PlayerHand(hand_id=row.id, account_id=a, seat=seat % 4, score=0, coins=0))
    finally:
        db.dispose()
