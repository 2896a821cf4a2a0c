"""48-, 32- and 24-point fans (the special shapes 七对 and 七星不靠 are in test_special_shapes.py)."""

import pytest

from .cases import PARAMS, case, check

CASES = [
    # ---- 48 ---------------------------------------------------------------------------------
    case(
        "一色四同顺",
        "[123m1]123m123m123m5p 5p",
        {"Quadruple Chow": 1, "All Chows": 1, "One Voided Suit": 1, "Single Wait": 1},
        52,
        removed=("Pure Triple Chow", "Pure Double Chow", "Tile Hog", "No Honors"),
    ),
    case(
        "一色四节高",
        "[111m1][222m2]333m444m5p 5p",
        {
            "Four Pure Shifted Pungs": 1,
            "Two Concealed Pungs": 1,
            "Pung of Terminals or Honors": 1,
            "One Voided Suit": 1,
            "No Honors": 1,
            "Single Wait": 1,
        },
        54,
        removed=("Pure Shifted Pungs", "All Pungs"),
    ),
    case(
        "一色四节高-碰碰和不计",
        "[333p1][444p2][555p3][666p1]E E",
        {"Four Pure Shifted Pungs": 1, "Half Flush": 1, "Melded Hand": 1},
        60,
        removed=("All Pungs", "Single Wait"),
    ),
    # ---- 32 ---------------------------------------------------------------------------------
    case(
        "一色四步高",
        "[123p1]345p567p789p5s 5s",
        {"Four Pure Shifted Chows": 1, "All Chows": 1, "One Voided Suit": 1, "Single Wait": 1},
        36,
        removed=("Pure Shifted Chows", "Two Terminal Chows", "No Honors"),
    ),
    case(
        "一色四步高-一步",
        "[123m1]234m345m456m9p 9p",
        {"Four Pure Shifted Chows": 1, "All Chows": 1, "One Voided Suit": 1, "Single Wait": 1},
        36,
        removed=("Pure Shifted Chows", "Short Straight"),
    ),
    case(
        "三杠",
        "[1111m1][5555p2][7777s3]234s9s 9s",
        {"Three Kongs": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
        35,
        removed=("Two Melded Kongs", "Melded Kong"),
    ),
    case(
        "三杠-两暗杠",
        "{1111m}{5555p}[7777s3]234s9s 9s",
        {
            "Three Kongs": 1,
            "Two Concealed Pungs": 1,
            "Pung of Terminals or Honors": 1,
            "No Honors": 1,
            "Single Wait": 1,
        },
        37,
        removed=("Two Concealed Kongs", "Concealed Kong", "Melded Kong"),
    ),
    case(
        "混幺九",
        "[111m1][999p2]EEE111sC C",
        {"All Terminals and Honors": 1, "Double Pung": 1, "Two Concealed Pungs": 1, "All Types": 1, "Single Wait": 1},
        43,
        removed=("All Pungs", "Outside Hand", "Pung of Terminals or Honors"),
        seat_wind="S",
        prevalent_wind="N",
    ),
    # ---- 24 ---------------------------------------------------------------------------------
    case(
        "全双刻",
        "[222m1][444p2]666s888s2p 2p",
        {"All Even Pungs": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
        27,
        removed=("All Pungs", "All Simples", "No Honors"),
    ),
    # 就高不就低: 123 345 678 999 66 (连六 + 幺九刻) beats 123 345 666 789 99 (老少副)
    case(
        "清一色",
        "[123m1]345m789m666m9m 9m",
        {"Full Flush": 1, "Short Straight": 1, "Pung of Terminals or Honors": 1},
        26,
        removed=("No Honors", "One Voided Suit", "Two Terminal Chows"),
    ),
    case(
        "一色三同顺",
        "[123m1]123m123m456p9p 9p",
        {"Pure Triple Chow": 1, "All Chows": 1, "One Voided Suit": 1, "Single Wait": 1},
        28,
        removed=("Pure Double Chow",),
    ),
    case(
        "一色三节高",
        "[222m1]333m444m234p9p 9p",
        {"Pure Shifted Pungs": 1, "Two Concealed Pungs": 1, "One Voided Suit": 1, "No Honors": 1, "Single Wait": 1},
        29,
    ),
    case(
        "全大",
        "[789m1][999p2]777s888s9s 9s",
        {"Upper Tiles": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1},
        27,
        removed=("Upper Four", "No Honors"),
    ),
    # 444s666s5s waits on 3s-7s, so no 单钓将
    case(
        "全中",
        "[456m1][555p2]444s666s5s 5s",
        {"Middle Tiles": 1, "Two Concealed Pungs": 1},
        26,
        removed=("All Simples", "No Honors", "Single Wait"),
    ),
    case(
        "全小",
        "[123m1][111p2]222s333s1s 1s",
        {"Lower Tiles": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1},
        27,
        removed=("Lower Four", "No Honors"),
    ),
    case(
        "全双刻-三同刻",
        "[222m1][222p2]222s444m6s 6s",
        {"All Even Pungs": 1, "Triple Pung": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
        43,
        removed=("All Pungs", "All Simples", "No Honors", "Double Pung"),
    ),
    case(
        "清幺九-四暗刻",
        "111m111p999s999m9p 9p",
        {"All Terminals": 1, "Four Concealed Pungs": 1, "Single Wait": 1},
        129,
        removed=("All Pungs", "Double Pung", "Concealed Hand", "Pung of Terminals or Honors", "Outside Hand"),
    ),
    case(
        "一色四节高-四暗刻清一色",
        "1112223334445m 5m",
        {"Four Concealed Pungs": 1, "Four Pure Shifted Pungs": 1, "Full Flush": 1, "Pung of Terminals or Honors": 1},
        137,
        removed=("Pure Shifted Pungs", "All Pungs", "Concealed Hand", "No Honors", "Three Concealed Pungs"),
    ),
]


@pytest.mark.parametrize(PARAMS, CASES)
def test_fan(hand, flags, expected, total, profiles, removed):
    check(hand, flags, expected, total, profiles, removed)
