#!/usr/bin/env python3
"""Replay majiang hands through Botzone's own judge and compare every request with ours.

Botzone's judge (``judge/main.cpp`` in ailab-pku/Chinese-Standard-Mahjong) is not part of majiang;
build it outside the repository, e.g. in /tmp/bz/judge: put ``main.cpp`` there, the fan calculator's
``mahjong-algorithm`` folder as ``MahjongGB/``, a ``jsoncpp/json.h`` that includes ``<json/json.h>``
(Debian's libjsoncpp-dev), then::

    g++ -std=c++11 -O2 -D_BOTZONE_ONLINE -I. -I/usr/include/jsoncpp -o judge main.cpp -ljsoncpp
    python scripts/botzone_judge_check.py /tmp/bz/judge/judge --hands 60 --rules gb

Each hand is played by majiang's bots; its wall is then laid out as Botzone's (a quarter per player,
each drawn from its end) so that the judge deals and draws the same tiles, and the judge is run turn
by turn on the answers the events imply.  Every request it sends each player must equal
:func:`majiang.bots.botzone_proto.requests_for` (request 1's tiles compared as sets); at the end the
judge's winner, fan and scores are printed next to majiang's.  A hand in which a player draws more
tiles than a quarter holds cannot be laid out so and is skipped (Botzone's wall model differs,
docs/botzone.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections import Counter
from typing import Any

from majiang.bots.base import make_bot
from majiang.bots.botzone_proto import bz_tile, requests_for
from majiang.engine import Hand
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand


def botzone_wall(hand: Hand) -> list[str] | None:
    """The judge's ``walltiles`` that deal and draw what ``hand`` dealt and drew, or None."""
    ev, d = hand.events, hand.dealer
    i = next(k for k, e in enumerate(ev) if e["type"] == "deal") + 1
    dealt_flowers: dict[int, list[int]] = {s: [] for s in range(4)}
    while ev[i]["type"] == "flower":
        dealt_flowers[ev[i]["seat"]].append(ev[i]["tile"])
        i += 1
    quarters: dict[int, list[str]] = {}
    for s in range(4):
        reqs = requests_for(ev, s)
        q = [bz_tile(t) for t in dealt_flowers[s]] + reqs[1].split()[5:18]  # flowers, then the 13 kept
        if s == d:
            q.append(reqs[2].split()[1])
        for e in ev[i:]:
            if e.get("seat") == s and e["type"] == "draw":
                q.append(bz_tile(e["tile"]))
            elif e.get("seat") == s and e["type"] == "flower" and e.get("replacement") is not None:
                q.append(bz_tile(e["replacement"]))
        quarters[(s - d) % 4] = q
    size = len(hand.rules.tile_set()) // 4
    if any(len(q) > size for q in quarters.values()):
        return None
    rest = list(
        (
            Counter(bz_tile(t) for t in hand.rules.tile_set()) - Counter(t for q in quarters.values() for t in q)
        ).elements()
    )
    wall: list[str] = []
    for p in range(4):
        q = quarters[p] + [rest.pop() for _ in range(size - len(quarters[p]))]
        wall += reversed(q)  # the judge draws from the end of a quarter
    return wall


def answers(hand: Hand) -> list[dict[str, str]]:
    """Each Botzone turn's answers of the four players, as the events imply (PASS elsewhere)."""
    ev, d = hand.events, hand.dealer
    turns = len(requests_for(ev, 0))
    out = [{str(p): "PASS" for p in range(4)} for _ in range(turns)]
    for k, e in enumerate(ev):
        et, s = e["type"], e.get("seat")
        if s is None or et not in ("discard", "pung", "chow", "kong", "add_kong_declared", "win"):
            continue
        turn, p = len(requests_for(ev[:k], s)) - 1, str((s - d) % 4)
        if et == "discard" and not (ev[k - 1]["type"] in ("pung", "chow") and ev[k - 1]["seat"] == s):
            out[turn][p] = f"PLAY {bz_tile(e['tile'])}"
        elif et in ("pung", "chow"):
            then = bz_tile(ev[k + 1]["tile"])
            out[turn][p] = f"PENG {then}" if et == "pung" else f"CHI {bz_tile(e['tiles'][1])} {then}"
        elif et == "kong" and e["kind"] != "added":
            out[turn][p] = f"GANG {bz_tile(e['tile'])}" if e["kind"] == "concealed" else "GANG"
        elif et == "add_kong_declared":
            out[turn][p] = f"BUGANG {bz_tile(e['tile'])}"
        elif et == "win":
            out[turn][p] = "HU"
    return out


def judge(path: str, log: list[Any], init: dict[str, Any]) -> dict[str, Any]:
    run = subprocess.run(
        [path], input=json.dumps({"log": log, "initdata": init}), capture_output=True, text=True, check=True
    )
    out: dict[str, Any] = json.loads(run.stdout)
    return out


def check(path: str, hand: Hand) -> str:
    wall = botzone_wall(hand)
    if wall is None:
        return "skipped: a player draws more than a quarter of the wall"
    d = hand.dealer
    reqs = {s: requests_for(hand.events, s) for s in range(4)}
    if len({len(r) for r in reqs.values()}) != 1:
        return f"MISMATCH: the seats got {[len(r) for r in reqs.values()]} requests"
    said = answers(hand)
    init = {"srand": 1, "quan": hand.prevalent, "walltiles": " ".join(wall)}
    log: list[Any] = []
    for t in range(len(reqs[0])):
        out = judge(path, log, init)
        if out["command"] != "request":
            return f"MISMATCH: the judge finished at turn {t}: {out.get('display')}"
        for s in range(4):
            got, ours = out["content"][str((s - d) % 4)], reqs[s][t]
            g, o = got.split(), ours.split()
            same = g == o if t != 1 else g[:5] == o[:5] and sorted(g[5:]) == sorted(o[5:])
            if not same:
                return f"MISMATCH at turn {t}, player {(s - d) % 4}: judge {got!r}, majiang {ours!r}"
        log += [out, {p: {"verdict": "OK", "response": r} for p, r in said[t].items()}]
    end = judge(path, log, init)["display"]
    w = hand.win
    ours = f"win by player {(w.seat - d) % 4}, {w.points} fan" if w else "exhausted"
    scores = [hand.deltas[(p + d) % 4] for p in range(4)]
    return (
        f"ok, {len(reqs[0])} turns; majiang: {ours}, scores {scores}; judge: {end.get('action')} "
        f"player {end.get('player')} {end.get('fanCnt')} fan, scores {end.get('score')}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("judge", help="the compiled Botzone judge")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--rules", default="gb")
    ap.add_argument("--bots", default="fan,eff,fan,eff")
    args = ap.parse_args()
    specs = args.bots.split(",")
    for seed in range(args.hands):
        hand = Hand(make_ruleset(args.rules), seed.to_bytes(32, "big"), dealer=seed % 4, prevalent=seed % 4)
        play_hand(hand, [make_bot(b, seed + i, rules=args.rules) for i, b in enumerate(specs)])
        print(seed, check(args.judge, hand), flush=True)


if __name__ == "__main__":
    main()
