"""Nanchang played on the engine through the ruleset protocol: no engine special cases."""

import random

from majiang.bots.base import RandomBot
from majiang.engine import Hand
from majiang.engine.log import verify
from majiang.rulesets import from_header, make_ruleset
from majiang.sim import play_hand, simulate


def test_hands_simulate_zero_sum_and_replay_exactly():
    r = simulate(24, 5, ["rand"] * 4, rules="nanchang", verify=True).to_dict()
    assert r["zero_sum_violations"] == 0 and r["replay_mismatches"] == 0 and r["illegal_actions"] == 0


def test_jing_flip_dead_wall_and_no_flowers():
    rules = make_ruleset("nanchang")
    rng = random.Random(2)
    for i in range(8):
        h = Hand(rules, rng.randbytes(32), dealer=i % 4)
        jing = next(e for e in h.events if e["type"] == "jing")
        assert jing["fu"] != jing["zheng"] and 2 <= sum(jing["dice"]) <= 12
        assert all(not st.flowers for st in h.seats)
        play_hand(h, [RandomBot(i * 4 + k) for k in range(4)])
        assert h.wall.remaining >= 34  # the dead wall is never drawn live
        assert sum(h.deltas) == 0
        assert verify(h.events, from_header)[0]
        if h.win is None:
            assert rules.next_dealer(h.dealer, None) == (h.dealer, False)  # the dealer keeps the deal


def test_kong_bonus_is_paid_when_the_kong_is_made():
    rules = make_ruleset("nanchang")
    rng = random.Random(9)
    found = False
    for _ in range(200):
        h = Hand(rules, rng.randbytes(32))
        play_hand(h, [RandomBot(rng.randrange(1000)) for _ in range(4)])
        kongs = [e for e in h.events if e["type"] == "payment" and e["reason"] == "kong"]
        if kongs:
            found = True
            for e in kongs:
                assert sum(e["deltas"]) == 0 and max(e["deltas"]) in (3, 6, 30)
            break
    assert found


def test_jing_aware_bot_beats_random_and_keeps_its_jing():
    from majiang.bots import make_bot
    from majiang.bots.nanchang import NanchangBot, wild_shanten

    assert isinstance(make_bot("fan", 1, rules="nanchang"), NanchangBot)
    r = simulate(48, 3, ["eff", "rand", "rand", "rand"], rules="nanchang", duplicate=True).to_dict()
    assert r["illegal_actions"] == 0 and r["zero_sum_violations"] == 0
    assert r["seats"][0]["avg_score"] > max(s["avg_score"] for s in r["seats"][1:])
    from majiang.tiles import counts_of, parse_tiles

    jing = tuple(parse_tiles("5p 6p"))
    plain = counts_of(parse_tiles("123m 456s 789s 11p 2p 9m E"))
    wild = counts_of(parse_tiles("123m 456s 789s 11p 5p 9m E"))
    assert wild_shanten(wild, 0, jing) < wild_shanten(plain, 0, jing)
