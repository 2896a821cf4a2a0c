"""MERS's inputs and page: events' EMA results files read into :class:`~majiang.tournament.mers.EventResult`
rows, and the ranking as an HTML page."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Sequence
from datetime import date
from html import escape

from majiang.tournament.errors import TournamentError
from majiang.tournament.mers import EventResult, Ranking

POSITION = ("position", "place", "rank", "pos")
EMA_NUMBER = ("ema_number", "ema_id", "ema", "ema number", "emanumber")


class MersFileError(TournamentError):
    """A results file MERS cannot read; the message says what to fix."""


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def player_key(ema_number: str, name: str) -> str:
    """The same player across files: his EMA number, else his name (case, width and spaces folded)."""
    number = _norm(ema_number)
    return f"ema:{number}" if number else f"name:{_norm(name).casefold()}"


def read_ema_results(text: str, event: str, held: date, weight: float = 1.0) -> list[EventResult]:
    """An EMA results file (``position, last_name, first_name, ema_number, …``, as ``majiang tournament
    export --format ema`` writes it; ``place``/``rank`` and a single ``name`` column are read too).  A
    ``DQ`` position is the last place; positions may repeat (a tie shares the better place)."""
    if weight <= 0:
        raise MersFileError(f"{event}: the MERS weight must be positive, got {weight}")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows:
        raise MersFileError(f"{event}: no results (a header line and one line per player expected)")
    cols = {_norm(c or "").casefold(): c for c in rows[0]}
    pos_col = next((cols[c] for c in POSITION if c in cols), None)
    if pos_col is None:
        raise MersFileError(f"{event}: no position column (one of {', '.join(POSITION)}); columns: {list(rows[0])}")
    ema_col = next((cols[c] for c in EMA_NUMBER if c in cols), None)
    n = len(rows)
    if n < 2:
        raise MersFileError(f"{event}: a MERS event needs at least 2 players, the file has {n}")
    out = []
    for i, row in enumerate(rows, start=2):
        if "last_name" in cols or "first_name" in cols:
            first = _norm(row.get(cols.get("first_name", ""), "") or "")
            name = f"{first} {_norm(row.get(cols.get('last_name', ''), '') or '')}".strip()
        else:
            name = _norm(row.get(cols.get("name", ""), "") or "")
        if not name:
            raise MersFileError(f"{event}, line {i}: no name (last_name/first_name or name)")
        raw = _norm(row.get(pos_col) or "")
        if raw.upper() == "DQ":
            place = n
        elif raw.isdigit() and 1 <= int(raw) <= n:
            place = int(raw)
        else:
            raise MersFileError(f"{event}, line {i}: position {raw!r} is not 1…{n} or DQ")
        number = row.get(ema_col, "") if ema_col else ""
        out.append(EventResult(player_key(number or "", name), name, event, held, place, n, weight))
    return out


CSS = """body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:1rem;max-width:60rem}
table{border-collapse:collapse;width:100%}th,td{padding:.25rem .5rem;border-bottom:1px solid #ddd;text-align:left}
td.num,th.num{text-align:right}details{margin:.1rem 0}.small{color:#555;font-size:.9em}
@media (max-width:600px){.wide{display:none}}"""


def mers_html(rankings: Sequence[Ranking], on: date, events: Sequence[tuple[str, date, float, int]]) -> str:
    """The ranking as a page: rank, player, MERS, parts A and B, and each player's results."""
    rows = []
    for r in rankings:
        detail = "".join(
            f"<li>{escape(c.result.event)} ({c.result.held.isoformat()}): {c.result.place}/{c.result.players} → "
            f"{c.result.base_rank:.2f}, weight {c.result.weight:g} × {c.factor:.3g}</li>"
            for c in r.counted
        )
        if r.missing:
            detail += f"<li>{r.missing} × 0 (fewer than 5 results · 不足 5 次成绩)</li>"
        rows.append(
            f'<tr data-player="{escape(r.player)}"><td class="num">{r.rank}</td><td><details><summary>'
            f"{escape(r.name)}</summary><ul class=small>{detail}</ul></details></td>"
            f'<td class="num mers">{r.mers:.2f}</td><td class="num wide">{r.part_a:.2f}</td>'
            f'<td class="num wide">{r.part_b:.2f}</td><td class="num">{len(r.counted)}</td></tr>'
        )
    ev = "".join(
        f"<li>{escape(name)} · {held.isoformat()} · {players} 人 players · weight {weight:g}</li>"
        for name, held, weight, players in events
    )
    return (
        f'<!doctype html><html lang="zh-Hans"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width,initial-scale=1"><title>MERS 排名 · ranking {on.isoformat()}</title>'
        f"<style>{CSS}</style></head><body><h1>MERS 排名 · MERS ranking</h1>"
        f'<p class="small">{on.isoformat()} · 基础分 base rank 1000·(n−名次)/(n−1) · '
        f"一年内全计、一至两年 ⅔、两至三年 ⅓ · "
        f"results under a year count in full, 1–2 years ⅔, 2–3 years ⅓; A = all results (fewer than 5: zeros "
        f"added), B = best 3; MERS = (A + B) / 2</p>"
        f'<table id="mers"><thead><tr><th class="num">名次 Rank</th><th>选手 Player</th><th class="num">MERS</th>'
        f'<th class="num wide">A</th><th class="num wide">B</th><th class="num">赛事 Events</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table><h2>赛事 Events</h2><ul>{ev}</ul></body></html>"
    )
