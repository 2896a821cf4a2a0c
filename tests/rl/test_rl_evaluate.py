"""``majiang.sim.evaluate`` and ``simulate(workers=N)``: policies and bots with duplicate statistics,
the same results in one process, in several, and on Ray."""

import hashlib

import numpy as np
import pytest

from majiang.rl.actions import PASS, WIN
from majiang.sim import CHUNK_HANDS, PolicyBot, evaluate, simulate


def _totals(res):
    return [(s.hands, s.wins, s.deal_ins, s.fan_on_wins, s.score_sum, s.score_sq) for s in res.seats]


def test_workers_1_and_2_give_identical_per_seat_totals():
    hands = 2 * CHUNK_HANDS + 24  # three chunks
    one = simulate(hands, 9, ["eff", "rand", "rand", "rand"], duplicate=True, workers=1)
    two = simulate(hands, 9, ["eff", "rand", "rand", "rand"], duplicate=True, workers=2)
    assert _totals(one) == _totals(two)
    assert (one.draws, one.illegal_actions) == (two.draws, two.illegal_actions)
    assert sum(s.hands for s in one.seats) == 4 * hands


def test_a_single_chunk_plays_as_simulate_always_did():
    """The bots of the first chunk have the seeds simulate gave them before chunks existed."""
    from majiang.bots import make_bot
    from majiang.engine.hand import Hand
    from majiang.rulesets import make_ruleset
    from majiang.sim import play_hand

    res = simulate(3, 5, ["rand"] * 4)
    bots = [make_bot("rand", 5 * 10 + i) for i in range(4)]
    deltas = [0] * 4
    for h in range(3):
        seed = hashlib.sha256((5).to_bytes(8, "big", signed=True) + h.to_bytes(8, "big")).digest()
        hand = Hand(make_ruleset("gb"), seed, dealer=h % 4, prevalent=(h // 4) % 4, hand_no=h)
        play_hand(hand, bots)
        deltas = [a + b for a, b in zip(deltas, hand.deltas, strict=True)]
    assert [s.score_sum for s in res.seats] == deltas


def first_legal(obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_evaluate_a_policy_on_observations_with_duplicate_statistics():
    res = evaluate(first_legal, "rand", hands=24, seed=2)
    d = res.to_dict()
    assert d["hands"] == 24 and d["illegal_actions"] == 0
    me = d["seats"][0]
    assert me["bot"] == "first_legal"
    lo, hi = me["avg_score_ci95"]
    assert lo <= me["avg_score"] <= hi
    assert sum(s.score_sum for s in res.seats) == 0  # zero-sum over every seating
    assert all(s.hands == 24 for s in res.seats)  # duplicate: every entry plays every wall


def test_evaluate_bots_views_and_workers():
    by_spec = evaluate("eff", ["rand", "rand", "rand"], hands=48, seed=3)
    by_view = evaluate(lambda view: view.legal[0], "rand", hands=48, seed=3, takes="view")
    assert by_view.illegal_actions == 0
    par = evaluate("eff", "rand", hands=2 * CHUNK_HANDS, seed=3, workers=2)
    seq = evaluate("eff", "rand", hands=2 * CHUNK_HANDS, seed=3, workers=1)
    assert _totals(par) == _totals(seq)
    assert by_spec.seats[0].score_sum > 0  # the efficiency bot beats random players


def test_an_illegal_code_is_a_fault_replaced_by_the_default():
    bot = PolicyBot(lambda obs: WIN if not obs["action_mask"][WIN] else PASS)  # never legal on its turn
    res = evaluate(bot, "rand", hands=4, duplicate=False)
    assert res.illegal_actions == bot.faults > 0
    with pytest.raises(ValueError, match="takes"):
        PolicyBot(first_legal, takes="state")


def test_evaluate_on_a_local_ray_instance():
    ray = pytest.importorskip("ray", reason="ray is not installed: pip install 'majiang[ray]' to run this test")
    try:
        res = evaluate("eff", "rand", hands=2 * CHUNK_HANDS, seed=6, ray_address="local")
    finally:
        ray.shutdown()
    assert _totals(res) == _totals(evaluate("eff", "rand", hands=2 * CHUNK_HANDS, seed=6))
