"""The look-ahead bot (``search``) and the core's determinised play-outs (search_core.h)."""

from __future__ import annotations

import hashlib

import pytest

from majiang.bots.base import make_bot
from majiang.bots.search import MIN_SAMPLES, SearchBot, pick
from majiang.engine import compiled
from majiang.engine.compiled import CompiledHand, new_hand
from majiang.engine.log import dumps_event
from majiang.rulesets import make_ruleset
from majiang.rulesets.mcr import MCR
from majiang.sim import simulate

core = pytest.mark.skipif(compiled.core_rules(MCR("gb")) is None, reason="the compiled core is not built")


def _seed(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


@core
@pytest.mark.parametrize("rules", ["gb", "botzone"])
@pytest.mark.parametrize("policy", ["eff", "fan"])
def test_play_outs_leave_the_hand_as_it_was(rules, policy):
    hand = new_hand(make_ruleset(rules), _seed(rules))
    assert isinstance(hand, CompiledHand)
    seat = hand.current
    before = ([dumps_event(e) for e in hand.events], hand._c.state(), hand.wall.tiles, hand.seats[1].counts)
    done, values = hand.rollouts(seat, hand.legal(seat)[:4], 8, 1, 10.0, policy)
    assert done == 8 and len(values) == 4 and all(len(v) == 8 for v in values)
    after = ([dumps_event(e) for e in hand.events], hand._c.state(), hand.wall.tiles, hand.seats[1].counts)
    assert after == before


@core
@pytest.mark.parametrize("rules", ["gb", "botzone"])
def test_the_sampled_worlds_depend_on_what_is_hidden_not_where(rules):
    """Two hands that differ only in where two hidden wall tiles lie give the same play-outs: the
    seat's look-ahead sees nothing it could not see at the table."""
    ruleset = make_ruleset(rules)
    seed = _seed("hidden " + rules)
    one = new_hand(ruleset, seed)
    assert isinstance(one, CompiledHand)
    free = [i for i, taken in enumerate(one.wall.taken) if not taken]
    tiles = one.wall.tiles
    i = free[3]
    j = next(k for k in free[4:] if tiles[k] != tiles[i])
    other = new_hand(ruleset, seed, arrange=[(i, j)])
    assert isinstance(other, CompiledHand) and other.wall.tiles != one.wall.tiles
    seat = one.current
    actions = one.legal(seat)[:5]
    assert one.rollouts(seat, actions, 24, 5, 10.0) == other.rollouts(seat, actions, 24, 5, 10.0)
    assert one.rollouts(seat, actions, 24, 5, 10.0) != one.rollouts(seat, actions, 24, 6, 10.0)


@core
@pytest.mark.parametrize("policy", ["eff", "fan"])
def test_a_claim_is_played_out_without_the_other_seats_answers(policy):
    """On a claim the worlds give the other seats the options of their sampled tiles and let them
    answer there: a seat asked after another has answered plays out exactly as before that answer
    (the answer, like the tiles it came from, is not the seat's to see)."""
    from majiang.engine.view import SeatView

    ruleset = make_ruleset("gb")
    bots = [make_bot("eff", s) for s in range(4)]
    checked = 0
    for n in range(60):
        hand = new_hand(ruleset, _seed(f"claim {n}"))
        done = []
        while not hand.over:
            asked = [s for s in hand.prompted() if hand.legal(s)]
            if hand.phase.value == "claim" and len(asked) >= 2:
                first, second = asked[:2]
                before = new_hand(ruleset, _seed(f"claim {n}"))
                for s, a in done:
                    before.act(s, a)
                actions = hand.legal(second)
                want = before.rollouts(second, actions, 24, n, 10.0, policy)
                hand.act(first, bots[first].choose(SeatView(hand, first), hand.legal(first)))
                assert hand.rollouts(second, actions, 24, n, 10.0, policy) == want, n
                checked += 1
                break
            s = asked[0]
            a = bots[s].choose(SeatView(hand, s), hand.legal(s))
            hand.act(s, a)
            done.append((s, a))
        if checked == 4:
            break
    assert checked == 4


@core
def test_rollouts_refuse_what_is_not_a_legal_choice():
    hand = new_hand(make_ruleset("gb"), _seed("refuse"))
    assert isinstance(hand, CompiledHand)
    other = (hand.current + 1) % 4
    with pytest.raises(ValueError, match="not a legal choice"):
        hand.rollouts(other, [hand.legal(hand.current)[0]], 4, 1, 1.0)
    with pytest.raises(ValueError, match="play-out policy"):
        hand.rollouts(hand.current, [hand.legal(hand.current)[0]], 4, 1, 1.0, "ev")


@core
def test_the_play_out_policy_is_the_one_asked_for():
    """The same worlds (the same seed) played out by the fan bot and by the efficiency bot: each is
    repeatable, and they differ (the core's fan bot itself equals the Python one: test_core_equal)."""
    ruleset = make_ruleset("gb")
    results = {}
    for policy in ("eff", "fan"):
        for n in range(6):
            hand = new_hand(ruleset, _seed(f"play-out {n}"))
            assert isinstance(hand, CompiledHand)
            seat = hand.current
            got = hand.rollouts(seat, hand.legal(seat)[:3], 16, n, 10.0, policy)
            assert got == hand.rollouts(seat, hand.legal(seat)[:3], 16, n, 10.0, policy)
            results[policy, n] = got
    assert all(results["fan", n] != results["eff", n] for n in range(6))


def test_the_ev_choice_stands_unless_another_is_better_by_the_margin():
    assert pick([[0] * 40, [0] * 40]) == 0
    assert pick([[0] * (MIN_SAMPLES - 1), [30] * (MIN_SAMPLES - 1)]) == 0  # too few worlds
    assert pick([[0] * 40, [8] * 40, [4] * 40]) == 1
    noisy = [30 if k % 2 else -30 for k in range(40)]
    assert pick([[0] * 40, noisy]) == 0


def test_search_specs():
    bot = make_bot("search@0.2", 1)
    assert isinstance(bot, SearchBot) and bot.budget_s == 0.2
    assert isinstance(make_bot("search", 1), SearchBot)
    tuned = make_bot("search@1/64/1.5", 1)
    assert isinstance(tuned, SearchBot) and (tuned.budget_s, tuned.samples, tuned.z) == (1.0, 64, 1.5)
    assert tuned.playout == "eff"
    fan = make_bot("search@1/64/2/fan", 1)
    assert isinstance(fan, SearchBot) and (fan.samples, fan.z, fan.playout) == (64, 2.0, "fan")
    with pytest.raises(ValueError, match="search@SECONDS"):
        make_bot("search@soon", 1)
    with pytest.raises(ValueError, match="eff or fan"):
        make_bot("search@1/64/2/ev", 1)


@pytest.mark.parametrize("engine", ["python", "core"])
def test_search_plays_whole_hands_without_faults(monkeypatch, engine):
    monkeypatch.setenv("MAJIANG_ENGINE", engine)
    if engine == "core" and compiled.core_rules(MCR("gb")) is None:
        pytest.skip("the compiled core is not built")
    bot = SearchBot(3, budget_s=0.05, samples=24)
    r = simulate(4, 2, [bot, "eff", "fan", "rand"], rules="botzone").to_dict()
    assert r["hands"] == 4 and r["illegal_actions"] == 0 and r["zero_sum_violations"] == 0
    assert (bot.searched > 0) == (engine == "core")  # on the Python engine it plays as ev
