"""A settlement as text for people: the jing, the win with its 胡 items, and a per-seat table.

Plain text (no terminal codes), Chinese with English, so it reads the same in a terminal, a log or a
test.  The CLI (``majiang nanchang``) prints it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from majiang.nanchang.options import DEFAULT_OPTIONS, Options
from majiang.nanchang.payment import GERMAN_BONUS, SEATS
from majiang.nanchang.settle import HandRecord, JingRound, Settlement
from majiang.nanchang.terms import WinMethod
from majiang.nanchang.win import Win
from majiang.tiles import format_compact, tile_str

#: the default way to name a seat in this text
SEAT_NAMES = ("seat 0", "seat 1", "seat 2", "seat 3")


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _pad(s: str, width: int, right: bool = False) -> str:
    fill = " " * max(0, width - _width(s))
    return fill + s if right else s + fill


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = [_pad(c, widths[i], right=i > 1 and n > 0) for i, c in enumerate(row)]
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def _role(rec: HandRecord, seat: int) -> str:
    roles = ["庄 dealer" if seat == rec.dealer else "闲"]
    if seat == rec.winner:
        roles.append("胡 winner")
    elif seat == rec.discarder and rec.method is WinMethod.ROBBED_KONG:
        roles.append("被抢杠 robbed")
    elif seat == rec.discarder:
        roles.append("点炮 discarder")
    return " · ".join(roles)


def _round_line(r: JingRound, names: Sequence[str] = SEAT_NAMES) -> str:
    text = f"{r.zh} {r.en} ({tile_str(r.pair.zheng)}/{tile_str(r.pair.fu)}): raw {list(r.raw)} → bonus {list(r.scores)}"
    if any(x >= 5 for x in r.raw):
        text += " (冲关 r·(r−3) from 5)"
    if r.bawang is not None:
        text += f", 霸王精 {names[r.bawang]} (the only jing holder: bonus doubled)"
    for seat, liable in r.baopei:
        text += f", 冲关包赔: {names[liable]} pays {names[seat]}'s share"
    return text


def win_payment_lines(
    rec: HandRecord, win: Win, options: Options = DEFAULT_OPTIONS, names: Sequence[str] = SEAT_NAMES
) -> list[str]:
    """Each payer's 胡分 as the factors that make it (§2.10), e.g. ``seat 0 (庄) pays M 4 × 自摸 2 ×
    庄 2 = 16``, then what the winner receives (the settlement's own figure, which they add up to)."""
    assert rec.winner is not None and rec.method is not None
    w, method = rec.winner, rec.method
    tiandi = method in (WinMethod.HEAVENLY, WinMethod.EARTHLY)
    konger_all = method is WinMethod.ROBBED_KONG and options.qianggang_pay == "konger_all"
    lines = []
    for p in range(SEATS):
        if p == w or (method is WinMethod.DISCARD and options.dianpao_pay == "one" and p != rec.discarder):
            continue
        dealer = 2 if rec.dealer in (w, p) else 1
        factors: list[tuple[str, int]] = []
        if tiandi:
            base = options.tian_hu_base if method is WinMethod.HEAVENLY else options.di_hu_base
            factors.append((f"{method.zh} base", base))
            factors.append(("精钓", win.multiplier))
            if options.tian_di_dealer_double:
                factors.append(("庄", dealer))
        else:
            factors.append(("M", win.multiplier))
            if method is WinMethod.DISCARD:
                factors.append(("点炮", 2 if p == rec.discarder else 1))
            else:
                factors.append((method.zh, 2))
            factors.append(("庄", dealer))
        shown = [f"{k} {v}" for k, v in factors if v != 1 or k == "M"] or ["1"]
        amount = 1
        for _, v in factors:
            amount *= v
        text = " × ".join(shown)
        if win.german and not tiandi and (method is not WinMethod.DISCARD or p == rec.discarder):
            text += f" + 德国 {GERMAN_BONUS}"
            amount += GERMAN_BONUS
        payer = f" (paid by {names[rec.discarder]}: 抢杠包赔)" if konger_all and rec.discarder not in (None, p) else ""
        role = " (庄)" if p == rec.dealer else ""
        lines.append(f"  {names[p]}{role} pays {text} = {amount}{payer}")
    lines.append(f"  {names[w]} receives {win.payments[w]}")
    return lines


def render_settlement(
    rec: HandRecord, s: Settlement, options: Options = DEFAULT_OPTIONS, names: Sequence[str] = SEAT_NAMES
) -> str:
    """The readable breakdown of one settled hand (``options``: those it was settled with;
    ``names``: how to call each seat, ``seat 0`` … by default)."""
    lines = [
        "南昌麻将 Nanchang mahjong — settlement",
        f"精 jing: indicator {tile_str(rec.jing_indicator)} → {rec.jing}",
    ]
    win = s.win
    if win is None or rec.winner is None or rec.method is None:
        lines.append("荒庄 exhaustive draw: no win payment")
    else:
        h = rec.hands[rec.winner]
        melds = "".join(m.compact() for m in h.melds)
        tile = f" + {tile_str(rec.win_tile)}" if rec.win_tile is not None else ""
        how = f"{rec.method.zh} {rec.method.en}"
        if rec.discarder is not None:
            how += f" from {names[rec.discarder]}"
        lines.append(f"{names[rec.winner]} wins {how}: {melds}{format_compact(sorted(h.concealed))}{tile}")
        items = " · ".join(f"{x.zh} {x.en} ×{x.factor}" for x in win.hu)
        german = (
            " (德国 +5 per liable payer)"
            if win.german and rec.method not in (WinMethod.HEAVENLY, WinMethod.EARTHLY)
            else ""
        )
        if rec.method is WinMethod.HEAVENLY:
            german = f" on the flat base {options.tian_hu_base}"
        elif rec.method is WinMethod.EARTHLY:
            german = f" on the flat base {options.di_hu_base}"
        lines.append(f"胡 {items} → M = {win.multiplier}{german}")
        lines += win_payment_lines(rec, win, options, names)
    rows = [["seat", "role", "胡分 win", "杠分 kong", "精分 jing"]]
    if s.chao_zhuang:
        rows[0].append("抄庄 penalty")
    rows[0].append("total")
    for seat in range(4):
        row = [
            names[seat] if names is not SEAT_NAMES else str(seat),
            _role(rec, seat),
            f"{s.win_deltas[seat]:+d}",
            f"{s.kong_deltas[seat]:+d}",
            f"{s.jing_deltas[seat]:+d}",
        ]
        if s.chao_zhuang:
            row.append(f"{s.penalty_deltas[seat]:+d}")
        row.append(f"{s.deltas[seat]:+d}")
        rows.append(row)
    lines += _table(rows)
    for k in s.kongs:
        lines.append(f"杠 {names[k.seat]}: {k.zh} {k.en} {k.meld.compact()} — {k.each} from each opponent")
    for r in s.jing_rounds:
        lines.append(_round_line(r, names))
    lines += list(s.notes)
    if s.chao_zhuang:
        lines.append("抄庄: the four first discards were the same tile — the dealer pays 5 to each")
    lines.append(f"next dealer: {names[s.next_dealer]}")
    return "\n".join(lines)
