"""A Nanchang session: the deal passes round the table and nobody changes seats (nanchang.md §2.2;
seed 004 "庄家逆时针旋转，庄家胡牌后即可连庄")."""

from __future__ import annotations

from majiang.bots import make_bot
from majiang.engine.session import Session
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand


def test_nanchang_session_passes_the_deal_to_the_next_seat_and_keeps_the_seating() -> None:
    session = Session(make_ruleset("nanchang"), b"rotation")
    bots = [make_bot("rand", i, rules="nanchang") for i in range(4)]
    while session.round < 2 and (hand := session.new_hand()) is not None:
        dealer = hand.dealer
        play_hand(hand, bots)
        session.finish_hand(hand)
        assert session.seat_of == [0, 1, 2, 3]  # MCR's seat changes would move the players here
        w = hand.win
        keeps = (w.seat == dealer) if w is not None else True
        assert session.dealer == (dealer if keeps else (dealer + 1) % 4)
    assert session.round == 2  # two rounds went by: the seating never changed
