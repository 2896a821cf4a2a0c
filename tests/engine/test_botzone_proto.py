"""Botzone protocol translation (majiang.bots.botzone_proto): requests from a hand's events,
answers to actions, the two interactions' wire formats."""

import json

import pytest

from majiang.bots.base import RandomBot
from majiang.bots.botzone_proto import (
    BadAnswer,
    bz_tile,
    json_input,
    keep_running_input,
    parse_output,
    parse_response,
    parse_tile,
    requests_for,
    response_text,
    simple_input,
)
from majiang.engine import Hand
from majiang.engine.protocol import Action
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand
from majiang.tiles import parse_tile as mj


def test_tile_names_round_trip():
    names = [f"{s}{n}" for s in "WBT" for n in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    names += [f"H{n}" for n in range(1, 9)]
    assert [bz_tile(parse_tile(n)) for n in names] == names
    assert parse_tile("W1") == mj("1m") and parse_tile("B9") == mj("9p") and parse_tile("T5") == mj("5s")
    assert parse_tile("F1") == mj("E") and parse_tile("J1") == mj("C") and parse_tile("J3") == mj("P")
    for bad in ("W0", "X1", "H9", "F5", "w1", ""):
        with pytest.raises(ValueError):
            parse_tile(bad)


def _played(seed: int, rules: str = "gb") -> Hand:
    hand = Hand(make_ruleset(rules), seed.to_bytes(32, "big"), dealer=seed % 4, prevalent=1)
    play_hand(hand, [RandomBot(seed * 4 + i) for i in range(4)])
    return hand


def test_the_first_requests_are_seat_wind_and_deal_then_the_dealer_draws():
    hand = _played(5)
    for seat in range(4):
        reqs = requests_for(hand.events, seat)
        me = (seat - hand.dealer) % 4
        assert reqs[0] == f"0 {me} 1"
        deal = reqs[1].split()
        counts = [int(x) for x in deal[1:5]]
        assert len(deal) == 5 + 13 + sum(counts)
        assert all(not t.startswith("H") for t in deal[5:18]) and all(t.startswith("H") for t in deal[18:])
        assert reqs[2].startswith("2 ") if me == 0 else reqs[2] == "3 0 DRAW"


def test_requests_follow_botzone_grammar_and_hide_other_seats_tiles():
    kinds = set()
    for seed in range(12):
        hand = _played(seed)
        own_draws = [
            sum(1 for e in hand.events if e["type"] == "draw" and e["seat"] == s and e["tile"] < 34) for s in range(4)
        ]
        for seat in range(4):
            reqs = requests_for(hand.events, seat)
            me = (seat - hand.dealer) % 4
            for r in reqs[2:]:
                w = r.split()
                if w[0] == "2":
                    assert len(w) == 2 and not w[1].startswith("H")
                    continue
                assert w[0] == "3" and w[1] in "0123"
                kinds.add(w[2])
                shape = {"DRAW": 3, "PLAY": 4, "PENG": 4, "CHI": 5, "GANG": 3, "BUGANG": 4, "BUHUA": 4}[w[2]]
                assert len(w) == shape, r
                if w[2] == "DRAW":
                    assert int(w[1]) != me  # own draws are "2 T"
            # every own draw that is not a flower is one "2 T" (the dealer's 14th tile is one too)
            twos = sum(1 for r in reqs if r.startswith("2 "))
            start = _first_turn(hand)
            replaced = sum(
                1
                for e in hand.events[start:]
                if e["type"] == "flower"
                and e["seat"] == seat
                and e.get("replacement") is not None
                and e["replacement"] < 34
            )
            assert twos == own_draws[seat] + (me == 0) + replaced
    assert {"DRAW", "PLAY", "PENG", "CHI", "BUHUA"} <= kinds


def test_every_judge_turn_is_one_request_to_each_player():
    # Botzone's judge sends all four players one request a turn; the seats' histories stay in step
    for seed in range(12):
        hand = _played(seed, "botzone" if seed % 2 else "gb")
        lengths = {len(requests_for(hand.events, s)) for s in range(4)}
        assert len(lengths) == 1
        for k in range(1, len(hand.events)):  # and at every moment a seat may be asked, not only at the end
            e = hand.events[k - 1]
            waits = (
                e["type"] in ("discard", "add_kong_declared")
                or (e["type"] == "draw" and e["tile"] < 34)
                or (e["type"] == "flower" and e.get("replacement") is not None and e["replacement"] < 34)
            )
            if waits:
                assert len({len(requests_for(hand.events[:k], s)) for s in range(4)}) == 1


def _first_turn(hand: Hand) -> int:
    """The index of the first event after the deal's flower replacements."""
    i = next(i for i, e in enumerate(hand.events) if e["type"] == "deal") + 1
    while hand.events[i]["type"] == "flower":
        i += 1
    return i


def test_a_claim_shows_with_its_discard_and_a_concealed_kong_hides_its_tile():
    hand = Hand(make_ruleset("gb"), bytes(32))
    events = [dict(e) for e in hand.events]
    tail = [
        {"type": "discard", "seat": 0, "tile": mj("4m")},
        {"type": "chow", "seat": 1, "from": 0, "tile": mj("4m"), "tiles": [mj("3m"), mj("4m"), mj("5m")]},
        {"type": "discard", "seat": 1, "tile": mj("E")},
        {"type": "pung", "seat": 3, "from": 1, "tile": mj("E")},
        {"type": "discard", "seat": 3, "tile": mj("9s")},
        {"type": "draw", "seat": 0, "tile": mj("C"), "tail": False},
        {"type": "kong", "seat": 0, "tile": mj("C"), "kind": "concealed"},
        {"type": "draw", "seat": 0, "tile": mj("2p"), "tail": True},
        {"type": "add_kong_declared", "seat": 0, "tile": mj("2p")},
    ]
    got = requests_for(events + tail, 2)[3:]
    assert got == ["3 0 PLAY W4", "3 1 CHI W4 F1", "3 3 PENG T9", "3 0 DRAW", "3 0 GANG", "3 0 DRAW", "3 0 BUGANG B2"]
    assert requests_for(events + tail, 0)[-4:] == ["2 J1", "3 0 GANG", "2 B2", "3 0 BUGANG B2"]


def test_a_flower_drawn_is_buhua_then_the_replacement():
    hand = Hand(make_ruleset("gb"), bytes(32))
    events = [dict(e) for e in hand.events]
    tail = [
        {"type": "discard", "seat": 0, "tile": mj("4m")},
        {"type": "draw", "seat": 1, "tile": 34, "tail": False},
        {"type": "flower", "seat": 1, "tile": 34, "replacement": 35},
        {"type": "flower", "seat": 1, "tile": 35, "replacement": mj("7p")},
    ]
    assert requests_for(events + tail, 1)[-3:] == ["3 1 BUHUA H1", "3 1 BUHUA H2", "2 B7"]
    assert requests_for(events + tail, 2)[-3:] == ["3 1 BUHUA H1", "3 1 BUHUA H2", "3 1 DRAW"]


def test_the_dealer_s_first_draw_is_the_tile_given():
    hand = Hand(make_ruleset("botzone"), bytes(32), dealer=2)
    drawn = hand.seats[2].drawn
    assert drawn is not None
    reqs = requests_for(hand.events, 2, drawn)
    assert reqs[2] == f"2 {bz_tile(drawn)}"
    dealt = sorted(reqs[1].split()[5:18] + [bz_tile(drawn)])
    assert dealt == sorted(bz_tile(t) for t in hand.seats[2].concealed())


COUNTS = [0] * 34
for _t in ("1m", "2m", "3m", "5m", "5m", "5m", "E", "E", "9s"):
    COUNTS[mj(_t)] += 1


def test_answers_become_actions():
    turn = [Action("discard", mj("1m")), Action("concealed_kong", mj("5m")), Action("win", mj("9s"))]
    assert parse_response("PLAY W1", "turn", turn, COUNTS).action == turn[0]
    assert parse_response("GANG W5", "turn", turn, COUNTS).action == turn[1]
    assert parse_response("HU", "turn", turn, COUNTS).action == turn[2]
    claim = [Action("win", mj("E")), Action("pung", mj("E")), Action("pass")]
    r = parse_response("PENG T9", "claim", claim, COUNTS, mj("E"))
    assert r.action == claim[1] and r.discard == mj("9s")
    assert parse_response("PASS", "claim", claim, COUNTS, mj("E")).action == Action("pass")
    chow = Action("chow", mj("4m"), (mj("3m"), mj("4m"), mj("5m")))
    r = parse_response("CHI W4 F1", "claim", [chow, Action("pass")], COUNTS, mj("4m"))
    assert r.action == chow and r.discard == mj("E")
    assert parse_response(
        "GANG", "claim", [Action("kong", mj("5m")), Action("pass")], COUNTS, mj("5m")
    ).action == Action("kong", mj("5m"))


@pytest.mark.parametrize(
    "text, phase",
    [
        ("PLAY W9", "turn"),  # not held
        ("PASS", "turn"),  # a draw must be answered
        ("HU", "claim"),  # no win offered
        ("PENG W1", "claim"),  # no pung offered
        ("PENG", "claim"),  # the discard after the pung is missing
        ("CHI W4 W4", "claim"),  # no 4m left after the chow
        ("CHI F2 W1", "claim"),  # honours make no chows
        ("PLAY Q1", "turn"),
        ("", "turn"),
        ("DANCE", "claim"),
    ],
)
def test_bad_answers_are_refused_with_a_reason(text, phase):
    legal = [Action("discard", mj("1m")), Action("pass"), Action("chow", mj("4m"), (mj("3m"), mj("4m"), mj("5m")))]
    with pytest.raises(BadAnswer):
        parse_response(text, phase, legal, COUNTS, mj("4m"))


def test_an_action_written_as_an_answer_reads_back_as_itself():
    cases = [
        (Action("discard", mj("C")), None),
        (Action("concealed_kong", mj("5m")), None),
        (Action("pung", mj("E")), mj("9s")),
        (Action("chow", mj("4m"), (mj("3m"), mj("4m"), mj("5m"))), mj("E")),
        (Action("kong", mj("5m")), None),
        (Action("pass"), None),
    ]
    texts = [response_text(a, d) for a, d in cases]
    assert texts == ["PLAY J1", "GANG W5", "PENG T9", "CHI W4 F1", "GANG", "PASS"]


def test_wire_formats_of_both_interactions():
    reqs, resps = ["0 2 1", "1 0 0 0 0 W1", "3 0 DRAW"], ["PASS", "PASS"]
    d = json.loads(json_input(reqs, resps, data="x"))
    assert d["requests"] == reqs and d["responses"] == resps and d["data"] == "x"
    assert simple_input(reqs, resps).split("\n")[:6] == ["3", "0 2 1", "PASS", "1 0 0 0 0 W1", "PASS", "3 0 DRAW"]
    assert keep_running_input("3 0 DRAW", simple=True) == "3 0 DRAW\n"
    assert json.loads(keep_running_input("3 0 DRAW", simple=False)) == "3 0 DRAW"
    assert parse_output('{\n\t"response" : "PLAY W1",\n\t"data": "d"\n}\n', simple=False) == ("PLAY W1", "d", None)
    assert parse_output("PASS\ndebug\nsaved\nglobal\n", simple=True) == ("PASS", "saved", "global")
    assert parse_output("PASS\n", simple=True)[0] == "PASS"
    assert parse_output("\nPASS\n", simple=True)[0] == "PASS"  # the end of the last keep-running line
    for text, simple in (("", True), ("PASS", False), ('{"response": 3}', False), ("\n", True)):
        with pytest.raises(BadAnswer):
            parse_output(text, simple)
