"""The seed's four worked examples (spec §3) and test cases TC2–TC13 (§5), with their exact deltas."""

from __future__ import annotations

from typing import Any

import pytest
from nc_helpers import chow, kong, pung, table

from majiang.nanchang import settle_dict


def ok(d: dict[str, Any]) -> dict[str, Any]:
    r = settle_dict(d)
    assert "error" not in r, r
    assert sum(r["deltas"]) == 0
    for part in r["parts"].values():
        assert sum(part) == 0
    assert [sum(x) for x in zip(*r["parts"].values(), strict=True)] == r["deltas"]
    return r


# ---- seed §3 -------------------------------------------------------------------------------------


def test_seed_example_1_non_dealer_jingdiao_seven_pairs() -> None:
    d = table("5p", {1: {"concealed": "1m1m 3s3s 9p9p EE CC 7m7m 5p"}}, winner=1, win_tile="2s", method="self_drawn")
    r = ok(d)
    assert r["hu"] == ["精钓", "小七对"]
    assert r["multiplier"] == 4
    assert r["parts"]["win"] == [-16, 32, -8, -8]


def test_seed_example_2_dealer_gangkai_german() -> None:
    d = table(
        "5p",
        {0: {"concealed": "123m 456m 789p E", "melds": [kong("9s", concealed=True)]}, 2: {"concealed": "6p"}},
        winner=0,
        win_tile="E",
        method="kong_replacement",
    )
    r = ok(d)
    assert r["hu"] == ["杠开", "德国", "平胡"]
    assert r["multiplier"] == 4
    assert r["parts"]["win"] == [63, -21, -21, -21]
    assert r["parts"]["kong"] == [6, -2, -2, -2]


def test_seed_example_3_non_dealer_jingdiao_earthly() -> None:
    d = table(
        "5p", {1: {"concealed": "123m 456m 789m 123s 5p"}}, winner=1, win_tile="7s", method="earthly", discarder=0
    )
    r = ok(d)
    assert r["hu"] == ["地胡", "精钓"]
    assert r["parts"]["win"] == [-40, 80, -20, -20]


def test_seed_example_4_dealer_german_seven_star() -> None:
    d = table(
        "9s",
        {0: {"concealed": "E S W N C F P 1m 4m 7m 2p 5p 8p"}, 2: {"concealed": "1s"}},
        winner=0,
        win_tile="3s",
        method="self_drawn",
    )
    r = ok(d)
    assert r["hu"] == ["德国", "七星十三烂"]
    assert r["multiplier"] == 8
    assert r["parts"]["win"] == [111, -37, -37, -37]


# ---- §5 ------------------------------------------------------------------------------------------


def tc2(**options: Any) -> dict[str, Any]:
    return table(
        "5p",
        {2: {"concealed": "1m2m3m 4s5s6s 7p8p9p 2s2s 7m 5p"}},
        winner=2,
        win_tile="8m",
        method="discard",
        discarder=3,
        options=options,
    )


def test_tc2_discard_win_with_wild() -> None:
    r = ok(tc2())
    assert r["hu"] == ["平胡"] and r["multiplier"] == 1
    assert r["parts"]["win"] == [-2, -1, 5, -2]


def test_tc2_one_payer() -> None:
    assert ok(tc2(dianpao_pay="one"))["parts"]["win"] == [0, 0, 2, -2]


def test_tc2_wild_discard_win_forbidden_by_option() -> None:
    r = settle_dict(tc2(discard_win_wild_allowed=False))
    assert "德国" in r["error"]


def tc3(**options: Any) -> dict[str, Any]:
    return table(
        "5p",
        {1: {"concealed": "7s7s7s EEE CC 9p9p", "melds": [pung("3m", source=2)]}, 2: {"concealed": "6p"}},
        winner=1,
        win_tile="9p",
        method="discard",
        discarder=0,
        options=options,
    )


def test_tc3_german_all_pungs_off_the_dealer() -> None:
    r = ok(tc3())
    assert r["hu"] == ["德国", "碰碰胡"] and r["multiplier"] == 4
    assert r["parts"]["win"] == [-21, 29, -4, -4]


def test_tc3_all_pungs_x4_option() -> None:
    # M = 4 × 2 = 8: dealer 8×2×2 + 5 = 37, others 8
    assert ok(tc3(peng_peng_hu_mult=4))["parts"]["win"] == [-37, 53, -8, -8]


def test_tc4_dezhongde_seven_pairs_and_bawang() -> None:
    d = table("5p", {1: {"concealed": "1m1m 4m4m 9s9s EE FF 6p6p 2p"}}, winner=1, win_tile="2p", method="self_drawn")
    r = ok(d)
    assert r["hu"] == ["德中德", "小七对"] and r["multiplier"] == 8
    assert r["parts"]["win"] == [-37, 79, -21, -21]
    assert r["parts"]["jing"] == [-4, 12, -4, -4]
    assert r["deltas"] == [-41, 91, -25, -25]


def test_tc4_german_seven_pairs_extra_double() -> None:
    d = table(
        "5p",
        {1: {"concealed": "1m1m 4m4m 9s9s EE FF 6p6p 2p"}},
        winner=1,
        win_tile="2p",
        method="self_drawn",
        options={"german_7pairs_extra_double": True},
    )
    r = ok(d)
    assert r["multiplier"] == 16  # dealer 16×4 + 5 = 69, others 16×2 + 5 = 37
    assert r["parts"]["win"] == [-69, 143, -37, -37]


def tc5(**options: Any) -> dict[str, Any]:
    return table(
        "5p",
        {
            0: {"concealed": "5p5p5p 6p"},
            1: {"melds": [kong("8s", concealed=True)]},
            2: {"concealed": "6p", "melds": [kong("E", source=1)]},
        },
        winner=None,
        options=options,
    )


def test_tc5_draw_with_kongs_and_chongguan() -> None:
    r = ok(tc5())
    assert r["hu"] == [] and r["multiplier"] == 0
    assert r["parts"]["kong"] == [-3, 5, 1, -3]
    assert r["parts"]["jing"] == [83, -29, -25, -29]
    assert r["deltas"] == [80, -24, -24, -32]


def test_tc5_huang_zhuang_huang_gang() -> None:
    assert ok(tc5(huang_zhuang_huang_gang=True))["deltas"] == [83, -29, -25, -29]


@pytest.mark.parametrize(("bawang", "deltas"), [("x2", [-36, -36, -36, 108]), ("plus10", [-28, -28, -28, 84])])
def test_tc6a_bawang_after_chongguan(bawang: str, deltas: list[int]) -> None:
    r = ok(table("5p", {3: {"concealed": "5p5p 6p6p"}}, options={"bawang": bawang}))
    assert r["deltas"] == deltas


def test_tc6b_maximum_jing() -> None:
    r = ok(table("5p", {2: {"concealed": "5p5p5p 6p6p6p6p"}}))
    assert r["deltas"] == [-140, -140, 420, -140]


def tc7(**options: Any) -> dict[str, Any]:
    return table(
        "5p",
        {1: {"melds": [pung("3s", source=2)]}, 2: {"concealed": "1m2m3m 4m5m6m 7p8p9p EE 2s 5p"}},
        winner=2,
        win_tile="3s",
        method="robbed_kong",
        discarder=1,
        options=options,
    )


def test_tc7_robbing_a_kong_as_self_draw() -> None:
    r = ok(tc7())
    assert r["hu"] == ["平胡"]
    assert r["parts"]["win"] == [-4, -2, 8, -2]
    assert r["parts"]["kong"] == [0, 0, 0, 0]  # the robbed kong earns nothing


def test_tc7_konger_pays_all() -> None:
    assert ok(tc7(qianggang_pay="konger_all"))["parts"]["win"] == [0, -8, 8, 0]


def test_tc8_gangkai_jingdiao() -> None:
    d = table(
        "5p",
        {
            2: {
                "concealed": "5p",
                "melds": [
                    chow("1m2m3m", claimed=0),
                    pung("7s", source=1),
                    chow("ESW", claimed=2),
                    kong("9p", source=2),
                ],
            }
        },
        winner=2,
        win_tile="2s",
        method="kong_replacement",
    )
    r = ok(d)
    assert r["hu"] == ["杠开", "精钓", "平胡"] and r["multiplier"] == 4
    assert r["parts"]["win"] == [-16, -8, 32, -8]
    assert r["parts"]["kong"] == [-1, -1, 3, -1]
    assert [a + b for a, b in zip(r["parts"]["win"], r["parts"]["kong"], strict=True)] == [-17, -9, 35, -9]


def test_tc9_german_shisanlan_by_discard() -> None:
    d = table(
        "F",
        {1: {"concealed": "1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N"}, 0: {"concealed": "F"}, 2: {"concealed": "P"}},
        winner=1,
        win_tile="C",
        method="discard",
        discarder=3,
    )
    r = ok(d)
    assert r["hu"] == ["德国", "十三烂"] and r["multiplier"] == 4
    assert r["parts"]["win"] == [-8, 25, -4, -13]


def test_tc10_seven_star_with_wild() -> None:
    d = table(
        "4s",
        {0: {"concealed": "E S W N C F P 1m 4m 7m 2p 5p 3s"}, 2: {"concealed": "5s"}},
        winner=0,
        win_tile="4s",
        method="self_drawn",
    )
    r = ok(d)
    assert r["hu"] == ["七星十三烂"] and r["multiplier"] == 4
    assert r["parts"]["win"] == [48, -16, -16, -16]
    assert r["parts"]["jing"] == [5, -3, 1, -3]
    assert r["deltas"] == [53, -19, -15, -19]


def tc11(win_tile: str, method: str, **options: Any) -> dict[str, Any]:
    melds = [chow("1m2m3m", claimed=0), pung("7s", source=1), pung("E", source=2), chow("7p8p9p", claimed=1)]
    discarder = 3 if method == "discard" else None
    return table(
        "5p",
        {1: {"concealed": "5p", "melds": melds}, 2: {"concealed": "6p"}},
        winner=1,
        win_tile=win_tile,
        method=method,
        discarder=discarder,
        options=options,
    )


def test_tc11a_jingdiao_cannot_win_on_a_discard() -> None:
    r = settle_dict(tc11("7m", "discard"))
    assert "精钓" in r["error"]


def test_tc11a_variant_allow_without_credit() -> None:
    r = ok(tc11("7m", "discard", jingdiao_ron="allow_without_credit"))
    assert r["hu"] == ["平胡"] and r["parts"]["win"] == [-2, 5, -1, -2]


def test_tc11b_german_on_the_jing_tile_itself() -> None:
    r = ok(tc11("5p", "discard"))
    assert r["hu"] == ["德国", "平胡"] and r["multiplier"] == 2
    assert r["parts"]["win"] == [-4, 15, -2, -9]


def test_tc11c_self_drawn_german_jingdiao() -> None:
    r = ok(tc11("5p", "self_drawn"))
    assert r["hu"] == ["精钓", "德国", "平胡"] and r["multiplier"] == 4
    assert r["parts"]["win"] == [-21, 47, -13, -13]


@pytest.mark.parametrize(
    ("concealed", "options", "win", "hu"),
    [
        ("123m 456m 789m 123s 5p 7s", {}, [240, -80, -80, -80], ["天胡", "精钓"]),
        ("123m 456m 789m 123s 7s7s", {}, [120, -40, -40, -40], ["天胡"]),
        ("123m 456m 789m 123s 7s7s", {"tian_di_dealer_double": False}, [60, -20, -20, -20], ["天胡"]),
        ("123m 456m 789m 123s 5p 7s", {"tian_di_dealer_double": False}, [120, -40, -40, -40], ["天胡", "精钓"]),
    ],
)
def test_tc12_heavenly(concealed: str, options: dict[str, Any], win: list[int], hu: list[str]) -> None:
    r = ok(table("5p", {0: {"concealed": concealed}}, winner=0, method="heavenly", options=options))
    assert r["hu"] == hu
    assert r["parts"]["win"] == win


def test_tc12_heavenly_with_win_tile_given() -> None:
    r = ok(table("5p", {0: {"concealed": "123m 456m 789m 123s 5p"}}, winner=0, win_tile="7s", method="heavenly"))
    assert r["parts"]["win"] == [240, -80, -80, -80]


@pytest.mark.parametrize(
    ("concealed", "win", "hu"),
    [
        ("123m 456m 789m 123s 7s", [-20, -10, 40, -10], ["地胡"]),
        ("123m 456m 789m 123s 5p", [-40, -20, 80, -20], ["地胡", "精钓"]),
    ],
)
def test_tc13_earthly(concealed: str, win: list[int], hu: list[str]) -> None:
    r = ok(table("5p", {2: {"concealed": concealed}}, winner=2, win_tile="7s", method="earthly", discarder=0))
    assert r["hu"] == hu
    assert r["parts"]["win"] == win


def test_tc13_earthly_base_option() -> None:
    r = ok(
        table(
            "5p",
            {2: {"concealed": "123m 456m 789m 123s 7s"}},
            winner=2,
            win_tile="7s",
            method="earthly",
            discarder=0,
            options={"di_hu_base": 20, "tian_di_dealer_double": False},
        )
    )
    assert r["parts"]["win"] == [-20, -20, 60, -20]
