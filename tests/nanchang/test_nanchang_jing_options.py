"""Jing (TC1, 冲关, 霸王, 杠精), the jing-round options and the other §2.14 flags."""

from __future__ import annotations

from typing import Any

import pytest
from nc_helpers import kong, pung, table

from majiang.nanchang import (
    DEFAULT_OPTIONS,
    OPTION_NAMES,
    JingPair,
    OptionError,
    Options,
    chongguan,
    jing_round_deltas,
    jing_round_scores,
    next_dealer,
    options_from_dict,
    settle_dict,
)
from majiang.tiles import parse_tile, tile_str


@pytest.mark.parametrize(
    ("indicator", "fu"),
    [
        ("9m", "1m"),
        ("N", "E"),
        ("P", "C"),
        ("F", "P"),
        ("4s", "5s"),
        ("E", "S"),
        ("C", "F"),
        ("1p", "2p"),
        ("9s", "1s"),
    ],
)
def test_tc1_jing_from_indicator(indicator: str, fu: str) -> None:
    pair = JingPair.from_indicator(parse_tile(indicator))
    assert tile_str(pair.zheng) == indicator
    assert tile_str(pair.fu) == fu


def test_chongguan_table() -> None:
    assert [chongguan(r) for r in range(13)] == [0, 1, 2, 3, 4, 10, 18, 28, 40, 54, 70, 88, 108]


def test_jing_round_reference() -> None:
    assert jing_round_scores([10, 0, 0, 0]) == (140, 0, 0, 0)
    assert jing_round_scores([10, 0, 0, 0], "plus10") == (80, 0, 0, 0)
    assert jing_round_scores([2, 1, 0, 0]) == (2, 1, 0, 0)  # two holders: no 霸王
    assert jing_round_deltas([2, 1, 0, 0]) == [5, 1, -3, -3]
    assert jing_round_scores([0, 0, 0, 0]) == (0, 0, 0, 0)


# ---- options -------------------------------------------------------------------------------------


def test_defaults_match_the_spec_table() -> None:
    assert DEFAULT_OPTIONS.to_dict() == {
        "dead_wall_tiles": 34,
        "indicator_drawable": False,
        "xia_jing": "none",
        "hui_tou_yi_xiao": False,
        "count_discarded_jing": False,
        "bawang": "x2",
        "chongguan_baopei": False,
        "gang_jing_bonus": 10,
        "dianpao_pay": "three",
        "qianggang_pay": "as_self_draw",
        "discard_win_wild_allowed": True,
        "peng_peng_hu_mult": 2,
        "german_7pairs_extra_double": False,
        "tian_hu_base": 20,
        "di_hu_base": 10,
        "tian_di_dealer_double": True,
        "dealer_keeps_on_draw": True,
        "huang_zhuang_huang_gang": False,
        "pass_hu_furiten": True,
        "pass_hu_allows_bigger": False,
        "jingdiao_ron": "forbid",
        "chao_zhuang": False,
        "qixing_qidui": False,
    }
    assert options_from_dict(None) is DEFAULT_OPTIONS
    assert len(OPTION_NAMES) == 23


@pytest.mark.parametrize(
    ("d", "msg"),
    [
        ({"dianpao": "one"}, "unknown option 'dianpao'"),
        ({"dianpao_pay": "two"}, "'dianpao_pay' must be one of"),
        ({"bawang": 2}, "'bawang' must be one of"),
        ({"chao_zhuang": "yes"}, "'chao_zhuang' must be true or false"),
        ({"dead_wall_tiles": -1}, "'dead_wall_tiles' must be an integer"),
        ({"tian_hu_base": True}, "'tian_hu_base' must be an integer"),
        ([1, 2], "'options' must be an object"),
    ],
)
def test_bad_options(d: Any, msg: str) -> None:
    with pytest.raises(OptionError, match=msg):
        options_from_dict(d)
    assert (
        msg.split("'")[1]
        in settle_dict(table("5p", options=d) if isinstance(d, dict) else {**table("5p"), "options": d})["error"]
    )


def test_changed_lists_non_defaults() -> None:
    assert Options(bawang="plus10").changed() == {"bawang": "plus10"}


# ---- jing-round options on an exhaustive draw ----------------------------------------------------


def draw(**kw: Any) -> dict[str, Any]:
    r = settle_dict(table("5p", kw.pop("seats", {}), **kw))
    assert "error" not in r, r
    assert sum(r["deltas"]) == 0
    return r


def test_gang_jing() -> None:
    r = draw(seats={2: {"melds": [kong("6p", source=1)]}})
    assert r["parts"]["kong"] == [-10, -10, 30, -10]
    assert r["parts"]["jing"] == [-8, -8, 24, -8]  # 4 副精 still count, 霸王 on them
    r = draw(seats={2: {"melds": [kong("6p", source=1)]}}, options={"gang_jing_bonus": 0})
    assert r["parts"]["kong"] == [-1, -1, 3, -1]


def test_discarded_jing() -> None:
    seats = {3: {"discards": ["5p"]}}
    assert draw(seats=seats)["parts"]["jing"] == [0, 0, 0, 0]
    assert draw(seats=seats, options={"count_discarded_jing": True})["parts"]["jing"] == [-4, -4, -4, 12]


def test_mai_di_lei_second_round() -> None:
    seats = {1: {"concealed": "E E S"}, 2: {"concealed": "6p"}}
    plain = draw(seats=seats, avoid="E S")
    assert plain["parts"]["jing"] == [-2, -2, 6, -2]
    r = draw(seats=seats, avoid="E S", options={"xia_jing": "mai_di_lei"}, xia_jing_indicator="E")
    # 上精: seat 2 alone (霸王 2) ; 下精 E/S: seat 1 r = 5 → 10, alone → 20
    assert r["parts"]["jing"] == [-2 - 20, -2 + 60, 6 - 20, -2 - 20]
    err = settle_dict(table("5p", seats, options={"xia_jing": "mai_di_lei"}))
    assert "xia_jing_indicator" in err["error"]


def _dealt(dealer: int = 0) -> list[str]:
    return [
        "1m2m3m4m5m6m7m8m9m 1s2s3s4s" + (" 5s" if dealer == 0 else ""),
        "1m2m3m4m5m6m7m8m9m 1s2s3s4s",
        "E E S S 1m2m3m4m5m6m7m8m9m",
        "1p2p3p4p6p7p8p9p 1m2m3m4m 7s",
    ]


def test_shang_xia_fan_settles_the_dealt_hands() -> None:
    seats = {i: {"dealt": d} for i, d in enumerate(_dealt())}
    r = draw(seats=seats, options={"xia_jing": "shang_xia_fan"}, xia_jing_indicator="E")
    # 下精 E/S on the dealt hands: seat 2 holds E E S S → r = 6 → 18, alone → 36; no 上精 holder
    assert r["parts"]["jing"] == [-36, -36, 108, -36]
    err = settle_dict(table("5p", options={"xia_jing": "shang_xia_fan"}, xia_jing_indicator="E"))
    assert "dealt" in err["error"]


def test_hui_tou_yi_xiao() -> None:
    seats = {i: {"dealt": d} for i, d in enumerate(_dealt())}
    r = draw(seats=seats, options={"hui_tou_yi_xiao": True}, previous_jing_indicator="6p")
    # previous 上精 6p/7p on the dealt hands: seat 3 holds 6p 7p → r = 3, alone → 6
    assert r["parts"]["jing"] == [-6, -6, -6, 18]
    first_hand = draw(seats=seats, options={"hui_tou_yi_xiao": True})
    assert first_hand["parts"]["jing"] == [0, 0, 0, 0]


def test_chongguan_baopei() -> None:
    # seat 1 pungs seat 3's 6p (对家, from = 2) and holds a 5p: r = 3 + 2 = 5 → 冲关 10, 霸王 20
    seats = {1: {"concealed": "5p", "melds": [pung("6p", source=2)]}}
    assert draw(seats=seats)["parts"]["jing"] == [-20, 60, -20, -20]
    assert draw(seats=seats, options={"chongguan_baopei": True})["parts"]["jing"] == [0, 60, 0, -60]
    # without the claim it would still be 冲关 → no 包赔
    seats = {1: {"concealed": "5p5p5p", "melds": [pung("6p", source=2)]}}
    assert draw(seats=seats, options={"chongguan_baopei": True})["parts"]["jing"] == [-108, 324, -108, -108]


def test_chao_zhuang() -> None:
    r = draw(options={"chao_zhuang": True}, first_discards=["N", "N", "N", "N"], avoid="N")
    assert r["parts"]["penalty"] == [-15, 5, 5, 5]
    assert r["deltas"] == [-15, 5, 5, 5]
    r = draw(options={"chao_zhuang": True}, first_discards=["N", "N", "N", "E"], avoid="N")
    assert r["parts"]["penalty"] == [0, 0, 0, 0]
    assert "penalty" not in draw()["parts"]


def test_dealer_rotation() -> None:
    assert next_dealer(0, None) == 0
    assert next_dealer(0, None, Options(dealer_keeps_on_draw=False)) == 1
    assert next_dealer(2, 2) == 2
    assert next_dealer(2, 0) == 3
    assert next_dealer(2, 2, chao_zhuang=True) == 3


def test_qixing_qidui_option() -> None:
    d = table(
        "1m",
        {1: {"concealed": "EE SS WW NN CC FF P"}, 3: {"concealed": "2m"}},
        winner=1,
        win_tile="P",
        method="self_drawn",
    )
    r = settle_dict(d)
    assert r["hu"] == ["德国", "小七对"] and r["multiplier"] == 4
    d["options"] = {"qixing_qidui": True}
    r = settle_dict(d)
    assert r["hu"] == ["德国", "七星七对"] and r["multiplier"] == 8


def test_qixing_qidui_with_a_wild() -> None:
    d = table(
        "1m",
        {1: {"concealed": "EE SS WW NN CC FF 1m"}, 3: {"concealed": "2m"}},
        winner=1,
        win_tile="P",
        method="self_drawn",
        options={"qixing_qidui": True},
    )
    r = settle_dict(d)
    assert r["hu"] == ["精钓", "七星七对"] and r["multiplier"] == 8


def test_indicator_copies() -> None:
    d = table("5p", {1: {"concealed": "5p5p5p5p"}})
    assert "5 copies of 5p" in settle_dict(d)["error"]
    d["options"] = {"indicator_drawable": True}
    # the indicator was drawn as a replacement: 4 正精 → r = 8 → 冲关 40 → 霸王 80
    assert settle_dict(d)["parts"]["jing"] == [-80, 240, -80, -80]
