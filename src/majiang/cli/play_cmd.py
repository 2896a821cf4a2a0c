"""``majiang play``: a full session in the terminal against three bots."""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Any

from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.tiles import Tile, tile_glyph, tile_str, tile_zh

WINDS_ZH = "东南西北"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play", help="play a session in the terminal against three bots",
        description="Play a full MCR session (4 rounds × 4 hands, 500 points each) against three bots. "
                    "Your legal choices are numbered; type the number (Enter = the first choice, 'q' quits).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  majiang play\n  majiang play --bots fan,fan,eff --tiles letters --hands 4")
    p.add_argument("--bots", default="fan,eff,eff", help="the three opponents (default fan,eff,eff)")
    p.add_argument("--tiles", choices=("both", "glyphs", "letters"), default="both",
                   help="how to show tiles: Unicode glyphs, letters (5p) or both (default)")
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible walls")
    p.add_argument("--rules", default="gb", help="ruleset: gb (default), botzone, nanchang")
    p.add_argument("--hands", type=int, default=None, help="stop after this many hands (default: the whole session)")
    p.set_defaults(func=run)


class TerminalPlayer:
    """A person at the keyboard, behind the same interface as a bot."""

    name = "you"

    def __init__(self, inp: IO[str], out: IO[str], tiles: str = "both") -> None:
        self.inp = inp
        self.out = out
        self.tiles = tiles

    def t(self, tile: Tile | None) -> str:
        if tile is None or tile < 0:
            return "??"
        if self.tiles == "glyphs":
            return tile_glyph(tile)
        if self.tiles == "letters":
            return tile_str(tile)
        return f"{tile_glyph(tile)}{tile_str(tile)}"

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def show(self, v: SeatView) -> None:
        say = self.say
        say("")
        say(f"— hand {v.hand_no + 1} · 圈风 {WINDS_ZH[v.prevalent]} · wall {v.wall} · scores {v.scores}")
        jing = v.public.get("jing")
        if jing:  # a wild-tile ruleset (Nanchang): the indicator and the two jing
            say(f"  精 jing: 正精 {self.t(jing['zheng'])} · 副精 {self.t(jing['fu'])} "
                f"(indicator {self.t(jing['indicator'])})")
        for s in range(4):
            if s == v.seat:
                continue
            wind = WINDS_ZH[(s - v.dealer) % 4]
            melds = " ".join("[" + " ".join(self.t(x) if not (m.concealed) else "■" for x in m.tiles) + "]"
                             for m in v.melds[s])
            pond = " ".join(self.t(x) for x, c in zip(v.discards[s], v.claimed[s], strict=True) if not c)
            say(f"  seat {s} ({wind}) {v.concealed_counts[s]} tiles {melds}  pond: {pond}")
        mine = " ".join("[" + " ".join(self.t(x) for x in m.tiles) + "]" for m in v.melds[v.seat])
        pond = " ".join(self.t(x) for x, c in zip(v.discards[v.seat], v.claimed[v.seat], strict=True) if not c)
        say(f"  you (seat {v.seat}, {WINDS_ZH[v.seat_wind]}) melds {mine or '-'}  pond: {pond}")
        hand = " ".join(self.t(x) for x in v.concealed())
        drawn = f"   drew {self.t(v.drawn)}" if v.drawn is not None else ""
        say(f"  hand: {hand}{drawn}")
        if v.pending:
            say(f"  seat {v.pending[0]} offers {self.t(v.pending[1])} ({tile_zh(v.pending[1])})")

    def describe(self, a: Action) -> str:
        words = {"discard": "打 discard", "chow": "吃 chow", "pung": "碰 pung", "kong": "杠 kong",
                 "added_kong": "加杠 add kong", "concealed_kong": "暗杠 concealed kong", "win": "和 WIN",
                 "pass": "过 pass"}
        text = words[a.type]
        if a.tiles:
            text += " " + " ".join(self.t(x) for x in a.tiles)
        elif a.tile >= 0:
            text += " " + self.t(a.tile)
        return text

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        self.show(view)
        for i, a in enumerate(legal, 1):
            self.say(f"   {i:2d}. {self.describe(a)}")
        while True:
            self.out.write("your choice> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise EOFError
            line = line.strip()
            if line.lower() in ("q", "quit", "exit"):
                raise EOFError
            if not line:
                return legal[0]
            if line.isdigit() and 1 <= int(line) <= len(legal):
                return legal[int(line) - 1]
            self.say(f"type a number from 1 to {len(legal)} (or q to quit)")


def run(args: argparse.Namespace, inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    from majiang.bots import make_bot
    from majiang.engine.session import Session
    from majiang.rulesets import make_ruleset
    from majiang.sim import close_bots, play_hand

    inp = inp or sys.stdin
    out = out or sys.stdout
    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(specs) != 3:
        print("error: --bots needs three opponents, e.g. fan,eff,eff", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    try:
        rules = make_ruleset(args.rules)
        opponents = [make_bot(s, seed + i, rules=args.rules) for i, s in enumerate(specs)]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    me = TerminalPlayer(inp, out, args.tiles)
    players: list[Any] = [me, *opponents]  # player 0 is the person
    session = Session(rules, seed.to_bytes(8, "big"))
    me.say(f"majiang · {rules.name} · seed {seed} · you are player 0; opponents: {', '.join(specs)}")
    played = 0
    try:
        while (hand := session.new_hand()) is not None:
            bots = [players[session.player_at(s)] for s in range(4)]
            play_hand(hand, bots)
            rec = session.finish_hand(hand)
            played += 1
            _report(me, hand, rec, session)
            if args.hands is not None and played >= args.hands:
                break
    except EOFError:
        me.say("\nbye")
    finally:
        close_bots(opponents)
    me.say("final scores: " + ", ".join(f"player {p}: {s}" for p, s in enumerate(session.scores)))
    return 0


def _report(me: TerminalPlayer, hand: Any, rec: Any, session: Any) -> None:
    w = hand.win
    me.say("")
    if w is None:
        me.say("荒牌 exhaustive draw — no score")
    else:
        who = "you" if session.player_at(w.seat) == 0 else f"player {session.player_at(w.seat)}"
        how = "自摸 self-drawn" if w.discarder is None else f"on seat {w.discarder}'s discard"
        fans = all("points" in f for f in w.names)  # MCR fans; Nanchang's 胡 carry a factor instead
        me.say(f"和 {who} win with {me.t(w.tile)} ({how}) — " + (f"{w.points} fan" if fans else f"×{w.points}"))
        for f in w.names:
            value = f"{f['points']:>3} × {f['count']}" if "points" in f else f"×{f['factor']}"
            me.say(f"   {f['zh']:<6} {f['name']:<32} {value}")
    me.say("score change (players): " + ", ".join(f"{p}: {d:+d}" for p, d in enumerate(rec.deltas)))
