"""The competition pages (majiang.tournament.adapters.web.router) on a tiny app, and inside the hall's app."""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from majiang.store import Database
from majiang.tournament import build_demo
from majiang.tournament.adapters.repository import TournamentRepository
from majiang.tournament.adapters.web import get_db, router


@pytest.fixture
def stored(tmp_path, hand_generator):
    db = Database(f"sqlite:///{tmp_path}/web.db")
    db.migrate()
    event, _, _ = build_demo(16, 4, 2, 3, "1998", play_session=hand_generator)
    TournamentRepository(db).save(event)
    yield db, event
    db.dispose()


def test_pages_with_an_overridden_database(stored):
    db, event = stored
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_db] = lambda: db
    c = TestClient(app)
    r = c.get("/tournaments")
    assert r.status_code == 200 and f'href="/tournaments/{event.id}"' in r.text
    assert c.get("/api/tournaments").json()[0]["id"] == event.id
    r = c.get(f"/tournaments/{event.id}")
    assert r.status_code == 200 and 'http-equiv="refresh"' in r.text
    assert "个人名次" in r.text and "团体名次" in r.text and "Std total" in r.text
    standings = c.get(f"/api/tournaments/{event.id}/standings").json()
    top = standings["groups"][0]["standings"][0]
    assert top["rank"] == 1 and top["player"] in r.text and len(standings["groups"][0]["standings"]) == 16
    r = c.get(f"/tournaments/{event.id}/sheet/2/3")
    assert r.status_code == 200 and "比赛成绩记录表" in r.text
    r = c.get(f"/tournaments/{event.id}/sheet/2/3.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf" and r.content.startswith(b"%PDF")
    r = c.get(f"/tournaments/{event.id}/plot.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg") and b"<svg" in r.content
    r = c.get(f"/tournaments/{event.id}/standings.csv")
    assert r.status_code == 200 and r.text.startswith("rank,player")
    assert c.get("/tournaments/nope").status_code == 404
    assert c.get("/api/tournaments/nope/standings").status_code == 404
    assert c.get(f"/tournaments/{event.id}/sheet/3/1").status_code == 404
    assert c.get(f"/tournaments/{event.id}/sheet/1/9.pdf").status_code == 404


def test_without_a_database_the_pages_say_so():
    app = FastAPI()
    app.include_router(router)
    assert TestClient(app).get("/tournaments").status_code == 503


def test_inside_the_hall_app(tmp_path, hand_generator):
    from majiang.cli.serve_cmd import tournament_features
    from majiang.hall.app import create_app
    from majiang.hall.rooms import Room

    app = create_app(
        f"sqlite:///{tmp_path}/hall.db", [Room(id="t", name="t")], bot_delay=(0, 0), **tournament_features()
    )
    app.include_router(router)
    with TestClient(app) as c:  # the lifespan migrates the hall's database and sets app.state.hall
        event, _, _ = build_demo(8, 0, 1, 2, "4210", play_session=hand_generator)
        TournamentRepository(app.state.hall.db).save(event)
        r = c.get(f"/tournaments/{event.id}")
        assert r.status_code == 200 and "P01" in r.text
        assert c.get("/tournaments").status_code == 200
        assert c.get(f"/api/tournaments/{event.id}/standings").json()["scheme"] == "4210"


def test_the_entries_log_and_undo_need_the_organiser_token(tmp_path):
    from majiang.tournament import Penalty, PenaltyCode
    from majiang.tournament.draw import draw_session
    from majiang.tournament.organiser import issue_token
    from majiang.tournament.registration import build_group, count_entries, new_event

    db = Database(f"sqlite:///{tmp_path}/undo.db")
    db.migrate()
    repo = TournamentRepository(db)
    token, extra = issue_token()
    event = new_event("cup", "Cup", build_group(count_entries(16), 0), sessions=2, seed=5)
    repo.create(event)
    repo.set_extra("cup", **extra)
    repo.put_session("cup", "A", draw_session(repo.load("cup"), "A", 1))
    late = Penalty(1, PenaltyCode.LATE, 10)
    repo.add_table_penalty("cup", 1, 2, late)
    repo.add_table_penalty("cup", 1, 2, late)
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_db] = lambda: db
    c = TestClient(app)
    auth = {"Authorization": f"Bearer {token}"}
    assert c.get("/api/tournaments/cup/entries").status_code == 401
    assert c.post("/tournaments/cup/sessions/1/tables/2/undo", headers={"Authorization": "Bearer x"}).status_code == 403
    log = c.get("/api/tournaments/cup/entries?session=1&table=2", headers=auth).json()
    assert [e["summary"] for e in log] == ["penalty S late -10"] * 2
    r = c.post("/tournaments/cup/sessions/1/tables/2/undo", headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["undone"]["id"] == log[1]["id"] and r.json()["table"]["penalties"] == [late.to_dict()]
    assert r.json()["undone"]["by"] == "referee"
    assert c.post(f"/tournaments/cup/entries/{log[1]['id']}/undo", headers=auth).status_code == 409
    assert c.post("/tournaments/cup/entries/999/undo", headers=auth).status_code == 404
    assert c.post(f"/tournaments/cup/entries/{log[0]['id']}/undo", headers=auth).json()["table"]["penalties"] == []
    assert c.post("/tournaments/cup/sessions/1/tables/2/undo", headers=auth).status_code == 409
    log = c.get("/api/tournaments/cup/entries", headers=auth).json()
    assert [e["by"] for e in log if e["kind"] == "undo"] == ["web:organiser"] * 2
    db.dispose()


def _pinned_event(tmp_path, scheme="1998"):
    from majiang.tournament.draw import draw_session
    from majiang.tournament.organiser import issue_token, new_entry_secret
    from majiang.tournament.registration import build_group, count_entries, new_event

    db = Database(f"sqlite:///{tmp_path}/pins.db")
    db.migrate()
    repo = TournamentRepository(db)
    token, extra = issue_token()
    repo.create(new_event("cup", "Cup", build_group(count_entries(16), 0), sessions=2, seed=5, scheme=scheme))
    repo.set_extra("cup", **extra, **new_entry_secret())
    repo.put_session("cup", "A", draw_session(repo.load("cup"), "A", 1))
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_db] = lambda: db
    return db, repo, token, TestClient(app)


def _seat_headers(repo, session: int, table: int) -> list[dict[str, str]]:
    """Each seat's phone: its own PIN (as printed, with the space) and a device id."""
    from majiang.tournament.organiser import seat_pin, spaced

    extra = repo.load("cup").extra
    return [{"X-Table-Pin": spaced(seat_pin(extra, session, table, s)), "X-Device": f"phone-{s}"} for s in range(4)]


def test_a_hand_from_the_phones_waits_for_the_other_three_seats(tmp_path):
    db, repo, token, c = _pinned_event(tmp_path)
    seat_h = _seat_headers(repo, 1, 2)
    h = seat_h[0]
    api = "/api/tournaments/cup/t/1/2"
    assert c.get(api).status_code == 401
    assert c.get(api, headers=_seat_headers(repo, 1, 3)[0]).status_code == 403
    assert c.get("/api/tournaments/cup/t/1/9", headers=h).status_code == 404
    state = c.get(api, headers=h).json()
    assert state["hands"] == 0 and [p["wind"] for p in state["players"]] == list("ESWN") and not state["referee"]
    assert state["you"] == 0 and c.get(api, headers=seat_h[2]).json()["you"] == 2
    hand = {"winner": 0, "discarder": 2, "points": 8, "flowers": 1}
    state = c.post(f"{api}/propose", json={"seat": 0, "hand": hand}, headers=h).json()
    p = state["pending"]
    assert p["confirmed"] == [0] and state["hands"] == 0
    assert c.post(f"{api}/propose", json={"seat": 1, "hand": hand}, headers=seat_h[1]).status_code == 409
    for seat in (1, 2):
        state = c.post(f"{api}/confirm", json={"seat": seat, "id": p["id"]}, headers=seat_h[seat]).json()
        assert state["hands"] == 0
    state = c.post(f"{api}/confirm", json={"seat": 3, "id": p["id"]}, headers=seat_h[3]).json()
    assert state["hands"] == 1 and state["pending"] is None and state["scores"][0] == 500 + (8 + 9) + 8 + 8
    log = repo.entries("cup", 1, 2)
    assert log[0]["by"].startswith("web:table 1-2 E@") and " W@" in log[0]["by"]
    assert repo.table("cup", 1, 2).hands[0].flowers == 1
    # a rejected entry is dropped; a false win below 8 fan is recorded as such (the CLI's rules)
    p = c.post(f"{api}/propose", json={"seat": 1, "hand": {"winner": 1, "points": 5}}, headers=seat_h[1]).json()[
        "pending"
    ]
    assert c.post(f"{api}/reject", json={"seat": 2, "id": p["id"]}, headers=seat_h[2]).json()["pending"] is None
    assert c.post(f"{api}/confirm", json={"seat": 2, "id": p["id"]}, headers=seat_h[2]).status_code == 409
    # the referee (organiser token) records at once: an exhaustive draw with a false win by North
    ref = {"Authorization": f"Bearer {token}"}
    state = c.post(f"{api}/propose", json={"seat": 0, "hand": {"winner": None, "false_wins": [3]}}, headers=ref).json()
    assert state["hands"] == 2 and repo.table("cup", 1, 2).hands[1].penalties[0].code.value == "false_win"
    assert repo.entries("cup", 1, 2)[-1]["by"] == "web:referee"
    # penalties in a hand, and a table penalty, from the referee; a wrong code is refused with the list
    state = c.post(
        f"{api}/propose",
        json={"seat": 0, "hand": {"winner": None, "penalties": [{"seat": 1, "code": "warning"}]}},
        headers=ref,
    ).json()
    assert state["hands"] == 3 and repo.table("cup", 1, 2).hands[2].penalties[0].code.value == "warning"
    state = c.post(
        f"{api}/propose", json={"seat": 0, "penalty": {"seat": 2, "code": "late", "points": 10}}, headers=ref
    ).json()
    assert repo.table("cup", 1, 2).penalties[0].points == 10
    r = c.post(f"{api}/propose", json={"seat": 0, "penalty": {"seat": 2, "code": "nap"}}, headers=ref)
    assert r.status_code == 409 and "misconduct" in r.json()["detail"]
    state = c.post(
        f"{api}/propose", json={"seat": 0, "hand": {"winner": 3, "discarder": 0, "fans": ["清一色"]}}, headers=ref
    ).json()
    assert state["hands"] == 4 and repo.table("cup", 1, 2).hands[3].fans == ("清一色",)
    r = c.post(f"{api}/propose", json={"seat": 0, "hand": {"winner": 3, "fans": ["nonsense"]}}, headers=ref)
    assert r.status_code == 409 and "nonsense" in r.json()["detail"]
    both = {"seat": 0, "totals": [0, 0, 0, 0], "hand": hand}
    assert c.post(f"{api}/propose", json=both, headers=h).status_code == 422
    # time called: the repository refuses a later hand, and the phones are told why
    repo.set_time_called("cup", 1, 2)
    p = c.post(f"{api}/propose", json={"seat": 0, "hand": hand}, headers=h).json()["pending"]
    for seat in (1, 2):
        c.post(f"{api}/confirm", json={"seat": seat, "id": p["id"]}, headers=seat_h[seat])
    r = c.post(f"{api}/confirm", json={"seat": 3, "id": p["id"]}, headers=seat_h[3])
    assert r.status_code == 409 and "time was called" in r.json()["detail"]
    # totals on another table
    h3 = _seat_headers(repo, 1, 3)[1]
    state = c.post(
        "/api/tournaments/cup/t/1/3/propose", json={"seat": 0, "totals": [10, -10, 0, 0]}, headers=ref
    ).json()
    assert state["totals"] == [10, -10, 0, 0] and c.get("/api/tournaments/cup/t/1/3", headers=h3).status_code == 200
    page = c.get("/tournaments/cup/t/1/2")
    assert page.status_code == 200 and 'data-table="cup|1|2"' in page.text
    assert "X-Table-Pin" in c.get("/tournaments/assets/table-entry.js").text
    qr = c.get("/tournaments/cup/t/1/2/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml" and "<svg" in qr.text
    db.dispose()


def test_one_phone_cannot_confirm_for_the_other_seats(tmp_path):
    """Was: the confirm step took the seat from the request and the PIN was one per table, printed on
    the public table card: one client proposed an 88-fan self-draw as East and confirmed it as S, W
    and N; it was recorded, and the log said only 'web:table 1-2'."""
    db, repo, _token, c = _pinned_event(tmp_path)
    east = _seat_headers(repo, 1, 2)[0]
    api = "/api/tournaments/cup/t/1/2"
    p = c.post(f"{api}/propose", json={"seat": 0, "hand": {"winner": 0, "points": 88}}, headers=east).json()["pending"]
    for seat in (1, 2, 3):
        r = c.post(f"{api}/confirm", json={"seat": seat, "id": p["id"]}, headers=east)
        assert r.status_code == 403 and "own phone" in r.json()["detail"]
    assert (
        c.post(f"{api}/propose", json={"seat": 1, "hand": {"winner": 1, "points": 8}}, headers=east).status_code == 403
    )
    assert c.get(api, headers=east).json()["pending"]["confirmed"] == [0] and repo.table("cup", 1, 2).hands == ()
    assert [t["device"] for t in c.get(api, headers=east).json()["pending"]["trail"]] == [p["trail"][0]["device"]]
    db.dispose()


def test_wrong_pins_are_limited_per_network_and_per_table(tmp_path):
    """Was: 1,319 wrong 6-digit PINs in 46 s from one client, none refused, the right PIN still worked
    afterwards; a guess could be tried against every table of a session."""
    from majiang.tournament.adapters.table_entry import PIN_FAILS_PER_NETWORK, PIN_FAILS_PER_TABLE

    db, repo, _token, c = _pinned_event(tmp_path)
    right = _seat_headers(repo, 1, 2)[0]
    codes = [
        c.get(f"/api/tournaments/cup/t/1/{1 + i % 4}", headers={"X-Table-Pin": f"{i:08d}"}).status_code
        for i in range(PIN_FAILS_PER_NETWORK + 5)
    ]
    assert codes[:PIN_FAILS_PER_NETWORK] == [403] * PIN_FAILS_PER_NETWORK and set(codes[PIN_FAILS_PER_NETWORK:]) == {
        429
    }
    r = c.get("/api/tournaments/cup/t/1/2", headers=right)  # the right PIN too, while the limit is spent
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    # from many networks at one table: the table's own limit
    from fastapi.testclient import TestClient

    codes = []
    for n in range(PIN_FAILS_PER_TABLE + 3):
        with TestClient(c.app, client=(f"10.{n}.0.1", 5000)) as other:
            codes.append(other.get("/api/tournaments/cup/t/1/3", headers={"X-Table-Pin": "00000000"}).status_code)
    assert codes.count(403) <= PIN_FAILS_PER_TABLE and codes[-1] == 429
    with TestClient(c.app, client=("192.0.2.9", 5000)) as fresh:  # another table is not locked by it
        assert fresh.get("/api/tournaments/cup/t/1/2", headers=right).status_code == 200
    db.dispose()


def test_the_clock_api_and_the_projector_page(tmp_path):
    db, repo, token, c = _pinned_event(tmp_path)
    assert c.get("/api/tournaments/cup/clock").json()["phase"] == "not started"
    assert c.post("/tournaments/cup/sessions/1/clock", json={"minutes": 60, "warn": 5}).status_code == 401
    state = c.post(
        "/tournaments/cup/sessions/1/clock",
        json={"minutes": 60, "warn": 5},
        headers={"Authorization": f"Bearer {token}"},
    ).json()
    assert state["phase"] == "running" and state["minutes"] == 60 and state["called"] == []
    assert c.post("/tournaments/cup/sessions/5/clock", headers={"Authorization": f"Bearer {token}"}).status_code == 409
    repo.set_time_called("cup", 1, 4)
    assert c.get("/api/tournaments/cup/clock?session=1").json()["called"] == [4]
    assert c.get("/api/tournaments/nope/clock").status_code == 404
    page = c.get("/tournaments/cup/projector?every=5")
    assert page.status_code == 200 and 'data-every="5"' in page.text and 'id="clock"' in page.text
    assert "time called" in c.get("/tournaments/assets/projector.js").text.lower()
    db.dispose()


def test_the_phone_page_knows_the_hands_dealer_and_winds(tmp_path):
    """Was: the phone page labelled players by their first-round winds for all 16 hands and never showed
    the current dealer (from hand 9 the seats have moved)."""
    from majiang.tournament.seating import dealer, seat_winds

    db, _repo, token, c = _pinned_event(tmp_path)
    api, ref = "/api/tournaments/cup/t/1/2", {"Authorization": f"Bearer {token}"}
    state = c.get(api, headers=ref).json()
    assert state["next_hand"] == {"no": 1, "dealer": 0, "winds": [0, 1, 2, 3], "prevalent": 0}
    for _ in range(8):  # eight draws, entered by the referee
        state = c.post(f"{api}/propose", json={"seat": 0, "hand": {"winner": None}}, headers=ref).json()
    nh = state["next_hand"]
    assert nh["no"] == 9 and nh["dealer"] == dealer(9) and nh["winds"] == list(seat_winds(9)) and nh["prevalent"] == 2
    assert nh["winds"] != [0, 1, 2, 3]  # the seats have moved since the first round
    js = c.get("/tournaments/assets/table-entry.js").text
    assert "pays 30" in js and "−10 each" not in js
    db.dispose()


def test_the_phones_fan_search_and_the_fan_total_checked_by_the_server(tmp_path):
    """Was: no fan list for the phones; a total sent with fan names was ignored (the names won
    silently) and an unknown fan name was refused only at the fourth confirmation."""
    db, repo, _token, c = _pinned_event(tmp_path)
    fans = c.get("/api/tournaments/cup/fans").json()
    assert fans["min_fan"] == 8 and len(fans["fans"]) == 81
    qys = next(f for f in fans["fans"] if f["zh"] == "清一色")
    assert qys == {
        "no": 22,
        "zh": "清一色",
        "pinyin": "qingyise",
        "initials": "qys",
        "en": "Full Flush",
        "points": 24,
        "flowers": False,
    }
    assert c.get("/api/tournaments/cup/fans?q=qys").json()["fans"][0]["zh"] == "清一色"
    assert [f["zh"] for f in c.get("/api/tournaments/cup/fans?q=Full Flush").json()["fans"]] == ["清一色"]
    assert c.get("/api/tournaments/cup/fans?q=ph").json()["fans"][0]["zh"] == "平和"  # 和 read hú
    assert c.get("/api/tournaments/nope/fans").status_code == 404
    seat_h, api = _seat_headers(repo, 1, 2), "/api/tournaments/cup/t/1/2"
    assert c.get(api, headers=seat_h[0]).json()["min_fan"] == 8

    def propose(hand):
        body = {"seat": 0, "hand": {"winner": 0, "discarder": 2, **hand}}
        return c.post(f"{api}/propose", json=body, headers=seat_h[0])

    r = propose({"fans": ["清一色", "平和"], "points": 20})
    assert r.status_code == 409 and "(26)" in r.json()["detail"]
    r = propose({"fans": ["清一色", "nonsense"], "points": 24})
    assert r.status_code == 409 and "nonsense" in r.json()["detail"]
    r = propose({"fans": ["清一色", "花牌"]})
    assert r.status_code == 409 and "flowers" in r.json()["detail"]
    assert c.get(api, headers=seat_h[0]).json()["pending"] is None
    p = propose({"fans": ["Full Flush", "幺九刻", "幺九刻"], "points": 26, "flowers": 1}).json()["pending"]
    assert p["hand"]["fans"] == ["清一色", "幺九刻", "幺九刻"] and p["hand"]["points"] == 26
    for seat in (1, 2, 3):
        state = c.post(f"{api}/confirm", json={"seat": seat, "id": p["id"]}, headers=seat_h[seat]).json()
    hand = repo.table("cup", 1, 2).hands[0]
    assert hand.fans == ("清一色", "幺九刻", "幺九刻") and hand.fan_total == 27
    assert state["scores"][0] == 500 + 27 + 8 * 3
    db.dispose()


def test_the_referee_calls_time_and_the_phones_finish_the_hand_in_play_only(tmp_path):
    """Was: the phones showed no clock, the referee had no time call on the web, and a session-wide time
    call refused the hand in play at every table (第六条: it is finished; no new hand starts)."""
    db, repo, token, c = _pinned_event(tmp_path)
    ref, seat_h, api = {"Authorization": f"Bearer {token}"}, _seat_headers(repo, 1, 2), "/api/tournaments/cup/t/1/2"
    state = c.get(api, headers=seat_h[0]).json()
    assert state["clock"]["phase"] == "not started" and state["time_call"] is None
    c.post("/tournaments/cup/sessions/1/clock", json={"minutes": 60, "warn": 5}, headers=ref)
    clock = c.get(api, headers=seat_h[1]).json()["clock"]
    assert clock["phase"] == "running" and 3590 <= clock["remaining_s"] <= 3600 and clock["warn"] == 5
    for _ in range(2):  # two hands at table 2 before the call, none at table 3; table 1 entered as totals
        c.post(f"{api}/propose", json={"seat": 0, "hand": {"winner": None}}, headers=ref)
    c.post("/api/tournaments/cup/t/1/1/propose", json={"seat": 0, "totals": [10, -10, 0, 0]}, headers=ref)
    assert c.post("/tournaments/cup/sessions/1/time").status_code == 401
    assert c.post("/tournaments/cup/sessions/1/time", headers=seat_h[0]).status_code == 401
    called = c.post("/tournaments/cup/sessions/1/time", headers=ref).json()
    assert called["just_called"] == [2, 3, 4] and called["called"] == [2, 3, 4]
    assert called["time_call"]["in_play"] == {"2": 3, "3": 1, "4": 1} and called["time_call"]["by"] == "web:referee"
    assert c.post("/tournaments/cup/sessions/1/time", headers=ref).json()["just_called"] == []
    assert c.post("/tournaments/cup/sessions/7/time", headers=ref).status_code == 409
    state = c.get(api, headers=seat_h[0]).json()
    assert state["time_called"] and state["time_call"]["hand_in_play"] == 3 and state["next_hand"]["no"] == 3
    # the hand in play is proposed and confirmed on the phones, and recorded
    p = c.post(f"{api}/propose", json={"seat": 0, "hand": {"winner": 0, "points": 8}}, headers=seat_h[0]).json()
    for seat in (1, 2, 3):
        state = c.post(f"{api}/confirm", json={"seat": seat, "id": p["pending"]["id"]}, headers=seat_h[seat]).json()
    assert state["hands"] == 3 and state["pending"] is None
    assert state["time_call"]["hand_in_play"] is None and state["next_hand"] is None
    r = c.post(f"{api}/propose", json={"seat": 0, "hand": {"winner": None}}, headers=ref)
    assert r.status_code == 409 and "time was called" in r.json()["detail"]
    assert [e["by"] for e in repo.entries("cup", 1) if e["kind"] == "time_call"] == ["web:referee"] * 3
    js = c.get("/tournaments/assets/table-entry.js").text
    assert "时间到 Time called" in js and "no new hand" in js
    db.dispose()


def test_a_duplicate_session_shows_in_public_only_when_every_table_is_done(tmp_path):
    """Was: the public standings, standings.csv, the plot and the projector showed running scores of a
    复式 session after every hand; the same seats at two tables read identical scores, so a table behind
    learned each wall's outcome."""
    from majiang.tournament.sealing import DUPLICATE_KEY

    db, repo, token, c = _pinned_event(tmp_path)
    repo.set_extra("cup", **{DUPLICATE_KEY: {"1": {"tables": []}}})
    ref = {"Authorization": f"Bearer {token}"}
    api = "/api/tournaments/cup/t/1/{}/propose"
    for _ in range(8):  # table 1 plays on, hand by hand
        c.post(api.format(1), json={"seat": 0, "hand": {"winner": 0, "discarder": 1, "points": 8}}, headers=ref)
    for t in (2, 3):
        c.post(api.format(t), json={"seat": 0, "totals": [30, -10, -10, -10]}, headers=ref)

    def public() -> tuple[dict, str, str]:
        return (
            c.get("/api/tournaments/cup/standings").json(),
            c.get("/tournaments/cup/standings.csv").text,
            c.get("/tournaments/cup/plot.svg").text,
        )

    standings, csv_text, plot = public()
    assert "s1_score" not in csv_text.splitlines()[0]
    assert all(row.get("standard_total", 0) in (0, "0") for row in standings["groups"][0]["standings"]), standings
    assert repo.full_result("cup").sessions  # the organiser still sees everything
    c.post(api.format(4), json={"seat": 0, "totals": [30, -10, -10, -10]}, headers=ref)
    for _ in range(8):
        c.post(api.format(1), json={"seat": 0, "hand": {"winner": 0, "discarder": 1, "points": 8}}, headers=ref)
    standings, csv_text, plot_done = public()
    assert plot_done != plot  # the session's points appear only now
    assert "s1_score" in csv_text.splitlines()[0]
    assert any(row["standard_total"] not in (0, "0") for row in standings["groups"][0]["standings"])
    db.dispose()


def test_a_page_per_player_with_his_tables_opponents_and_the_tie_break_that_ranked_him(tmp_path):
    """Was: no page per player; the standings only said which tie-break applied (under the rank), not
    against whom, and nothing listed a player's tables and opponents."""
    from majiang.tournament.draw import draw_session
    from majiang.tournament.sealing import DUPLICATE_KEY

    db, repo, token, c = _pinned_event(tmp_path, scheme="4210")
    ref = {"Authorization": f"Bearer {token}"}
    totals = {1: [30, -10, -10, -10], 2: [20, 0, -10, -10], 3: [10, -10, 0, 0], 4: [0, 0, 0, 0]}
    for t, tot in totals.items():
        c.post(f"/api/tournaments/cup/t/1/{t}/propose", json={"seat": 0, "totals": tot}, headers=ref)
    s1 = repo.load("cup").groups[0].sessions[0]
    e1, e2 = s1.tables[0].players[0], s1.tables[1].players[0]  # both 4 (first at their tables): 530 vs 520
    page = c.get("/tournaments/cup").text
    assert f'href="/tournaments/cup/players/{e1}"' in page and f'href="/tournaments/cup/players/{e2}"' in page
    card = c.get(f"/api/tournaments/cup/players/{e1}").json()
    assert card["rank"] == 1 and card["standard_total"] == 4 and card["match_total"] == 530
    assert card["tie_break"]["step"] == "match_total" and card["tie_break"]["against"] == e2
    assert not card["tie_break"]["above"]
    rows = {r["player"]: r for r in c.get("/api/tournaments/cup/standings").json()["groups"][0]["standings"]}
    assert rows[e1]["tie_break"] == card["tie_break"]["step"]
    (s,) = card["sessions"]
    assert s["session"] == 1 and s["state"] == "played" and s["table"] == 1 and s["wind"] == "东 E"
    assert s["score"] == 530 and s["place"] == 1 and s["standard"] == 4
    assert [(o["id"], o["score"]) for o in s["opponents"]] == [(p, 490) for p in s1.tables[0].players[1:]]
    assert c.get(f"/api/tournaments/cup/players/{e2}").json()["tie_break"]["above"]
    html = c.get(f"/tournaments/cup/players/{e1}").text
    assert "比赛成绩之和" in html and "higher Σ session scores" in html and 'href="/tournaments/cup"' in html
    assert all(f'href="{p}"' in html for p in s1.tables[0].players[1:])
    assert c.get("/api/tournaments/cup/players/nobody").status_code == 404
    assert c.get("/tournaments/nope/players/P01").status_code == 404
    # a 复式 session still playing: nothing of it on the page, until every table is finished
    repo.put_session("cup", "A", draw_session(repo.load("cup"), "A", 2))
    assert c.get(f"/api/tournaments/cup/players/{e1}").json()["sessions"][1]["state"] == "drawn"
    repo.set_extra("cup", **{DUPLICATE_KEY: {"2": {"tables": []}}})
    for t in (1, 2, 3):
        c.post(f"/api/tournaments/cup/t/2/{t}/propose", json={"seat": 0, "totals": [30, -10, -10, -10]}, headers=ref)
    card = c.get(f"/api/tournaments/cup/players/{e1}").json()
    assert [s["session"] for s in card["sessions"]] == [1] and card["standard_total"] == 4
    assert "第2局" not in c.get(f"/tournaments/cup/players/{e1}").text
    c.post("/api/tournaments/cup/t/2/4/propose", json={"seat": 0, "totals": [30, -10, -10, -10]}, headers=ref)
    card = c.get(f"/api/tournaments/cup/players/{e1}").json()
    assert [s["session"] for s in card["sessions"]] == [1, 2] and card["sessions"][1]["state"] == "played"
    db.dispose()
