"""16- and 12-point fans (全不靠 and 组合龙 are in test_special_shapes.py)."""

import pytest

from .cases import PARAMS, case, check

CASES = [
    # ---- 16 ---------------------------------------------------------------------------------
    case(
        "清龙",
        "[123m1]456m789m234p5p 5p",
        {"Pure Straight": 1, "All Chows": 1, "One Voided Suit": 1},
        19,
        removed=("Short Straight", "Two Terminal Chows", "No Honors", "Single Wait"),
    ),
    case(
        "清龙-不求人",
        "123456789s234p5p 5p",
        {"Pure Straight": 1, "Fully Concealed Hand": 1, "All Chows": 1, "One Voided Suit": 1},
        23,
        removed=("Short Straight", "Two Terminal Chows", "Self-Drawn", "Concealed Hand"),
        self_drawn=True,
    ),
    case(
        "三色双龙会",
        "[123m1]789m123p789p5s 5s",
        {"Three-Suited Terminal Chows": 1, "Single Wait": 1},
        17,
        removed=("Mixed Double Chow", "Two Terminal Chows", "No Honors", "All Chows"),
    ),
    case(
        "三色双龙会-不求人",
        "12378m123789p55s 9m",
        {"Three-Suited Terminal Chows": 1, "Fully Concealed Hand": 1},
        20,
        removed=("Mixed Double Chow", "Two Terminal Chows", "All Chows", "Self-Drawn"),
        self_drawn=True,
    ),
    case("一色三步高", "[123m1]234m345m678p9p 9p", {"Pure Shifted Chows": 1, "All Chows": 1, "One Voided Suit": 1}, 19),
    case(
        "一色三步高-二步",
        "[123p1]345p567p234s8s 8s",
        {"Pure Shifted Chows": 1, "All Chows": 1, "One Voided Suit": 1, "Single Wait": 1},
        20,
    ),
    case(
        "全带五",
        "[456m1][555p2]456s567s5m 5m",
        {"All Five": 1, "Mixed Double Chow": 1, "Single Wait": 1},
        18,
        removed=("All Simples", "No Honors"),
    ),
    case(
        "三同刻",
        "[111m1][111p2]111s234s9s 9s",
        {"Triple Pung": 1, "Pung of Terminals or Honors": 3, "No Honors": 1, "Single Wait": 1},
        21,
        removed=("Double Pung",),
    ),
    case(
        "三暗刻",
        "[123m1]555p777s999s9p 9p",
        {"Three Concealed Pungs": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
        19,
        removed=("Two Concealed Pungs",),
    ),
    case(
        "三暗刻-含暗杠",
        "{5555m}777p999s123s8p 8p",
        {
            "Three Concealed Pungs": 1,
            "Concealed Hand": 1,
            "Concealed Kong": 1,
            "Pung of Terminals or Honors": 1,
            "No Honors": 1,
        },
        22,
        removed=("Two Concealed Pungs",),
    ),
    # ---- 12 ---------------------------------------------------------------------------------
    case(
        "大于五",
        "[678m1][777p2]888s999s6m 6m",
        {"Upper Four": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
        16,
        removed=("No Honors",),
    ),
    case(
        "小于五",
        "[123m1][222p2]333s444s1m 1m",
        {"Lower Four": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
        15,
        removed=("No Honors",),
    ),
    case(
        "三风刻",
        "[EEE1][SSS2]WWW123m5p 5p",
        {"Big Three Winds": 1, "One Voided Suit": 1, "Single Wait": 1},
        14,
        removed=("Pung of Terminals or Honors",),
        seat_wind="N",
        prevalent_wind="N",
    ),
    case(
        "三风刻-计圈风门风",
        "[EEE1][SSS2]WWW123m5p 5p",
        {"Big Three Winds": 1, "Prevalent Wind": 1, "Seat Wind": 1, "One Voided Suit": 1, "Single Wait": 1},
        18,
        removed=("Pung of Terminals or Honors",),
        seat_wind="S",
        prevalent_wind="E",
    ),
    case(
        "全带五-五万刻",
        "[555m1]456p345s567s5p 5p",
        {"All Five": 1, "Closed Wait": 1},
        17,
        removed=("All Simples", "No Honors"),
    ),
]


@pytest.mark.parametrize(PARAMS, CASES)
def test_fan(hand, flags, expected, total, profiles, removed):
    check(hand, flags, expected, total, profiles, removed)
