"""Each rank says which of the 1998 tie-breaks (第十一条) decided it, where players are level on standard total."""

from __future__ import annotations

from fractions import Fraction

from majiang.tournament.ranking import Standing, rank_individuals, tie_breaks


def _row(player: str, std: int, match: int, sessions: tuple[int, ...]) -> Standing:
    return Standing(
        player=player,
        team=None,
        standard_total=Fraction(std),
        match_total=match,
        session_standards=tuple(Fraction(x) for x in sessions),
        session_scores=tuple(0 for _ in sessions),
    )


def test_each_level_player_names_the_tie_break_that_placed_him() -> None:
    """Was: nothing showed which tie-break decided a tie."""
    rows = rank_individuals(
        [
            _row("A", 8, 40, (4, 4)),
            _row("B", 8, 10, (4, 4)),  # level with A on standard total: Σ session scores
            _row("C", 6, 5, (4, 2)),
            _row("D", 6, 5, (3, 3)),  # level with C on both: the best session
            _row("E", 2, 0, (1, 1)),
            _row("F", 2, 0, (1, 1)),  # equal on everything: shared rank
            _row("G", 1, 0, (1, 0)),  # level with nobody
        ]
    )
    assert [r.player for r in rows] == list("ABCDEFG")
    assert tie_breaks(rows) == {
        "A": "match_total",
        "B": "match_total",
        "C": "best_session",
        "D": "best_session",
        "E": "tied",
        "F": "tied",
    }


def test_the_standings_page_shows_it() -> None:
    from majiang.tournament.adapters.web import _standings_table
    from majiang.tournament.model import Group
    from majiang.tournament.ranking import GroupResult

    rows = rank_individuals([_row("A", 8, 40, ()), _row("B", 8, 10, ())])
    html = _standings_table(GroupResult(Group("g"), "1998", 2, (), rows, ()), {}, {})
    assert html.count("比赛成绩之和") == 2
