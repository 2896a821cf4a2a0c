"""The end of a hand in ``majiang play``: who won and how, the winning hand and every concealed
kong revealed (seed 001: 暗杠 are shown at the end), and the score broken down into the numbers
that make it — MCR's fans, or Nanchang's win payment per payer, kong bonuses and jing rounds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from majiang.cli.table_text import Seating, TileText, meld_text, win_how
from majiang.engine.hand import Hand


def result_lines(hand: Hand, seats: Seating, rules: Any, t: TileText) -> list[str]:
    """The result screen of a finished ``hand`` (``rules``: the ruleset it was played with)."""
    jing = rules.public(hand).get("jing")
    if jing:  # the jing in the revealed hand are marked, as in the person's own hand during play
        pair = (jing["zheng"], jing["fu"])
        lines = _headline(hand, seats, lambda x: t(x) + ("*" if x in pair else ""))
    else:
        lines = _headline(hand, seats, t)
    lines += _detail(rules)(hand, seats, rules, t)
    lines += _revealed(hand, seats, t)
    return lines


def _headline(hand: Hand, seats: Seating, t: TileText) -> list[str]:
    w = hand.win
    end = hand.events[-1]
    if w is None:
        if end.get("result") == "false_win":
            return [f"错和 the hand ends on {seats.whose(end['seat'])} false win"]
        return ["荒牌 exhaustive draw — no win"]
    fans = all("points" in f for f in w.names)  # MCR fans; Nanchang's 胡 carry a factor instead
    value = f"{w.points} fan" if fans else f"×{w.points}"
    st = hand.seats[w.seat]
    concealed = st.concealed()
    if w.discarder is None and w.tile in concealed:
        concealed.remove(w.tile)  # shown apart as the winning tile
    melds = " ".join(meld_text(m, t) for m in st.melds)
    held = " ".join(t(x) for x in concealed)
    flowers = ("  花 " + " ".join(t(x) for x in st.flowers)) if st.flowers else ""
    who = "you win" if w.seat == seats.me else f"{seats.who(w.seat)} wins"
    return [
        f"和 {who} with {t(w.tile)} ({win_how(hand.events, seats)}) — {value}",
        f"   winning hand: {melds + '  ' if melds else ''}{held}  + {t(w.tile)}{flowers}",
    ]


def _fan_lines(hand: Hand, seats: Seating, rules: Any, t: TileText) -> list[str]:
    """MCR: each fan with its points and count, the total (flowers included)."""
    w = hand.win
    if w is None:
        return []
    lines = []
    for f in w.names:
        value = f"{f['points']:>3} × {f['count']}" if "points" in f else f"×{f.get('factor')}"
        lines.append(f"   {f['zh']:<6} {f['name']:<32} {value}")
    lines.append(f"   {'':<6} {'total':<32} {w.points:>3}")
    if hand.settlement is not None:  # MCR pays 8 base from each, plus the fan from the discarder (all if 自摸)
        paid = hand.settlement.deltas
        shares = [f"{seats.who(p)} {_share(-paid[p], w.points)}" for p in range(4) if p != w.seat]
        lines.append("   payment: " + " · ".join(shares) + f" → {seats.who(w.seat)} {paid[w.seat]:+d}")
    return lines


def _share(amount: int, points: int) -> str:
    return f"pays 8 + {points} = {amount}" if amount == 8 + points != 8 else f"pays {amount}"


def _nanchang_lines(hand: Hand, seats: Seating, rules: Any, t: TileText) -> list[str]:
    """Nanchang: the calculator's breakdown of this very hand (win payment per payer, kong bonuses,
    jing rounds with 冲关 and 霸王精, penalties), the same code the ruleset settled it with."""
    from majiang.nanchang.render import render_settlement
    from majiang.nanchang.settle import settle

    rec = rules.record(hand, hand.win)
    names = [seats.who(s) for s in range(4)]
    text = render_settlement(rec, settle(rec, rules.options), rules.options, names)
    skip = 3 if hand.win is not None else 2  # the title, the jing and the win line: shown already
    return ["   " + line for line in text.splitlines()[skip:]]


def _detail(rules: Any) -> Callable[[Hand, Seating, Any, TileText], list[str]]:
    """The score breakdown of a hand ``rules`` played: Nanchang's own settlement (the adapter keeps the
    record it settled from), a fan list otherwise."""
    from majiang.rulesets.nanchang import Nanchang

    return _nanchang_lines if isinstance(rules, Nanchang) else _fan_lines


def _revealed(hand: Hand, seats: Seating, t: TileText) -> list[str]:
    """Every concealed kong, face up now that the hand is over."""
    lines = []
    for s, st in enumerate(hand.seats):
        kongs = [meld_text(m, t) for m in st.melds if m.concealed]
        if kongs:
            lines.append(f"   暗杠 revealed: {seats.who(s)} " + " ".join(kongs))
    return lines
