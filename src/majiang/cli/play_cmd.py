"""``majiang play``: a full session in the terminal against three bots.

What happens at the table is announced from the hand's event log as the person's seat sees it
(:mod:`majiang.cli.table_text`); the result of each hand reveals the winning hand, every concealed
kong and the score breakdown (MCR fans, or Nanchang's win, kong and jing parts).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Any

from majiang.cli.table_text import WINDS_ZH, Seating, announce, deltas_text, meld_text, player_name
from majiang.engine.hand import Hand, IllegalAction
from majiang.engine.protocol import WIN, Action
from majiang.engine.view import SeatView, event_view
from majiang.rulebook import DEFAULT, choices, lookup
from majiang.tiles import Tile, tile_glyph, tile_str, tile_zh

#: the typed answer that declares a win the engine did not offer (a false win is penalised)
DECLARE_WIN = "w"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a session in the terminal against three bots",
        description="Play a full session against three bots: 4 rounds, 500 points each.  MCR: 4 hands a "
        "round, the seats change between rounds.  Nanchang: the deal passes to the next player "
        "when the dealer does not win (连庄 on a dealer win or a draw), a round ends when it has "
        "gone round the table, and nobody changes seats.  Your legal choices are numbered; type "
        "the number (Enter = the first choice), 'w' to declare a win that was not offered (a "
        "false win is penalised), 'q' to quit.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  majiang play\n  majiang play --bots fan,fan,eff --tiles letters --hands 4\n"
        "  majiang play --rules nanchang",
    )
    p.add_argument("--bots", default="fan,eff,eff", help="the three opponents (default fan,eff,eff)")
    p.add_argument(
        "--tiles",
        choices=("both", "glyphs", "letters"),
        default="both",
        help="how to show tiles: Unicode glyphs, letters (5p) or both (default)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible walls")
    p.add_argument("--rules", default=DEFAULT, choices=choices(), help=f"ruleset (default {DEFAULT})")
    p.add_argument("--hands", type=int, default=None, help="stop after this many hands (default: the whole session)")
    p.set_defaults(func=run)


class TerminalPlayer:
    """A person at the keyboard, behind the same interface as a bot.  Before each decision it tells
    what happened since the last one (:meth:`narrate`) and shows the table from its chair."""

    name = "you"

    def __init__(self, inp: IO[str], out: IO[str], tiles: str = "both") -> None:
        self.inp = inp
        self.out = out
        self.tiles = tiles
        self.hand: Hand | None = None
        self.seats: Seating | None = None
        self.seen = 0  # events of the hand already told
        self.jing: frozenset[Tile] = frozenset()

    def sit(self, hand: Hand, seats: Seating) -> None:
        """A new hand: where everyone sits."""
        self.hand, self.seats, self.seen = hand, seats, 0
        self.jing = frozenset()

    def t(self, tile: Tile | None) -> str:
        if tile is None or tile < 0:
            return "??"
        if self.tiles == "glyphs":
            return tile_glyph(tile)
        if self.tiles == "letters":
            return tile_str(tile)
        return f"{tile_glyph(tile)}{tile_str(tile)}"

    def mine(self, tile: Tile) -> str:
        """A tile of the person's own hand: a jing is marked ``*``."""
        return self.t(tile) + ("*" if tile in self.jing else "")

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def narrate(self) -> None:
        """Announce the events since the last call, as this seat may see them."""
        if self.hand is None or self.seats is None:
            return
        events = self.hand.events
        for e in events[self.seen :]:
            seen = event_view(e, self.seats.me)
            line = announce(seen, self.seats, self.t) if seen is not None else None
            if line:
                self.say("  · " + line)
        self.seen = len(events)

    def show(self, v: SeatView) -> None:
        say = self.say
        seats = self.seats or Seating(tuple(f"seat {s}" for s in range(4)), v.dealer, v.seat)
        say("")
        entry = lookup(v.rules)  # a ruleset without a prevalent wind (圈风) shows the round number only
        wind = f" · 圈风 {WINDS_ZH[v.prevalent]}" if entry is None or entry.prevalent_wind else ""
        if self.hand is not None and "round" in self.hand.events[0]:
            wind = f" · round {self.hand.events[0]['round'] + 1}{wind}"
        scores = " · ".join(f"{seats.names[s]} {x}" for s, x in enumerate(v.scores))
        say(f"— hand {v.hand_no + 1}{wind} · 庄 dealer {seats.who(v.dealer)} · wall {v.wall} · scores {scores}")
        jing = v.public.get("jing")
        if jing:  # a wild-tile ruleset (Nanchang): the indicator and the two jing
            self.jing = frozenset((jing["zheng"], jing["fu"]))
            say(
                f"  精 jing: 正精 {self.t(jing['zheng'])} · 副精 {self.t(jing['fu'])} "
                f"(indicator {self.t(jing['indicator'])}; * marks the jing in your hand)"
            )
        for k in (1, 2, 3):
            s = (v.seat + k) % 4
            melds = " ".join(meld_text(m, self.t, hide=True) for m in v.melds[s])
            say(
                f"  {seats.who(s):<8} {v.concealed_counts[s]:2d} tiles {melds}{self._flowers(v, s)}  "
                f"pond: {self._pond(v, s)}"
            )
        mine = " ".join(meld_text(m, self.t) for m in v.melds[v.seat])
        say(f"  {seats.who(v.seat):<8} melds {mine or '-'}{self._flowers(v, v.seat)}  pond: {self._pond(v, v.seat)}")
        hand = " ".join(self.mine(x) for x in v.concealed())
        drawn = f"   drew {self.mine(v.drawn)}" if v.drawn is not None else ""
        say(f"  hand: {hand}{drawn}")
        if v.pending:
            src, tile = v.pending
            if v.phase == "rob":
                say(f"  {seats.who(src)} adds {self.t(tile)} ({tile_zh(tile)}) to a pung: rob the kong (抢杠)?")
            else:
                say(f"  {seats.who(src)} discarded {self.t(tile)} ({tile_zh(tile)})")

    def _pond(self, v: SeatView, s: int) -> str:
        return " ".join(self.t(x) for x, c in zip(v.discards[s], v.claimed[s], strict=True) if not c)

    def _flowers(self, v: SeatView, s: int) -> str:
        return ("  花 " + " ".join(self.t(x) for x in v.flowers[s])) if v.flowers[s] else ""

    def describe(self, a: Action) -> str:
        words = {
            "discard": "打 discard",
            "chow": "吃 chow",
            "pung": "碰 pung",
            "kong": "杠 kong",
            "added_kong": "加杠 add kong",
            "concealed_kong": "暗杠 concealed kong",
            "win": "和 WIN",
            "pass": "过 pass",
        }
        text = words[a.type]
        if a.tiles:
            text += " " + " ".join(self.mine(x) for x in a.tiles)
        elif a.tile >= 0:
            text += " " + self.mine(a.tile)
        return text

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        self.narrate()
        self.show(view)
        for i, a in enumerate(legal, 1):
            self.say(f"   {i:2d}. {self.describe(a)}")
        declare = self._declarable(view, legal)
        if declare is not None:
            self.say(f"    {DECLARE_WIN}. 和? declare a win anyway (if the hand does not win: 错和, a penalty)")
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
            if line.lower() == DECLARE_WIN and declare is not None:
                return declare
            self.say(f"type a number from 1 to {len(legal)} (or q to quit)")

    @staticmethod
    def _declarable(v: SeatView, legal: list[Action]) -> Action | None:
        """The win this seat could declare although it was not offered, or None."""
        if any(a.type == WIN for a in legal):
            return None
        if v.phase == "turn" and v.drawn is not None:
            return Action(WIN, v.drawn)
        if v.phase in ("claim", "rob") and v.pending is not None:
            return Action(WIN, v.pending[1])
        return None


def play_hand_at_terminal(hand: Hand, players: list[Any], me: TerminalPlayer) -> None:
    """Run a hand to its end.  A bot's illegal choice is replaced by the default (托管) action; the
    person's is explained and asked again (a refused false win in a ruleset without one, say)."""
    from majiang.sim import hand_over

    while not hand.over:
        for s in hand.prompted():
            view = SeatView(hand, s)
            if not view.legal:  # no longer asked (the claim window closed)
                continue
            action = players[s].choose(view, view.legal)
            try:
                hand.act(s, action)
            except IllegalAction as e:
                if players[s] is not me:
                    hand.act(s, hand.default_action(s))
                elif action.type == WIN:  # a false win the ruleset refuses rather than penalises
                    me.say(
                        f"  not allowed: the hand does not win with {me.t(action.tile)}, and {hand.rules.name} "
                        "has no false win to declare"
                    )
                else:
                    me.say(f"  not allowed: {e}")
            if hand.over:
                break
    me.narrate()
    hand_over(hand, players)


def run(args: argparse.Namespace, inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    from majiang.bots import make_bot
    from majiang.engine.session import Session
    from majiang.rulesets import make_ruleset
    from majiang.sim import close_bots

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
    names = [player_name(p) for p in range(4)]
    me.say(
        f"majiang · {rules.name} · seed {seed} · opponents: "
        + ", ".join(f"{names[p]} {spec}" for p, spec in enumerate(specs, 1))
    )
    played = 0
    try:
        while (hand := session.new_hand()) is not None:
            at = [session.player_at(s) for s in range(4)]  # this hand's seating, before any seat change
            seats = Seating(tuple(names[p] for p in at), hand.dealer, at.index(0))
            me.sit(hand, seats)
            play_hand_at_terminal(hand, [players[p] for p in at], me)
            session.finish_hand(hand)
            played += 1
            _report(me, hand, seats, rules)
            if args.hands is not None and played >= args.hands:
                break
    except EOFError:
        me.say("\nbye")
    finally:
        close_bots(opponents)
    me.say("final scores: " + ", ".join(f"{names[p]}: {s}" for p, s in enumerate(session.scores)))
    return 0


def _report(me: TerminalPlayer, hand: Hand, seats: Seating, rules: Any) -> None:
    from majiang.cli.result_text import result_lines

    me.say("")
    for line in result_lines(hand, seats, rules, me.t):
        me.say(line)
    me.say("score change: " + deltas_text(hand.deltas, seats))
