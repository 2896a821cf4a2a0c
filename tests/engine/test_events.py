"""The event declarations (majiang.engine.events): every event of both rulesets is written as
declared (tiles as names, numbers as numbers), an undeclared type is refused, and logs written
before the format version still replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rig import rig
from seeded_hands import seeded_hand, seeded_hands

from majiang.engine import events as ev
from majiang.engine.hand import Hand, Phase
from majiang.engine.log import LOG_VERSION, dumps_event, loads_events, read_log, verify
from majiang.engine.protocol import Action
from majiang.engine.view import event_view, seat_events
from majiang.rulesets import from_header
from majiang.tiles import parse_tile

LOGS = Path(__file__).parent / "logs"
# seat 1 pungs the dealer's 3s, draws the fourth and adds it; seat 3 robs it (test_engine_rules.ROB)
ROB = {0: "3s 5p SWNCFP SS WW NC", 1: "33s 123456789p E N", 2: "13579m 2468s CFP S", 3: "123456789m 12s EE"}


def _robbed_kong() -> Hand:
    h = rig(ROB, draws="CFP3s")
    h.act(0, Action("discard", parse_tile("3s")))
    for s in list(h.prompted()):
        h.act(s, Action("pung", parse_tile("3s")) if s == 1 else Action("pass"))
    h.act(1, Action("discard", parse_tile("N")))
    while not (h.current == 1 and h.phase is Phase.TURN and h.turn_drawn):
        if h.phase is Phase.TURN:
            h.act(h.current, Action("discard", h.seats[h.current].drawn))
        else:
            for s in list(h.prompted()):
                h.act(s, Action("pass"))
    h.act(1, Action("added_kong", parse_tile("3s")))
    h.act(3, Action("win", parse_tile("3s")))
    return h


def _wrong_answer() -> Hand:
    from majiang.rulesets import make_ruleset

    h = Hand(make_ruleset("botzone"), bytes(32))
    h.fault(h.current, "WA")  # Botzone's game: −30 for the offender, the hand ends
    return h


def _hands() -> list[Hand]:
    return [h for _, h in seeded_hands()] + [_robbed_kong(), _wrong_answer()]


def _leaves(x: Any) -> list[Any]:
    if isinstance(x, list):
        return [y for v in x for y in _leaves(v)]
    if isinstance(x, dict):
        return [y for v in x.values() for y in _leaves(v)]
    return [x]


def _check(holds: ev.Holds, x: Any, where: str) -> None:
    if isinstance(holds, ev.Record):
        for r in x if isinstance(x, list) else [x]:
            for k, v in r.items():
                _check(holds.fields[k].holds, v, f"{where}.{k}")
        return
    if holds == ev.PUBLIC_STATE:
        for k, v in x.items():
            _check(ev._public(k), v, f"{where}.{k}")
        return
    for leaf in _leaves(x):
        if holds == ev.TILE:
            assert leaf is None or (isinstance(leaf, str) and parse_tile(leaf) >= 0), (where, x)
        elif holds == ev.NUMBER:
            assert leaf is None or (type(leaf) in (int, float)), (where, x)
        elif holds == ev.FLAG:
            assert type(leaf) is bool, (where, x)
        elif holds == ev.TEXT:
            assert isinstance(leaf, str), (where, x)


def test_every_event_of_both_rulesets_is_written_as_declared():
    types: set[str] = set()
    kinds: set[tuple[str, str]] = set()
    for hand in _hands():
        lines = [dumps_event(e) for e in hand.events]
        for e, line in zip(hand.events, lines, strict=True):
            stored = json.loads(line)
            spec = ev.spec(stored["type"])
            types.add(spec.type)
            if spec.type in ("kong", "payment", "false_win", "item"):
                kinds.add((spec.type, str(stored.get("kind") or stored.get("reason") or stored.get("item"))))
            for k, v in stored.items():
                if k != "type":
                    _check(spec.fields[k].holds, v, f"{spec.type}.{k}")
            for seat in (-1, 0, 1, 2, 3):
                v = event_view(e, seat)
                if v is not None:
                    for k, x in ev.to_json(v).items():
                        if k != "type":
                            _check(spec.fields[k].holds, x, f"view {seat}: {spec.type}.{k}")
        assert loads_events(lines) == hand.events  # and read back exactly
    assert types == set(ev._SPECS), set(ev._SPECS) - types  # every declared type was played
    assert {("kong", k) for k in ("exposed", "added", "concealed")} <= kinds
    assert {("payment", r) for r in ("kong", "settlement", "false_win")} <= kinds
    assert {("item", i) for i in ("toutian", "yihua", "qianliyan", "shunfenger")} <= kinds


def test_an_undeclared_event_type_or_field_is_refused():
    for seat in (-1, 0, 2):
        with pytest.raises(ev.UnknownEvent, match="peek"):
            event_view({"type": "peek", "seat": 0, "tile": 3}, seat)
    with pytest.raises(ev.UnknownEvent):
        dumps_event({"type": "peek", "tile": 3})
    with pytest.raises(ev.UnknownEvent, match="wall_tiles"):
        event_view({"type": "discard", "seat": 0, "tile": 3, "wall_tiles": [1, 2]}, 1)
    with pytest.raises(ValueError, match="line 2"):
        loads_events(['{"type":"dice","dice":[1,2],"break_seat":0,"break_stack":3}', '{"type":"peek"}'])
    with pytest.raises(ev.UnknownEvent):
        seat_events([{"type": "peek"}], 0)
    hand = seeded_hand("gb", 1)
    with pytest.raises(ev.UnknownEvent, match="peek"):
        hand.emit({"type": "peek", "seat": 0})
    with pytest.raises(ev.UnknownEvent, match="wall"):
        hand.emit({"type": "payment", "reason": "kong", "deltas": [0, 0, 0, 0], "wall": [1]})


def test_a_log_carries_its_format_version():
    hand = seeded_hand("gb", 0)
    head = json.loads(dumps_event(hand.events[0]))
    assert head["type"] == "hand_start" and head["version"] == LOG_VERSION == ev.VERSION
    with pytest.raises(ValueError, match="format"):
        loads_events([json.dumps({**head, "version": LOG_VERSION + 1})])


@pytest.mark.parametrize("name", ["v1-gb-02", "v1-nanchang-02", "v1-nanchang-52"])
def test_logs_written_before_the_version_still_replay(name):
    path = LOGS / f"{name}.jsonl"
    raw = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert "version" not in raw[0]
    events = read_log(path)
    ok, msg = verify(events, from_header)
    assert ok, msg
    assert events[0]["version"] == LOG_VERSION  # read as the engine writes it now
    end = events[-1]
    for deltas in end.get("parts", {}).values():
        assert all(type(d) is int for d in deltas)
    if "nanchang" in name:
        assert any(isinstance(d, str) for d in raw[-1]["parts"]["jing"])  # the old log had the D2 bug
    # the same seed gives the same game today: only the version and the jing deltas are written anew
    rules, n = name.split("-")[1], int(name.split("-")[2])
    assert seeded_hand(rules, n).events == events


def test_a_sealed_view_keeps_the_seed_that_the_end_reveals():
    """复式 tables seal their hands: the one gate (not a second filter in the hall) keeps the seed
    that ``hand_end`` and the view reveal, for the seats and for spectators alike."""
    from majiang.engine.view import SeatView

    hand = next(h for h in _hands() if h.over)
    end = hand.events[-1]
    assert end["type"] == "hand_end" and "seed" in end
    for seat in (-1, 0, 1, 2, 3):
        assert seat_events(hand.events, seat)[-1]["seed"] == hand.seed.hex()
        sealed = seat_events(hand.events, seat, sealed=True)
        assert "seed" not in sealed[-1] and all("seed" not in e for e in sealed)
        assert {k: v for k, v in seat_events([end], seat)[0].items() if k != "seed"} == sealed[-1]
    assert SeatView(hand, 0).to_dict()["seed"] == hand.seed.hex()
    assert "seed" not in SeatView(hand, 0).to_dict(sealed=True)
