"""Botzone's Chinese-Standard-Mahjong bot protocol, translated to and from majiang (pure functions).

A Botzone bot is asked once per judge turn.  Its requests (request codes as in Botzone's judge):

* ``0 id quan`` — the bot's seat (0 = East = dealer) and the prevalent wind;
* ``1 h0 h1 h2 h3 T1 … T13 H…`` — each player's flower count, the 13 dealt tiles (flowers already
  replaced) and every player's flowers;
* ``2 T`` — the bot drew ``T``; ``3 p DRAW`` — player ``p`` drew; ``3 p BUHUA H`` — ``p`` drew a
  flower and replaces it;
* ``3 p PLAY T`` / ``3 p PENG T`` / ``3 p CHI M T`` — ``p`` discarded ``T`` (after a pung, or a chow
  whose middle tile is ``M``); ``3 p GANG`` — ``p`` made a kong; ``3 p BUGANG T`` — ``p`` adds
  ``T`` to a pung.

It answers ``PASS``, or where the request allows ``PLAY T``, ``GANG T`` (concealed), ``BUGANG T``,
``HU`` (after its draw), ``PENG T``, ``CHI M T``, ``GANG``, ``HU`` (on a discard; ``T`` is the
tile it then discards) or ``HU`` (robbing a ``BUGANG``).  Tiles: ``W1–9`` 万, ``B1–9`` 饼,
``T1–9`` 条, ``F1–4`` 东南西北, ``J1–3`` 中发白, ``H1–8`` flowers.

This module only translates: :func:`requests_for` turns a hand's events (through the seat's
:func:`~majiang.engine.view.event_view`, the single gate for hidden information) into the
requests that seat has received so far; :func:`parse_response` turns an answer into majiang
actions; :func:`response_text` writes an action as the answer that stands for it in the history.
The wire formats of the two interactions are :func:`json_input`, :func:`simple_input`,
:func:`keep_running_input` and :func:`parse_output`.  The process driver is
:mod:`majiang.bots.botzone`.

>>> parse_tile("J1"), bz_tile(31), bz_tile(34)
(31, 'J1', 'H1')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from majiang.engine.botzone import botzone_tile as bz_tile
from majiang.engine.protocol import ADDED_KONG, CHOW, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, WIN, Action
from majiang.engine.view import event_view
from majiang.tiles import NUM_KINDS, Tile

__all__ = [
    "BadAnswer",
    "Reply",
    "bz_tile",
    "json_input",
    "keep_running_input",
    "parse_output",
    "parse_response",
    "parse_tile",
    "requests_for",
    "response_text",
    "simple_input",
]

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
_SUITS = "WBT"
_HONORS = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def parse_tile(name: str) -> Tile:
    """A Botzone tile name → majiang's tile (``W1`` → 0 …, ``H8`` → 41); ValueError otherwise."""
    if len(name) == 2 and name[0] in _SUITS and name[1] in "123456789":
        return _SUITS.index(name[0]) * 9 + int(name[1]) - 1
    if name in _HONORS:
        return 27 + _HONORS.index(name)
    if len(name) == 2 and name[0] == "H" and name[1] in "12345678":
        return NUM_KINDS + int(name[1]) - 1
    raise ValueError(f"{name!r} is not a Botzone tile (W1–9, B1–9, T1–9, F1–4, J1–3, H1–8)")


# ---- majiang events → Botzone requests ---------------------------------------------------------
def requests_for(events: Sequence[dict[str, Any]], seat: int, first_draw: Tile | None = None) -> list[str]:
    """Every request Botzone would have sent ``seat`` so far in the hand of ``events`` (the
    engine's log; each event passes :func:`event_view` for ``seat`` first).

    Botzone deals 13 tiles to everyone and lets the dealer draw the 14th: ``first_draw`` is the
    dealer's tile that plays that part (majiang's drawn tile of the first turn; by default the
    highest).  Flowers dealt are replaced silently and listed in request 1; flowers drawn later are
    ``BUHUA`` requests before the replacement's draw.  After ``PENG``/``CHI`` the discard is part
    of the claim's request (``3 p PENG T``), as on Botzone."""
    evs = [v for e in events if (v := event_view(e, seat)) is not None]
    head = evs[0]
    dealer = int(head["dealer"])

    def pid(s: int) -> int:  # Botzone numbers the players from the dealer
        return (s - dealer) % 4

    out = [f"0 {pid(seat)} {head['prevalent']}"]
    at = next((i for i, e in enumerate(evs) if e["type"] == "deal"), None)
    if at is None:
        return out
    hand = [t for t in evs[at]["hands"][seat] if t < NUM_KINDS]
    flowers: list[list[Tile]] = [[], [], [], []]
    at += 1
    while at < len(evs) and evs[at]["type"] == "flower":  # the deal's flowers, dealer first
        e = evs[at]
        flowers[pid(e["seat"])].append(e["tile"])
        repl = e.get("replacement")
        if e["seat"] == seat and repl is not None and repl < NUM_KINDS:
            hand.append(repl)
        at += 1
    hand.sort()
    if seat == dealer:
        first = first_draw if first_draw is not None and first_draw in hand else hand[-1]
        hand.remove(first)
    counts = " ".join(str(len(f)) for f in flowers)
    shown = "".join(f" {bz_tile(t)}" for f in flowers for t in f)
    out.append(f"1 {counts} " + " ".join(bz_tile(t) for t in hand) + shown)
    out.append(f"2 {bz_tile(first)}" if seat == dealer else "3 0 DRAW")
    claim: dict[int, str] = {}  # a pung/chow whose request waits for the discard that completes it
    for i in range(at, len(evs)):
        e = evs[i]
        et = e["type"]
        s = e.get("seat", -1)
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        more_flowers = nxt is not None and nxt["type"] == "flower" and nxt.get("seat") == s
        if et == "draw":
            if s == seat:
                if e["tile"] < NUM_KINDS:
                    out.append(f"2 {bz_tile(e['tile'])}")
            elif not more_flowers:  # a flower drawn shows as BUHUA first, then the replacement's DRAW
                out.append(f"3 {pid(s)} DRAW")
        elif et == "flower":
            out.append(f"3 {pid(s)} BUHUA {bz_tile(e['tile'])}")
            if s == seat:
                repl = e.get("replacement")
                if repl is not None and repl < NUM_KINDS:
                    out.append(f"2 {bz_tile(repl)}")
            elif not more_flowers and (nxt is None or nxt["type"] not in ("exhausted", "hand_end")):
                out.append(f"3 {pid(s)} DRAW")
        elif et == "discard":
            out.append(f"3 {pid(s)} {claim.pop(s, 'PLAY')} {bz_tile(e['tile'])}")
        elif et == "pung":
            claim[s] = "PENG"
        elif et == "chow":
            claim[s] = f"CHI {bz_tile(e['tiles'][1])}"
        elif et == "kong" and e.get("kind") in ("exposed", "concealed"):
            out.append(f"3 {pid(s)} GANG")  # an added kong was announced by its BUGANG
        elif et == "add_kong_declared":
            out.append(f"3 {pid(s)} BUGANG {bz_tile(e['tile'])}")
    return out


# ---- Botzone answers ↔ majiang actions -----------------------------------------------------------
class BadAnswer(ValueError):
    """An answer that is not a legal Botzone response here; the message says why."""


@dataclass(frozen=True)
class Reply:
    """An answer as majiang actions: ``action`` now, and after a pung or chow the ``discard``
    that follows it (Botzone answers both at once)."""

    action: Action
    discard: Tile | None = None


def parse_response(
    text: str, phase: str, legal: Sequence[Action], counts: Sequence[int], pending: Tile | None = None
) -> Reply:
    """The answer ``text`` to the current request, checked against ``legal``.  ``phase`` is the
    view's (``turn``: after the bot's draw; ``claim``: on a discard; ``rob``: on a ``BUGANG``),
    ``counts`` the bot's concealed tiles, ``pending`` the discard or added tile in question.
    Raises :class:`BadAnswer`."""
    words = text.split()
    if not words:
        raise BadAnswer("an empty answer")
    verb, args = words[0], words[1:]
    try:
        tiles = [parse_tile(w) for w in args]
    except ValueError as e:
        raise BadAnswer(str(e)) from None
    if verb == "HU" and not args:
        win = next((a for a in legal if a.type == WIN), None)
        if win is None:
            raise BadAnswer("HU: not a winning hand of 8 fan here")
        return Reply(win)
    if verb == "PASS" and not args and phase != "turn":
        return Reply(Action(PASS))
    reply: Reply | None = None
    if phase == "turn" and len(tiles) == 1:
        kind = {"PLAY": DISCARD, "GANG": CONCEALED_KONG, "BUGANG": ADDED_KONG}.get(verb)
        if kind is not None:
            reply = Reply(Action(kind, tiles[0]))
    elif phase == "claim" and pending is not None:
        if verb == "GANG" and not tiles:
            reply = Reply(Action(KONG, pending))
        elif verb == "PENG" and len(tiles) == 1:
            reply = _then(Action(PUNG, pending), [pending, pending], tiles[0], counts)
        elif verb == "CHI" and len(tiles) == 2 and tiles[0] < 27 and 1 <= tiles[0] % 9 <= 7:
            mid = tiles[0]
            chow = Action(CHOW, pending, (mid - 1, mid, mid + 1))
            if pending in chow.tiles:
                reply = _then(chow, [t for t in chow.tiles if t != pending], tiles[1], counts)
    if reply is None or reply.action not in legal:
        raise BadAnswer(f"{text!r} is not a legal answer here")
    return reply


def _then(claim: Action, used: list[Tile], discard: Tile, counts: Sequence[int]) -> Reply:
    left = list(counts)
    for t in used:
        left[t] -= 1
    if not (0 <= discard < NUM_KINDS and left[discard] > 0):
        raise BadAnswer(f"cannot discard {bz_tile(discard)} after {claim.type}: not in the hand")
    return Reply(claim, discard)


def response_text(action: Action, discard: Tile | None = None) -> str:
    """The Botzone answer that stands for ``action`` (followed by ``discard`` after a claim)."""
    t = action.type
    if t == DISCARD:
        return f"PLAY {bz_tile(action.tile)}"
    if t == CONCEALED_KONG:
        return f"GANG {bz_tile(action.tile)}"
    if t == ADDED_KONG:
        return f"BUGANG {bz_tile(action.tile)}"
    if t == KONG:
        return "GANG"
    if t == WIN:
        return "HU"
    if t in (PUNG, CHOW) and discard is not None:
        then = bz_tile(discard)
        return f"PENG {then}" if t == PUNG else f"CHI {bz_tile(action.tiles[1])} {then}"
    return "PASS"


# ---- the two interactions on the wire --------------------------------------------------------------
def json_input(requests: Sequence[str], responses: Sequence[str], data: str = "", globaldata: str = "") -> str:
    """JSON interaction: one line ``{"requests": [...], "responses": [...], "data", "globaldata"}``
    (one more request than responses)."""
    return (
        json.dumps(
            {"requests": list(requests), "responses": list(responses), "data": data, "globaldata": globaldata},
            ensure_ascii=False,
        )
        + "\n"
    )


def simple_input(requests: Sequence[str], responses: Sequence[str], data: str = "", globaldata: str = "") -> str:
    """Simple interaction (简单交互): the turn number ``n``, then requests and responses alternating
    (``2n − 1`` lines), then the data line and the globaldata.

    >>> simple_input(["0 1 0", "1 0 0 0 0 W1"], ["PASS"])
    '2\\n0 1 0\\nPASS\\n1 0 0 0 0 W1\\n\\n\\n'
    """
    lines = [str(len(requests))]
    for i, req in enumerate(requests):
        lines.append(req)
        if i < len(responses):
            lines.append(responses[i])
    lines += [data, globaldata]
    return "\n".join(lines) + "\n"


def keep_running_input(request: str, simple: bool) -> str:
    """A later request to a bot that keeps running: only the request (simple: the line; JSON: the
    request as a JSON value), no history and no data."""
    return (request if simple else json.dumps(request, ensure_ascii=False)) + "\n"


def parse_output(text: str, simple: bool) -> tuple[str, str | None, str | None]:
    """A turn's output → (response, data, globaldata); ``None`` where the bot gave none.  JSON: the
    first JSON object (one line or pretty-printed) with a string ``response``; simple: the first
    line, then debug, data and globaldata lines.  Raises :class:`BadAnswer`."""
    if simple:
        # a blank line first is the end of the previous turn's keep-running line, split off by the pipe
        lines = text.replace("\r\n", "\n").lstrip("\n").split("\n")
        if not lines[0].strip():
            raise BadAnswer("no answer line")
        data = lines[2] if len(lines) > 2 else None
        rest = "\n".join(lines[3:]).rstrip("\n") if len(lines) > 3 else None
        return lines[0].strip(), data, rest or None
    try:
        obj, _ = json.JSONDecoder().raw_decode(text.strip())
    except ValueError:
        raise BadAnswer(f"not JSON: {text[:80]!r}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("response"), str):
        raise BadAnswer('JSON output needs a string "response"')
    data, glob = obj.get("data"), obj.get("globaldata")
    return (obj["response"], data if isinstance(data, str) else None, glob if isinstance(glob, str) else None)
