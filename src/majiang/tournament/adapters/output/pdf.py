"""PDF score sheets and standings with reportlab, in its built-in CID font STSong-Light (Chinese
glyphs come from the PDF viewer's Adobe-GB1 font; nothing is downloaded or embedded)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from majiang.tournament.adapters.output.html import fmt
from majiang.tournament.model import HANDS_PER_SESSION
from majiang.tournament.ranking import GroupResult
from majiang.tournament.sheet import MARKS, ScoreSheet

FONT = "STSong-Light"


def _setup() -> None:
    from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont  # type: ignore[import-untyped]
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(FONT))


def _doc(buf: io.BytesIO, title: str) -> Any:
    from reportlab.lib.pagesizes import A4, landscape  # type: ignore[import-untyped]
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import SimpleDocTemplate  # type: ignore[import-untyped]
    return SimpleDocTemplate(buf, pagesize=landscape(A4), leftMargin=8 * mm, rightMargin=8 * mm,
                             topMargin=8 * mm, bottomMargin=8 * mm, title=title)


def _styles() -> tuple[Any, Any, Any]:
    from reportlab.lib.styles import ParagraphStyle  # type: ignore[import-untyped]
    title = ParagraphStyle("t", fontName=FONT, fontSize=15, leading=19, alignment=1)
    meta = ParagraphStyle("m", fontName=FONT, fontSize=9, leading=12, alignment=1)
    small = ParagraphStyle("s", fontName=FONT, fontSize=8, leading=10)
    return title, meta, small


def _grid(extra: list[tuple[Any, ...]] | None = None) -> Any:
    from reportlab.lib import colors  # type: ignore[import-untyped]
    from reportlab.platypus import TableStyle  # type: ignore[import-untyped]
    cmds: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), FONT, 7.5),
        ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
    ]
    return TableStyle(cmds + (extra or []))


def score_sheet_pdf(sheet: ScoreSheet) -> bytes:
    """The sheet on one A4 landscape page."""
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import Paragraph, Spacer, Table  # type: ignore[import-untyped]
    _setup()
    title, meta, small = _styles()
    header = ["方位", "姓名", *[str(n) for n in range(1, HANDS_PER_SESSION + 1)],
              "得分", "失分", "罚分", "局分", "名次", "标准分", "签名"]
    data: list[list[str]] = [header]
    for r in sheet.rows:
        cells = []
        for c in r.cells:
            if c.points is None:
                cells.append("")
                continue
            lines = [c.marks, f"{c.points:+d}" if c.points else "0"]
            if c.hand_name:
                lines += [c.hand_name[:4], f"{c.fan}番"]
            cells.append("\n".join(x for x in lines if x))
        data.append([r.start_wind, r.name, *cells, str(r.won), str(r.lost), str(r.deductions or ""), str(r.total),
                     str(r.place), fmt(r.standard), r.note])
    widths = [9 * mm, 16 * mm] + [11 * mm] * HANDS_PER_SESSION + [9 * mm] * 5 + [11 * mm, 18 * mm]
    table = Table(data, colWidths=widths, rowHeights=[7 * mm] + [17 * mm] * 4, repeatRows=1)
    table.setStyle(_grid())
    entry = "" if sheet.entry == "hands" else " 快速录入"
    story: list[Any] = [
        Paragraph("比赛成绩记录表", title),
        Paragraph(f"{sheet.event}　组 {sheet.group}　第 {sheet.session} 局　第 {sheet.table} 桌　"
                  f"{sheet.hands_played} 盘{entry}", meta),
        Spacer(1, 3 * mm), table, Spacer(1, 2 * mm),
        Paragraph("　".join(f"{k} {v}" for k, v in MARKS.items()), small),
    ]
    story += [Paragraph(n, small) for n in sheet.notes]
    story.append(Spacer(1, 4 * mm))
    story.append(Paragraph("裁判员签名 Referee: ________________", small))
    buf = io.BytesIO()
    _doc(buf, f"比赛成绩记录表 {sheet.session}-{sheet.table}").build(story)
    return buf.getvalue()


def standings_pdf(result: GroupResult, title: str = "个人名次") -> bytes:
    """Individual (and team) standings."""
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import Paragraph, Spacer, Table  # type: ignore[import-untyped]
    _setup()
    title_style, meta, _ = _styles()
    n = len(result.sessions)
    data = [["名次", "姓名", "队", *[f"第{i}局" for i in range(1, n + 1)], "标准分", "比赛分"]]
    for s in result.standings:
        data.append([str(s.rank), result.group.player(s.player).name or s.player, s.team or "",
                     *[fmt(v) for v in s.session_standards], fmt(s.standard_total), str(s.match_total)])
    story: list[Any] = [Paragraph(title, title_style),
                        Paragraph(f"标准分 {result.scheme}　{result.field_size} players", meta), Spacer(1, 3 * mm)]
    t = Table(data, repeatRows=1)
    t.setStyle(_grid())
    story.append(t)
    if result.teams:
        tdata = [["名次", "队", "队员", "标准分", "比赛分"]]
        tdata += [[str(x.rank), x.team, ", ".join(x.members), fmt(x.standard_total), str(x.match_total)]
                  for x in result.teams]
        tt = Table(tdata, repeatRows=1)
        tt.setStyle(_grid())
        story += [Spacer(1, 6 * mm), Paragraph("团体名次", title_style), Spacer(1, 3 * mm), tt]
    buf = io.BytesIO()
    _doc(buf, title).build(story)
    return buf.getvalue()


def write(data: bytes, path: str | Path) -> Path:
    p = Path(path)
    p.write_bytes(data)
    return p
