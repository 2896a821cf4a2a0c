"""Friends (docs/web-client.md "Friends"): requests, accept, the list with presence, remove, block, invites to
a private table — over HTTP and the WebSocket."""

from __future__ import annotations

from typing import Any

from hall_helpers import make_client, register


def _me(c: Any, tok: str) -> int:
    return int(c.get("/api/me", headers={"Authorization": f"Bearer {tok}"}).json()["id"])


def test_request_accept_presence_invite_remove_block(tmp_path: Any) -> None:
    """Was: no friends list, presence or invites."""
    with make_client(tmp_path) as c:
        a, b, x = register(c, "alice"), register(c, "bobby"), register(c, "xavier")
        A, B = {"Authorization": f"Bearer {a}"}, {"Authorization": f"Bearer {b}"}
        ida, idb = _me(c, a), _me(c, b)
        assert c.post("/api/friends", json={"username": "nobody"}, headers=A).status_code == 404
        assert c.post("/api/friends", json={"username": "alice"}, headers=A).status_code == 404  # not oneself
        with c.websocket_connect(f"/ws?token={b}") as wb:
            wb.receive_json()
            assert c.post("/api/friends", json={"username": "Bobby"}, headers=A).json()["state"] == "pending"
            got = wb.receive_json()
            assert got["type"] == "friend_request" and got["account"] == ida
            assert c.get("/api/friends", headers=B).json()["incoming"] == [{"account": ida, "name": "alice"}]
            assert c.post(f"/api/friends/{ida}/accept", headers=B).status_code == 200
            lst = c.get("/api/friends", headers=A).json()
            assert [f["name"] for f in lst["friends"]] == ["bobby"] and lst["friends"][0]["online"]
            # an invite needs a private table to sit at
            assert c.post(f"/api/friends/{idb}/invite", headers=A).status_code == 409
            with c.websocket_connect(f"/ws?token={a}") as wa:
                wa.receive_json()
                wa.send_json({"type": "create", "room": "t", "private": True})
                code = next(m for m in iter(wa.receive_json, None) if m["type"] == "table")["code"]
                r = c.post(f"/api/friends/{idb}/invite", headers=A)
                assert r.status_code == 200, r.text
                inv = next(m for m in iter(wb.receive_json, None) if m["type"] == "invite")
                assert inv["code"] == code and inv["from"] == "alice"
                wb.send_json({"type": "join", "code": inv["code"]})
                assert next(m for m in iter(wb.receive_json, None) if m["type"] == "table")["table"]["private"]
                wa.send_json({"type": "stand"})
        # a stranger cannot be invited; a removed friend neither
        assert c.post(f"/api/friends/{_me(c, x)}/invite", headers=A).status_code == 403
        assert c.delete(f"/api/friends/{ida}", headers=B).status_code == 200
        assert c.get("/api/friends", headers=A).json()["friends"] == []
        # a block: no more requests from the blocked
        assert c.post(f"/api/friends/{ida}/block", headers=B).status_code == 200
        r = c.post("/api/friends", json={"username": "bobby"}, headers=A)
        assert r.status_code == 409 and "does not take requests" in r.json()["detail"]
        guest = c.post("/api/guest").json()["token"]
        r = c.post("/api/friends", json={"username": "alice"}, headers={"Authorization": f"Bearer {guest}"})
        assert r.status_code == 403  # a guest is a throw-away account: no friends
