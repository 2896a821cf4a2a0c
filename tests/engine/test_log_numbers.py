"""Was: Nanchang's jing settlement deltas were written as tile names in every log and
hall event (``"jing": [-4, "9m", "1m", -4]`` for ``[-4, 8, 0, -4]``); numbers stay numbers."""

from __future__ import annotations

import json

from seeded_hands import seeded_hand

from majiang.engine.log import dumps_event
from majiang.engine.view import event_view, tiles_to_json


def test_nanchang_settlement_parts_stay_numbers_in_logs_and_hall_events():
    """Was: the jing deltas were written as tile names (``[-4, "9m", "1m", -4]``)."""
    seen = 0
    for n in range(16):
        hand = seeded_hand("nanchang", n)
        end = hand.events[-1]
        assert end["type"] == "hand_end"
        logged = json.loads(dumps_event(end))
        for seat in (-1, 0, 1, 2, 3):
            sent = tiles_to_json(event_view(end, seat))
            for parts in (logged["parts"], sent["parts"]):
                assert set(parts) >= {"win", "kong", "jing"}
                for name, deltas in parts.items():
                    assert all(type(d) is int for d in deltas), (name, deltas)
                    assert deltas == end["parts"][name]
        seen += any(0 <= d < 42 for d in end["parts"]["jing"])
    assert seen  # the seeds include jing deltas that look like tile codes
