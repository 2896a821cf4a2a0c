"""The end-to-end demo: its JSON shape and its consistency, and the model's round trip through dicts."""

import json
from collections import defaultdict
from fractions import Fraction

import pytest

from majiang.tournament import (
    Event,
    HandRecord,
    ModelError,
    Player,
    Team,
    build_demo,
    evaluate_event,
    run_demo,
)


def check_demo(d: dict, players: int, sessions: int, teams: int, scheme: str) -> None:
    assert set(d) == {"sessions", "standings", "teams", "repeat_meetings"}
    assert len(d["sessions"]) == sessions
    sums: dict[str, float] = defaultdict(float)
    matches: dict[str, int] = defaultdict(int)
    for s in d["sessions"]:
        assert set(s) == {"tables"} and len(s["tables"]) == players // 4
        seated = [p for t in s["tables"] for p in t["players"]]
        assert sorted(seated) == sorted({p for p in seated}) and len(seated) == players
        for t in s["tables"]:
            assert set(t) == {"players", "session_scores", "standard_scores"}
            assert len(t["players"]) == len(t["session_scores"]) == len(t["standard_scores"]) == 4
            assert all(isinstance(x, int) for x in t["session_scores"])
            assert all(isinstance(x, int | float) for x in t["standard_scores"])
            # hand scores are zero-sum; only deductions (none here besides false-win transfers) leave the table
            assert sum(t["session_scores"]) == 2000
            if scheme == "4210":
                assert sum(t["standard_scores"]) == pytest.approx(7)
            for p, sc, std in zip(t["players"], t["session_scores"], t["standard_scores"], strict=True):
                sums[p] += std
                matches[p] += sc
        if scheme == "1998":
            total = sum(x for t in s["tables"] for x in t["standard_scores"])
            assert total == pytest.approx(players + sum(range(players - 1)))  # N, then N−2 … 0
    st = d["standings"]
    assert len(st) == players
    for row in st:
        assert set(row) == {"player", "team", "standard_total", "match_total", "rank"}
        assert row["standard_total"] == pytest.approx(sums[row["player"]])
        assert row["match_total"] == matches[row["player"]]
    ranks = [r["rank"] for r in st]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    keys = [(r["standard_total"], r["match_total"]) for r in st]
    assert keys == sorted(keys, reverse=True)
    if teams:
        assert len(d["teams"]) == teams
        by_team: dict[str, float] = defaultdict(float)
        for r in st:
            by_team[r["team"]] += r["standard_total"]
        for t in d["teams"]:
            assert set(t) == {"team", "standard_total", "rank"}
            assert t["standard_total"] == pytest.approx(by_team[t["team"]])
        tr = [t["rank"] for t in d["teams"]]
        assert tr == sorted(tr) and tr[0] == 1
    else:
        assert d["teams"] == [] and all(r["team"] is None for r in st)
    json.dumps(d)


def test_demo_16_players_4_teams_1998(hand_generator):
    d = run_demo(players=16, teams=4, sessions=4, seed=1, scheme="1998", play_session=hand_generator)
    check_demo(d, 16, 4, 4, "1998")
    assert d["repeat_meetings"] == 0
    assert d == run_demo(players=16, teams=4, sessions=4, seed=1, scheme="1998", play_session=hand_generator)


def test_demo_28_players_7_teams_4210(hand_generator):
    d = run_demo(players=28, teams=7, sessions=6, seed=2, scheme="4210", play_session=hand_generator)
    check_demo(d, 28, 6, 7, "4210")
    assert d["repeat_meetings"] == 0


def test_demo_individuals_and_a_searched_schedule(hand_generator):
    d = run_demo(players=16, teams=0, sessions=5, seed=3, scheme="1998", play_session=hand_generator)
    check_demo(d, 16, 5, 0, "1998")
    assert d["repeat_meetings"] == 0
    d = run_demo(players=24, teams=6, sessions=3, seed=4, scheme="4210", play_session=hand_generator)
    check_demo(d, 24, 3, 6, "4210")


def test_demo_callback_sees_seats_and_may_return_dicts():
    seen = []

    def draws(seating):
        seen.append(seating)
        assert seating.dealer(1) == 0 and seating.seat_winds(5)[seating.dealer(5)] == 0
        return [{"no": n, "winner": None, "discarder": None} for n in range(1, 13)]  # time called after 12

    event, result, _plan = build_demo(16, 4, 2, 5, "1998", play_session=draws)
    assert len(seen) == 8 and {s.session for s in seen} == {1, 2}
    table = event.groups[0].sessions[0].tables[0]
    assert table.time_called and len(table.hands) == 12
    assert all(s.standard_total == sum(s.session_standards) for s in result.standings)
    # every session a draw: all 16 tie and share the average of 16, 14 … 0 (121 / 16)
    assert {s.standard_total for s in result.standings} == {Fraction(2 * 121, 16)}
    assert [s.rank for s in result.standings] == [1] * 16


def test_model_round_trip(hand_generator):
    event, _, _ = build_demo(16, 4, 2, 9, "1998", play_session=hand_generator)
    d = event.to_dict()
    again = Event.from_dict(json.loads(json.dumps(d, ensure_ascii=False)))
    assert again == event and again.to_dict() == d
    assert evaluate_event(again)["A"] == evaluate_event(event)["A"]


def test_model_checks():
    with pytest.raises(ModelError, match="at most 4 players"):
        Team(id="T", players=("a", "b", "c", "d", "e"))
    h = HandRecord(no=2, winner=1, discarder=3, fans=("清一色", "平和"), flowers=2)
    assert h.hand_name == "清一色" and h.fan_total == 28 and HandRecord.from_dict(h.to_dict()) == h
    assert Player.from_dict(Player("x", "X", ranked=False).to_dict()).ranked is False
