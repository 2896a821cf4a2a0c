import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.mcr import Fan, InvalidHandError, Meld, MeldKind, WinningHand, score
from majiang.mcr.generate import random_winning_hand
from majiang.tiles import NotationError, parse_tile


def test_compact_string_parses_melds_and_flags():
    h = WinningHand.from_string("[123m1][EEE2]{9999s}456pC C", self_drawn=True, seat_wind="S")
    assert h.melds == (
        Meld.of(MeldKind.CHOW, parse_tile("1m"), claimed=0),
        Meld.of(MeldKind.PUNG, parse_tile("E"), source=2),
        Meld.of(MeldKind.KONG, parse_tile("9s"), concealed=True),
    )
    assert h.win_tile == parse_tile("C") and h.self_drawn and h.seat_wind == 1
    assert h.to_string() == "[123m1][EEE2]{9999s}456pC C"


def test_flowers_in_string_are_counted():
    assert WinningHand.from_string("123m456p789s123pE f1f2 E").flowers == 2


def test_dict_round_trip_matches_spec_example():
    d = {
        "melds": [
            {"kind": "chow", "tiles": ["1m", "2m", "3m"], "concealed": False, "claimed": 0},
            {"kind": "pung", "tiles": ["E", "E", "E"], "concealed": False, "from": 2},
            {"kind": "kong", "tiles": ["9s", "9s", "9s", "9s"], "concealed": True},
        ],
        "hand": ["4p", "5p", "6p", "C"],
        "win_tile": "C",
        "self_drawn": False,
        "fourth_tile": False,
        "kong": False,
        "last_tile": False,
        "seat_wind": "E",
        "prevalent_wind": "S",
        "flowers": 0,
        "rules": "gb",
    }
    h = WinningHand.from_dict(d)
    assert h.to_dict() == d
    assert WinningHand.from_string("[123m1][EEE2]{9999s}456pC C", prevalent_wind="S") == h


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123m456p789s123p E", "wrong tile count"),
        ("[123m][124m]456p789sEE E", "not a chow"),
        ("11111m456p789s1pE E", "5 copies of 1m"),
        ("[123m9]456p789s123pE E", "claimed tile 1–3"),
        ("123m456p789s123pEE", "winning tile last"),
        ("[123m456p789s123pE E", "unbalanced"),
    ],
)
def test_bad_hands_say_why(text, message):
    with pytest.raises((InvalidHandError, NotationError)) as e:
        score(WinningHand.from_string(text))
    assert message in str(e.value)


def test_not_a_win_is_an_error():
    with pytest.raises(InvalidHandError, match="not a winning hand"):
        score(WinningHand.from_string("123m456p789s12pEE N"))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (dict(kong=True, last_tile=True), "海底捞月"),
        (dict(kong=True, self_drawn=True), "needs a kong"),
        (dict(fourth_tile=True), "和绝张"),
        (dict(kong=True), "抢杠和"),
    ],
)
def test_contradictory_flags_are_rejected(flags, message):
    h = WinningHand.from_string("123m456p789s123pE E", **flags)  # the hand holds another E
    with pytest.raises(InvalidHandError, match=message):
        score(h)


def test_last_tile_is_derived_from_own_pung():
    # the other three 5p lie in the hand's own exposed pung: necessarily the last tile
    r = score(WinningHand.from_string("[555p1]123m789s46pEE 5p"))
    assert r.count(Fan.LAST_TILE) == 1
    r = score(WinningHand.from_string("[555p1]123m789s46pEE 5p", rules="botzone"))
    assert r.count(Fan.LAST_TILE) == 1


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_hands_round_trip_and_score(seed):
    import random

    h = random_winning_hand(random.Random(seed))
    assert WinningHand.from_dict(h.to_dict()) == h
    assert (
        WinningHand.from_string(
            h.to_string(), **{k: v for k, v in h.to_dict().items() if k not in ("melds", "hand", "win_tile")}
        )
        == h
    )
    r = score(h)
    assert r.total == sum(fc.points * fc.count for fc in r.fans)
    assert r.total > 0


def test_compact_string_keeps_the_flowers():
    h = WinningHand.from_string("[123m1][EEE2]{9999s}456pC C f1f2", self_drawn=True)
    assert h.flowers == 2 and h.to_string() == "[123m1][EEE2]{9999s}456pC C f1f2"
    again = WinningHand.from_string(h.to_string(), self_drawn=True)
    assert again == h and score(again).total == score(h).total


def test_a_hand_with_no_winning_tile_says_so():
    """Was: the calculator answered a hand with no winning tile picked (win_tile null) with "a tile must
    be a string like '5p', got None"."""
    from majiang.rulesets import calculator

    body = {"hand": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "1s"], "win_tile": None}
    assert calculator("gb")(body, True)["error"] == "'win_tile' is missing: pick the winning tile (和张)"
