"""Hand entry, its checks and penalties; session scores; the time limit; quick totals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from majiang.mcr import WinningHand
from majiang.tournament import (
    EntryError,
    HandRecord,
    ModelError,
    Penalty,
    PenaltyCode,
    TableRecord,
    apply_time_limit,
    enter_hand,
    escalated,
    hand_deltas,
    hand_from_winning_hand,
    score_table,
    validate_hand,
)
from majiang.tournament.penalties import PenaltyError

PLAYERS = ("A", "B", "C", "D")


@st.composite
def hands(draw: st.DrawFn) -> HandRecord:
    no = draw(st.integers(1, 16))
    if draw(st.booleans()) and draw(st.booleans()):
        return HandRecord(no=no)
    winner = draw(st.integers(0, 3))
    discarder = draw(st.sampled_from([None, *[s for s in range(4) if s != winner]]))
    fw = draw(st.sampled_from([None, *[s for s in range(4) if s != winner]]))
    pens = (
        (Penalty(fw, draw(st.sampled_from([PenaltyCode.FALSE_WIN, PenaltyCode.DECEPTIVE_WIN]))),)
        if fw is not None
        else ()
    )
    return HandRecord(
        no=no,
        winner=winner,
        discarder=discarder,
        points=draw(st.integers(8, 300)),
        flowers=draw(st.integers(0, 8)),
        penalties=pens,
    )


@given(hands())
def test_every_hand_is_zero_sum(hand: HandRecord):
    validate_hand(hand)
    assert sum(hand_deltas(hand)) == 0


def test_payments_hand_computed():
    assert hand_deltas(HandRecord(no=1, winner=2, points=8, flowers=2)) == [-18, -18, 54, -18]
    assert hand_deltas(HandRecord(no=1, winner=0, discarder=1, fans=("清一色",))) == [48, -32, -8, -8]
    assert hand_deltas(HandRecord(no=1)) == [0, 0, 0, 0]


def test_below_eight_fan_becomes_a_false_win():
    h = enter_hand(3, winner=1, discarder=0, fans=["碰碰和", "幺九刻"], flowers=3)  # 7 fan; flowers don't count
    assert h.winner is None and h.discarder is None
    assert [(p.seat, p.code) for p in h.penalties] == [(1, PenaltyCode.FALSE_WIN)]
    assert hand_deltas(h) == [10, -30, 10, 10]
    with pytest.raises(EntryError, match="below the 8-fan minimum"):
        validate_hand(HandRecord(no=3, winner=1, points=7, flowers=3))


def test_false_win_then_another_player_wins_play_on():
    h = enter_hand(4, winner=2, discarder=3, points=8, penalties=[Penalty(0, PenaltyCode.DECEPTIVE_WIN)])
    # 诈和 pays 20 to each; the win: discarder 16, others 8
    assert hand_deltas(h) == [-60 - 8, 20 - 8, 20 + 32, 20 - 16]
    with pytest.raises(EntryError, match="ends the hand"):
        enter_hand(4, winner=2, discarder=3, points=8, penalties=[Penalty(0, PenaltyCode.FALSE_WIN)], rules="botzone")
    ended = enter_hand(4, penalties=[Penalty(0, PenaltyCode.DECEPTIVE_WIN)], rules="botzone")
    assert hand_deltas(ended, "botzone") == [-30, 10, 10, 10]


def test_record_checks():
    with pytest.raises(ModelError, match="discarder cannot be the winner"):
        HandRecord(no=1, winner=1, discarder=1, points=8)
    with pytest.raises(ModelError, match="drawn hand"):
        HandRecord(no=1, discarder=2)
    with pytest.raises(ModelError, match="may not win"):
        HandRecord(no=1, winner=1, points=8, penalties=(Penalty(1, PenaltyCode.FALSE_WIN),))
    with pytest.raises(ModelError, match="add up to 24"):
        HandRecord(no=1, winner=1, fans=("清一色",), points=30)
    with pytest.raises(ModelError, match="unknown fan"):
        HandRecord(no=1, winner=1, fans=("大吉大利",))
    with pytest.raises(ModelError, match="1–16"):
        HandRecord(no=17)


def test_penalty_scale_and_ladders():
    assert Penalty(2, PenaltyCode.MISCONDUCT, 30).deltas() == [0, 0, -30, 0]
    for bad in (0, 15, 70):
        with pytest.raises(PenaltyError):
            Penalty(2, PenaltyCode.MISCONDUCT, bad)
    with pytest.raises(PenaltyError):
        Penalty(2, PenaltyCode.LATE, 5)
    with pytest.raises(PenaltyError):
        Penalty(4, PenaltyCode.WARNING)
    assert [escalated(PenaltyCode.LATE, n) for n in (1, 2, 3)] == [0, 10, 20]
    assert [escalated(PenaltyCode.EMPTY_CALL, n) for n in (1, 2, 3, 4)] == [0, 5, 10, 20]
    assert Penalty(0, PenaltyCode.WARNING).is_warning and Penalty(0, PenaltyCode.EMPTY_CALL).is_warning


def test_session_score_is_500_plus_hands_minus_penalties():
    hs = [
        HandRecord(no=1, winner=0, points=10),  # +54 −18 −18 −18
        HandRecord(
            no=2, winner=1, discarder=2, points=8, penalties=(Penalty(3, PenaltyCode.EMPTY_CALL, 5),)
        ),  # −8 +32 −16 −8, D −5
        *[HandRecord(no=n) for n in range(3, 17)],
    ]
    table = TableRecord(no=1, players=PLAYERS, hands=tuple(hs), penalties=(Penalty(0, PenaltyCode.LATE, 10),))
    res = score_table(table)
    assert res.complete
    assert res.session_scores == (500 + 54 - 8 - 10, 500 - 18 + 32, 500 - 18 - 16, 500 - 18 - 8 - 5)
    assert sum(res.session_scores) == 2000 - 15
    assert res.places == (1, 2, 4, 3)


def test_time_limit_scores_the_session_as_it_stands():
    hs = tuple(HandRecord(no=n, winner=(n - 1) % 4, points=8) for n in range(1, 10))
    table = TableRecord(no=1, players=PLAYERS, hands=hs)
    assert not score_table(table).complete
    cut = apply_time_limit(table, 6)  # time called during hand 6: it is finished, 7–9 are not played
    res = score_table(cut)
    assert cut.time_called and len(cut.hands) == 6 and res.complete
    assert res.session_scores == (
        500 + 48 - 16 - 16 - 16 - 16 + 48,
        500 - 16 + 48 - 16 - 16 - 16 + 48,
        500 - 16 - 16 + 48 - 16 - 16 - 16,
        500 - 16 - 16 - 16 + 48 - 16 - 16,
    )
    with pytest.raises(EntryError):
        apply_time_limit(table, 12)


def test_quick_totals():
    res = score_table(
        TableRecord(
            no=1, players=PLAYERS, totals=(120, -20, -40, -60), penalties=(Penalty(2, PenaltyCode.MISCONDUCT, 10),)
        )
    )
    assert res.session_scores == (620, 480, 450, 440)
    with pytest.raises(ModelError, match="zero-sum"):
        TableRecord(no=1, players=PLAYERS, totals=(120, -20, -40, -50))


def test_hand_from_tiles_uses_the_scorer():
    wh = WinningHand.from_string("123m456m789m123p5p 5p", self_drawn=False, flowers=1)
    h = hand_from_winning_hand(1, winner=2, discarder=0, hand=wh)
    assert "清龙" in h.fans and h.flowers == 1 and h.fan_points >= 16
    assert hand_deltas(h)[2] == 24 + h.fan_total
    with pytest.raises(EntryError, match="self_drawn"):
        hand_from_winning_hand(1, winner=2, discarder=None, hand=wh)
