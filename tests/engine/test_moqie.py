"""摸切 in the log: every discard says whether it was the tile just drawn (``moqie``), checked against
what the engine itself held as the seat's drawn tile; public in every view; logs of older formats get
it on reading by the same rule.  (That the compiled core writes the same flag is test_core_equal's
byte-for-byte comparison of the two engines' logs.)"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from majiang.bots.base import make_bot
from majiang.engine import events as ev
from majiang.engine.hand import Hand, Phase
from majiang.engine.log import dumps_event, loads_events, verify
from majiang.engine.protocol import DISCARD
from majiang.engine.view import SeatView, event_view, public_view
from majiang.rulesets import from_header, make_ruleset

BOTS = ("rand", "eff", "fan")  # random play claims, kongs and draws flowers often
OWN_MOVES = ("draw", "discard", "chow", "pung", "kong")  # a flower replaced in the deal is none


def _played(rules: str, n: int) -> tuple[Hand, list[tuple[int, bool | None]]]:
    """Hand ``n`` played by bots; for each discard (its index in the log), whether the tile thrown
    was the seat's drawn tile as the engine held it (``SeatState.drawn``) — None for the dealer's
    opening discard, whose 14th tile was dealt, not drawn."""
    hand = Hand(make_ruleset(rules), hashlib.sha256(f"moqie:{rules}:{n}".encode()).digest(), dealer=n % 4)
    bots = [make_bot(BOTS[(n + k) % 3], seed=n * 4 + k, rules=rules) for k in range(4)]
    expected: list[tuple[int, bool | None]] = []
    while not hand.over:
        for s in hand.prompted():
            view = SeatView(hand, s)
            action = bots[s].choose(view, view.legal)
            if action.type == DISCARD:
                opening = not any(e.get("seat") == s and e["type"] in OWN_MOVES for e in hand.events)
                expected.append((len(hand.events), None if opening else hand.seats[s].drawn == action.tile))
            hand.act(s, action)
            if hand.over or hand.phase is Phase.TURN:
                break
    return hand, expected


@pytest.mark.parametrize("rules", ["gb", "nanchang"])
def test_a_discard_is_moqie_exactly_when_it_throws_the_tile_just_drawn(rules: str) -> None:
    seen: Counter[tuple[bool, bool | None]] = Counter()
    for n in range(60):
        hand, expected = _played(rules, n)
        for i, want in expected:
            # the action may have won or faulted instead of discarding; only discards are compared
            e = hand.events[i]
            if e["type"] != "discard":
                continue
            if want is None:  # the dealer's opening discard: 手切 unless a flower's replacement is thrown
                flowers = [x for x in hand.events[:i] if x["type"] == "flower" and x["seat"] == e["seat"]]
                want = bool(flowers) and flowers[-1].get("replacement") == e["tile"]
            assert e["moqie"] is want, (rules, n, i, e)
            seen[(e["moqie"], hand.events[i - 1]["type"] == "draw")] += 1
    # both answers occur, and 手切 after a draw too (a tile kept, another thrown)
    assert seen[(True, True)] > 100 and seen[(False, True)] > 100 and seen[(False, False)] > 20, seen


def test_moqie_is_public_in_the_events_and_the_views() -> None:
    """Each seat's pond in the views carries its discards' flags (``moqie``, beside ``claimed``); the
    compiled core's views equal these (test_core_equal compares ``SeatView.to_dict`` of both)."""
    hand, _ = _played("gb", 3)
    discard = next(e for e in hand.events if e["type"] == "discard")
    for seat in (-1, 0, 1, 2, 3):
        assert event_view(discard, seat)["moqie"] is discard["moqie"]
    flags = [[e["moqie"] for e in hand.events if e["type"] == "discard" and e["seat"] == s] for s in range(4)]
    assert any(any(f) for f in flags) and any(not all(f) for f in flags)
    for seat in range(4):
        assert SeatView(hand, seat).moqie == flags
        assert [x["moqie"] for x in SeatView(hand, seat).to_dict()["seats"]] == flags
    assert [x["moqie"] for x in public_view(hand)["seats"]] == flags


def test_a_log_of_format_2_gets_moqie_on_reading() -> None:
    """A hall database or a log file written before format 3: its discards read with the flag the
    engine writes now, so the log still replays event for event."""
    for n in range(12):
        hand, _ = _played("gb" if n % 2 else "nanchang", n)
        old = []
        for e in hand.events:
            stored = json.loads(dumps_event(e))
            if e["type"] == "hand_start":
                stored["version"] = 2
            stored.pop("moqie", None)
            old.append(json.dumps(stored))
        events = loads_events(old)
        assert events == hand.events
        assert verify(events, from_header)[0]
    assert ev.VERSION == ev.FIRST_MOQIE == 3
