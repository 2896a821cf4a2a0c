"""Rankings: every step of the 1998 tie-break chain, team totals, byes and substitutes."""

import csv
import io
from fractions import Fraction as F

import pytest

from majiang.tournament import (
    Group,
    HandRecord,
    Penalty,
    PenaltyCode,
    Player,
    SessionRecord,
    Substitution,
    TableRecord,
    Team,
    evaluate,
)
from majiang.tournament.ranking import Standing, decided_by, rank_individuals


def standing(pid: str, stds: list[int], match: int) -> Standing:
    return Standing(
        player=pid,
        team=None,
        standard_total=F(sum(stds)),
        match_total=match,
        session_standards=tuple(F(x) for x in stds),
        session_scores=(500,) * len(stds),
    )


def quick(tables: list[tuple[list[str], list[int]]], no: int, absent: tuple[str, ...] = ()) -> SessionRecord:
    return SessionRecord(
        no=no,
        tables=tuple(TableRecord(no=i + 1, players=tuple(p), totals=tuple(t)) for i, (p, t) in enumerate(tables)),
        absent=absent,
    )


FOUR = tuple(Player(id=f"P{i}") for i in range(1, 5))


def test_step1_higher_sum_of_session_scores():
    g = Group(
        id="G",
        players=FOUR,
        sessions=(
            quick([(["P1", "P2", "P3", "P4"], [40, 10, -20, -30])], 1),  # 4 2 1 0
            quick([(["P1", "P2", "P3", "P4"], [10, 50, -20, -40])], 2),  # 2 4 1 0
        ),
    )
    res = evaluate(g, scheme="4210")
    top = res.standings[:2]
    assert [s.player for s in top] == ["P2", "P1"]
    assert top[0].standard_total == top[1].standard_total == 6
    assert (top[0].match_total, top[1].match_total) == (1060, 1050)
    assert [s.rank for s in res.standings] == [1, 2, 3, 4]
    assert decided_by(top[0], top[1]) == "match_total"


def test_step2_higher_best_single_session():
    a, b = standing("A", [8, 0], 1000), standing("B", [4, 4], 1000)
    ranked = rank_individuals([b, a])
    assert [s.player for s in ranked] == ["A", "B"] and [s.rank for s in ranked] == [1, 2]
    assert decided_by(ranked[0], ranked[1]) == "best_session"


def test_step3_more_high_single_sessions():
    a, b = standing("A", [8, 6, 0], 1500), standing("B", [8, 3, 3], 1500)
    ranked = rank_individuals([b, a])
    assert [s.player for s in ranked] == ["A", "B"]
    assert decided_by(ranked[0], ranked[1]) == "high_sessions"
    # more sessions at the best score goes first
    c, d = standing("C", [8, 8, 0], 1500), standing("D", [8, 4, 4], 1500)
    assert [s.player for s in rank_individuals([d, c])] == ["C", "D"]


def test_equal_on_every_step_share_the_rank():
    rows = [
        standing("X", [4, 2], 1000),
        standing("A", [2, 4], 1000),
        standing("Z", [7, 0], 900),
        standing("Y", [1, 1], 1000),
    ]
    ranked = rank_individuals(rows)
    assert [(s.player, s.rank) for s in ranked] == [("Z", 1), ("A", 2), ("X", 2), ("Y", 4)]
    assert decided_by(ranked[1], ranked[2]) == "tied"
    assert decided_by(ranked[0], ranked[1]) == "standard_total"


def test_team_totals_are_sums_of_members():
    players = tuple(Player(id=f"P{i}", team="A" if i <= 4 else "B") for i in range(1, 9))
    teams = (Team(id="A", players=("P1", "P2", "P3", "P4")), Team(id="B", players=("P5", "P6", "P7", "P8")))
    g = Group(
        id="G",
        players=players,
        teams=teams,
        sessions=(
            quick([(["P1", "P5", "P2", "P6"], [30, 20, -10, -40]), (["P3", "P7", "P4", "P8"], [5, 0, 0, -5])], 1),
        ),
    )
    res = evaluate(g, scheme="1998")
    by = {s.player: s.standard_total for s in res.standings}
    # scores 530 520 505 500 500 495 490 460 → 8 6 5 (4+3)/2 ×2 2 1 0
    assert by == {"P1": 8, "P5": 6, "P3": 5, "P7": F(7, 2), "P4": F(7, 2), "P8": 2, "P2": 1, "P6": 0}
    t = {x.team: x for x in res.teams}
    assert t["A"].standard_total == 8 + 1 + 5 + F(7, 2) == F(35, 2)
    assert t["B"].standard_total == 6 + 0 + F(7, 2) + 2 == F(23, 2)
    assert [x.team for x in res.teams] == ["A", "B"] and [x.rank for x in res.teams] == [1, 2]
    assert t["A"].match_total == 530 + 490 + 505 + 500


def test_bye_and_whole_session_substitute():
    players = (*(Player(id=f"P{i}") for i in range(1, 9)), Player(id="S", ranked=False))
    s1 = quick([(["P1", "P2", "P3", "P4"], [0, 0, 0, 0]), (["P5", "P6", "P7", "P8"], [0, 0, 0, 0])], 1)
    # P8 absent in session 2; the substitute S takes the seat and wins the table
    s2 = quick(
        [(["P1", "P2", "P3", "P4"], [40, 20, -20, -40]), (["P5", "P6", "P7", "S"], [10, 5, -65, 50])], 2, absent=("P8",)
    )
    g = Group(id="G", players=players, sessions=(s1, s2))
    r98 = evaluate(g, scheme="1998")
    std2 = r98.sessions[1].standard
    assert r98.field_size == 8
    # ranked present: 540 520 510 505 480 460 435 → 8 6 5 4 3 2 1; P8 absent gets 0; S is not ranked
    assert std2 == {"P1": 8, "P2": 6, "P5": 5, "P6": 4, "P3": 3, "P4": 2, "P7": 1}
    p8 = r98.standing("P8")
    assert p8.session_scores == (500, None) and p8.session_standards[1] == 0
    assert "S" not in {s.player for s in r98.standings}
    # 4/2/1/0: S holds first place at table 2; his 4 points go to nobody
    r4 = evaluate(g, scheme="4210")
    std = r4.sessions[1].standard
    assert (std["P5"], std["P6"], std["P7"]) == (2, 1, 0) and "S" not in std


def test_mid_session_substitute_counts_for_the_table_not_the_ranking():
    players = (*FOUR, Player(id="S", ranked=False))
    hands = (
        HandRecord(no=1, winner=0, points=8),  # P1 self-draw: +48, others −16
        HandRecord(no=2, winner=3, discarder=0, points=8),  # P4 on P1's discard: +32, P1 −16, others −8
        HandRecord(no=3, winner=3, points=10),  # S (seat 3) self-draw: +54, others −18
    )
    table = TableRecord(
        no=1,
        players=("P1", "P2", "P3", "P4"),
        hands=hands,
        time_called=True,
        substitutions=(Substitution(seat=3, substitute="S", from_hand=3),),
    )
    g = Group(id="G", players=players, sessions=(SessionRecord(no=1, tables=(table,)),))
    res = evaluate(g, scheme="4210")
    t = res.sessions[0].tables[0]
    assert t.seat_scores == (514, 458, 458, 570)
    assert t.session_scores == (514, 458, 458, 516)  # P4 keeps the score he had when he left
    assert t.seats[3].substitute == "S" and t.seats[3].substitute_points == 54
    assert res.sessions[0].standard == {"P4": 4, "P1": 2, "P2": F(1, 2), "P3": F(1, 2)}
    assert [s.player for s in res.standings] == ["P4", "P1", "P2", "P3"]
    assert [s.rank for s in res.standings] == [1, 2, 3, 3]


def test_deliberate_false_win_disqualifies():
    hands = (HandRecord(no=1, penalties=(Penalty(0, PenaltyCode.DELIBERATE_FALSE_WIN),)),)
    table = TableRecord(no=1, players=("P1", "P2", "P3", "P4"), hands=hands, time_called=True)
    g = Group(id="G", players=FOUR, sessions=(SessionRecord(no=1, tables=(table,)),))
    res = evaluate(g, scheme="4210")
    assert res.sessions[0].tables[0].session_scores == (440, 520, 520, 520)
    assert res.standings[-1].player == "P1" and res.standings[-1].disqualified and res.standings[-1].rank == 4


def test_field_size_counts_seated_players_not_reserves():
    """第十条 with a team reserve: N is the players ranked in the session's field (8 seated), so the 1st
    gets 8 and the last 0; an unused reserve neither enlarges N nor appears in the standings."""
    players = tuple(Player(id=f"P{i}", team="A" if i <= 4 else "B") for i in range(1, 9)) + (Player(id="R", team="A"),)
    teams = (
        Team(id="A", players=("P1", "P2", "P3", "P4"), reserve="R"),
        Team(id="B", players=("P5", "P6", "P7", "P8")),
    )
    g = Group(
        id="G",
        players=players,
        teams=teams,
        sessions=(
            quick([(["P1", "P5", "P2", "P6"], [30, 20, -10, -40]), (["P3", "P7", "P4", "P8"], [5, 1, 0, -6])], 1),
        ),
    )
    res = evaluate(g, scheme="1998")
    assert res.field_size == 8
    by = {s.player: s.standard_total for s in res.standings}
    assert by["P1"] == 8 and by["P6"] == 0 and "R" not in by


def test_a_table_never_entered_is_pending_not_a_tie_of_500s():
    eight = tuple(Player(id=f"P{i}") for i in range(1, 9))
    g = Group(
        id="G",
        players=eight,
        sessions=(
            SessionRecord(
                no=1,
                tables=(
                    TableRecord(no=1, players=("P1", "P2", "P3", "P4"), totals=(30, 10, -10, -30)),
                    TableRecord(no=2, players=("P5", "P6", "P7", "P8")),
                ),
            ),
        ),
    )
    res = evaluate(g, scheme="1998")
    assert res.pending == {1: (2,)}
    by = {s.player: s for s in res.standings}
    assert [by[p].standard_total for p in ("P1", "P2", "P3", "P4")] == [8, 6, 5, 4]
    assert all(by[p].session_scores == (None,) and by[p].standard_total == 0 for p in ("P5", "P6", "P7", "P8"))
    assert res.sessions[0].cell("P5", None) == "未录入 not entered"


def test_an_unused_reserve_is_not_absent():
    players = tuple(Player(id=f"P{i}", team="A" if i <= 4 else "B") for i in range(1, 9)) + (Player(id="R", team="A"),)
    teams = (
        Team(id="A", players=("P1", "P2", "P3", "P4"), reserve="R"),
        Team(id="B", players=("P5", "P6", "P7", "P8")),
    )
    g = Group(
        id="G",
        players=players,
        teams=teams,
        sessions=(
            quick([(["P1", "P5", "P2", "P6"], [30, 20, -10, -40]), (["P3", "P7", "P4", "P8"], [5, 1, 0, -6])], 1),
            quick(
                [(["R", "P5", "P2", "P6"], [30, 20, -10, -40]), (["P3", "P7", "P4", "P8"], [5, 1, 0, -6])],
                2,
                absent=("P1",),
            ),
        ),
    )
    res = evaluate(g, scheme="1998")
    r = res.standing("R")
    assert r.session_scores == (None, 530)
    assert res.sessions[0].cell("R", None) == "替补 reserve, not needed"  # was 未上场 not seated
    assert res.sessions[1].cell("P1", None) == "缺席 absent"


def _with_dq():
    eight = tuple(Player(id=f"P{i}") for i in range(1, 9))
    dq = HandRecord(no=1, penalties=(Penalty(0, PenaltyCode.DELIBERATE_FALSE_WIN),))
    s1 = SessionRecord(
        no=1,
        tables=(
            TableRecord(no=1, players=("P1", "P2", "P3", "P4"), hands=(dq,)),
            TableRecord(no=2, players=("P5", "P6", "P7", "P8"), totals=(9, 1, -4, -6)),
        ),
    )
    return Group(id="G", players=eight, sessions=(s1,))


def test_the_disqualified_are_not_drawn_again_and_are_flagged():
    from majiang.tournament import Event
    from majiang.tournament.absence import redraw_session
    from majiang.tournament.adapters.output import exports
    from majiang.tournament.draw import DrawError, draw_session, seatable

    g = _with_dq()
    assert "P1" not in seatable(g)
    with pytest.raises(DrawError, match="redraw"):
        draw_session(Event(id="e", groups=(g,)), "G", 2, "swiss")
    s2, _ = redraw_session(g, 2, ["P2", "P3", "P4"], seed=3)
    assert all("P1" not in t.players for t in s2.tables)
    res = evaluate(g, scheme="1998")
    rows = list(csv.DictReader(io.StringIO(exports.standings_csv(res))))
    assert rows[-1]["player"] == "P1" and rows[-1]["disqualified"] == "1" and rows[0]["disqualified"] == "0"
    ema = list(csv.DictReader(io.StringIO(exports.ema_csv(res))))
    assert ema[-1]["position"] == "DQ"


def test_ema_export_order_names_and_table_points():
    """EMA ranks by 4/2/1/0 table points (a 1998-scored event included), then mahjong points without the
    500 base, so a bye costs nothing; names split after the given name."""
    from majiang.tournament.adapters.output import exports

    names = {"A": "Jan de Vries", "B": "Vries, Anna de"}
    players = (*(Player(p, names.get(p, "")) for p in "ABCDEFGH"), Player("S", ranked=False))
    g = Group(
        id="G",
        players=players,
        sessions=(
            quick([(["A", "C", "D", "E"], [30, 0, -10, -20]), (["B", "F", "G", "H"], [5, 10, -5, -10])], 1),
            quick([(["S", "C", "D", "E"], [0, 1, -1, 0]), (["B", "F", "G", "H"], [5, 10, -5, -10])], 2, absent=("A",)),
        ),
    )
    for scheme in ("4210", "1998"):
        ema = list(csv.DictReader(io.StringIO(exports.ema_csv(evaluate(g, scheme=scheme)))))
        by = {(r["last_name"], r["first_name"]): r for r in ema}
        a, b = by[("de Vries", "Jan")], by[("Vries", "Anna de")]
        assert (a["table_points"], a["mahjong_points"]) == ("4", "30")
        assert (b["table_points"], b["mahjong_points"]) == ("4", "10")
        assert int(a["position"]) < int(b["position"])  # the bye cost A nothing
        tps = [float(r["table_points"]) for r in ema]
        assert tps == sorted(tps, reverse=True)
