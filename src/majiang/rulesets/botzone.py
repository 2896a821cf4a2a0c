"""Botzone's Chinese-Standard-Mahjong game as an engine ruleset, and its match records both ways.

The game is what the Botzone judge (ailab-pku/Chinese-Standard-Mahjong, ``judge/main.cpp``) plays:

* 136 tiles, no flowers.  ``initdata.walltiles`` is cut into four quarters of 34; Botzone player
  ``p`` (the seat ``p`` places after the dealer; player 0 deals, seat wind = ``p``) takes every tile
  from the back of quarter ``p`` — the deal (13 each), every draw and every kong replacement.  The
  dealer then draws first (its 14th tile).
* The hand is exhausted (荒) when the seat to draw has an empty quarter.  妙手回春 / 海底捞月 apply,
  and chows, pungs and kongs are refused, when the seat that would draw next (after the winner's or
  the discarder's turn) has an empty quarter; a self-declared kong also needs a tile left in the
  konger's own quarter (the engine asks :meth:`~majiang.engine.wall.SeatWalls.left`).
* ``quan`` is the prevalent wind.  Scoring: self-draw 3×(8+F), discard +(24+F) / −(8+F) / −8, a
  robbed kong paid by the konger as the discarder (:func:`~majiang.mcr.payment.hand_deltas`).
* A false win (``WH``), a wrong answer (``WA``) or a timeout (``TLE``) ends the hand: −30 for the
  offender, +10 for each other seat.
* The fans are the ``botzone`` profile of :mod:`majiang.mcr.rules`.

A match record is ``{"initdata": {"walltiles", "quan"}, "log": [...], "scores": [...]}``: the log
alternates the judge's outputs (``{"output": {"command", "content": {"0".."3": request}}}``) and the
players' responses (``{"0".."3": {"verdict": "OK", "response": ...}}``), as Botzone records them
and as the judge reads them back; ``scores`` is in Botzone player order.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from majiang.engine.arrange import swaps_for
from majiang.engine.botzone import botzone_tile, parse_botzone_tile
from majiang.engine.hand import Hand, IllegalAction, Phase
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
    CoreSpec,
    FalseWin,
    HandState,
)
from majiang.engine.wall import SeatWalls, Wall
from majiang.rulesets.mcr import MCR, fault_option
from majiang.tiles import Tile, full_set

NAME = "botzone"
PENALTY, REWARD = -30, 10  # the offender, each other seat


def make(options: dict[str, Any] | None = None) -> Botzone:
    """The registry's factory: Botzone's game; its one option is ``faults`` (default ``botzone``)."""
    return Botzone(fault_option(options))


class Botzone(MCR):
    """MCR as the Botzone judge plays it (see the module docstring); ``faults="substitute"`` plays a
    legal move in place of a bot's fault instead of ending the hand."""

    default_faults = "botzone"

    def __init__(self, faults: str | None = None) -> None:
        super().__init__(NAME, faults)

    def tile_set(self) -> list[Tile]:
        return full_set(flowers=False)

    def is_bonus(self, tile: Tile) -> bool:
        return False

    def build_wall(self, seed: bytes) -> Wall | SeatWalls:
        return SeatWalls.build(self.tile_set(), seed)

    def false_win(self, hand: HandState, seat: int, tile: Tile, ctx: Any) -> FalseWin | None:
        ruling = super().false_win(hand, seat, tile, ctx)
        if ruling is not None:
            ruling.deltas = _penalty(seat)
        return ruling

    def summary(self) -> dict[str, Any]:
        return {**super().summary(), "wall": "quarters"}

    def core(self) -> CoreSpec | None:
        if type(self) is not Botzone:
            return None
        return CoreSpec(
            quarters=True,
            flowers=False,
            stacks=self.stacks_per_wall,
            false_win_ends=True,
            fault=(PENALTY, REWARD) if self.faults == "botzone" else None,
            fan_rules=self.rules,
        )


def _penalty(seat: int) -> list[int]:
    return [PENALTY if s == seat else REWARD for s in range(4)]


# ---- the wall as initdata.walltiles ---------------------------------------------------------------
def hand_walltiles(head: Mapping[str, Any]) -> list[Tile]:
    """The wall of a logged hand (its seed and arrangement), in ``walltiles`` order."""
    wall = Botzone().build_wall(bytes.fromhex(head["seed"]))
    tiles = wall.tiles
    for i, j in head.get("arrange", []):
        tiles[int(i)], tiles[int(j)] = tiles[int(j)], tiles[int(i)]
    return list(tiles)


def hand_from_walltiles(walltiles: list[Tile], quan: int) -> Hand:
    """A hand on exactly this wall (player 0 deals): a seed derived from the wall, and the swaps
    from that seed's shuffle to the wall (recorded in the log, so the hand replays)."""
    ruleset = Botzone()
    if sorted(walltiles) != sorted(ruleset.tile_set()):
        raise ValueError("walltiles must be the 136 tiles of a set without flowers")
    seed = hashlib.sha256(" ".join(botzone_tile(t) for t in walltiles).encode()).digest()
    swaps = swaps_for(ruleset.build_wall(seed).tiles, dict(enumerate(walltiles)))
    return Hand(ruleset, seed, dealer=0, prevalent=quan, arrange=swaps)


# ---- export: a hand log -> a match record -----------------------------------------------------------
def _request(contents: dict[int, str]) -> dict[str, Any]:
    return {"output": {"command": "request", "content": {str(p): contents[p] for p in range(4)}}}


def _passes() -> dict[str, Any]:
    return {str(p): {"verdict": "OK", "response": "PASS"} for p in range(4)}


def _result_display(
    end: Mapping[str, Any], win: Mapping[str, Any] | None, fault: Mapping[str, Any] | None, dealer: int
) -> dict[str, Any]:
    scores = [int(end.get("deltas", [0] * 4)[(dealer + p) % 4]) for p in range(4)]
    display: dict[str, Any] = {"score": scores}
    if win is not None:
        display.update(
            action="HU",
            player=(win["seat"] - dealer) % 4,
            fanCnt=win["points"],
            fan=[
                {"name": f.get("zh", f.get("name")), "cnt": f.get("count", 1), "value": f.get("points")}
                for f in win.get("fans", [])
            ],
        )
    elif fault is not None:
        kind = "WH" if fault["type"] == "false_win" else fault["kind"]
        display.update(action=kind, player=(fault["seat"] - dealer) % 4)
    else:
        display.update(action="HUANG")
    return display


def export_record(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The match record of a finished ``botzone`` hand log, as the judge would have written it."""
    head = events[0]
    if head.get("rules") != NAME:
        raise ValueError(f"a Botzone match record needs a hand of the {NAME} ruleset, not {head.get('rules')!r}")
    dealer, quan = int(head["dealer"]), int(head["prevalent"])
    wall = hand_walltiles(head)
    part = len(wall) // 4

    def bz(seat: int) -> int:
        return (seat - dealer) % 4

    log: list[dict[str, Any]] = [_request({p: f"0 {p} {quan}" for p in range(4)}), _passes()]
    deal = " ".join(str(0) for _ in range(4))
    log.append(
        _request(
            {
                p: f"1 {deal} " + " ".join(botzone_tile(wall[(p + 1) * part - 1 - i]) for i in range(13))
                for p in range(4)
            }
        )
    )
    log.append(_passes())
    first = wall[part - 1 - 13]
    log.append(_request({p: f"2 {botzone_tile(first)}" if p == 0 else "3 0 DRAW" for p in range(4)}))
    log.append(_passes())

    def answer(seat: int, response: str, verdict: str = "OK") -> None:
        log[-1][str(bz(seat))] = {"verdict": verdict, "response": response}

    claim: dict[int, str] = {}  # a pung/chow waiting for the discard that completes its response
    win: dict[str, Any] | None = None
    fault: dict[str, Any] | None = None
    start = next(i for i, e in enumerate(events) if e["type"] == "deal") + 1
    for e in events[start:]:
        et = e["type"]
        s = int(e.get("seat", 0))
        p = bz(s)
        if et == "draw":
            log.append(_request({q: f"2 {botzone_tile(e['tile'])}" if q == p else f"3 {p} DRAW" for q in range(4)}))
            log.append(_passes())
        elif et == "discard":
            tile = botzone_tile(e["tile"])
            made = claim.pop(s, None)
            answer(s, f"{made} {tile}" if made else f"PLAY {tile}")
            log.append(_request({q: f"3 {p} {made or 'PLAY'} {tile}" for q in range(4)}))
            log.append(_passes())
        elif et in ("pung", "chow"):
            claim[s] = "PENG" if et == "pung" else f"CHI {botzone_tile(e['tiles'][1])}"
        elif et == "kong" and e["kind"] != "added":
            answer(s, "GANG" if e["kind"] == "exposed" else f"GANG {botzone_tile(e['tile'])}")
            log.append(_request({q: f"3 {p} GANG" for q in range(4)}))
            log.append(_passes())
        elif et == "add_kong_declared":
            tile = botzone_tile(e["tile"])
            answer(s, f"BUGANG {tile}")
            log.append(_request({q: f"3 {p} BUGANG {tile}" for q in range(4)}))
            log.append(_passes())
        elif et == "win":
            answer(s, "HU")
            win = e
        elif et == "false_win":
            answer(s, "HU")
            fault = e
        elif et == "fault":
            kind = str(e["kind"])
            answer(s, "WA" if kind == "WA" else "PASS", "OK" if kind == "WA" else kind)
            fault = e
    end = events[-1]
    if end.get("type") != "hand_end":
        raise ValueError("the hand is not over")
    display = _result_display(end, win, fault, dealer)
    scores = display["score"]
    log.append({"output": {"command": "finish", "content": {str(p): scores[p] for p in range(4)}, "display": display}})
    return {
        "initdata": {"walltiles": " ".join(botzone_tile(t) for t in wall), "quan": quan},
        "log": log,
        "scores": scores,
    }


# ---- import: a match record -> a hand ----------------------------------------------------------------
def _content(entry: Mapping[str, Any]) -> dict[str, str]:
    out = entry.get("output", entry)
    return {str(k): str(v) for k, v in (out.get("content") or {}).items()}


def _stage(contents: dict[str, str]) -> tuple[str, int, list[str]]:
    """(kind, player, words) of one judge request: ``draw`` (the drawer) or the action told to all."""
    for k, v in sorted(contents.items()):
        w = v.split()
        if w and w[0] == "2":
            return "draw", int(k), w[1:]
    w = contents.get("0", "").split()
    if len(w) >= 3 and w[0] == "3":
        return w[2], int(w[1]), w[3:]
    return (w[0] if w else ""), -1, w[1:]


class _Fault(Exception):
    def __init__(self, seat: int, kind: str) -> None:
        self.seat, self.kind = seat, kind


def _response(resp: Mapping[str, Any], p: int) -> tuple[str, list[str]]:
    r = resp.get(str(p)) or {}
    verdict = str(r.get("verdict", "OK"))
    if verdict != "OK":
        raise _Fault(p, verdict)
    return verdict, str(r.get("response", "")).split()


def _act(hand: Hand, seat: int, action: Action) -> None:
    try:
        hand.act(seat, action)
    except IllegalAction:
        raise _Fault(seat, "WA") from None


def _on_draw(hand: Hand, p: int, resp: Mapping[str, Any]) -> None:
    for q in range(4):
        _, w = _response(resp, q)
        if q != p:
            if w != ["PASS"]:
                raise _Fault(q, "WA")
            continue
        if hand.phase is not Phase.TURN or hand.current != p:
            raise _Fault(q, "WA")
        if w == ["HU"]:
            drawn = hand.seats[p].drawn
            _act(hand, p, Action(WIN, drawn if drawn is not None else -1))
            return
        if len(w) != 2:
            raise _Fault(q, "WA")
        kind = {"PLAY": DISCARD, "GANG": CONCEALED_KONG, "BUGANG": ADDED_KONG}.get(w[0])
        if kind is None:
            raise _Fault(q, "WA")
        try:
            tile = parse_botzone_tile(w[1])
        except ValueError:
            raise _Fault(q, "WA") from None
        _act(hand, p, Action(kind, tile))


def _window(hand: Hand, src: int) -> bool:
    return hand.phase in (Phase.CLAIM, Phase.ROB) and hand.pending is not None and hand.pending[0] == src


def _on_discard(hand: Hand, d: int, resp: Mapping[str, Any]) -> None:
    _, w = _response(resp, d)
    if w != ["PASS"]:
        raise _Fault(d, "WA")
    open_ = _window(hand, d)
    words: dict[int, list[str]] = {}
    for k in (1, 2, 3):  # wins first, in order after the discarder
        q = (d + k) % 4
        _, words[q] = _response(resp, q)
        if words[q] == ["HU"]:
            if not open_:
                raise _Fault(q, "WH")
            tile = hand.pending[1] if hand.pending else -1
            _act(hand, q, Action(WIN, tile))
            for s in list(hand.prompted()):
                _act(hand, s, PASS_ACTION)
            return
    decided: dict[int, Action] = {}
    discard: tuple[int, str] | None = None
    tile = hand.pending[1] if open_ and hand.pending else -1
    for q in range(4):  # pungs and kongs, in player order: the first one stops the look
        if q == d:
            continue
        w = words[q]
        if w == ["PASS"] or len(w) == 3:
            continue
        if w == ["GANG"]:
            decided[q] = Action(KONG, tile)
        elif len(w) == 2 and w[0] == "PENG":
            decided[q] = Action(PUNG, tile)
            discard = (q, w[1])
        else:
            raise _Fault(q, "WA")
        break
    if not decided:
        for q in range(4):
            w = words.get(q, [])
            if q == d or len(w) != 3:
                continue
            if w[0] != "CHI" or (d - q) % 4 != 3:
                raise _Fault(q, "WA")
            try:
                mid = parse_botzone_tile(w[1])
            except ValueError:
                raise _Fault(q, "WA") from None
            decided[q] = Action(CHOW, tile, (mid - 1, mid, mid + 1))
            discard = (q, w[2])
            break
    if decided and not open_:
        raise _Fault(next(iter(decided)), "WA")
    if not open_:
        return  # nobody could claim: the engine has gone on to the next draw
    for q in decided:
        if q not in hand.prompted():
            raise _Fault(q, "WA")
    for s in list(hand.prompted()):
        _act(hand, s, decided.get(s, PASS_ACTION))
    if discard is not None:
        q, text = discard
        try:
            t = parse_botzone_tile(text)
        except ValueError:
            raise _Fault(q, "WA") from None
        _act(hand, q, Action(DISCARD, t))


def _on_kong(hand: Hand, k: int, resp: Mapping[str, Any], added: bool) -> None:
    rob = added and _window(hand, k)
    for i in range(4):
        q = (k + i) % 4
        _, w = _response(resp, q)
        if w == ["PASS"]:
            continue
        if added and q != k and w == ["HU"]:
            if not rob:
                raise _Fault(q, "WH")
            tile = hand.pending[1] if hand.pending else -1
            _act(hand, q, Action(WIN, tile))
            for s in list(hand.prompted()):
                _act(hand, s, PASS_ACTION)
            return
        raise _Fault(q, "WA")
    if rob:
        for s in list(hand.prompted()):
            _act(hand, s, PASS_ACTION)


def _as_object(init: Any) -> dict[str, Any]:
    if isinstance(init, str):  # Botzone stores a match's initdata as a JSON string ("" when none was given)
        init = json.loads(init) if init.strip() else {}
    return dict(init) if isinstance(init, Mapping) else {}


def record_initdata(record: Mapping[str, Any]) -> dict[str, Any]:
    """The match's initdata: the record's own, completed from the judge's first output — a match
    started without a wall (initdata empty or only ``{"srand": N}``) has the judge shuffle one and
    write it, with ``quan``, into the ``initdata`` of its first output."""
    init = _as_object(record.get("initdata"))
    log = record.get("log") or []
    first = log[0] if log and isinstance(log[0], Mapping) else {}
    out = first.get("output", first)
    judged = _as_object(out.get("initdata") if isinstance(out, Mapping) else None)
    if not (isinstance(init.get("walltiles"), str) and init["walltiles"].strip()):
        for key in ("walltiles", "quan"):
            if key in judged:
                init[key] = judged[key]
    return init


def import_record(record: Mapping[str, Any]) -> Hand:
    """Replay a match record (this module's export, or one the judge wrote) on the botzone ruleset.
    The hand's seats are Botzone's players (player 0 deals)."""
    init = record_initdata(record)
    text = init.get("walltiles")
    if not isinstance(text, str) or not text.strip():
        raise ValueError(
            "the record has no walltiles: neither its initdata nor the judge's first output (log[0].output"
            ".initdata) holds them; export the match from Botzone with its full log"
        )
    quan = init.get("quan", 0)
    if not isinstance(quan, int) or not 0 <= quan <= 3:
        raise ValueError(f"initdata.quan must be 0–3, got {quan!r}")
    walltiles = [parse_botzone_tile(x) for x in text.split()]
    hand = hand_from_walltiles(walltiles, quan)
    log = list(record.get("log") or [])
    try:
        for i in range(0, len(log) - 1, 2):
            if hand.over:
                break
            kind, p, _ = _stage(_content(log[i]))
            resp = log[i + 1]
            if i < 4:  # INIT, DEAL: everybody passes
                for q in range(4):
                    if _response(resp, q)[1] != ["PASS"]:
                        raise _Fault(q, "WA")
            elif kind == "draw":
                _on_draw(hand, p, resp)
            elif kind in ("PLAY", "PENG", "CHI"):
                _on_discard(hand, p, resp)
            elif kind in ("GANG", "BUGANG"):
                _on_kong(hand, p, resp, kind == "BUGANG")
            else:
                raise ValueError(f"log entry {i} is not a judge request this replay knows: {kind!r}")
    except _Fault as f:
        hand.fault(f.seat, f.kind)
    return hand


def hand_result(hand: Hand) -> dict[str, Any]:
    """The hand's result as the judge's final output shows it (players = seats after the dealer)."""
    end = hand.events[-1] if hand.over else {}
    win = next((e for e in hand.events if e["type"] == "win"), None)
    fault = next((e for e in hand.events if e["type"] in ("false_win", "fault")), None)
    return _result_display(end, win, fault, hand.dealer)


def record_result(record: Mapping[str, Any]) -> dict[str, Any]:
    """The result a match record's final judge output shows: action, player, fanCnt, score."""
    last = record["log"][-1]
    out = last.get("output", last)
    disp = dict(out.get("display") or {})
    content = out.get("content") or {}
    scores = (
        [int(content[str(p)]) for p in range(4)]
        if all(str(p) in content for p in range(4))
        else list(record.get("scores") or [])
    )
    res: dict[str, Any] = {"action": disp.get("action"), "score": scores}
    if "player" in disp:
        res["player"] = disp["player"]
    if "fanCnt" in disp:
        res["fanCnt"] = disp["fanCnt"]
    return res


def compare(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[str]:
    """The differences between two results (action, player, fanCnt, score)."""
    out = []
    for key in ("action", "player", "fanCnt", "score"):
        if key == "fanCnt" and theirs.get("action") != "HU":
            continue  # the judge shows the fans it counted for a false win too
        if key in theirs and ours.get(key) != theirs.get(key):
            out.append(f"{key}: majiang {ours.get(key)!r}, record {theirs.get(key)!r}")
    return out
