"""8- and 6-point fans, including the winning-tile flags 妙手回春 海底捞月 杠上开花 抢杠和."""

import pytest

from .cases import PARAMS, case, check

# A hand with no fan of its own (无番和): three suits and a wind pair, two-sided wait, no concealment.
CHICKEN = "[234m1][678p1][333s2]45sEE 6s"

CASES = [
    # ---- 8 ----------------------------------------------------------------------------------
    case(
        "花龙",
        "[123m1]456p789s234m5m 5m",
        {"Mixed Straight": 1, "All Chows": 1},
        10,
        removed=("No Honors", "Single Wait"),
    ),
    case(
        "推不倒",
        "[123p1][888p2]456s999sP P",
        {"Reversible Tiles": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
        10,
        removed=("One Voided Suit",),
    ),
    case(
        "三色三同顺",
        "[123m1]123p123s456s9s 9s",
        {"Mixed Triple Chow": 1, "All Chows": 1, "Short Straight": 1, "Single Wait": 1},
        12,
        removed=("Mixed Double Chow", "No Honors"),
    ),
    case(
        "三色三节高",
        "[111m1][222p2]333s456m9s 9s",
        {"Mixed Shifted Pungs": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
        11,
    ),
    case("无番和", CHICKEN, {"Chicken Hand": 1}, 8),
    case("无番和-自摸即不计", CHICKEN, {"Self-Drawn": 1}, 1, removed=("Chicken Hand",), self_drawn=True),
    case(
        "妙手回春",
        CHICKEN,
        {"Last Tile Draw": 1},
        8,
        removed=("Self-Drawn", "Chicken Hand"),
        self_drawn=True,
        last_tile=True,
    ),
    case(
        "妙手回春-不求人",
        "123m456p789s234s5s 5s",
        {"Mixed Straight": 1, "Last Tile Draw": 1, "Fully Concealed Hand": 1, "All Chows": 1},
        22,
        removed=("Self-Drawn",),
        self_drawn=True,
        last_tile=True,
    ),
    case("海底捞月", CHICKEN, {"Last Tile Claim": 1}, 8, removed=("Chicken Hand",), last_tile=True),
    case(
        "杠上开花",
        "[234m1][678p1][3333s2]45sEE 6s",
        {"Out with Replacement Tile": 1, "Melded Kong": 1},
        9,
        removed=("Self-Drawn",),
        self_drawn=True,
        kong=True,
    ),
    case(
        "杠上开花-暗杠",
        "{EEEE}123m456p789s5s 5s",
        {
            "Mixed Straight": 1,
            "Out with Replacement Tile": 1,
            "Fully Concealed Hand": 1,
            "Concealed Kong": 1,
            "Pung of Terminals or Honors": 1,
            "Single Wait": 1,
        },
        24,
        removed=("Self-Drawn",),
        self_drawn=True,
        kong=True,
        seat_wind="S",
        prevalent_wind="N",
    ),
    case("抢杠和", CHICKEN, {"Robbing the Kong": 1}, 8, removed=("Chicken Hand",), kong=True),
    case("抢杠和-不计和绝张", CHICKEN, {"Robbing the Kong": 1}, 8, removed=("Last Tile",), kong=True, fourth_tile=True),
    # ---- 6 ----------------------------------------------------------------------------------
    case(
        "碰碰和", "[222m1][222p2]888s99sEE 9s", {"All Pungs": 1, "Double Pung": 1, "Pung of Terminals or Honors": 1}, 9
    ),
    case(
        "混一色",
        "[123m1][EEE2]567m789m5m 5m",
        {"Half Flush": 1, "Two Terminal Chows": 1, "Pung of Terminals or Honors": 1},
        8,
        removed=("One Voided Suit",),
        seat_wind="S",
        prevalent_wind="N",
    ),
    case("三色三步高", "[123m1]234p345s678s9s 9s", {"Mixed Shifted Chows": 1, "All Chows": 1, "Short Straight": 1}, 9),
    case(
        "五门齐",
        "[123m1][EEE2]567p89sCC 7s",
        {"All Types": 1, "Pung of Terminals or Honors": 1, "Edge Wait": 1},
        8,
        seat_wind="S",
        prevalent_wind="S",
    ),
    case(
        "全求人",
        "[123m1][456p1][789s1][EEE2]C C",
        {"Mixed Straight": 1, "All Types": 1, "Melded Hand": 1, "Pung of Terminals or Honors": 1},
        21,
        removed=("Single Wait",),
        seat_wind="S",
        prevalent_wind="S",
    ),
    case(
        "双暗杠",
        "{5555m}{7777p}[123s1]234s9s 9s",
        {"Two Concealed Kongs": 1, "No Honors": 1, "Single Wait": 1},
        8,
        removed=("Two Concealed Pungs", "Concealed Kong"),
    ),
    case(
        "双箭刻",
        "[CCC1][FFF2]123m456m9m 9m",
        {"Two Dragon Pungs": 1, "Half Flush": 1, "Short Straight": 1, "Single Wait": 1},
        14,
        removed=("Dragon Pung", "One Voided Suit"),
    ),
    # 全求人 needs a discard win: the same hand self-drawn scores 自摸 and keeps its 单钓将
    case(
        "全求人-自摸不成立",
        "[123m1][456p1][789s1][EEE2]C C",
        {"Mixed Straight": 1, "All Types": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1, "Self-Drawn": 1},
        17,
        self_drawn=True,
        seat_wind="S",
        prevalent_wind="S",
    ),
    case(
        "推不倒-白板刻",
        "[PPP1]123p345p888s5s 5s",
        {"Reversible Tiles": 1, "Dragon Pung": 1, "Single Wait": 1},
        11,
        removed=("One Voided Suit",),
    ),
]


@pytest.mark.parametrize(PARAMS, CASES)
def test_fan(hand, flags, expected, total, profiles, removed):
    check(hand, flags, expected, total, profiles, removed)


# ---- 明暗杠 (botzone profile only, 5) ---------------------------------------------------------
KONG_CASES = [
    case(
        "明暗杠-botzone",
        "[CCCC2]{FFFF}123m456m9m 9m",
        {
            "Two Dragon Pungs": 1,
            "Half Flush": 1,
            "Concealed Kong and Melded Kong": 1,
            "Short Straight": 1,
            "Single Wait": 1,
        },
        19,
        profiles=("botzone",),
        removed=("Concealed Kong", "Melded Kong", "Dragon Pung"),
    ),
    case(
        "明暗杠-gb计暗杠明杠",
        "[CCCC2]{FFFF}123m456m9m 9m",
        {
            "Two Dragon Pungs": 1,
            "Half Flush": 1,
            "Concealed Kong": 1,
            "Short Straight": 1,
            "Melded Kong": 1,
            "Single Wait": 1,
        },
        17,
        profiles=("gb",),
        removed=("Concealed Kong and Melded Kong",),
    ),
    case(
        "明暗杠-三杠不计",
        "[1111m1]{5555p}[7777s3]234s9s 9s",
        {"Three Kongs": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
        35,
        removed=("Concealed Kong and Melded Kong", "Concealed Kong", "Melded Kong", "Two Melded Kongs"),
    ),
    case(
        "明暗杠-四杠不计",
        "[1111m1]{2222m}[5555p3][7777s1]9s 9s",
        {"Four Kongs": 1, "Pung of Terminals or Honors": 1, "No Honors": 1},
        90,
        removed=("Concealed Kong and Melded Kong", "Three Kongs", "All Pungs", "Single Wait"),
    ),
]


@pytest.mark.parametrize(PARAMS, KONG_CASES)
def test_concealed_and_melded_kong(hand, flags, expected, total, profiles, removed):
    check(hand, flags, expected, total, profiles, removed)
