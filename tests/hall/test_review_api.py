"""``GET /api/hands/{id}/review?seat=N``: a finished hand's review, for the seat's own player only."""

from __future__ import annotations

from typing import Any

import pytest

from hall_helpers import make_client, play_until, register


@pytest.fixture
def client(tmp_path: Any) -> Any:
    with make_client(tmp_path) as c:
        yield c


def _play_one(client: Any, name: str) -> tuple[str, int, int]:
    tok = register(client, name)
    with client.websocket_connect(f"/ws?token={tok}") as ws:
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "quick_join", "room": "t"})
        seen = play_until(ws, hands=1)
    hand_id = next(m for m in seen if m["type"] == "hand_end")["hand"]
    me = client.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).json()["id"]
    players = client.get(f"/api/hands/{hand_id}", headers={"Authorization": f"Bearer {tok}"}).json()["players"]
    return tok, hand_id, players.index(me)


def test_review_of_own_seat_only(client: Any) -> None:
    tok, hand_id, seat = _play_one(client, "alice")
    auth = {"Authorization": f"Bearer {tok}"}
    r = client.get(f"/api/hands/{hand_id}/review?seat={seat}", headers=auth)
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["hand"] == hand_id and d["seat"] == seat and d["decisions"]
    assert d["summary"]["decisions"] == len(d["decisions"])
    n = len(client.get(f"/api/hands/{hand_id}").json()["events"])
    assert all(0 < x["event"] < n for x in d["decisions"])
    again = client.get(f"/api/hands/{hand_id}/review?seat={seat}", headers=auth)
    assert again.json() == d and client.app.state.hall.heavy.computed == 1  # the second answer is cached
    other = (seat + 1) % 4
    assert client.get(f"/api/hands/{hand_id}/review?seat={other}", headers=auth).status_code == 403
    assert client.get(f"/api/hands/{hand_id}/review?seat={seat}").status_code == 401
    assert client.get(f"/api/hands/{hand_id + 999}/review?seat={seat}", headers=auth).status_code == 404
    assert client.get(f"/api/hands/{hand_id}/review?seat=4", headers=auth).status_code == 422
    # another player may not read alice's seat either
    bob = {"Authorization": f"Bearer {register(client, 'bob')}"}
    assert client.get(f"/api/hands/{hand_id}/review?seat={seat}", headers=bob).status_code == 403
