"""就高不就低 between readings of equal points (:mod:`majiang.mcr.highest`): the one rule, the same in the
reference and the compiled port, and the reason for it — PyMahjongGB 1.4 (the Botzone judge) reports
the same fans."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from majiang.mcr import WinningHand, fast, highest, scorer
from majiang.mcr.fans import Fan
from majiang.mcr.result import FanCount, ScoreResult
from pmgb import MahjongGB, fans

# 一色三同顺 (three 234s chows) or 一色三节高 (222 333 444s): 24 points either way, and the same total
CHOWS = {"Full Flush": 1, "Pure Triple Chow": 1, "All Chows": 1, "Flower Tiles": 1}
PUNGS = {"Full Flush": 1, "Pure Shifted Pungs": 1, "Two Concealed Pungs": 1, "Flower Tiles": 1}
TIES = [
    ("[678s3]1122233444s 3s f1", CHOWS, PUNGS, 51),
    (
        "4455556666788s 4s",
        {"Full Flush": 1, "Pure Triple Chow": 1, "Concealed Hand": 1, "All Chows": 1, "Tile Hog": 2, "All Simples": 1},
        {
            "Full Flush": 1,
            "Pure Shifted Pungs": 1,
            "Concealed Hand": 1,
            "Tile Hog": 2,
            "Two Concealed Pungs": 1,
            "All Simples": 1,
        },
        58,
    ),
]


def _fans(r: ScoreResult) -> dict[str, int]:
    return {fc.name: fc.count for fc in r.fans}


@pytest.fixture
def no_tie_break(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(highest, "TIE_BREAK_FANS", ())
    monkeypatch.setattr(fast, "TIE_BREAK_FANS", ())
    if scorer._FAST is not None:
        scorer._FAST.configure(fast.config(FanCount, ScoreResult, scorer._Explanation))  # type: ignore[attr-defined]
    yield
    monkeypatch.undo()
    if scorer._FAST is not None:
        scorer._FAST.configure(fast.config(FanCount, ScoreResult, scorer._Explanation))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "with_rule", "without", "total"), TIES)
def test_equal_readings_report_the_tie_break_fan(
    text: str, with_rule: dict[str, int], without: dict[str, int], total: int
) -> None:
    hand = WinningHand.from_string(text)
    for fn in (scorer.score, scorer.score_reference):
        r = fn(hand, "botzone")
        assert (_fans(r), r.total) == (with_rule, total)
    if MahjongGB is not None:
        assert fans(hand) == with_rule  # the judge reports the same reading


@pytest.mark.parametrize(("text", "with_rule", "without", "total"), TIES)
def test_without_the_rule_the_other_reading_is_reported(
    text: str, with_rule: dict[str, int], without: dict[str, int], total: int, no_tie_break: None
) -> None:
    hand = WinningHand.from_string(text)
    for fn in (scorer.score, scorer.score_reference):
        r = fn(hand, "botzone")
        assert (_fans(r), r.total) == (without, total)


def test_replaces() -> None:
    assert highest.replaces(9, 8, {}, False) and not highest.replaces(7, 8, {Fan.PURE_TRIPLE_CHOW: 1}, True)
    assert not highest.replaces(8, 8, {}, False)
    assert highest.replaces(8, 8, {}, True)
    assert all(highest.replaces(8, 8, {f: 1}, False) for f in highest.TIE_BREAK_FANS)
