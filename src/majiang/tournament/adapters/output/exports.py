"""CSV exports: standings, every hand, and an EMA-style results file.

``standings_csv`` columns: ``rank, player, name, team, standard_total, match_total`` then per session
``s{n}_standard, s{n}_score`` (score empty when absent).

``hands_csv`` columns: ``session, table, hand, dealer, winner, discarder, self_drawn, fans,
fan_points, flowers, fan_total, penalties, delta_0 … delta_3`` with player ids for the seats and
``delta_i`` the change for the table's i-th player (first-round seat E, S, W, N).

``ema_csv`` (the European Mahjong Association's results layout) columns: ``position, last_name,
first_name, ema_number, nationality, table_points, mahjong_points``: table points are the Σ
standard scores (EMA's 4/2/1/0 when the scheme is ``4210``), mahjong points the Σ of session score
minus the 500 start (the zero-sum points).  A name with a space is split at its last space
(``first last``); a name without one goes whole into ``last_name``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from majiang.tournament.adapters.output.html import fmt
from majiang.tournament.model import SESSION_START
from majiang.tournament.ranking import GroupResult
from majiang.tournament.seating import ROTATION_1998, SeatChange, dealer


def _csv(rows: Sequence[Sequence[object]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows(rows)
    return buf.getvalue()


def standings_csv(result: GroupResult) -> str:
    n = len(result.sessions)
    head: list[object] = ["rank", "player", "name", "team", "standard_total", "match_total"]
    for i in range(1, n + 1):
        head += [f"s{i}_standard", f"s{i}_score"]
    rows: list[list[object]] = [head]
    for s in result.standings:
        row: list[object] = [s.rank, s.player, result.group.player(s.player).name, s.team or "",
                             fmt(s.standard_total), s.match_total]
        for v, sc in zip(s.session_standards, s.session_scores, strict=True):
            row += [fmt(v), "" if sc is None else sc]
        rows.append(row)
    return _csv(rows)


def hands_csv(result: GroupResult, rotation: Sequence[SeatChange] = ROTATION_1998) -> str:
    rows: list[list[object]] = [["session", "table", "hand", "dealer", "winner", "discarder", "self_drawn", "fans",
                                 "fan_points", "flowers", "fan_total", "penalties",
                                 "delta_0", "delta_1", "delta_2", "delta_3"]]
    for srec, sres in zip(result.group.sessions, result.sessions, strict=True):
        for trec, tres in zip(srec.tables, sres.tables, strict=True):
            pl = trec.players
            for h, d in zip(trec.hands, tres.hand_deltas, strict=True):
                pens = ";".join(f"{pl[p.seat]}:{p.code.value}" + (f":{p.points}" if p.points else "")
                                for p in h.penalties)
                rows.append([srec.no, trec.no, h.no, pl[dealer(h.no, rotation)],
                             "" if h.winner is None else pl[h.winner],
                             "" if h.discarder is None else pl[h.discarder], int(h.self_drawn),
                             ";".join(h.fans), h.fan_points if h.winner is not None else "", h.flowers,
                             h.fan_total if h.winner is not None else "", pens, *d])
    return _csv(rows)


def _split(name: str) -> tuple[str, str]:
    if " " in name.strip():
        first, last = name.strip().rsplit(" ", 1)
        return last, first
    return name.strip(), ""


def ema_csv(result: GroupResult) -> str:
    rows: list[list[object]] = [["position", "last_name", "first_name", "ema_number", "nationality",
                                 "table_points", "mahjong_points"]]
    for s in result.standings:
        p = result.group.player(s.player)
        last, first = _split(p.name or p.id)
        played = [x for x in s.session_scores if x is not None]
        mahjong = sum(played) - SESSION_START * len(played)
        rows.append([s.rank, last, first, p.ema_id, p.country, fmt(s.standard_total), mahjong])
    return _csv(rows)


def write(text: str, path: str | Path) -> Path:
    p = Path(path)
    p.write_text(text, encoding="utf-8", newline="")
    return p
