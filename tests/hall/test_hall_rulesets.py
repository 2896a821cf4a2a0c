"""What the hall tells the web client about its rulesets, and /api/fan choosing the calculator by them."""

from hall_helpers import make_client


def test_api_rulesets_and_the_fan_calculator(tmp_path):
    with make_client(tmp_path) as client:
        rs = client.get("/api/rulesets").json()
        assert [r["name"] for r in rs] == ["gb", "botzone", "nanchang"]
        assert {r["name"]: (r["tiles"], r["dead_wall"], r["form"]) for r in rs} == {
            "gb": (144, 0, "mcr"),
            "botzone": (136, 0, "mcr"),
            "nanchang": (136, 34, "nanchang"),
        }
        hand = {
            "melds": [],
            "hand": ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "5p", "6p", "7p", "8p", "9p", "9p"],
            "win_tile": "9p",
        }
        r = client.post("/api/fan", json=hand)
        assert r.status_code == 200 and any(f["name"] == "Full Flush" for f in r.json()["fans"])
        r = client.post("/api/fan", json={**hand, "rules": "nanchang"})  # not a Nanchang table: its reason
        assert r.status_code == 422
