"""Hand logs as JSON lines, and replays.

A log is the hand's events in order (the first line is ``hand_start`` with the seed and the
ruleset).  Tiles are written as strings (``5p``).  :func:`replay` rebuilds the hand from its seed
and the recorded decisions (and item uses, :mod:`majiang.engine.items`); :func:`verify` checks that
this reproduces every event exactly, and that a 乾坤大挪移 arrangement follows from the seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

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
from majiang.engine.view import tiles_to_json
from majiang.tiles import parse_tile

LOG_VERSION = 1


def dumps_event(event: dict[str, Any]) -> str:
    return json.dumps(tiles_to_json(event), ensure_ascii=False, separators=(",", ":"))


def write_log(events: Iterable[dict[str, Any]], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for e in events:
            f.write(dumps_event(e))
            f.write("\n")


def _tiles_from_json(x: Any, key: str = "") -> Any:
    if isinstance(x, dict):
        return {k: _tiles_from_json(v, k) for k, v in x.items()}
    if isinstance(x, list):
        return [_tiles_from_json(v, key) for v in x]
    if isinstance(x, str) and key in ("tile", "tiles", "hands", "replacement", "hand", "indicator", "jing",
                                      "concealed", "drawn", "discards", "flowers", "zheng", "fu", "give"):
        return parse_tile(x)
    return x


def events_from_json(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as stored (tiles as strings) → engine events (tiles as ints)."""
    return [_tiles_from_json(e) for e in items]


def loads_events(lines: Iterable[str]) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(_tiles_from_json(json.loads(line)))
        except (json.JSONDecodeError, ValueError) as e:
            raise ValueError(f"line {n} of the log is not a valid event: {e}") from None
    return out


def read_log(path: str | Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return loads_events(f)


# ---- replay ---------------------------------------------------------------------------------------
_CLAIMS = {"chow": CHOW, "pung": PUNG}


def replay(events: list[dict[str, Any]], make_rules: Callable[[dict[str, Any]], Ruleset]) -> Hand:
    """Play the hand again from its seed, feeding the decisions the log records.  A log of a hand
    still in play gives the hand at its last event (claims not yet answered are asked again)."""
    if not events or events[0].get("type") != "hand_start":
        raise ValueError("a hand log starts with a hand_start event")
    head = events[0]
    hand = Hand(make_rules(head), bytes.fromhex(head["seed"]), dealer=head["dealer"], prevalent=head["prevalent"],
                scores=head.get("scores"), hand_no=head.get("hand_no", 0),
                extra={k: v for k, v in head.items() if k not in _HEAD_KEYS},
                arrange=[(int(i), int(j)) for i, j in head.get("arrange", [])])
    while not hand.over and len(hand.events) < len(events):
        _step(hand, events[len(hand.events)])
    return hand


_HEAD_KEYS = {"type", "rules", "ruleset", "seed", "seed_hash", "dealer", "prevalent", "hand_no", "scores",
              "arrange"}


def _step(hand: Hand, e: dict[str, Any]) -> None:
    et = e["type"]
    if et == "item":  # an item used between decisions (majiang.engine.items): re-applied from the seed
        _items.replay_item(hand, e)
        return
    if hand.phase is Phase.TURN:
        seat = hand.current
        if et == "discard":
            hand.act(seat, Action(DISCARD, e["tile"]))
        elif et == "add_kong_declared":
            hand.act(seat, Action(ADDED_KONG, e["tile"]))
        elif et == "kong" and e.get("kind") == "concealed":
            hand.act(seat, Action(CONCEALED_KONG, e["tile"]))
        elif et in ("win", "false_win"):
            hand.act(seat, Action(WIN, e["tile"]))
        else:
            raise ValueError(f"event {len(hand.events)} ({et}) is not a decision of seat {seat} on its turn")
        return
    # a claim or rob window: the log shows the outcome; everybody else passed
    decided: dict[int, Action] = {}
    if et == "false_win":
        hand.act(e["seat"], Action(WIN, e["tile"]))
        return
    if et in _CLAIMS:
        decided[e["seat"]] = Action(_CLAIMS[et], e["tile"], tuple(e["tiles"]) if et == "chow" else ())
    elif et == "kong" and e.get("kind") == "exposed":
        decided[e["seat"]] = Action(KONG, e["tile"])
    elif et in ("win", "robbed"):
        decided[e["seat"]] = Action(WIN, e["tile"])
    for s in list(hand.prompted()):
        hand.act(s, decided.get(s, PASS_ACTION))


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
