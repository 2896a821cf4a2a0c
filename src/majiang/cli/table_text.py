"""What ``majiang play`` says about the table: who is who, what just happened, how a hand ended.

One naming scheme throughout: a player by name ("you", "P1" … "P3", the names do not move when
the seats change between rounds) followed by the seat wind of this hand, ``P2 (西)``.  Raw seat
numbers are never shown.

The announcements are read from the hand's event log through :func:`~majiang.engine.view.event_view`
for the person's seat, so they tell exactly what that chair may know (another player's concealed kong
is announced face down until the hand is over).  The result is read from the finished hand: the
win event, the settlement's ``parts`` and, for Nanchang, the calculator's own breakdown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from majiang.melds import Meld

WINDS_ZH = "东南西北"

TileText = Callable[[int], str]


@dataclass(frozen=True)
class Seating:
    """Who sits where in one hand: ``names[seat]`` and the dealer's seat."""

    names: tuple[str, ...]
    dealer: int
    me: int  # the person's seat

    def wind(self, seat: int) -> str:
        return WINDS_ZH[(seat - self.dealer) % 4]

    def who(self, seat: int | None) -> str:
        """``you (东)``, ``P2 (西)``."""
        if seat is None:
            return "nobody"
        return f"{self.names[seat]} ({self.wind(seat)})"

    def whose(self, seat: int) -> str:
        return "your" if seat == self.me else f"{self.who(seat)}'s"

    def does(self, seat: int, verb: str) -> str:
        """``P2 (西) discards`` / ``you (东) discard``: ``verb`` in the third person."""
        return f"{self.who(seat)} {verb[:-1] if seat == self.me else verb}"


def player_name(player: int) -> str:
    """Player 0 is the person at the keyboard; the bots are P1–P3."""
    return "you" if player == 0 else f"P{player}"


def meld_text(m: Meld, t: TileText, hide: bool = False) -> str:
    """``[2s 3s 4s]``; a concealed kong ``{5m 5m 5m 5m}``, or ``{■ ■ ■ ■}`` face down."""
    body = " ".join("■" if hide and m.concealed else t(x) for x in m.tiles)
    return "{" + body + "}" if m.concealed else f"[{body}]"


def dice_text(dice: Sequence[int]) -> str:
    return " + ".join(str(d) for d in dice) + f" = {sum(dice)}"


def announce(e: dict[str, Any], seats: Seating, t: TileText) -> str | None:
    """One line for one event as the person's seat sees it, or None for events shown elsewhere
    (the deal, draws, the win and the settlement)."""
    et = e["type"]
    who = seats.who(e["seat"]) if "seat" in e else ""
    if et == "dice":
        d = e["dice"]
        breaker = e["break_seat"]
        return (
            f"掷骰 dice: {seats.does(seats.dealer, 'throws')} {dice_text(d[:2])}, "
            f"{seats.does(breaker, 'throws')} {dice_text(d[2:])}: the wall is broken at {seats.whose(breaker)} "
            f"wall, stack {e['break_stack']}"
        )
    if et == "jing":
        return (
            f"翻精 jing dice {dice_text(e['dice'])}: indicator {t(e['indicator'])} → 正精 {t(e['zheng'])}, "
            f"副精 {t(e['fu'])}"
        )
    if et == "flower":
        draws = "draw" if e["seat"] == seats.me else "draws"
        got = f", {draws} {t(e['replacement'])}" if e.get("replacement") is not None else ""
        return f"补花 {seats.does(e['seat'], 'shows')} flower {t(e['tile'])}{got}"
    if et == "discard":
        return f"{seats.does(e['seat'], 'discards')} {t(e['tile'])}"
    if et == "chow":
        tiles = " ".join(t(x) for x in e["tiles"])
        return f"吃 {seats.does(e['seat'], 'chows')} {t(e['tile'])} from {seats.who(e['from'])}: [{tiles}]"
    if et == "pung":
        return f"碰 {seats.does(e['seat'], 'pungs')} {t(e['tile'])} from {seats.who(e['from'])}"
    if et == "kong":
        kind = e.get("kind")
        if kind == "concealed":
            face = f" of {t(e['tile'])}" if "tile" in e else " (face down)"
            return f"暗杠 {seats.does(e['seat'], 'declares')} a concealed kong{face}"
        if kind == "added":
            return f"加杠 {seats.does(e['seat'], 'adds')} {t(e['tile'])} to the pung: a kong"
        return f"明杠 {seats.does(e['seat'], 'kongs')} {t(e['tile'])}"
    if et == "add_kong_declared":
        return f"加杠? {seats.does(e['seat'], 'adds')} {t(e['tile'])} to the pung (it may be robbed: 抢杠)"
    if et == "robbed":
        return f"抢杠 {seats.does(e['seat'], 'robs')} {seats.whose(e['from'])} kong of {t(e['tile'])}"
    if et == "false_win":
        kind = {"wrong": "错和 false win", "short": "诈和 false win (not even ready)"}.get(e["kind"], e["kind"])
        then = "the hand ends" if e.get("ends_hand") else f"play goes on; {who} may not win again this hand"
        return f"{kind}: {who} declared a win with {t(e['tile'])} — {then}"
    if et == "payment" and e["reason"] in ("kong", "false_win"):
        what = "杠分 kong bonus" if e["reason"] == "kong" else "penalty"
        return f"{what}: " + deltas_text(e["deltas"], seats)
    if et == "item":
        return f"{seats.does(e['seat'], 'uses')} an item ({e.get('item')})"
    return None


def deltas_text(deltas: Sequence[int], seats: Seating) -> str:
    """Per-seat deltas, the person first and then P1, P2, P3 (the names' order, which seats
    do not change)."""
    order = sorted(range(4), key=lambda s: (seats.names[s] != "you", seats.names[s]))
    return " · ".join(f"{seats.who(s)} {deltas[s]:+d}" for s in order)


def win_how(events: Sequence[dict[str, Any]], seats: Seating) -> str:
    """How the hand was won, from the log: 点和 on a discard, 抢杠和, 杠上开花, 天和/地和, 自摸."""
    win = next(e for e in reversed(events) if e["type"] == "win")
    method = win.get("method")  # Nanchang's summary names it
    src = win.get("from")
    robbed = any(e["type"] == "robbed" for e in events)
    if robbed and src is not None:
        return f"抢杠和 robbing {seats.whose(src)} kong"
    if method == "earthly" and src is not None:
        return f"地胡 earthly hand, on {seats.whose(src)} first discard"
    if src is not None:
        return f"点和 on {seats.whose(src)} discard"
    if method == "heavenly" or (win["seat"] == seats.dealer and not any(e["type"] == "draw" for e in events)):
        return "天和 heavenly hand: the dealt tiles win (self-drawn)"
    last = _last_draw(events, win["seat"])
    if method == "kong_replacement" or (last is not None and last.get("tail")):
        return "杠上开花 self-drawn on a kong's replacement tile"
    return "自摸 self-drawn"


def _last_draw(events: Sequence[dict[str, Any]], seat: int) -> dict[str, Any] | None:
    for e in reversed(events):
        if e["type"] == "draw":
            return e if e["seat"] == seat else None
    return None
