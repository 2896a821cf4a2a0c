"""Standard scores (标准分): the 1998 group ranking and per-table 4/2/1/0, with ties, hand-computed."""

from fractions import Fraction as F

import pytest

from majiang.tournament import Group, Player, SessionRecord, TableRecord, evaluate, get_scheme
from majiang.tournament.standard import GroupRanking1998, shared_places, values_1998


def group_of(n: int, sessions: list[list[tuple[list[str], list[int]]]]) -> Group:
    """``n`` players P1…Pn; each session a list of (four players, quick totals)."""
    players = tuple(Player(id=f"P{i}") for i in range(1, n + 1))
    recs = tuple(
        SessionRecord(
            no=s + 1,
            tables=tuple(
                TableRecord(no=t + 1, players=tuple(pl), totals=tuple(tot)) for t, (pl, tot) in enumerate(tables)
            ),
        )
        for s, tables in enumerate(sessions)
    )
    return Group(id="G", players=players, sessions=recs)


def test_1998_values_for_16_players():
    v = values_1998(16)
    assert v == [16, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert sum(v) == 121


EIGHT = [
    [
        (["P1", "P2", "P3", "P4"], [100, 20, -40, -80]),  # 600 520 460 420
        (["P5", "P6", "P7", "P8"], [50, 20, -30, -40]),
    ]
]  # 550 520 470 460


def test_1998_group_ranking_ties_share_the_average():
    res = evaluate(group_of(8, EIGHT), scheme="1998")
    std = res.sessions[0].standard
    # places: 600 1st (8), 550 2nd (6), 520 ×2 3rd–4th ((5+4)/2), 470 5th (3), 460 ×2 6th–7th ((2+1)/2), 420 8th (0)
    assert std == {"P1": 8, "P5": 6, "P2": F(9, 2), "P6": F(9, 2), "P7": 3, "P3": F(3, 2), "P8": F(3, 2), "P4": 0}
    assert sum(std.values()) == sum(values_1998(8))


def test_1998_group_ranking_ties_top_variant():
    res = evaluate(group_of(8, EIGHT), scheme="1998", tie_split="top")
    std = res.sessions[0].standard
    assert std == {"P1": 8, "P5": 6, "P2": 5, "P6": 5, "P7": 3, "P3": 2, "P8": 2, "P4": 0}


def test_1998_tie_for_first_place():
    # two tied at the top of 16 share (16 + 14) / 2
    assert shared_places({"a": 600, "b": 600, "c": 500}, values_1998(16)) == {"a": 15, "b": 15, "c": 13}


def test_4210_per_table_with_ties():
    res = evaluate(group_of(8, EIGHT), scheme="4210")
    assert res.sessions[0].standard == {"P1": 4, "P2": 2, "P3": 1, "P4": 0, "P5": 4, "P6": 2, "P7": 1, "P8": 0}
    tied = group_of(
        8, [[(["P1", "P2", "P3", "P4"], [30, 30, -30, -30]), (["P5", "P6", "P7", "P8"], [10, 10, 10, -30])]]
    )
    std = evaluate(tied, scheme="4210").sessions[0].standard
    assert std["P1"] == std["P2"] == 3 and std["P3"] == std["P4"] == F(1, 2)
    assert std["P5"] == std["P6"] == std["P7"] == F(7, 3) and std["P8"] == 0
    all_tied = group_of(4, [[(["P1", "P2", "P3", "P4"], [0, 0, 0, 0])]])
    assert set(evaluate(all_tied, scheme="4210").sessions[0].standard.values()) == {F(7, 4)}


def test_schemes_by_name():
    assert get_scheme("1998").name == "1998" and get_scheme("4210").name == "4210"
    with pytest.raises(ValueError, match="unknown"):
        get_scheme("ema")
    with pytest.raises(ValueError, match="tie_split"):
        GroupRanking1998("median")  # type: ignore[arg-type]
