"""Hand logs as JSON lines, and replays.

A log is the hand's events in order (the first line is ``hand_start`` with the format
``version``, the seed and the ruleset).  Tiles are written as strings (``5p``), numbers as numbers;
which field is which is declared with the event type (:mod:`majiang.engine.events`).  Logs without
a version (format 1) still read: their numbers written as tile names come back as numbers.
:func:`replay` rebuilds the hand from its seed and the recorded decisions (and item uses,
:mod:`majiang.engine.items`); :func:`verify` checks that this reproduces every event exactly, and
that a 乾坤大挪移 arrangement follows from the seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from majiang.engine import events as _events
from majiang.engine import items as _items
from majiang.engine.hand import Hand, Phase
from majiang.engine.protocol import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    PASS_ACTION,
    PUNG,
    WIN,
    Action,
    Ruleset,
)

LOG_VERSION = _events.VERSION


def dumps_event(event: dict[str, Any]) -> str:
    return json.dumps(_events.to_json(event), ensure_ascii=False, separators=(",", ":"))


def write_log(events: Iterable[dict[str, Any]], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for e in events:
            f.write(dumps_event(e))
            f.write("\n")


class _Reader:
    """Stored events → engine events, following the format version of the last ``hand_start``
    (none: format 1).  A header read from an older format comes back as the engine writes it now."""

    def __init__(self) -> None:
        self.version = LOG_VERSION
        self.hand: list[dict[str, Any]] = []  # an older format's events since its hand_start

    def read(self, stored: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(stored, dict) or not isinstance(stored.get("type"), str):
            raise ValueError(f"an event is an object with a type, got {stored!r}")
        if stored["type"] == "hand_start":
            version = stored.get("version", 1)
            if not isinstance(version, int) or not 1 <= version <= LOG_VERSION:
                raise ValueError(f"log format {version!r} is not one this version reads (1 to {LOG_VERSION})")
            self.version = version
            event = _events.from_json(stored, version)
            if version < LOG_VERSION:
                event.pop("version", None)  # an older one: read as the engine writes it now
                event = {"type": "hand_start", "version": LOG_VERSION, **event}
            self.hand = [event]
            return event
        event = _events.from_json(stored, self.version)
        if self.version < _events.FIRST_MOQIE:  # the discards' 摸切, by the engine's rule
            if event["type"] == "discard" and "moqie" not in event:
                event["moqie"] = _events.moqie(self.hand, event.get("seat", -1), event.get("tile", -1))
            self.hand.append(event)
        return event


def events_from_json(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as stored (tiles as strings) → engine events (tiles as ints)."""
    reader = _Reader()
    return [reader.read(e) for e in items]


def loads_events(lines: Iterable[str]) -> list[dict[str, Any]]:
    reader = _Reader()
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(reader.read(json.loads(line)))
        except (json.JSONDecodeError, ValueError) as e:
            raise ValueError(f"line {n} of the log is not a valid event: {e}") from None
    return out


def read_log(path: str | Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return loads_events(f)


# ---- walking a log: replay, review, dataset --------------------------------------------------------
_CLAIMS = {"chow": CHOW, "pung": PUNG}


def hand_at_start(events: Sequence[dict[str, Any]], make_rules: Callable[[dict[str, Any]], Ruleset]) -> Hand:
    """The hand a log's ``hand_start`` header describes, before any decision: its seed, seats, scores,
    the ruleset ``make_rules`` makes of the header, and a logged 乾坤大挪移 arrangement."""
    if not events or events[0].get("type") != "hand_start":
        raise ValueError("a hand log starts with a hand_start event")
    head = events[0]
    return Hand(
        make_rules(head),
        bytes.fromhex(head["seed"]),
        dealer=head["dealer"],
        prevalent=head["prevalent"],
        scores=head.get("scores"),
        hand_no=head.get("hand_no", 0),
        extra={k: v for k, v in head.items() if k not in _events.HEADER_KEYS},
        arrange=[(int(i), int(j)) for i, j in head.get("arrange", [])],
    )


def walk(hand: Hand, events: Sequence[dict[str, Any]]) -> Iterator[tuple[int, Action]]:
    """Feed ``hand`` the decisions the log ``events`` records, from where the hand stands to the end
    of the log or of the hand.  Each decision is yielded as ``(seat, action)`` just before the hand
    is given it, so that the caller sees the table as that seat saw it (the review judges it, the
    dataset encodes it); items and faults are re-applied between decisions.  The one walk that
    :func:`replay`, :func:`majiang.review.review_hand` and :func:`majiang.rl.dataset.decisions` share."""
    while not hand.over and len(hand.events) < len(events):
        e = events[len(hand.events)]
        et = e["type"]
        if et == "item":  # an item used between decisions (majiang.engine.items): re-applied from the seed
            _items.replay_item(hand, e)
        elif et == "fault":  # a wrong answer or a timeout penalised by the ruleset: no decision
            hand.fault(e["seat"], e["kind"])
        else:
            for seat, action in logged_decisions(hand, e):
                yield seat, action
                hand.act(seat, action)


def logged_decisions(hand: Hand, e: dict[str, Any]) -> list[tuple[int, Action]]:
    """The decisions the log's next event ``e`` shows, in the order the engine takes them: on a
    turn, the seat's own; in a claim or rob window, every prompted seat's (the event shows who took
    what; everybody else asked passed)."""
    et = e["type"]
    if hand.phase is Phase.TURN:
        seat = hand.current
        if et == "discard":
            return [(seat, Action(DISCARD, e["tile"]))]
        if et == "add_kong_declared":
            return [(seat, Action(ADDED_KONG, e["tile"]))]
        if et == "kong" and e.get("kind") == "concealed":
            return [(seat, Action(CONCEALED_KONG, e["tile"]))]
        if et in ("win", "false_win"):
            return [(seat, Action(WIN, e["tile"]))]
        raise ValueError(f"event {len(hand.events)} ({et}) is not a decision of seat {seat} on its turn")
    if et == "false_win":
        return [(e["seat"], Action(WIN, e["tile"]))]
    taken: dict[int, Action] = {}
    if et in _CLAIMS:
        taken[e["seat"]] = Action(_CLAIMS[et], e["tile"], tuple(e["tiles"]) if et == "chow" else ())
    elif et == "kong" and e.get("kind") == "exposed":
        taken[e["seat"]] = Action(KONG, e["tile"])
    elif et in ("win", "robbed"):
        taken[e["seat"]] = Action(WIN, e["tile"])
    return [(s, taken.get(s, PASS_ACTION)) for s in list(hand.prompted())]


def replay(events: list[dict[str, Any]], make_rules: Callable[[dict[str, Any]], Ruleset]) -> Hand:
    """Play the hand again from its seed, feeding the decisions the log records.  A log of a hand
    still in play gives the hand at its last event (claims not yet answered are asked again)."""
    hand = hand_at_start(events, make_rules)
    for _ in walk(hand, events):
        pass
    return hand


WINDOW_EVENTS = ("discard", "add_kong_declared")  # each opens a window for the other seats' claims


def replay_shown(events: list[dict[str, Any]], make_rules: Callable[[dict[str, Any]], Ruleset]) -> Hand:
    """The hand as its players were shown it at the log's last event: after a discard (an added kong),
    its claim (robbing) window still open even when nobody may claim (the hall sends what follows when
    the window ends, whoever could claim), where :func:`replay` gives the hand the engine went on to."""
    hand = hand_at_start(events, make_rules)
    for _ in walk(hand, events[:-1]):
        pass
    hand.hold_claims = events[-1].get("type") in WINDOW_EVENTS
    for _ in walk(hand, events):
        pass
    return hand


def verify(events: list[dict[str, Any]], make_rules: Callable[[dict[str, Any]], Ruleset]) -> tuple[bool, str]:
    """Replay and compare every event; returns (ok, message)."""
    try:
        hand = replay(events, make_rules)
    except Exception as e:
        return False, f"replay failed: {e}"
    got = [json.loads(dumps_event(x)) for x in hand.events]
    want = [json.loads(dumps_event(x)) for x in events]
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return False, f"event {i} differs: replay {a} vs log {b}"
    if len(got) != len(want):
        return False, f"replay has {len(got)} events, the log {len(want)}"
    problem = _items.start_problem(events[0], hand.rules)
    if problem is not None:
        return False, problem
    return True, f"ok: {len(got)} events reproduced"
