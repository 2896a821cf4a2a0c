"""The engine bridge: tables played by bots on the real engine, and the demo's JSON under the 1998 rules."""

import itertools
import json
from collections import defaultdict
from fractions import Fraction

import pytest

from majiang.cli.tournament import main
from majiang.engine.session import Session
from majiang.mcr.payment import false_win_deltas, hand_deltas
from majiang.rulesets import make_ruleset
from majiang.tournament import TableSeating
from majiang.tournament import hand_deltas as tournament_deltas
from majiang.tournament.adapters.bridge import engine_demo, play_table, record_from_outcome, session_seed
from majiang.tournament.model import HandRecord
from majiang.tournament.penalties import PenaltyCode
from majiang.tournament.standard import values_1998

SEATING = TableSeating(session=2, table=3, players=("a", "b", "c", "d"), seed=12345)


def test_play_table_is_deterministic_and_in_table_terms():
    hands = play_table(SEATING)  # checks every hand's payments against the engine's deltas
    assert len(hands) == 16 and [h.no for h in hands] == list(range(1, 17))
    assert hands == play_table(SEATING)
    assert all(isinstance(h, HandRecord) for h in hands)


def test_engine_seat_changes_are_the_1998_rotation():
    """The engine moves players between chairs exactly as the tournament's ROTATION_1998: the same
    player deals each hand, and has the same seat wind."""
    session = Session(make_ruleset("gb"), session_seed(SEATING.seed))
    for n in range(1, 17):
        hand = session.new_hand()
        assert hand is not None
        dealer_player = session.player_at(session.dealer)
        assert dealer_player == SEATING.dealer(n)
        winds = [(session.seat_of[p] - session.dealer) % 4 for p in range(4)]
        assert tuple(winds) == SEATING.seat_winds(n)
        assert hand.prevalent == SEATING.prevalent_wind(n)
        while not hand.over:
            s = hand.prompted()[0]
            hand.act(s, hand.default_action(s))
        session.finish_hand(hand)


def test_record_from_outcome_maps_chairs_fans_flowers_and_false_wins():
    win = {
        "seat": 2,
        "from": 0,
        "points": 29,
        "fans": [
            {"name": "Full Flush", "zh": "清一色", "points": 24, "count": 1},
            {"name": "All Simples", "zh": "断幺", "points": 2, "count": 1},
            {"name": "Flower Tiles", "zh": "花牌", "points": 1, "count": 3},
        ],
    }
    chairs = (1, 0, 3, 2)  # chair → table player (the East round's swap)
    rec = record_from_outcome(5, win, [(1, "wrong"), (3, "short")], chairs)
    assert (rec.no, rec.winner, rec.discarder) == (5, 3, 1)
    assert rec.fans == ("清一色", "断幺") and rec.flowers == 3 and rec.fan_total == 29
    assert [(p.seat, p.code) for p in rec.penalties] == [(0, PenaltyCode.FALSE_WIN), (2, PenaltyCode.DECEPTIVE_WIN)]
    engine = [0, 0, 0, 0]  # what the engine pays, per chair, mapped to players
    for chair, d in enumerate(hand_deltas(2, 0, 29)):
        engine[chairs[chair]] += d
    for chair, kind in ((1, "wrong"), (3, "short")):
        for c2, d in enumerate(false_win_deltas(chair, kind)):
            engine[chairs[c2]] += d
    assert tournament_deltas(rec) == engine
    draw = record_from_outcome(16, None, [], (0, 1, 2, 3))
    assert draw.is_draw and not draw.penalties


def check_1998(d: dict, players: int, sessions: int) -> None:
    """Every session's standard scores are N − k over the whole group (ties share the average); the
    standings add them up; ranks are ordered."""
    assert set(d) == {"sessions", "standings", "teams", "repeat_meetings"} and len(d["sessions"]) == sessions
    values = values_1998(players)
    std_sum: dict[str, float] = defaultdict(float)
    score_sum: dict[str, int] = defaultdict(int)
    for s in d["sessions"]:
        scores = {p: sc for t in s["tables"] for p, sc in zip(t["players"], t["session_scores"], strict=True)}
        given = {p: st for t in s["tables"] for p, st in zip(t["players"], t["standard_scores"], strict=True)}
        assert len(scores) == players
        for t in s["tables"]:
            assert sum(t["session_scores"]) == 2000  # bots get no deductions; false wins are transfers
        for p, sc in scores.items():
            better = sum(1 for x in scores.values() if x > sc)
            tied = sum(1 for x in scores.values() if x == sc)
            expect = Fraction(sum(values[better : better + tied]), tied)
            assert given[p] == pytest.approx(float(expect)), (p, sc)
            std_sum[p] += given[p]
            score_sum[p] += sc
        assert sum(given.values()) == pytest.approx(sum(values))
    st = d["standings"]
    assert len(st) == players
    for r in st:
        assert r["standard_total"] == pytest.approx(std_sum[r["player"]])
        assert r["match_total"] == score_sum[r["player"]]
    keys = [(r["standard_total"], r["match_total"]) for r in st]
    assert keys == sorted(keys, reverse=True)
    ranks = [r["rank"] for r in st]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    for a, b in itertools.pairwise(st):
        if b["rank"] == a["rank"]:  # a shared rank: equal on the whole tie-break chain
            assert (a["standard_total"], a["match_total"]) == (b["standard_total"], b["match_total"])
    teams = defaultdict(float)
    for r in st:
        teams[r["team"]] += r["standard_total"]
    for t in d["teams"]:
        assert t["standard_total"] == pytest.approx(teams[t["team"]])
    assert [t["rank"] for t in d["teams"]] == sorted(t["rank"] for t in d["teams"])


def test_demo_command_16_players_4_teams_4_sessions(capsys, tmp_path):
    argv = [
        "demo",
        "--players",
        "16",
        "--teams",
        "4",
        "--sessions",
        "4",
        "--seed",
        "1",
        "--scheme",
        "1998",
        "--bots",
        "rand",
        "--json",
        "--no-progress",
    ]
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    check_1998(d, 16, 4)
    assert d["repeat_meetings"] == 0 and len(d["teams"]) == 4
    assert any(sc != 500 for s in d["sessions"] for t in s["tables"] for sc in t["session_scores"])  # bots won
    for s in d["sessions"]:  # team-mates never at one table
        for t in s["tables"]:
            assert len({(int(p[1:]) - 1) // 4 for p in t["players"]}) == 4
    assert d == engine_demo(16, 4, 4, 1, "1998", bots="rand")  # deterministic, and the same as the library


def test_demo_4210_individuals_and_saving(capsys, tmp_path):
    url = f"sqlite:///{tmp_path}/demo.db"
    assert (
        main(
            [
                "demo",
                "--players",
                "16",
                "--teams",
                "0",
                "--sessions",
                "2",
                "--seed",
                "4",
                "--scheme",
                "4210",
                "--bots",
                "rand,rand",
                "--json",
                "--save",
                "--db",
                url,
            ]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert d["teams"] == [] and all(r["team"] is None for r in d["standings"])
    for s in d["sessions"]:
        for t in s["tables"]:
            assert sum(t["standard_scores"]) == pytest.approx(7)
    assert main(["standings", "demo-4", "--json", "--db", url]) == 0
    saved = json.loads(capsys.readouterr().out)["groups"][0]["standings"]
    assert [(r["player"], r["standard_total"]) for r in saved] == [
        (r["player"], r["standard_total"]) for r in d["standings"]
    ]
    assert main(["demo", "--players", "10", "--json"]) == 2
    assert "multiple of 4" in capsys.readouterr().err
