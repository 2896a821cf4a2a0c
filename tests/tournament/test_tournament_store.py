"""Competitions in the database (migration 0002 + the repository), on SQLite and PostgreSQL."""

import json
from dataclasses import replace

import pytest
from sqlalchemy import inspect

from majiang.tournament import Event, HandRecord, Penalty, PenaltyCode, Player, Team, build_demo, enter_hand
from majiang.tournament.adapters.repository import (
    EventNotFound,
    RepositoryError,
    TournamentRepository,
    scored_group,
    slug,
)
from majiang.tournament.draw import DrawError, draw_session
from majiang.tournament.model import Group, SessionRecord, Substitution, TableRecord
from majiang.tournament.registration import build_group, count_entries, new_event

TT_TABLES = {
    "tt_events",
    "tt_groups",
    "tt_teams",
    "tt_players",
    "tt_sessions",
    "tt_tables",
    "tt_hands",
    "tt_penalties",
    "tt_entries",
}


def test_migration_creates_the_tables_and_matches_the_models(db):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from majiang.store.models import Base

    names = set(inspect(db.engine).get_table_names())
    assert names >= TT_TABLES and "accounts" in names
    with db.engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), Base.metadata) == []


def test_event_round_trip_with_everything(db, hand_generator):
    event, _, _ = build_demo(16, 4, 3, 9, "1998", play_session=hand_generator)
    g = event.groups[0]
    # a reserve, a substitute, a table penalty, quick totals, a mid-session substitution, an absentee
    players = (
        *g.players,
        Player("R1", "Reserve One", team="T1"),
        Player("S1", "Sub", ranked=False, ema_id="0401", country="CN"),
    )
    teams = tuple(replace(t, reserve="R1", leader="Boss") if t.id == "T1" else t for t in g.teams)
    s3 = g.sessions[2]
    t1 = replace(
        s3.tables[0],
        penalties=(Penalty(2, PenaltyCode.LATE, 10, "5 min"),),
        substitutions=(Substitution(seat=1, substitute="S1", from_hand=9),),
    )
    t2 = TableRecord(no=2, players=s3.tables[1].players, totals=(40, -8, -16, -16), time_called=True)
    sessions = (*g.sessions[:2], SessionRecord(no=3, tables=(t1, t2, *s3.tables[2:]), absent=("R1",)))
    group = Group(id=g.id, name="Group A", players=players, teams=teams, sessions=sessions)
    event = Event(
        id="cup-2025",
        name="杯赛 Cup",
        rules="gb",
        scheme="4210",
        tie_split="top",
        groups=(group,),
        extra={"seed": 9, "note": "中文"},
    )
    repo = TournamentRepository(db)
    assert repo.create(event) == "cup-2025"
    back = repo.load("cup-2025")
    assert back == event and back.to_dict() == event.to_dict() and back.extra == event.extra
    assert json.dumps(back.to_dict(), ensure_ascii=False) == json.dumps(event.to_dict(), ensure_ascii=False)
    with pytest.raises(RepositoryError, match="exists already"):
        repo.create(event)
    repo.save(back)  # replace in place
    assert repo.load("cup-2025") == event
    [summary] = repo.list_events()
    assert (summary.id, summary.players, summary.sessions) == ("cup-2025", 18, 3)
    _, results = repo.results("cup-2025")
    assert results["A"].scheme == "4210" and len(results["A"].standings) == 16
    repo.delete("cup-2025")
    assert repo.list_events() == []
    with pytest.raises(EventNotFound, match="no event 'cup-2025'"):
        repo.load("cup-2025")


def test_draw_enter_and_standings(db):
    repo = TournamentRepository(db)
    event = new_event(repo.new_id("Spring Cup"), "Spring Cup", build_group(count_entries(16), 4), sessions=4, seed=5)
    assert event.id == "spring-cup"
    repo.create(event)
    assert repo.new_id("Spring Cup") == "spring-cup-2"
    assert event.extra["plans"]["A"]["method"] == "affine-plane-4" and event.extra["plans"]["A"]["repeats"] == 0
    with pytest.raises(RepositoryError, match="session 1 is not drawn"):
        repo.enter_hand("spring-cup", 1, 1, HandRecord(no=1))
    s1 = draw_session(repo.load("spring-cup"), "A", 1)
    repo.put_session("spring-cup", "A", s1, method="perfect")
    # nothing entered yet: the session is left out of the standings
    assert repo.standings("spring-cup")["groups"][0]["sessions_scored"] == 0
    h1 = enter_hand(1, winner=0, discarder=2, fans=["清一色", "平和"], flowers=1)
    res = repo.enter_hand("spring-cup", 1, 1, h1)
    assert res.seat_scores == (551, 492, 465, 492)
    with pytest.raises(RepositoryError, match="use --replace"):
        repo.enter_hand("spring-cup", 1, 1, h1)
    with pytest.raises(RepositoryError, match="enter hand 2 before hand 3"):
        repo.enter_hand("spring-cup", 1, 1, HandRecord(no=3))
    h2 = enter_hand(2, winner=1, points=9, penalties=[Penalty(3, PenaltyCode.FALSE_WIN)])
    repo.enter_hand("spring-cup", 1, 1, h2)
    repo.enter_hand("spring-cup", 1, 1, replace(h1, flowers=0), replace_existing=True)
    repo.add_table_penalty("spring-cup", 1, 1, Penalty(2, PenaltyCode.MISCONDUCT, 20))
    repo.enter_totals("spring-cup", 1, 2, [40, -8, -16, -16])
    with pytest.raises(RepositoryError, match="zero-sum"):
        repo.enter_totals("spring-cup", 1, 3, [40, -8, -16, -15])
    with pytest.raises(RepositoryError, match="quick totals"):
        repo.enter_hand("spring-cup", 1, 2, HandRecord(no=1))
    table = repo.table("spring-cup", 1, 1)
    assert [h.no for h in table.hands] == [1, 2] and table.hands[0].flowers == 0 and table.hands[1] == h2
    assert table.penalties == (Penalty(2, PenaltyCode.MISCONDUCT, 20),)
    data = repo.standings("spring-cup")
    g = data["groups"][0]
    assert g["sessions_scored"] == 1 and len(g["standings"]) == 16 and len(g["teams"]) == 4
    # tables 3 and 4 have nothing entered: their 8 players are not ranked as a tie of 500s; the 8 who
    # played take places 1–8 of the field of 16
    assert sum(r["standard_total"] for r in g["standings"]) == 16 + sum(range(8, 15))
    assert g["pending"] == {"1": [3, 4]}
    assert [r["rank"] for r in g["standings"]] == sorted(r["rank"] for r in g["standings"])
    # a session with results is never redrawn
    with pytest.raises(DrawError, match="already has results"):
        draw_session(repo.load("spring-cup"), "A", 1)
    s2 = draw_session(repo.load("spring-cup"), "A", 2, "swiss")
    repo.put_session("spring-cup", "A", s2, method="swiss")
    assert len(repo.load("spring-cup").groups[0].sessions) == 2
    repo.set_time_called("spring-cup", 1, 1)
    assert repo.table("spring-cup", 1, 1).time_called
    # 第六条: after the call no later hand is accepted (a correction of an entered one still is)
    with pytest.raises(RepositoryError, match=r"time was called .* after hand 2"):
        repo.enter_hand("spring-cup", 1, 1, HandRecord(no=3))
    with pytest.raises(RepositoryError, match="time was called"):
        repo.enter_hands("spring-cup", 1, 1, [HandRecord(no=3)])
    repo.enter_hand("spring-cup", 1, 1, h2, replace_existing=True)


def test_scored_group_and_slug():
    g = build_group(count_entries(8))
    s1 = SessionRecord(
        no=1,
        tables=(
            TableRecord(1, ("P01", "P02", "P03", "P04"), totals=(1, -1, 0, 0)),
            TableRecord(2, ("P05", "P06", "P07", "P08")),
        ),
    )
    s2 = SessionRecord(
        no=2, tables=(TableRecord(1, ("P01", "P05", "P03", "P07")), TableRecord(2, ("P02", "P06", "P04", "P08")))
    )
    full = replace(g, sessions=(s1, s2))
    assert scored_group(full).sessions == (s1,)
    assert slug("Spring Cup 2025!") == "spring-cup-2025" and slug("春季杯") == "event"


def test_team_with_reserve_and_unlisted_member_survive(db):
    players = (
        Player("a", team="T"),
        Player("b", team="T"),
        Player("c", team="T"),
        Player("d", team="T"),
        Player("e", team="T"),
        Player("f", team="T"),
    )
    team = Team("T", "Team", "leader", players=("d", "a", "c", "b"), reserve="e")  # f says T but is not listed
    event = Event("e1", groups=(Group("G", players=players, teams=(team,)),))
    repo = TournamentRepository(db)
    repo.save(event)
    assert repo.load("e1") == event


def _drawn(repo):
    event = new_event("cup", "Cup", build_group(count_entries(16), 0), sessions=2, seed=5)
    repo.create(event)
    repo.put_session("cup", "A", draw_session(repo.load("cup"), "A", 1), method="perfect")


def test_every_entry_is_logged_with_who_and_when_and_each_can_be_undone(db):
    repo = TournamentRepository(db)
    _drawn(repo)
    h1 = enter_hand(1, winner=0, discarder=2, fans=["清一色", "平和"], flowers=1)
    h2 = enter_hand(2, winner=1, points=9, penalties=[Penalty(3, PenaltyCode.FALSE_WIN)])
    repo.enter_hand("cup", 1, 1, h1, by="cli:anna")
    repo.enter_hand("cup", 1, 1, h2, by="web:P05")
    late = Penalty(2, PenaltyCode.LATE, 10)
    repo.add_table_penalty("cup", 1, 1, late)
    repo.add_table_penalty("cup", 1, 1, late)  # the same penalty entered twice by mistake
    assert repo.table("cup", 1, 1).penalties == (late, late)
    repo.enter_hand("cup", 1, 1, replace(h1, flowers=0), replace_existing=True)
    repo.set_time_called("cup", 1, 1, by="clock")
    repo.enter_totals("cup", 1, 2, [40, -8, -16, -16])
    log = repo.entries("cup", 1, 1)
    assert [e["summary"] for e in log] == [
        "hand 1",
        "hand 2",
        "penalty W late -10",
        "penalty W late -10",
        "hand 1 (corrected)",
        "time called",
    ]
    assert [e["by"] for e in log][:3] == ["cli:anna", "web:P05", "referee"] and log[5]["by"] == "clock"
    assert all(e["at"] and e["undone_by"] is None for e in log)
    # the table's last entry: the time call
    undone = repo.undo("cup", 1, 1, by="ref")
    assert undone["kind"] == "time_call" and not repo.table("cup", 1, 1).time_called
    # a doubled penalty: one of them removed
    repo.undo("cup", entry_id=log[3]["id"])
    assert repo.table("cup", 1, 1).penalties == (late,)
    with pytest.raises(RepositoryError, match="undone already"):
        repo.undo("cup", entry_id=log[3]["id"])
    # hand 1 has hand 2 after it: only its correction can be taken back now
    with pytest.raises(RepositoryError, match="changed since"):
        repo.undo("cup", entry_id=log[0]["id"])
    repo.undo("cup", 1, 1)  # the correction: hand 1 as first entered (flowers 1) again
    assert repo.table("cup", 1, 1).hands == (h1, h2)
    with pytest.raises(RepositoryError, match="hands 2–2 come after it"):
        repo.undo("cup", entry_id=log[0]["id"])
    repo.undo("cup", 1, 1)  # the remaining penalty
    repo.undo("cup", 1, 1)  # hand 2
    repo.undo("cup", 1, 1)  # hand 1
    assert repo.table("cup", 1, 1) == replace(repo.table("cup", 1, 1), hands=(), penalties=())
    with pytest.raises(RepositoryError, match="nothing to undo"):
        repo.undo("cup", 1, 1)
    repo.undo("cup", 1, 2)
    assert repo.table("cup", 1, 2).totals is None
    kinds = [e["kind"] for e in repo.entries("cup")]
    assert kinds.count("undo") == 7 and len(kinds) == 14
    undos = [e for e in repo.entries("cup") if e["kind"] == "undo"]
    assert undos[0]["by"] == "ref" and undos[0]["data"]["entry"] == log[5]["id"]
    with pytest.raises(RepositoryError, match="is an undo"):
        repo.undo("cup", entry_id=undos[0]["id"])
    with pytest.raises(RepositoryError, match="no entry 999"):
        repo.undo("cup", entry_id=999)
    # the log outlives a re-saved event, and goes with a deleted one
    repo.save(repo.load("cup"))
    assert len(repo.entries("cup")) == 14
    repo.delete("cup")
    _drawn(repo)
    assert repo.entries("cup") == []


def test_a_batch_of_hands_from_the_engine_is_one_entry_undone_at_once(db):
    repo = TournamentRepository(db)
    _drawn(repo)
    repo.enter_hands("cup", 1, 3, [HandRecord(no=1), HandRecord(no=2)], source="engine")
    assert repo.entries("cup", 1, 3)[0]["summary"] == "hands 1–2"
    repo.undo("cup", 1, 3)
    assert repo.table("cup", 1, 3).hands == ()
