"""``to_dict(explain=True)``: each counted fan names the sets (or tiles) it was counted from."""

import pytest

from majiang.mcr import WinningHand, score


def explain(hand: str, **flags):
    return score(WinningHand.from_string(hand, **flags)).to_dict(explain=True)


def sources(d, zh):
    found = [f["from"] for f in d["fans"] if f["zh"] == zh]
    assert found, f"{zh} not counted: {[f['zh'] for f in d['fans']]}"
    return found[0]


@pytest.mark.parametrize(
    ("hand", "flags", "zh", "expected"),
    [
        # the two identical chows, one of them the melded [123m]
        pytest.param("[123m1]123m456p789s5s 5s", {}, "一般高", [["[123m]", "123m"]], id="一般高"),
        # the pung of 9m, not the chows
        pytest.param("[999m1]123m456p789s5s 5s", {}, "幺九刻", [["[999m]"]], id="幺九刻"),
        # the pair and the winning tile
        pytest.param("[999m1]123m456p789s5s 5s", {}, "单钓将", [["55s", "5s (discard)"]], id="单钓将"),
        pytest.param(
            "[123m1]456p89sEEE55s 7s",
            {"self_drawn": True, "seat_wind": "S", "prevalent_wind": "N"},
            "边张",
            [["789s", "7s (self-drawn)"]],
            id="边张",
        ),
        pytest.param("[CCC1]123m456p789s5s 5s", {}, "箭刻", [["[CCC]"]], id="箭刻"),
        pytest.param("[123m1]456p789s5sCCC 5s", {}, "花龙", [["[123m]", "789s", "456p"]], id="花龙"),
        pytest.param(
            "[EEE1][SSS2]WWW123m5p 5p",
            {"seat_wind": "N", "prevalent_wind": "N"},
            "三风刻",
            [["[EEE]", "[SSS]", "WWW"]],
            id="三风刻",
        ),
        # 套算一次: 喜相逢 twice, each from its own pair of chows; 连六 once
        pytest.param("234567s234567p8m 8m", {}, "喜相逢", [["234s", "234p"], ["567s", "567p"]], id="喜相逢×2"),
        pytest.param("234567s234567p8m 8m", {}, "连六", [["234s", "567s"]], id="连六"),
        pytest.param("{5555m}{7777p}[123s1]234s9s 9s", {}, "双暗杠", [["{5555m}", "{7777p}"]], id="双暗杠"),
        pytest.param("[123m1]456p789s345m3m 3m", {}, "四归一", [["3333m"]], id="四归一"),
        pytest.param("147m258p369s234m8s 8s", {}, "组合龙", [["147m258p369s"]], id="组合龙"),
        pytest.param(
            "[SSS1]123m456p789s5s 5s", {"seat_wind": "S", "prevalent_wind": "E"}, "门风刻", [["[SSS]"]], id="门风刻"
        ),
    ],
)
def test_fan_sources(hand, flags, zh, expected):
    assert sources(explain(hand, **flags), zh) == expected


def test_reading_lists_the_chosen_decomposition():
    d = explain("[123m1]456p789s345m3m 3m")
    assert d["reading"] == "[123m] 345m 789s 456p 33m"
    # whole-hand fans are explained by the whole reading
    assert sources(d, "平和") == [["[123m]", "345m", "789s", "456p", "33m"]]


def test_explain_keeps_the_plain_fields():
    d = explain("[999m1]123m456p789s5s 5s")
    assert (d["total"], d["valid"], d["below_minimum"]) == (11, True, False)
    assert [(f["zh"], f["name"], f["points"], f["count"]) for f in d["fans"]] == [
        ("花龙", "Mixed Straight", 8, 1),
        ("幺九刻", "Pung of Terminals or Honors", 1, 1),
        ("无字", "No Honors", 1, 1),
        ("单钓将", "Single Wait", 1, 1),
    ]
    plain = score(WinningHand.from_string("[999m1]123m456p789s5s 5s")).to_dict()
    assert "from" not in plain["fans"][0] and "reading" not in plain
