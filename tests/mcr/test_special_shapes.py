"""The special shapes: 七对, 连七对 (see also test_fans_88_64), 十三幺, 全不靠, 七星不靠, 组合龙, 九莲宝灯."""

import pytest

from .cases import PARAMS, case, check

CASES = [
    # ---- 七对 -------------------------------------------------------------------------------
    case(
        "七对", "1133m5577p99sEEC C", {"Seven Pairs": 1, "All Types": 1}, 30, removed=("Concealed Hand", "Single Wait")
    ),
    case(
        "七对-自摸",
        "2244m6688p2266s4s 4s",
        {"Seven Pairs": 1, "All Simples": 1, "Self-Drawn": 1},
        27,
        removed=("Fully Concealed Hand", "No Honors", "Single Wait"),
        self_drawn=True,
    ),
    case("七对-四归一", "1111m3355p77s99sE E", {"Seven Pairs": 1, "Tile Hog": 1}, 26),
    case(
        "七对-清一色",
        "1122334455779m 9m",
        {"Seven Pairs": 1, "Full Flush": 1},
        48,
        removed=("No Honors", "Concealed Hand"),
    ),
    # ---- 连七对 ------------------------------------------------------------------------------
    case(
        "连七对-中段",
        "3344556677889p 9p",
        {"Seven Shifted Pairs": 1},
        88,
        removed=("Seven Pairs", "Full Flush", "Concealed Hand", "Single Wait", "No Honors"),
    ),
    # ---- 十三幺 ------------------------------------------------------------------------------
    case(
        "十三幺-单钓中",
        "19m19p19sESWNFPP C",
        {"Thirteen Orphans": 1},
        88,
        removed=("All Types", "Concealed Hand", "Single Wait", "All Terminals and Honors"),
    ),
    # ---- 全不靠 / 七星不靠 ---------------------------------------------------------------------
    case(
        "全不靠",
        "147m25p369sESWNC F",
        {"Lesser Honors and Knitted Tiles": 1},
        12,
        removed=("All Types", "Concealed Hand", "Single Wait"),
    ),
    case(
        "全不靠-组合龙",
        "147m258p369sESWN C",
        {"Lesser Honors and Knitted Tiles": 1, "Knitted Straight": 1},
        24,
        removed=("All Types", "Concealed Hand"),
    ),
    case(
        "全不靠-组合龙自摸",
        "147m258p369sESWC N",
        {"Lesser Honors and Knitted Tiles": 1, "Knitted Straight": 1, "Self-Drawn": 1},
        25,
        removed=("Fully Concealed Hand",),
        self_drawn=True,
    ),
    case(
        "七星不靠",
        "147m25p36sESWNCF P",
        {"Greater Honors and Knitted Tiles": 1},
        24,
        removed=("Lesser Honors and Knitted Tiles", "All Types", "Concealed Hand", "Single Wait"),
    ),
    case(
        "七星不靠-自摸",
        "14m25p36sESWNCFP 7m",
        {"Greater Honors and Knitted Tiles": 1, "Self-Drawn": 1},
        25,
        removed=("Lesser Honors and Knitted Tiles", "Fully Concealed Hand"),
        self_drawn=True,
    ),
    # ---- 组合龙 ------------------------------------------------------------------------------
    case("组合龙", "147m258p369s123mC C", {"Knitted Straight": 1, "Concealed Hand": 1, "Single Wait": 1}, 15),
    case(
        "组合龙-平和",
        "147m258p369s234m8s 8s",
        {"Knitted Straight": 1, "All Chows": 1, "Concealed Hand": 1, "Single Wait": 1},
        17,
        removed=("No Honors",),
    ),
    case("组合龙-副露", "[123p1]147m258s369pC C", {"Knitted Straight": 1, "Single Wait": 1}, 13),
    case(
        "组合龙-五门齐",
        "147m258p369sEEEC C",
        {
            "Knitted Straight": 1,
            "All Types": 1,
            "Concealed Hand": 1,
            "Pung of Terminals or Honors": 1,
            "Single Wait": 1,
        },
        22,
        seat_wind="S",
        prevalent_wind="S",
    ),
    # the winning 7m completes the 147m of the knitted straight, and is also read as the edge of 789m (mcr.md §5)
    case(
        "组合龙-龙内和张读边张",
        "14m258p369s789mCC 7m",
        {"Knitted Straight": 1, "Concealed Hand": 1, "Edge Wait": 1},
        15,
        profiles=("gb", "pymahjonggb"),
    ),
    # the Botzone judge's fan calculator: a winning tile inside the 组合龙 is no 边张/坎张/单钓将
    case(
        "组合龙-龙内和张不计边张-botzone",
        "14m258p369s789mCC 7m",
        {"Knitted Straight": 1, "Concealed Hand": 1},
        14,
        profiles=("botzone",),
    ),
    # ---- 九莲宝灯 -----------------------------------------------------------------------------
    case(
        "九莲宝灯-和九万",
        "1112345678999m 9m",
        {"Nine Gates": 1, "Pure Straight": 1, "Tile Hog": 1},
        106,
        removed=("Full Flush", "Concealed Hand", "Pung of Terminals or Honors"),
    ),
    case(
        "九莲宝灯-和二万",
        "1112345678999m 2m",
        {"Nine Gates": 1, "Short Straight": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1},
        92,
    ),
    case("九莲宝灯-和三饼", "1112345678999p 3p", {"Nine Gates": 1, "Short Straight": 1}, 89),
    case(
        "七星不靠-妙手回春",
        "147m25p36sESWNCF P",
        {"Greater Honors and Knitted Tiles": 1, "Last Tile Draw": 1},
        32,
        removed=("Self-Drawn", "Fully Concealed Hand"),
        self_drawn=True,
        last_tile=True,
    ),
    case(
        "全不靠-和绝张",
        "147m25p369sESWNC F",
        {"Lesser Honors and Knitted Tiles": 1, "Last Tile": 1},
        16,
        fourth_tile=True,
    ),
    case(
        "组合龙-暗杠杠上开花",
        "{EEEE}147m258p369s5m 5m",
        {
            "Knitted Straight": 1,
            "Out with Replacement Tile": 1,
            "Fully Concealed Hand": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Concealed Kong": 1,
            "Single Wait": 1,
        },
        31,
        removed=("Self-Drawn", "Pung of Terminals or Honors"),
        self_drawn=True,
        kong=True,
    ),
    case(
        "组合龙-明杠",
        "[EEEE1]147m258p369s5m 5m",
        {"Knitted Straight": 1, "Pung of Terminals or Honors": 1, "Melded Kong": 1, "Single Wait": 1},
        15,
        seat_wind="S",
        prevalent_wind="S",
    ),
]


@pytest.mark.parametrize(PARAMS, CASES)
def test_fan(hand, flags, expected, total, profiles, removed):
    check(hand, flags, expected, total, profiles, removed)
