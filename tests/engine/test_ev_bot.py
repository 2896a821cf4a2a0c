"""The expected-value bot (``ev``, alias ``best``): legal, deterministic, never a false win, bounded."""

import random
import time

import pytest

from majiang.bots import make_bot
from majiang.bots.base import BEST
from majiang.bots.ev import EVBot, _win_chance
from majiang.bots.fan import FanBot
from majiang.engine import Hand
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand, simulate
from majiang.tiles import counts_of, parse_tiles


def test_best_is_the_ev_bot_wherever_a_kind_is_named():
    assert BEST == "ev"
    assert isinstance(make_bot("best", 1), EVBot) and isinstance(make_bot("ev", 1, rules="botzone"), EVBot)
    assert make_bot("best", 1, rules="nanchang").name != "ev"  # Nanchang has its own (jing-aware) bot


@pytest.mark.parametrize("rules", ["gb", "botzone"])
def test_only_legal_actions_and_no_false_wins(rules):
    r = simulate(48, 7, ["best", "ev", "fan", "rand"], rules=rules, verify=True).to_dict()
    assert r["illegal_actions"] == 0 and r["false_wins"] == 0
    assert r["zero_sum_violations"] == 0 and r["replay_mismatches"] == 0


def test_every_answer_is_in_the_legal_list():
    rules = make_ruleset("gb")
    rng = random.Random(12)
    bots = [make_bot("ev", i) for i in range(4)]
    for i in range(8):
        h = Hand(rules, rng.randbytes(32), dealer=i % 4)
        while not h.over:
            for s in h.prompted():
                view = SeatView(h, s)
                if not view.legal:
                    continue
                a = bots[s].choose(view, view.legal)
                assert a in view.legal
                if a.type == "win":  # the engine offers a win only when it reaches 8 fan
                    assert (
                        h.rules.check_win(
                            h, s, a.tile, h.win_context(s, a.tile, None if view.phase == "turn" else view.pending[0])
                        )
                        is not None
                    )
                h.act(s, a)
                if h.over:
                    break
        assert sum(h.deltas) == 0


def test_deterministic_for_a_seed():
    a = simulate(24, 5, ["ev", "fan", "eff", "rand"], duplicate=True).to_dict()
    b = simulate(24, 5, ["ev", "fan", "eff", "rand"], duplicate=True).to_dict()
    assert a["seats"] == b["seats"]


def _turn(hand_text: str, drawn: str) -> tuple[Hand, SeatView]:
    h = Hand(make_ruleset("gb"), bytes(32))
    st = h.seats[h.current]
    st.counts = counts_of(parse_tiles(hand_text))
    st.drawn = parse_tiles(drawn)[0]
    h._enter_turn()
    return h, SeatView(h, h.current)


def test_keeps_the_legal_wait():
    # 23m123p456p789s11s with 4m drawn: only discarding the 4m keeps a legal wait (1m: 花龙, 8+ fans);
    # every other discard leaves waits under 8 fan or none
    h, view = _turn("234m 123p 456p 789s 11s", "4m")
    a = EVBot(1).choose(view, h.legal(h.current))
    assert a == ("discard", parse_tiles("4m")[0], ())


def test_the_budget_bounds_a_decision():
    # a zero budget still answers, legally, with the fan bot's choice
    h, view = _turn("123456m 78m 22m 999m 9p", "9p")
    legal = h.legal(h.current)
    for bot in (EVBot(1, budget_s=0.0), EVBot(1, max_nodes=0)):
        assert bot.choose(view, legal) == FanBot(1).choose(view, legal)
    worst = 0.0
    bot = EVBot(2)
    rng = random.Random(4)
    bots = [bot, make_bot("fan", 1), make_bot("fan", 2), make_bot("fan", 3)]
    original = bot.choose

    def timed(v, legal):  # type: ignore[no-untyped-def]
        nonlocal worst
        t = time.process_time()
        out = original(v, legal)
        worst = max(worst, time.process_time() - t)
        return out

    bot.choose = timed  # type: ignore[method-assign]
    for i in range(4):
        play_hand(Hand(make_ruleset("gb"), rng.randbytes(32), dealer=i), bots)
    assert worst < 1.0  # Botzone: one second a decision


def test_win_chance_grows_with_waits_and_time():
    assert _win_chance(0.0, 10) == 0.0
    assert 0 < _win_chance(0.05, 5) < _win_chance(0.05, 10) < _win_chance(0.1, 10) < 1
