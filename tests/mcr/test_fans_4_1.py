"""4-, 2- and 1-point fans.  Most hands are built on 花龙 (Mixed Straight) so that they are real wins."""

import pytest

from .cases import PARAMS, case, check

CASES = [
    # ---- 4 ----------------------------------------------------------------------------------
    case(
        "全带幺",
        "[123m1][999p2]789s123s1p 1p",
        {
            "Outside Hand": 1,
            "Mixed Double Chow": 1,
            "Two Terminal Chows": 1,
            "Pung of Terminals or Honors": 1,
            "No Honors": 1,
            "Single Wait": 1,
        },
        9,
    ),
    case(
        "不求人",
        "123m456p789s234s5s 5s",
        {"Mixed Straight": 1, "Fully Concealed Hand": 1, "All Chows": 1},
        14,
        removed=("Self-Drawn", "Concealed Hand"),
        self_drawn=True,
    ),
    case(
        "双明杠",
        "[CCCC1][FFFF2]123m456m9m 9m",
        {"Two Dragon Pungs": 1, "Two Melded Kongs": 1, "Half Flush": 1, "Short Straight": 1, "Single Wait": 1},
        18,
        removed=("Melded Kong", "Dragon Pung"),
    ),
    case(
        "和绝张",
        "[123m1]456p789s55m34m 2m",
        {"Mixed Straight": 1, "All Chows": 1, "Last Tile": 1},
        14,
        fourth_tile=True,
    ),
    # ---- 2 ----------------------------------------------------------------------------------
    case("箭刻", "[CCC1]123m456p789s5s 5s", {"Mixed Straight": 1, "Dragon Pung": 1, "Single Wait": 1}, 11),
    case(
        "圈风刻",
        "[SSS1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Prevalent Wind": 1, "Single Wait": 1},
        11,
        removed=("Pung of Terminals or Honors",),
        seat_wind="E",
        prevalent_wind="S",
    ),
    case(
        "门风刻",
        "[SSS1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Seat Wind": 1, "Single Wait": 1},
        11,
        removed=("Pung of Terminals or Honors",),
        seat_wind="S",
        prevalent_wind="E",
    ),
    case(
        "圈风刻-门风刻",
        "[SSS1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Prevalent Wind": 1, "Seat Wind": 1, "Single Wait": 1},
        13,
        removed=("Pung of Terminals or Honors",),
        seat_wind="S",
        prevalent_wind="S",
    ),
    case("门前清", "123m456p789s234s5s 5s", {"Mixed Straight": 1, "Concealed Hand": 1, "All Chows": 1}, 12),
    case(
        "平和",
        "[234m1]234p234s567s8m 8m",
        {"Mixed Triple Chow": 1, "All Chows": 1, "All Simples": 1, "Short Straight": 1, "Single Wait": 1},
        14,
        removed=("No Honors", "Mixed Double Chow"),
    ),
    case("四归一", "[123m1]456p789s345m3m 3m", {"Mixed Straight": 1, "All Chows": 1, "Tile Hog": 1}, 12),
    case(
        "双同刻-双暗刻",
        "[222m1][SSS1]222p888s5s 5s",
        {
            "All Pungs": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Double Pung": 1,
            "Two Concealed Pungs": 1,
            "Single Wait": 1,
        },
        15,
        seat_wind="S",
        prevalent_wind="S",
    ),
    case(
        "暗杠",
        "{1111s}123m456p789s5s 5s",
        {
            "Mixed Straight": 1,
            "Concealed Hand": 1,
            "Concealed Kong": 1,
            "Pung of Terminals or Honors": 1,
            "No Honors": 1,
            "Single Wait": 1,
        },
        15,
    ),
    # ---- 1 ----------------------------------------------------------------------------------
    case(
        "一般高",
        "[123m1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "All Chows": 1, "Pure Double Chow": 1, "Single Wait": 1},
        12,
    ),
    case(
        "幺九刻-客风",
        "[SSS1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
        10,
        seat_wind="E",
        prevalent_wind="E",
    ),
    case(
        "幺九刻-九万",
        "[999m1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
        11,
    ),
    case(
        "明杠",
        "[EEEE1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1, "Melded Kong": 1, "Single Wait": 1},
        11,
        seat_wind="S",
        prevalent_wind="N",
    ),
    case(
        "边张",
        "[123m1]456p89sEEE55s 7s",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1, "Edge Wait": 1},
        10,
        seat_wind="S",
        prevalent_wind="N",
    ),
    case(
        "边张-一二听三",
        "[456p1]12m789sEEE99s 3m",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1, "Edge Wait": 1},
        10,
        seat_wind="S",
        prevalent_wind="N",
    ),
    # 8999s waits on 7s and 8s: not a unique wait, so no 边张
    case(
        "边张-非唯一听",
        "[123m1]456p8999sEEE 7s",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1},
        9,
        removed=("Edge Wait",),
        seat_wind="S",
        prevalent_wind="N",
    ),
    case(
        "坎张",
        "[123m1]456p79sEEE55s 8s",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1, "Closed Wait": 1},
        10,
        seat_wind="S",
        prevalent_wind="N",
    ),
    case(
        "坎张-非唯一听",
        "[123m1]456p7999sEEE 8s",
        {"Mixed Straight": 1, "Pung of Terminals or Honors": 1},
        9,
        removed=("Closed Wait",),
        seat_wind="S",
        prevalent_wind="N",
    ),
    # 3456s waits on 3s and 6s: the pair is the winning tile but not a unique wait
    case(
        "单钓将-非唯一听",
        "[123m1]456p789s3456s 6s",
        {"Mixed Straight": 1, "All Chows": 1},
        10,
        removed=("Single Wait",),
    ),
    case(
        "自摸", "[123m1]456p789s234s5s 5s", {"Mixed Straight": 1, "All Chows": 1, "Self-Drawn": 1}, 11, self_drawn=True
    ),
    case("花牌", "[234m1][678p1][333s2]45sEE 6s", {"Chicken Hand": 1, "Flower Tiles": 3}, 11, flowers=3),
    case("花牌-写在牌串里", "[234m1][678p1][333s2]45sEEf1f5 6s", {"Chicken Hand": 1, "Flower Tiles": 2}, 10),
    # mcr.md §5: 1m is a wait even though all four 1m are in this hand, so 4m is not a unique wait
    case(
        "单钓将-绝张仍算听",
        "[111m1][456p1][789s1]1234m 4m",
        {"Mixed Straight": 1, "Tile Hog": 1, "Pung of Terminals or Honors": 1, "No Honors": 1},
        12,
        removed=("Single Wait",),
    ),
    case(
        "四归一-含碰出的刻",
        "[999s2]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Tile Hog": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
        13,
    ),
    case(
        "一般高-两组",
        "[234m1]234m567p567p8s 8s",
        {"All Chows": 1, "All Simples": 1, "Pure Double Chow": 2, "Single Wait": 1, "Self-Drawn": 1},
        8,
        removed=("No Honors",),
        self_drawn=True,
    ),
]


@pytest.mark.parametrize(PARAMS, CASES)
def test_fan(hand, flags, expected, total, profiles, removed):
    check(hand, flags, expected, total, profiles, removed)
