"""A settlement as text for people: the jing, the win with its 胡 items, and a per-seat table.

Plain text (no terminal codes), Chinese with English, so it reads the same in a terminal, a log or a
test.  The CLI (``majiang nanchang``) prints it.
"""

from __future__ import annotations

import unicodedata

from majiang.nanchang.options import DEFAULT_OPTIONS, Options
from majiang.nanchang.settle import HandRecord, JingRound, Settlement
from majiang.nanchang.terms import WinMethod
from majiang.tiles import format_compact, tile_str


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


def _round_line(r: JingRound) -> str:
    text = (f"{r.zh} {r.en} ({tile_str(r.pair.zheng)}/{tile_str(r.pair.fu)}): raw {list(r.raw)} "
            f"→ bonus {list(r.scores)}")
    if any(x >= 5 for x in r.raw):
        text += " (冲关 r·(r−3) from 5)"
    if r.bawang is not None:
        text += f", 霸王精 seat {r.bawang}"
    for seat, liable in r.baopei:
        text += f", 冲关包赔: seat {liable} pays seat {seat}'s share"
    return text


def render_settlement(rec: HandRecord, s: Settlement, options: Options = DEFAULT_OPTIONS) -> str:
    """The readable breakdown of one settled hand (``options``: those it was settled with)."""
    lines = ["南昌麻将 Nanchang mahjong — settlement",
             f"精 jing: indicator {tile_str(rec.jing_indicator)} → {rec.jing}"]
    win = s.win
    if win is None or rec.winner is None or rec.method is None:
        lines.append("荒庄 exhaustive draw: no win payment")
    else:
        h = rec.hands[rec.winner]
        melds = "".join(m.compact() for m in h.melds)
        tile = f" + {tile_str(rec.win_tile)}" if rec.win_tile is not None else ""
        how = f"{rec.method.zh} {rec.method.en}"
        if rec.discarder is not None:
            how += f" from seat {rec.discarder}"
        lines.append(f"seat {rec.winner} wins {how}: {melds}{format_compact(sorted(h.concealed))}{tile}")
        items = " · ".join(f"{x.zh} {x.en} ×{x.factor}" for x in win.hu)
        german = " (德国 +5 per liable payer)" if win.german and rec.method not in (
            WinMethod.HEAVENLY, WinMethod.EARTHLY) else ""
        if rec.method is WinMethod.HEAVENLY:
            german = f" on the flat base {options.tian_hu_base}"
        elif rec.method is WinMethod.EARTHLY:
            german = f" on the flat base {options.di_hu_base}"
        lines.append(f"胡 {items} → M = {win.multiplier}{german}")
    rows = [["seat", "role", "胡分 win", "杠分 kong", "精分 jing"]]
    if s.chao_zhuang:
        rows[0].append("抄庄 penalty")
    rows[0].append("total")
    for seat in range(4):
        row = [str(seat), _role(rec, seat), f"{s.win_deltas[seat]:+d}", f"{s.kong_deltas[seat]:+d}",
               f"{s.jing_deltas[seat]:+d}"]
        if s.chao_zhuang:
            row.append(f"{s.penalty_deltas[seat]:+d}")
        row.append(f"{s.deltas[seat]:+d}")
        rows.append(row)
    lines += _table(rows)
    for k in s.kongs:
        lines.append(f"杠 seat {k.seat}: {k.zh} {k.en} {k.meld.compact()} — {k.each} from each opponent")
    for r in s.jing_rounds:
        lines.append(_round_line(r))
    lines += list(s.notes)
    if s.chao_zhuang:
        lines.append("抄庄: the four first discards were the same tile — the dealer pays 5 to each")
    lines.append(f"next dealer: seat {s.next_dealer}")
    return "\n".join(lines)
