import random

import pytest

from majiang.bots import make_bot
from majiang.bots.fan import FanBot, _pungs_shanten
from majiang.engine import Hand
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand, simulate
from majiang.tiles import counts_of, parse_tiles


@pytest.mark.parametrize("bots", [["eff"] * 4, ["fan", "eff", "rand", "rand"]])
def test_bots_never_act_illegally_or_falsely(bots):
    r = simulate(24, 11, bots, verify=True).to_dict()
    assert r["illegal_actions"] == 0 and r["false_wins"] == 0
    assert r["zero_sum_violations"] == 0 and r["replay_mismatches"] == 0


def test_unknown_bot_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius")


def test_efficiency_bot_discards_the_isolated_tile():
    rules = make_ruleset("gb")
    rng = random.Random(0)
    h = Hand(rules, rng.randbytes(32))
    bot = make_bot("eff", 1)
    st = h.seats[h.current]
    st.counts = counts_of(parse_tiles("123m 456p 789s 11s 56m N"))  # N is useless
    st.drawn = parse_tiles("N")[0]
    h._enter_turn()
    a = bot.choose(SeatView(h, h.current), h.legal(h.current))
    assert a.type == "discard" and a.tile == parse_tiles("N")[0]


def test_pungs_distance():
    c = counts_of(parse_tiles("111m 222p 333s 44s 55m"))
    assert _pungs_shanten(c, []) == 0  # 双碰 wait
    c = counts_of(parse_tiles("111m 222p 333s 44s 5m"))
    assert _pungs_shanten(c, []) == 1
    c = counts_of(parse_tiles("11m 22p 33s 44s 55m 6m 7m 8m"))
    assert _pungs_shanten(c, []) == 3


def test_fan_bot_prefers_a_flush_over_an_off_suit_tile():
    rules = make_ruleset("gb")
    h = Hand(rules, bytes(32))
    st = h.seats[h.current]
    # nearly a 清一色 in m; 9p is the only off-suit tile
    st.counts = counts_of(parse_tiles("123456m 78m 22m 999m 9p"))
    st.drawn = parse_tiles("9p")[0]
    h._enter_turn()
    a = FanBot(1).choose(SeatView(h, h.current), h.legal(h.current))
    assert a.type == "discard" and a.tile == parse_tiles("9p")[0]


def test_fan_bot_plays_whole_hands():
    rules = make_ruleset("gb")
    rng = random.Random(3)
    for i in range(4):
        h = Hand(rules, rng.randbytes(32), dealer=i)
        play_hand(h, [make_bot(b, i) for b in ("fan", "fan", "eff", "rand")])
        assert h.over and sum(h.deltas) == 0


def test_compiled_best_discards_equal_the_python_path():
    from majiang.shanten import efficiency as E
    from majiang.tiles import full_set

    if not hasattr(E._fast, "best_discards"):
        pytest.skip("the compiled shanten module is not built")
    rng = random.Random(5)
    for _ in range(500):
        c = counts_of(rng.sample(full_set(False), 14))
        unseen = [rng.randint(0, 4 - c[t]) for t in range(34)]
        fast = E.best_discards(c, 0, unseen)
        saved = E._fast
        try:
            E._fast = type("PythonOnly", (), {"useful": staticmethod(saved.useful)})()
            slow = E.best_discards(c, 0, unseen)
        finally:
            E._fast = saved
        assert fast == slow
