"""POST /api/shanten: the shanten query with 合法听 (the waits' fans, the legal waits) over HTTP."""

from typing import Any

from hall_helpers import make_client


def test_shanten_endpoint_passes_the_fan_options(tmp_path: Any) -> None:
    with make_client(tmp_path) as c:
        r = c.post("/api/shanten", json={"hand": "23m123p456p789s11s", "seat_wind": "S", "min_fan": 8})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["legal_waits"] == ["1m"] and body["wait_fans"][1] == {"tile": "4m", "discard": 5, "self_drawn": 7}
        assert c.post("/api/shanten", json={"hand": "23m123p456p789s11s", "min_fan": 14}).json()["legal_waits"] == []
        bad = c.post("/api/shanten", json={"hand": "23m123p456p789s11s", "seat_wind": "X"})
        assert bad.status_code == 422 and "seat_wind" in bad.json()["detail"]
