"""Export a hand log to the Botzone Chinese-Standard-Mahjong judge-log layout.

Botzone numbers players by seat wind (0 = East = dealer) and writes tiles as W1–9 (万), B1–9 (饼),
T1–9 (条), F1–4 (winds), J1–3 (中 发 白), H1–8 (flowers).  The log alternates judge outputs (the
request sent to each player, in Botzone's simple-IO form: ``0 id quan``, ``1 hua0..hua3 tiles…``,
``2 Card``, ``3 id PLAY Card`` …) and the players' responses (``PASS``, ``PLAY Card``, ``PENG Card``,
``CHI Mid Card``, ``GANG``, ``BUGANG Card``, ``HU``).
"""

from __future__ import annotations

from typing import Any

from majiang.tiles import Tile

_SUIT = "WBT"  # our 0–8 m, 9–17 p, 18–26 s → Botzone W, B, T
_HONOR = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def botzone_tile(t: Tile) -> str:
    if t < 27:
        return f"{_SUIT[t // 9]}{t % 9 + 1}"
    if t < 34:
        return _HONOR[t - 27]
    return f"H{t - 33}"


def export_botzone(events: list[dict[str, Any]]) -> dict[str, Any]:
    head = events[0]
    dealer = head["dealer"]

    def bz(seat: int) -> int:
        return int((seat - dealer) % 4)

    log: list[dict[str, Any]] = []

    def judge(contents: dict[int, str]) -> None:
        log.append({"output": {"command": "request", "content": {str(bz(s)): c for s, c in contents.items()}}})

    def respond(answers: dict[int, str]) -> None:
        log.append({str(bz(s)): {"verdict": "OK", "response": answers.get(s, "PASS")} for s in range(4)})

    judge({s: f"0 {bz(s)} {head['prevalent']}" for s in range(4)})
    respond({})
    deal = next(e for e in events if e["type"] == "deal")
    flowers: dict[int, list[Tile]] = {s: [] for s in range(4)}
    hands = {s: [t for t in deal["hands"][s] if t < 34] for s in range(4)}
    i = events.index(deal) + 1
    while i < len(events) and events[i]["type"] == "flower":
        e = events[i]
        flowers[e["seat"]].append(e["tile"])
        hands[e["seat"]] = [t for t in hands[e["seat"]] if t != e["tile"]]
        if e["replacement"] is not None and e["replacement"] < 34:
            hands[e["seat"]].append(e["replacement"])
        i += 1
    counts = " ".join(str(len(flowers[(dealer + k) % 4])) for k in range(4))
    all_flowers = " ".join(botzone_tile(f) for k in range(4) for f in flowers[(dealer + k) % 4])
    first = sorted(hands[dealer])[-1]  # Botzone deals 13 and lets the dealer draw the 14th
    hands[dealer] = sorted(hands[dealer])[:-1]
    judge({s: f"1 {counts} " + " ".join(botzone_tile(t) for t in sorted(hands[s])) + f" {all_flowers}".rstrip()
           for s in range(4)})
    respond({})
    judge({p: f"2 {botzone_tile(first)}" if p == dealer else "3 0 DRAW" for p in range(4)})
    respond({})
    claim: dict[int, str] = {}  # a pung/chow waiting for the discard that completes its response
    for e in events[i:]:
        et = e["type"]
        s = e.get("seat", 0)
        me = str(bz(s))
        if et == "draw":
            judge({p: f"2 {botzone_tile(e['tile'])}" if p == s else f"3 {bz(s)} DRAW" for p in range(4)})
            respond({})
        elif et == "flower":
            judge({p: f"3 {bz(s)} BUHUA {botzone_tile(e['tile'])}" for p in range(4)})
            respond({})
        elif et == "discard":
            tile = botzone_tile(e["tile"])
            made = claim.pop(s, None)
            log[-1][me]["response"] = f"{made} {tile}" if made else f"PLAY {tile}"
            judge({p: f"3 {bz(s)} {made or 'PLAY'} {tile}" for p in range(4)})
            respond({})
        elif et in ("pung", "chow"):
            claim[s] = "PENG" if et == "pung" else f"CHI {botzone_tile(e['tiles'][1])}"
        elif et == "kong":
            if e["kind"] == "exposed":
                log[-1][me]["response"] = "GANG"
            elif e["kind"] == "concealed":
                log[-1][me]["response"] = f"GANG {botzone_tile(e['tile'])}"
            word = f"BUGANG {botzone_tile(e['tile'])}" if e["kind"] == "added" else "GANG"
            judge({p: f"3 {bz(s)} {word}" for p in range(4)})
            respond({})
        elif et == "add_kong_declared":
            log[-1][me]["response"] = f"BUGANG {botzone_tile(e['tile'])}"
        elif et == "win":
            log[-1][me]["response"] = "HU"
    end = events[-1]
    return {"game": "Chinese-Standard-Mahjong", "initdata": {"quan": head["prevalent"], "seed": head.get("seed")},
            "log": log, "scores": {str(bz(s)): end.get("deltas", [0] * 4)[s] for s in range(4)}}
