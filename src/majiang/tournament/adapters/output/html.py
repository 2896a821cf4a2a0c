"""Printable HTML: the score sheet (比赛成绩记录表) of a table and the standings of a group."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html import escape
from pathlib import Path

from majiang.tournament.model import HANDS_PER_SESSION
from majiang.tournament.ranking import GroupResult, provisional_note
from majiang.tournament.sheet import MARKS, ScoreSheet

_CSS = """
@page { size: A4 landscape; margin: 10mm; }
body { font-family: "Noto Sans CJK SC", "Source Han Sans SC", "SimSun", sans-serif; font-size: 10pt; }
h1 { font-size: 15pt; text-align: center; margin: 0 0 4pt; }
p.meta { text-align: center; margin: 0 0 6pt; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #000; padding: 2pt 3pt; text-align: center; vertical-align: middle; }
td.cell { font-size: 8pt; min-width: 34pt; }
td.cell .m { display: block; letter-spacing: 1pt; }
td.cell .n { display: block; font-size: 7pt; }
td.sign { min-width: 60pt; }
tr.tie td { background: #f3f3f3; }
.legend, .notes { font-size: 8.5pt; margin-top: 5pt; }
""".strip()


def fmt(x: Fraction | int | None) -> str:
    """A standard score (or any sheet number) as printed: whole numbers plain, others with two
    decimals, nothing for None (a blank sheet)."""
    if x is None:
        return ""
    f = Fraction(x)
    return str(int(f)) if f.denominator == 1 else f"{float(f):.2f}"


def _page(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_CSS}</style></head><body>\n{body}\n</body></html>\n"
    )


def score_sheet_html(sheet: ScoreSheet) -> str:
    """The sheet as a self-contained printable HTML page (A4 landscape)."""
    head = "".join(f"<th>{n}</th>" for n in range(1, HANDS_PER_SESSION + 1))
    rows = []
    for r in sheet.rows:
        cells = []
        for c in r.cells:
            if c.points is None:
                cells.append('<td class="cell"></td>')
                continue
            name = f'<span class="n">{escape(c.hand_name)} {c.fan}番</span>' if c.hand_name else ""
            pts = f"{c.points:+d}" if c.points else "0"
            cells.append(f'<td class="cell"><span class="m">{escape(c.marks)}</span>{pts}{name}</td>')
        rows.append(
            f"<tr><td>{r.start_wind}</td><td>{escape(r.name)}</td>{''.join(cells)}"
            f"<td>{fmt(r.won)}</td><td>{fmt(r.lost)}</td><td>{r.deductions or ''}</td><td><b>{fmt(r.total)}</b></td>"
            f'<td>{fmt(r.place)}</td><td>{fmt(r.standard)}</td><td class="sign">{escape(r.note)}</td></tr>'
        )
    legend = " · ".join(f"{escape(k)} {escape(v)}" for k, v in MARKS.items())
    notes = "".join(f"<li>{escape(n)}</li>" for n in sheet.notes)
    entry = "" if sheet.entry == "hands" else " · 快速录入 (table totals)"
    body = (
        f'<h1>比赛成绩记录表</h1><p class="meta">{escape(sheet.event)} · 组 {escape(sheet.group)} · '
        f"第 {sheet.session} 局 · 第 {sheet.table} 桌 · {sheet.hands_played} 盘{entry}</p>"
        f"<table><thead><tr><th>方位</th><th>姓名</th>{head}<th>得分</th><th>失分</th><th>罚分</th>"
        f"<th>局分</th><th>名次</th><th>标准分</th><th>签名</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f'<p class="legend">{legend}</p>'
        + (f'<ul class="notes">{notes}</ul>' if notes else "")
        + '<p class="notes">裁判员签名 Referee: ____________</p>'
    )
    return _page(f"比赛成绩记录表 {sheet.session}-{sheet.table}", body)


def standings_html(
    result: GroupResult,
    title: str = "",
    movement: Mapping[str, str] | None = None,
    team_movement: Mapping[str, str] | None = None,
    marks: Mapping[str, str] | None = None,
    late: Mapping[str, int] | None = None,
) -> str:
    """Individual and team standings of a group as a printable HTML page (with ``movement``, player →
    ▲2 ▼1 – 新 new, and ``team_movement``, team → the same: a 升降 column in each table; ``marks``, player →
    what follows his name: " · 补报 late entry", " · 退赛 withdrawn"; ``late``, a late entry → his first
    session: the sessions before it say so)."""
    s_head = "".join(f"<th>第{sr.no}局</th>" for sr in result.sessions)
    m_head = "<th>升降</th>" if movement is not None else ""
    rows = []
    for s in result.standings:
        per = "".join(
            f"<td>{fmt(v)}<br><small>{escape(sr.cell(s.player, sc, (late or {}).get(s.player)))}</small></td>"
            for v, sc, sr in zip(s.session_standards, s.session_scores, result.sessions, strict=True)
        )
        dq = " DQ 取消资格" if s.disqualified else ""
        move = f"<td>{escape(movement.get(s.player, ''))}</td>" if movement is not None else ""
        who = (result.group.player(s.player).name or s.player) + (marks or {}).get(s.player, "")
        rows.append(
            f"<tr><td>{s.rank}{dq}</td>{move}<td>{escape(who)}</td>"
            f"<td>{escape(s.team or '')}</td>{per}<td><b>{fmt(s.standard_total)}</b></td>"
            f"<td>{s.match_total}</td></tr>"
        )
    body = (
        f'<h1>{escape(title or "个人名次")}</h1><p class="meta">标准分 scheme {escape(result.scheme)}'
        f" · {result.field_size} players</p>"
        + (f'<p class="meta"><b>{escape(note)}</b></p>' if (note := provisional_note(result)) else "")
        + f"<table><thead><tr><th>名次</th>{m_head}<th>姓名</th><th>队</th>{s_head}<th>标准分</th><th>比赛分</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )
    if result.teams:
        name = {p.id: p.name or p.id for p in result.group.players}  # members by name, not id
        team_name = {t.id: t.name or t.id for t in result.group.teams}
        tm = team_movement
        trs = "".join(
            f"<tr><td>{t.rank}</td>"
            + (f"<td>{escape(tm.get(t.team, ''))}</td>" if tm is not None else "")
            + f"<td>{escape(team_name.get(t.team, t.team))}</td>"
            + f"<td>{escape(', '.join(name.get(m, m) for m in t.members))}</td>"
            f"<td><b>{fmt(t.standard_total)}</b></td><td>{t.match_total}</td></tr>"
            for t in result.teams
        )
        tm_head = "<th>升降</th>" if tm is not None else ""
        body += (
            f'<h1 style="margin-top:12pt">团体名次</h1><table><thead><tr><th>名次</th>{tm_head}<th>队</th><th>队员</th>'
            f"<th>标准分</th><th>比赛分</th></tr></thead><tbody>{trs}</tbody></table>"
        )
    return _page(title or "standings", body)


def write(text: str, path: str | Path) -> Path:
    p = Path(path)
    p.write_text(text, encoding="utf-8")
    return p
