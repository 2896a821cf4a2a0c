"""hand-json ``switches``: a profile's switches overridden for one hand."""

import pytest

from majiang.mcr import PROFILES, WinningHand
from majiang.mcr.scorer import score_dict, score_dict_reference

# 7m completes the 147m of the 组合龙 and is the edge of 789m
KNITTED = WinningHand.from_string("14m258p369s789mCC 7m").to_dict()


@pytest.mark.parametrize("fn", [score_dict, score_dict_reference])
def test_switches_override_the_profile_for_one_hand(fn):
    bz = {**KNITTED, "rules": "botzone"}
    assert fn(bz)["total"] == 14  # the judge: no 边张 inside the 组合龙
    assert fn({**bz, "switches": {"knitted_straight_wait_fans": True}})["total"] == 15  # PyMahjongGB 1.4
    assert fn({**KNITTED, "switches": {"knitted_straight_wait_fans": False}})["total"] == 14
    assert fn({**KNITTED, "rules": "pymahjonggb"})["total"] == 15
    assert fn({**bz, "switches": {}})["total"] == 14


@pytest.mark.parametrize(
    ("switches", "message"),
    [
        ({"knitted_wait": True}, "unknown rule switch(es) ['knitted_wait']; known: "),
        ({"min_fan": "8"}, "rule switch 'min_fan' takes int"),
        ({"knitted_straight_wait_fans": 1}, "takes bool"),
        ({"false_win": "never"}, "'play_on' or 'end_hand'"),
        ({"name": "gb"}, "unknown rule switch(es) ['name']"),
        (["min_fan"], "'switches' must be an object"),
    ],
)
def test_a_bad_switch_is_a_clear_error(switches, message):
    out = score_dict({**KNITTED, "switches": switches})
    assert message in out["error"]


def test_profiles():
    assert not PROFILES["botzone"].knitted_straight_wait_fans
    assert PROFILES["pymahjonggb"].knitted_straight_wait_fans and PROFILES["gb"].knitted_straight_wait_fans
