"""Hand payments (mcr.md §6) and false-win penalties in both profiles; every settlement sums to zero."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from majiang.mcr import WinningHand, score
from majiang.mcr.payment import FalseWin, false_win_deltas, hand_deltas


@pytest.mark.parametrize(
    ("winner", "discarder", "fan", "expected"),
    [
        # self-draw: each other player pays 8+F
        pytest.param(0, None, 10, [54, -18, -18, -18], id="自摸-庄"),
        pytest.param(2, None, 8, [-16, -16, 48, -16], id="自摸-8番"),
        pytest.param(3, None, 88, [-96, -96, -96, 288], id="自摸-88番"),
        # discard win: the discarder pays 8+F, the other two 8 each; the winner gets 24+F
        pytest.param(1, 3, 12, [-8, 36, -8, -20], id="点和"),
        pytest.param(0, 1, 8, [32, -16, -8, -8], id="点和-8番"),
        pytest.param(2, 0, 64, [-72, -8, 88, -8], id="点和-64番"),
    ],
)
def test_hand_deltas(winner, discarder, fan, expected):
    assert hand_deltas(winner, discarder, fan) == expected


def test_exhaustive_draw_pays_nothing():
    assert hand_deltas(None, None, 0) == [0, 0, 0, 0]
    assert hand_deltas(None, None, 30) == [0, 0, 0, 0]


def test_robbing_a_kong_is_paid_as_a_discard_win_by_the_robbed_player():
    # 抢杠和 8 + 2 flowers = 10; seat 0 robs seat 2's added kong of 6s
    r = score(WinningHand.from_string("[234m1][678p1][333s2]45sEE 6s", kong=True, flowers=2))
    assert r.total == 10
    assert hand_deltas(winner=0, discarder=2, fan=r.total) == [34, -8, -18, -8]


def test_self_drawn_hand_end_to_end():
    # 花龙 8 + 平和 2 + 自摸 1 + 1 flower = 12: each pays 20
    r = score(WinningHand.from_string("[123m1]456p789s234s5s 5s", self_drawn=True, flowers=1))
    assert r.total == 12
    assert hand_deltas(winner=1, discarder=None, fan=r.total) == [-20, 60, -20, -20]


@pytest.mark.parametrize(
    ("rules", "kind", "offender", "expected"),
    [
        pytest.param("gb", FalseWin.WRONG, 0, [-30, 10, 10, 10], id="gb-错和"),
        pytest.param("gb", "wrong", 2, [10, 10, -30, 10], id="gb-错和-字符串"),
        pytest.param("gb", FalseWin.SHORT, 1, [20, -60, 20, 20], id="gb-诈和"),
        pytest.param("gb", "short", 3, [20, 20, 20, -60], id="gb-诈和-字符串"),
        pytest.param("botzone", FalseWin.WRONG, 0, [-30, 10, 10, 10], id="botzone-错和"),
        pytest.param("botzone", FalseWin.SHORT, 1, [10, -30, 10, 10], id="botzone-诈和同罚"),
        pytest.param(None, FalseWin.SHORT, 2, [20, 20, -60, 20], id="默认gb-诈和"),
    ],
)
def test_false_win(rules, kind, offender, expected):
    assert false_win_deltas(offender, kind, rules) == expected


@pytest.mark.parametrize(
    ("call", "args"),
    [
        pytest.param(hand_deltas, (1, 1, 8), id="放炮者即和者"),
        pytest.param(hand_deltas, (4, None, 8), id="座位越界-和者"),
        pytest.param(hand_deltas, (0, 5, 8), id="座位越界-放炮者"),
        pytest.param(false_win_deltas, (-1,), id="座位越界-错和"),
    ],
)
def test_bad_seats_are_rejected(call, args):
    with pytest.raises(ValueError):
        call(*args)


def test_unknown_false_win_kind_and_profile_are_rejected():
    with pytest.raises(ValueError):
        false_win_deltas(0, "cheating", "gb")
    with pytest.raises(ValueError):
        false_win_deltas(0, FalseWin.WRONG, "riichi")


seats = st.integers(min_value=0, max_value=3)


@st.composite
def settlements(draw):
    if draw(st.booleans()):
        return None, None, draw(st.integers(min_value=0, max_value=400))
    winner = draw(seats)
    discarder = draw(st.one_of(st.none(), seats.filter(lambda s: s != winner)))
    return winner, discarder, draw(st.integers(min_value=8, max_value=400))


@given(settlements())
def test_every_hand_settlement_sums_to_zero(s):
    winner, discarder, fan = s
    deltas = hand_deltas(winner, discarder, fan)
    assert sum(deltas) == 0
    if winner is not None:
        assert deltas[winner] == (3 * (8 + fan) if discarder is None else 24 + fan)
        assert all(d < 0 for seat, d in enumerate(deltas) if seat != winner)


@given(seats, st.sampled_from(list(FalseWin)), st.sampled_from(["gb", "botzone"]))
def test_every_false_win_settlement_sums_to_zero(offender, kind, rules):
    deltas = false_win_deltas(offender, kind, rules)
    assert sum(deltas) == 0
    assert deltas[offender] < 0 and all(d > 0 for seat, d in enumerate(deltas) if seat != offender)
