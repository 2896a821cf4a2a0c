"""§2.14 options in live play (hands driven through the engine, not the calculator): 过手胡
(``pass_hu_furiten`` / ``pass_hu_allows_bigger``), 抄庄 (``chao_zhuang``) and 回头一笑's input."""

from __future__ import annotations

from typing import Any

import pytest

from majiang.engine.arrange import arranged, layout
from majiang.engine.hand import Hand
from majiang.engine.log import verify
from majiang.engine.protocol import DISCARD, PASS_ACTION, WIN, Action
from majiang.rulesets import from_header
from majiang.rulesets.nanchang import Nanchang, first_discards
from majiang.tiles import parse_tile, parse_tiles

SEED = bytes(range(32))
INDICATOR = "P"  # jing 白 and 中: none of the rigged hands holds either

# seat 3 waits on 2s (平胡, with 234s 234s: ×4) or 3s / 4s (碰碰胡: ×8), 德中德 (nobody holds jing):
# a small and two equal bigger wins
WAITER = "111m 999m 222s 33s 44s"
HANDS = {
    0: "1m 4m 7m 2p 5p 8p 6s 8s E S W N F 5m",
    1: "2m 5m 8m 3p 6p 9p 2s 3s 7s E S W N",
    2: "1p 3p 4p 6p 7p 9p 3m 6m 3s 4s 9s E F",
    3: WAITER,
}
DRAWS = "5s 8p 7p 4s"  # seats 1, 2, 3, 0


def rig(hands: dict[int, str], draws: str = "", extra: dict[str, Any] | None = None, **options: Any) -> Hand:
    """A dealer-0 hand with the chosen deal, live draws and jing indicator, replayable from its log."""
    rules = Nanchang(options)
    pos = Hand(rules, SEED).ruleset_state["indicator_pos"]  # the jing dice come from the seed alone
    wanted = layout({k: parse_tiles(v) for k, v in hands.items()}, parse_tiles(draws), n_tiles=136)
    wanted[pos] = parse_tile(INDICATOR)
    swaps = arranged(rules.tile_set(), SEED, rules.stacks_per_wall, wanted)
    hand = Hand(rules, SEED, arrange=swaps, extra=extra)
    assert hand.ruleset_state["indicator"] == parse_tile(INDICATOR)
    return hand


def discard(hand: Hand, seat: int, tile: str) -> None:
    assert hand.prompted() == [seat]
    hand.act(seat, Action(DISCARD, parse_tile(tile)))


def may_win(hand: Hand, seat: int, tile: str) -> bool:
    return Action(WIN, parse_tile(tile)) in hand.legal(seat)


def pass_claims(hand: Hand) -> None:
    for s in list(hand.prompted()):
        if hand.phase.value == "claim":
            hand.act(s, PASS_ACTION)


def opened(**options: Any) -> Hand:
    """The rigged hand after the dealer's first discard (F: nobody's win, so no 地胡 below)."""
    hand = rig(HANDS, DRAWS, **options)
    discard(hand, 0, "F")
    pass_claims(hand)
    return hand


def passed_then(first: str, second: str, **options: Any) -> tuple[bool, bool]:
    """Seat 1 discards ``first`` (seat 3 lets the win go by), seat 2 discards ``second`` before
    seat 3 draws: (win offered on ``first``, win offered on ``second``)."""
    hand = opened(**options)
    discard(hand, 1, first)
    offered_first = may_win(hand, 3, first)
    pass_claims(hand)
    assert hand.seats[3].passed_win == offered_first
    discard(hand, 2, second)
    return offered_first, may_win(hand, 3, second)


def test_the_rig_wins_as_designed() -> None:
    for tile, value in (("2s", 4), ("3s", 8)):  # 平胡 / 碰碰胡 ×2, 德中德 ×4 (no jing at the table)
        hand = opened()
        discard(hand, 1, tile)
        hand.act(3, Action(WIN, parse_tile(tile)))
        pass_claims(hand)
        assert hand.win is not None and hand.win.points == value


def test_default_a_passed_win_bars_discard_wins_until_the_next_draw() -> None:
    # §2.7 过手胡 [default on]: no discard win until after the own next draw, even a bigger one
    assert passed_then("2s", "3s") == (True, False)
    assert passed_then("3s", "4s") == (True, False)


def test_pass_hu_furiten_off_lets_the_next_discard_win() -> None:
    assert passed_then("2s", "3s", pass_hu_furiten=False) == (True, True)
    assert passed_then("3s", "4s", pass_hu_furiten=False) == (True, True)


def test_pass_hu_allows_bigger_only_a_strictly_bigger_win() -> None:
    assert passed_then("2s", "3s", pass_hu_allows_bigger=True) == (True, True)  # ×8 after ×4
    assert passed_then("3s", "4s", pass_hu_allows_bigger=True) == (True, False)  # ×8 after ×8: not bigger
    assert passed_then("3s", "3s", pass_hu_allows_bigger=True) == (True, False)


def test_passing_the_bigger_win_raises_the_bar() -> None:
    hand = opened(pass_hu_allows_bigger=True)
    discard(hand, 1, "2s")
    pass_claims(hand)
    discard(hand, 2, "3s")
    assert may_win(hand, 3, "3s")  # bigger than the 2s let go by
    pass_claims(hand)
    assert hand.ruleset_state["offered"][3] == 8  # the bar is now the ×8 let go by
    assert hand.current == 3 and not hand.seats[3].passed_win  # then seat 3 drew: no bar at all


@pytest.mark.parametrize("options", [{}, {"pass_hu_allows_bigger": True}])
def test_the_own_draw_lifts_the_bar(options: dict[str, Any]) -> None:
    hand = opened(**options)
    discard(hand, 1, "3s")
    pass_claims(hand)
    assert hand.seats[3].passed_win
    discard(hand, 2, "8p")
    pass_claims(hand)
    assert hand.current == 3 and not hand.seats[3].passed_win  # seat 3 drew 7p
    discard(hand, 3, "7p")
    pass_claims(hand)
    discard(hand, 0, "4s")  # the dealer drew 4s
    assert may_win(hand, 3, "4s")  # ×8 again: allowed, the draw ended the 过手胡
    assert verify(hand.events, from_header)[0]


def test_a_passed_earthly_win_counts_its_flat_base() -> None:
    # 地胡 on the dealer's first discard is worth 10 × 1: a later ×8 is not bigger
    hand = rig(
        {0: "1m 4m 7m 2p 5p 8p 6s 8s E S W N 2s 5m", 1: HANDS[1].replace("2s", "F"), 2: HANDS[2], 3: WAITER},
        DRAWS,
        pass_hu_allows_bigger=True,
    )
    discard(hand, 0, "2s")
    assert may_win(hand, 3, "2s")
    pass_claims(hand)
    discard(hand, 1, "3s")
    assert not may_win(hand, 3, "3s")


# ---- 抄庄 ---------------------------------------------------------------------------------------------


def play_out(hand: Hand) -> None:
    while not hand.over:
        seat = hand.prompted()[0]
        hand.act(seat, hand.default_action(seat))


def same_first_discards(tile: str = "E", last: str = "E", **options: Any) -> Hand:
    """Each seat holds one ``tile`` (seat 3: ``last``) and discards it first; then 托管 to the end."""
    hand = rig({0: tile, 1: tile, 2: tile, 3: last}, **options)
    for seat, t in enumerate((tile, tile, tile, last)):
        pass_claims(hand)
        discard(hand, seat, t)
    pass_claims(hand)
    play_out(hand)
    return hand


def test_chao_zhuang_in_a_live_hand() -> None:
    hand = same_first_discards(chao_zhuang=True)
    assert first_discards(hand.events, 0) == tuple(parse_tiles("E E E E"))
    assert hand.settlement is not None and hand.settlement.parts["penalty"] == [-15, 5, 5, 5]
    assert sum(hand.deltas) == 0
    assert hand.rules.next_dealer(0, hand.win) == (1, True)  # the deal passes, even on a draw
    assert verify(hand.events, from_header)[0]


def test_no_chao_zhuang_by_default_or_with_a_different_tile() -> None:
    for hand in (same_first_discards(), same_first_discards("E", "S", chao_zhuang=True)):
        assert hand.settlement is not None and "penalty" not in hand.settlement.parts
        if hand.win is None:
            assert hand.rules.next_dealer(0, None) == (0, False)  # 荒庄: the dealer keeps the deal


def test_first_discards_need_an_unbroken_first_go_round() -> None:
    d = [{"type": "discard", "seat": s, "tile": 27} for s in range(4)]
    assert first_discards(d, 0) == (27,) * 4
    assert first_discards(d[:3], 0) is None
    assert first_discards([*d[:2], {"type": "pung", "seat": 3, "tile": 27}, *d[2:]], 0) is None
    assert first_discards(d, 1) is None  # not in turn from the dealer


# ---- 回头一笑 -----------------------------------------------------------------------------------------


def test_hui_tou_yi_xiao_reads_the_previous_indicator_from_the_header() -> None:
    previous = {"jing": {"indicator": parse_tile("5p")}}
    hand = rig(HANDS, DRAWS, extra={"previous": previous}, hui_tou_yi_xiao=True)
    play_out(hand)
    rules = hand.rules
    assert isinstance(rules, Nanchang)
    assert rules.record(hand, hand.win).previous_jing_indicator == parse_tile("5p")
    with_round = hand.settlement
    plain = rig(HANDS, DRAWS, hui_tou_yi_xiao=True)
    play_out(plain)
    assert with_round is not None and plain.settlement is not None
    assert with_round.parts["jing"] != plain.settlement.parts["jing"]  # dealt 5p/6p are scored
    assert verify(hand.events, from_header)[0]


def test_a_session_carries_the_last_jing_into_the_next_hand_for_hui_tou_yi_xiao():
    """回头一笑 in live play: the session puts the previous hand's jing in the next hand's header
    (public, replayed with the log); an MCR session adds nothing."""
    from majiang.bots.base import RandomBot
    from majiang.engine.session import Session
    from majiang.rulesets import make_ruleset
    from majiang.rulesets.nanchang import previous_indicator
    from majiang.sim import play_hand

    bots = [RandomBot(i) for i in range(4)]
    ses = Session(make_ruleset("nanchang"), bytes(range(32)))
    first = ses.new_hand()
    assert first is not None and "previous" not in first.events[0] and previous_indicator(first) is None
    play_hand(first, bots)
    ses.finish_hand(first)
    second = ses.new_hand()
    assert second is not None
    indicator = first.ruleset_state["indicator"]
    assert second.events[0]["previous"]["jing"]["indicator"] == indicator
    assert previous_indicator(second) == indicator
    play_hand(second, bots)
    assert verify(second.events, from_header)[0]
    mcr = Session(make_ruleset("gb"), bytes(32))
    h = mcr.new_hand()
    assert h is not None
    play_hand(h, bots)
    mcr.finish_hand(h)
    nxt = mcr.new_hand()
    assert nxt is not None and "previous" not in nxt.events[0]
