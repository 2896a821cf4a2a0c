"""Property: every settlement of a random legal table is zero-sum, part by part."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from nc_strategies import complete_tiles, jing_swapped

from majiang.nanchang import (
    HandRecord,
    JingPair,
    NotAWinError,
    SeatHand,
    WinMethod,
    meld_from_tiles,
    options_from_dict,
    settle,
)
from majiang.nanchang.melds import Meld
from majiang.tiles import NUM_KINDS

OPTION_VALUES: dict[str, Any] = {
    "indicator_drawable": st.booleans(),
    "xia_jing": st.sampled_from(["none", "mai_di_lei", "shang_xia_fan"]),
    "hui_tou_yi_xiao": st.booleans(),
    "count_discarded_jing": st.booleans(),
    "bawang": st.sampled_from(["x2", "plus10"]),
    "chongguan_baopei": st.booleans(),
    "gang_jing_bonus": st.sampled_from([0, 10]),
    "dianpao_pay": st.sampled_from(["three", "one"]),
    "qianggang_pay": st.sampled_from(["as_self_draw", "konger_all"]),
    "discard_win_wild_allowed": st.booleans(),
    "peng_peng_hu_mult": st.sampled_from([2, 4]),
    "german_7pairs_extra_double": st.booleans(),
    "tian_hu_base": st.sampled_from([16, 20]),
    "di_hu_base": st.sampled_from([10, 16, 20]),
    "tian_di_dealer_double": st.booleans(),
    "huang_zhuang_huang_gang": st.booleans(),
    "jingdiao_ron": st.sampled_from(["forbid", "allow_without_credit"]),
    "chao_zhuang": st.booleans(),
    "qixing_qidui": st.booleans(),
}


class Pool:
    def __init__(self, indicator: int) -> None:
        self.left = [4] * NUM_KINDS
        self.left[indicator] -= 1

    def take(self, tiles: list[int]) -> None:
        for t in tiles:
            self.left[t] -= 1
        assume(min(self.left) >= 0)

    def tiles(self) -> list[int]:
        return [t for t in range(NUM_KINDS) for _ in range(self.left[t])]


@st.composite
def records(draw: Any) -> tuple[HandRecord, dict[str, Any]]:
    indicator = draw(st.integers(0, NUM_KINDS - 1))
    jing = JingPair.from_indicator(indicator)
    opts = draw(st.fixed_dictionaries({}, optional=OPTION_VALUES))
    dealer = draw(st.integers(0, 3))
    winner = draw(st.one_of(st.none(), st.integers(0, 3)))
    pool = Pool(indicator)
    melds: list[list[Meld]] = [[] for _ in range(4)]
    for seat in range(4):
        for _ in range(draw(st.integers(0, 1))):
            kind = draw(st.sampled_from(["pung", "kong", "ckong", "chow"]))
            t = draw(st.integers(0, NUM_KINDS - 1))
            if kind == "chow":
                assume(t < 27 and t % 9 <= 6)
                tiles = [t, t + 1, t + 2]
            else:
                tiles = [t] * (3 if kind == "pung" else 4)
            pool.take(tiles)
            melds[seat].append(
                meld_from_tiles(
                    tiles,
                    concealed=kind == "ckong",
                    source=None if kind == "ckong" else draw(st.integers(1, 3)),
                    claimed=0,
                )
            )
    concealed: list[list[int]] = [[] for _ in range(4)]
    win_tile = method = discarder = None
    if winner is not None:
        hand = draw(complete_tiles(n_sets=4 - len(melds[winner])))
        hand = draw(jing_swapped(hand, jing.kinds, 4))
        pool.take(hand)
        win_tile = hand.pop(draw(st.integers(0, len(hand) - 1)))
        concealed[winner] = hand
        methods = [WinMethod.SELF_DRAWN, WinMethod.DISCARD, WinMethod.ROBBED_KONG]
        if any(m.is_kong for m in melds[winner]):
            methods.append(WinMethod.KONG_REPLACEMENT)
        if not melds[winner]:
            methods.append(WinMethod.HEAVENLY if winner == dealer else WinMethod.EARTHLY)
        method = draw(st.sampled_from(methods))
        if method in (WinMethod.DISCARD, WinMethod.ROBBED_KONG):
            discarder = draw(st.sampled_from([s for s in range(4) if s != winner]))
        elif method is WinMethod.EARTHLY:
            discarder = dealer
        if method is WinMethod.ROBBED_KONG:
            assume(len(melds[discarder or 0]) == 0)
            pool.take([win_tile] * 3)
            melds[discarder or 0] = [meld_from_tiles([win_tile] * 3, source=1)]
        if method is WinMethod.HEAVENLY and draw(st.booleans()):
            concealed[winner].append(win_tile)
            win_tile = None
    rest = draw(st.permutations(pool.tiles()))
    pos = 0
    for seat in range(4):
        if seat == winner:
            continue
        n = 13 - 3 * len(melds[seat])
        concealed[seat] = list(rest[pos : pos + n])
        pos += n
    discards: list[list[int]] = [list(rest[pos + 3 * s : pos + 3 * s + 3]) for s in range(4)]
    dealt_src = draw(st.permutations([t for t in range(NUM_KINDS) for _ in range(4 - (t == indicator))]))
    dealt = []
    start = 0
    for seat in range(4):
        n = 14 if seat == dealer else 13
        dealt.append(tuple(dealt_src[start : start + n]))
        start += n
    same = draw(st.booleans())
    first = draw(st.integers(0, NUM_KINDS - 1))
    rec = HandRecord(
        jing_indicator=indicator,
        hands=tuple(SeatHand(tuple(concealed[s]), tuple(melds[s]), tuple(discards[s]), dealt[s]) for s in range(4)),
        dealer=dealer,
        winner=winner,
        win_tile=win_tile,
        method=method,
        discarder=discarder,
        xia_jing_indicator=draw(st.integers(0, NUM_KINDS - 1)),
        previous_jing_indicator=draw(st.one_of(st.none(), st.integers(0, NUM_KINDS - 1))),
        first_discards=(first,) * 4 if same else (first, 0, 1, 2),
    )
    return rec, opts


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(records())
def test_every_settlement_is_zero_sum(case: tuple[HandRecord, dict[str, Any]]) -> None:
    rec, opts = case
    options = options_from_dict(opts)
    try:
        s = settle(rec, options)
    except NotAWinError:
        assume(False)
        return
    for part in (s.win_deltas, s.kong_deltas, s.jing_deltas, s.penalty_deltas, s.deltas):
        assert sum(part) == 0
    for r in s.jing_rounds:
        assert sum(r.deltas) == 0
    assert s.deltas == tuple(
        a + b + c + d for a, b, c, d in zip(s.win_deltas, s.kong_deltas, s.jing_deltas, s.penalty_deltas, strict=True)
    )
    if s.win is not None:
        assert rec.winner is not None
        assert s.win.payments[rec.winner] > 0
        assert all(x <= 0 for i, x in enumerate(s.win.payments) if i != rec.winner)
