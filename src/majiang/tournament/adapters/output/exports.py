"""CSV exports: standings, every hand, and an EMA-style results file.

``standings_csv`` columns: ``rank, player, name, team, standard_total, match_total, disqualified`` (1 for
a player disqualified for 故意诈和) then per session
``s{n}_standard, s{n}_score`` (score empty when absent); standings after a session (``export --after K``)
end with ``movement`` (▲2 ▼1 – 新 new).

``hands_csv`` columns: ``session, table, hand, dealer, winner, discarder, self_drawn, fans,
fan_points, flowers, fan_total, penalties, delta_0 … delta_3`` with the ids of the players who sat
in that hand (after a mid-session substitution, the substitute) and ``delta_i`` the change for the
table's i-th seat (first-round seat E, S, W, N).

``ema_csv`` (the European Mahjong Association's results layout) columns: ``position, last_name,
first_name, ema_number, nationality, table_points, mahjong_points`` (table points 4/2/1/0 per table) in EMA
order or the event's official order (:func:`ema_csv`).

``players_csv``: the player list (``id, name, family, given, romanised, team, ema_id, country, reserve``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from majiang.tournament.adapters.output.html import fmt
from majiang.tournament.model import SESSION_START, Group
from majiang.tournament.names import latin_parts
from majiang.tournament.ranking import GroupResult
from majiang.tournament.registration import players_csv_rows
from majiang.tournament.seating import ROTATION_1998, SeatChange, dealer
from majiang.tournament.standard import TablePlaces

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula


def spreadsheet_safe(cell: object) -> object:
    """A text cell that a spreadsheet would run as a formula (a player named ``=HYPERLINK(…)``), with a
    leading apostrophe so it shows as the text it is; numbers, and text that is a number (``-2.5``),
    stay as they are."""
    if not isinstance(cell, str) or not cell.startswith(FORMULA_START):
        return cell
    try:
        float(cell)
        return cell
    except ValueError:
        return "'" + cell


def _csv(rows: Sequence[Sequence[object]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows([spreadsheet_safe(c) for c in row] for row in rows)
    return buf.getvalue()


def standings_csv(result: GroupResult, movement: Mapping[str, str] | None = None) -> str:
    """The standings; with ``movement`` (player → ▲2 ▼1 – 新 new, :func:`.history.arrows`) a last column
    ``movement``."""
    head: list[object] = ["rank", "player", "name", "team", "standard_total", "match_total", "disqualified"]
    for sr in result.sessions:
        head += [f"s{sr.no}_standard", f"s{sr.no}_score"]
    if movement is not None:
        head.append("movement")
    rows: list[list[object]] = [head]
    for s in result.standings:
        row: list[object] = [
            s.rank,
            s.player,
            result.group.player(s.player).name,
            s.team or "",
            fmt(s.standard_total),
            s.match_total,
            int(s.disqualified),
        ]
        for v, sc in zip(s.session_standards, s.session_scores, strict=True):
            row += [fmt(v), "" if sc is None else sc]
        if movement is not None:
            row.append(movement.get(s.player, ""))
        rows.append(row)
    return _csv(rows)


def hands_csv(result: GroupResult, rotation: Sequence[SeatChange] = ROTATION_1998) -> str:
    rows: list[list[object]] = [
        [
            "session",
            "table",
            "hand",
            "dealer",
            "winner",
            "discarder",
            "self_drawn",
            "fans",
            "fan_points",
            "flowers",
            "fan_total",
            "penalties",
            "delta_0",
            "delta_1",
            "delta_2",
            "delta_3",
        ]
    ]
    for srec, sres in zip(result.group.sessions, result.sessions, strict=True):
        for trec, tres in zip(srec.tables, sres.tables, strict=True):
            for h, d in zip(trec.hands, tres.hand_deltas, strict=True):
                # who sat where in this hand: after a mid-session substitution (第十二条) the substitute
                pl = [trec.substitute_at(seat, h.no) or trec.players[seat] for seat in range(4)]
                pens = ";".join(
                    f"{pl[p.seat]}:{p.code.value}" + (f":{p.points}" if p.points else "") for p in h.penalties
                )
                rows.append(
                    [
                        srec.no,
                        trec.no,
                        h.no,
                        pl[dealer(h.no, rotation)],
                        "" if h.winner is None else pl[h.winner],
                        "" if h.discarder is None else pl[h.discarder],
                        int(h.self_drawn),
                        ";".join(h.fans),
                        h.fan_points if h.winner is not None else "",
                        h.flowers,
                        h.fan_total if h.winner is not None else "",
                        pens,
                        *d,
                    ]
                )
    return _csv(rows)


EMA_ORDERS = ("ema", "official")


def ema_csv(result: GroupResult, order: str = "ema") -> str:
    """The EMA results file.  Table points are 4/2/1/0 per table (computed from the session scores whatever
    the event's own scheme, so a 1998-scored event exports what EMA ranks by), mahjong points Σ (session
    score − 500) over the sessions played (a bye costs nothing).  ``order``: ``ema`` — by table points,
    then mahjong points (the EMA's own ranking; equal on both share the position); ``official`` — the
    event's ranking (the 1998 rules' Σ standard scores and tie-breaks), its positions.  The disqualified
    last, marked ``DQ``.  Names from the players' own family/given columns (or their romanisation,
    family name first), never a whole Chinese name in ``last_name``."""
    if order not in EMA_ORDERS:
        raise ValueError(f"EMA order is one of {', '.join(EMA_ORDERS)}, not {order!r}")
    places = TablePlaces()
    table_points: dict[str, Fraction] = {}
    for sr in result.sessions:
        scored = [t for t in sr.tables if t.table not in sr.pending]
        for pid, v in places.session_standard(scored, result.field_size).items():
            table_points[pid] = table_points.get(pid, Fraction(0)) + v
    entries = []
    for s in result.standings:
        played = [x for x in s.session_scores if x is not None]
        entries.append((s, table_points.get(s.player, Fraction(0)), sum(played) - SESSION_START * len(played)))
    if order == "ema":
        entries.sort(key=lambda e: (e[0].disqualified, -e[1], -e[2]))
    rows: list[list[object]] = [
        ["position", "last_name", "first_name", "ema_number", "nationality", "table_points", "mahjong_points"]
    ]
    for i, (s, tp, mahjong) in enumerate(entries):
        p = result.group.player(s.player)
        last, first = latin_parts(
            p.name or p.id, family=p.family, given=p.given, romanised=p.romanised, country=p.country
        )
        prev = entries[i - 1] if i else None
        position: object
        if s.disqualified:
            position = "DQ"
        elif order == "official":
            position = s.rank
        else:
            position = rows[-1][0] if prev and (prev[1], prev[2]) == (tp, mahjong) else i + 1
        rows.append([position, last, first, p.ema_id, p.country, fmt(tp), mahjong])
    return _csv(rows)


def players_csv(group: Group) -> str:
    """The registered players in the player list's columns (``id, name, family, given, romanised, team,
    ema_id, country, reserve``): ``majiang tournament new --players`` reads it back."""
    return _csv(players_csv_rows(group))


def write(text: str, path: str | Path) -> Path:
    p = Path(path)
    p.write_text(text, encoding="utf-8", newline="")
    return p
