"""The principles of mcr.md §5 (第十条): 不重复, 不拆移, 不得相同, 就高不就低, 套算一次; wind pungs and
幺九刻; 四暗刻 with a self-draw; the winning-tile flags and their contradictions; flowers."""

import pytest

from majiang.mcr import InvalidHandError, WinningHand, score

from .cases import PARAMS, case, check

CASES = [
    # ---- 套算一次: four chows combine at most three times (each chow may join a used one once) --------
    # 234s 567s 234p 567p: 喜相逢 ×2 and 连六 ×2 are possible, only three are counted
    case(
        "套算一次-四顺",
        "234567s234567p8m 8m",
        {
            "Concealed Hand": 1,
            "All Chows": 1,
            "All Simples": 1,
            "Mixed Double Chow": 2,
            "Short Straight": 1,
            "Single Wait": 1,
        },
        10,
        removed=("No Honors",),
    ),
    case(
        "套算一次-三同顺加一顺",
        "[123m1]123m123m123p5s 5s",
        {"Pure Triple Chow": 1, "All Chows": 1, "Mixed Double Chow": 1, "Single Wait": 1},
        28,
        removed=("Pure Double Chow",),
    ),
    case(
        "套算一次-清龙加一顺",
        "[123m1]123m456m789m5p 5p",
        {"Pure Straight": 1, "All Chows": 1, "Pure Double Chow": 1, "One Voided Suit": 1, "Single Wait": 1},
        21,
        removed=("Short Straight", "Two Terminal Chows"),
    ),
    # the extra 123p could join 123m (喜相逢) or 456p (连六): once only
    case(
        "套算一次-花龙加一顺",
        "[123m1]123p456p789s5s 5s",
        {"Mixed Straight": 1, "All Chows": 1, "Mixed Double Chow": 1, "Single Wait": 1},
        12,
        removed=("Short Straight",),
    ),
    # ---- 不得相同: a chow used for 喜相逢 does not form a second 喜相逢 with the other 123m ------------
    # (789s9s also waits on 6s, so no 单钓将)
    case(
        "不得相同",
        "[123m1]123m123p789s9s 9s",
        {"Outside Hand": 1, "All Chows": 1, "Pure Double Chow": 1, "Mixed Double Chow": 1},
        8,
        removed=("Single Wait",),
    ),
    # ---- 不拆移: the sets of 一色三步高 are not split again into 连六 / 一般高 -------------------------
    case(
        "不拆移-一色三步高",
        "[123m1]234m345m678p9p 9p",
        {"Pure Shifted Chows": 1, "All Chows": 1, "One Voided Suit": 1},
        19,
        removed=("Short Straight",),
    ),
    # ---- 就高不就低: the highest-scoring reading ----------------------------------------------
    # 111 222 333m (一色三节高 + 三暗刻) beats 123 123 123m (一色三同顺 + 平和)
    case(
        "就高不就低-节高胜同顺",
        "111222333m456p9p 9p",
        {
            "Pure Shifted Pungs": 1,
            "Three Concealed Pungs": 1,
            "Concealed Hand": 1,
            "Pung of Terminals or Honors": 1,
            "One Voided Suit": 1,
            "No Honors": 1,
            "Single Wait": 1,
        },
        46,
        removed=("Pure Triple Chow", "All Chows"),
    ),
    # 123m ×4 (一色四同顺) beats 111 222 333 123m (一色三节高 + 三暗刻)
    case(
        "就高不就低-四同顺胜节高",
        "111122223333m5p 5p",
        {"Quadruple Chow": 1, "Fully Concealed Hand": 1, "All Chows": 1, "One Voided Suit": 1, "Single Wait": 1},
        56,
        removed=("Pure Shifted Pungs", "Three Concealed Pungs", "Tile Hog"),
        self_drawn=True,
    ),
    # 七对 (24) beats 234m 234m 567p 567p 88s (一般高 ×2, 平和, 门前清 …)
    case(
        "就高不就低-七对",
        "223344m556677p8s 8s",
        {"Seven Pairs": 1, "All Simples": 1},
        26,
        removed=("Pure Double Chow", "All Chows", "Concealed Hand"),
    ),
    # 一色双龙会 (64) beats 七对 + 清一色 (48)
    case(
        "就高不就低-双龙会胜七对",
        "1122337788995m 5m",
        {"Pure Terminal Chows": 1, "Concealed Hand": 1, "Single Wait": 1},
        67,
        removed=("Seven Pairs", "Full Flush"),
    ),
    # 111 234 44m 444p 444s (三暗刻 + 小于五 + 双同刻 + 幺九刻 = 33) beats 11 123 444m 444p 444s (三同刻 +
    # 小于五 + 双暗刻 = 32: the discarded 4m opens the 444m pung)
    case(
        "就高不就低-三暗刻胜三同刻",
        "1112344m444p444s 4m",
        {
            "Three Concealed Pungs": 1,
            "Lower Four": 1,
            "Concealed Hand": 1,
            "Double Pung": 1,
            "Pung of Terminals or Honors": 1,
        },
        33,
        removed=("Triple Pung",),
    ),
    # 111m 234 555 22p 333s (三暗刻, 20) beats 111m 222p 333s 345 55p (三色三节高 + 双暗刻, 14: the discarded
    # 2p opens the 222p pung)
    case(
        "就高不就低-三暗刻胜三色三节高",
        "111m2234555p333s 2p",
        {"Three Concealed Pungs": 1, "Concealed Hand": 1, "Pung of Terminals or Honors": 1, "No Honors": 1},
        20,
        removed=("Mixed Shifted Pungs",),
    ),
    # 333 444 555m 555p 55s (一色三节高 + 三暗刻 + 碰碰和 …, 52) beats 345m ×3 555p 55s (一色三同顺 + 全带五, 42)
    case(
        "就高不就低-节高胜全带五",
        "33444555m555p55s 3m",
        {
            "Pure Shifted Pungs": 1,
            "Three Concealed Pungs": 1,
            "All Pungs": 1,
            "Concealed Hand": 1,
            "Double Pung": 1,
            "All Simples": 1,
        },
        52,
        removed=("All Five", "Pure Triple Chow"),
    ),
    # ---- wind pungs and 幺九刻 -------------------------------------------------------------------
    case(
        "风刻-门风圈风同风",
        "[EEE1]123m456p789s5s 5s",
        {"Mixed Straight": 1, "Prevalent Wind": 1, "Seat Wind": 1, "Single Wait": 1},
        13,
        removed=("Pung of Terminals or Honors",),
        seat_wind="E",
        prevalent_wind="E",
    ),
    case(
        "风刻-两个风刻",
        "[EEE1][SSS2]123m456m9m 9m",
        {"Half Flush": 1, "Prevalent Wind": 1, "Seat Wind": 1, "Short Straight": 1, "Single Wait": 1},
        12,
        removed=("Pung of Terminals or Honors",),
        seat_wind="S",
        prevalent_wind="E",
    ),
    case(
        "风刻-客风计幺九刻",
        "[WWW1][NNN2]123m456m9m 9m",
        {"Half Flush": 1, "Pung of Terminals or Honors": 2, "Short Straight": 1, "Single Wait": 1},
        10,
        seat_wind="S",
        prevalent_wind="E",
    ),
    # ---- 四暗刻 with a self-draw: 不求人 is implied, the 自摸 still counts (community ruling) ----------
    case(
        "四暗刻-自摸计自摸",
        "222m444p666s888sP P",
        {"Four Concealed Pungs": 1, "Single Wait": 1, "Self-Drawn": 1},
        66,
        removed=("Fully Concealed Hand", "Concealed Hand", "All Pungs"),
        self_drawn=True,
    ),
    # ---- flags ----------------------------------------------------------------------------------
    case(
        "和绝张-点和",
        "[123m1]456p789s55m34m 2m",
        {"Mixed Straight": 1, "All Chows": 1, "Last Tile": 1},
        14,
        fourth_tile=True,
    ),
    case(
        "和绝张-自摸",
        "[123m1]456p789s55m34m 2m",
        {"Mixed Straight": 1, "All Chows": 1, "Last Tile": 1, "Self-Drawn": 1},
        15,
        fourth_tile=True,
        self_drawn=True,
    ),
    case(
        "妙手回春-和绝张",
        "[123m1]456p789s55m34m 2m",
        {"Mixed Straight": 1, "Last Tile Draw": 1, "All Chows": 1, "Last Tile": 1},
        22,
        removed=("Self-Drawn",),
        fourth_tile=True,
        self_drawn=True,
        last_tile=True,
    ),
    case(
        "海底捞月-和绝张",
        "[123m1]456p789s55m34m 2m",
        {"Mixed Straight": 1, "Last Tile Claim": 1, "All Chows": 1, "Last Tile": 1},
        22,
        fourth_tile=True,
        last_tile=True,
    ),
    case(
        "杠上开花-和绝张",
        "[123m1][EEEE2]789s55m34m 2m",
        {
            "Out with Replacement Tile": 1,
            "Last Tile": 1,
            "Pung of Terminals or Honors": 1,
            "Melded Kong": 1,
            "One Voided Suit": 1,
        },
        15,
        removed=("Self-Drawn",),
        fourth_tile=True,
        self_drawn=True,
        kong=True,
        seat_wind="S",
        prevalent_wind="W",
    ),
    # the robbed tile cannot be anywhere else in the hand (the other three are in the robbed kong)
    case(
        "抢杠和-花龙",
        "[123m1]456p789s55m67m 8m",
        {"Mixed Straight": 1, "Robbing the Kong": 1, "All Chows": 1},
        18,
        removed=("Last Tile",),
        kong=True,
        fourth_tile=True,
    ),
    # 123m 123p 789m 789p: 喜相逢 ×2 and 老少副 ×2 possible, three counted (老少副 is cut first)
    case(
        "套算一次-两喜相逢两老少副",
        "[123m1][123p1]789m789p5m 5m",
        {
            "All Chows": 1,
            "Mixed Double Chow": 2,
            "Two Terminal Chows": 1,
            "One Voided Suit": 1,
            "Single Wait": 1,
            "Self-Drawn": 1,
        },
        8,
        self_drawn=True,
    ),
    # 46m + 5m (坎张) or 456m + 5m (单钓将): one wait fan only
    case(
        "边坎钓只计一个",
        "456m345p567s456s5m 5m",
        {
            "All Five": 1,
            "Mixed Shifted Chows": 1,
            "Concealed Hand": 1,
            "All Chows": 1,
            "Mixed Double Chow": 1,
            "Closed Wait": 1,
        },
        28,
        removed=("Single Wait",),
    ),
    # the other three 5m are this hand's own melded pung: necessarily the last 5m, flag or not
    case(
        "和绝张-三张在自家刻子",
        "[555m2]34m456p567sEE 5m",
        {"Mixed Shifted Chows": 1, "Last Tile": 1, "Tile Hog": 1},
        12,
    ),
]


@pytest.mark.parametrize(PARAMS, CASES)
def test_principle(hand, flags, expected, total, profiles, removed):
    check(hand, flags, expected, total, profiles, removed)


@pytest.mark.parametrize(
    ("hand", "flags", "message"),
    [
        pytest.param(
            "[123m1]456p789s55m34m 2m", {"kong": True, "last_tile": True}, "海底捞月", id="抢杠和-海底捞月矛盾"
        ),
        pytest.param("[123m1]456p789s25m34m 2m", {"kong": True}, "抢杠和", id="抢杠和-手中有同张"),
        pytest.param("[123m1]456p789s55m34m 2m", {"kong": True, "self_drawn": True}, "杠上开花", id="杠上开花-无杠"),
        pytest.param("[123m1]456p789s25m34m 2m", {"fourth_tile": True}, "和绝张", id="和绝张-手中有同张"),
    ],
)
def test_contradictory_flags(hand, flags, message):
    with pytest.raises(InvalidHandError, match=message):
        score(WinningHand.from_string(hand, **flags))


def test_flowers_do_not_count_towards_the_minimum():
    r = score(WinningHand.from_string("[234m1][678p1][333s2]45sEE 6s", self_drawn=True, flowers=8))
    assert {fc.name: fc.count for fc in r.fans} == {"Self-Drawn": 1, "Flower Tiles": 8}
    assert (r.total, r.fan_points, r.below_minimum, r.valid) == (9, 1, True, False)


def test_chicken_hand_with_flowers_is_a_valid_win():
    r = score(WinningHand.from_string("[234m1][678p1][333s2]45sEE 6s", flowers=2))
    assert (r.total, r.fan_points, r.below_minimum, r.valid) == (10, 8, False, True)
