"""PDF score sheets and standings with reportlab, in two embedded TrueType fonts: DejaVu Sans (the
copy that matplotlib ships) for Latin with diacritics, digits and symbols, and Debian's Droid Sans
Fallback (package ``fonts-droid-fallback``, which ``make test`` installs) for Chinese.  Each text is
split into runs by which font has the glyph, so "Jürgen Weiß", "Tomáš Dvořák" and "空叫 −5" come
out whole, also for ``pdftotext``.  Without a Chinese TrueType font the Chinese runs fall back to
reportlab's built-in CID font STSong-Light (drawn by the viewer's Adobe-GB1 font, not embedded, and
read back by ``pdftotext`` only where poppler-data is installed)."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from majiang.tournament.adapters.output.html import fmt
from majiang.tournament.model import HANDS_PER_SESSION
from majiang.tournament.ranking import GroupResult
from majiang.tournament.sheet import MARKS, ScoreSheet

LATIN = "DejaVuSans"
CJK_TTF = (Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
           Path("/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf"))


@cache
def _fonts() -> tuple[str, frozenset[int]]:
    """Register the fonts once: the Chinese font's name, and the code points DejaVu Sans has."""
    import matplotlib
    from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont  # type: ignore[import-untyped]
    from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]
    latin = TTFont(LATIN, str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"))
    pdfmetrics.registerFont(latin)
    cjk = next((p for p in CJK_TTF if p.exists()), None)
    if cjk is not None:
        pdfmetrics.registerFont(TTFont("DroidSansFallback", str(cjk)))
        return "DroidSansFallback", frozenset(latin.face.charToGlyph)
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return "STSong-Light", frozenset(latin.face.charToGlyph)


def rich(text: str) -> str:
    """``text`` as Paragraph markup: runs DejaVu Sans lacks (Chinese) in STSong-Light, new lines as breaks."""
    _, latin = _fonts()
    out: list[str] = []
    run: list[str] = []
    run_cjk = False
    for ch in text:
        is_cjk = ch != "\n" and ord(ch) not in latin
        if run and is_cjk != run_cjk:
            out.append(_run("".join(run), run_cjk))
            run = []
        run_cjk = is_cjk
        run.append(ch)
    if run:
        out.append(_run("".join(run), run_cjk))
    return "".join(out)


def _run(text: str, cjk: bool) -> str:
    body = escape(text).replace("\n", "<br/>")
    return f'<font name="{_fonts()[0]}">{body}</font>' if cjk else body


def _doc(buf: io.BytesIO, title: str) -> Any:
    from reportlab.lib.pagesizes import A4, landscape  # type: ignore[import-untyped]
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import SimpleDocTemplate  # type: ignore[import-untyped]
    return SimpleDocTemplate(buf, pagesize=landscape(A4), leftMargin=8 * mm, rightMargin=8 * mm,
                             topMargin=8 * mm, bottomMargin=8 * mm, title=title)


def _style(name: str, size: float, align: int = 1) -> Any:
    from reportlab.lib.styles import ParagraphStyle  # type: ignore[import-untyped]
    _fonts()
    return ParagraphStyle(name, fontName=LATIN, fontSize=size, leading=size * 1.25, alignment=align)


def _para(text: str, style: Any) -> Any:
    from reportlab.platypus import Paragraph  # type: ignore[import-untyped]
    return Paragraph(rich(text), style)


def _table(rows: list[list[str]], size: float = 7.5, **kw: Any) -> Any:
    """A ruled table whose cells are mixed-font paragraphs (the header row shaded, a size smaller)."""
    from reportlab.lib import colors  # type: ignore[import-untyped]
    from reportlab.platypus import Table, TableStyle  # type: ignore[import-untyped]
    cell, head = _style("cell", size), _style("head", size - 1)
    table = Table([[_para(x, head if i == 0 else cell) for x in row] for i, row in enumerate(rows)],
                  repeatRows=1, **kw)
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
    ]))
    return table


def score_sheet_pdf(sheet: ScoreSheet) -> bytes:
    """The sheet on one A4 landscape page."""
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import Spacer  # type: ignore[import-untyped]
    header = ["方位\nSeat", "姓名\nName", *[str(n) for n in range(1, HANDS_PER_SESSION + 1)],
              "得分\nWon", "失分\nLost", "罚分\nPen.", "局分\nScore", "名次\nPlace", "标准分\nStd", "签名\nSignature"]
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
        data.append([r.start_wind, r.name, *cells, fmt(r.won), fmt(r.lost), str(r.deductions or ""),
                     fmt(r.total), fmt(r.place), fmt(r.standard), r.note])
    widths = [10 * mm, 28 * mm] + [10 * mm] * HANDS_PER_SESSION + [11 * mm] * 6 + [17 * mm]
    table = _table(data, 7, colWidths=widths, rowHeights=[9 * mm] + [17 * mm] * 4)
    entry = "" if sheet.entry == "hands" else " · 快速录入 totals only"
    small = _style("s", 8, align=0)
    story: list[Any] = [
        _para("比赛成绩记录表 Score sheet", _style("t", 15)),
        _para(" · ".join(x for x in (sheet.event, f"组 Group {sheet.group}", f"第 {sheet.session} 局 Session "
                                     f"{sheet.session}", f"第 {sheet.table} 桌 Table {sheet.table}",
                                     f"{sheet.hands_played} 盘 hands{entry}") if x), _style("m", 9)),
        Spacer(1, 3 * mm), table, Spacer(1, 2 * mm),
        _para(" · ".join(f"{k} {v}" for k, v in MARKS.items()), small),
    ]
    story += [_para(n, small) for n in sheet.notes]
    story.append(Spacer(1, 4 * mm))
    story.append(_para("裁判员签名 Referee: ________________", small))
    buf = io.BytesIO()
    _doc(buf, f"比赛成绩记录表 {sheet.session}-{sheet.table}").build(story)
    return buf.getvalue()


def standings_pdf(result: GroupResult, title: str = "个人名次") -> bytes:
    """Individual (and team) standings."""
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import Spacer  # type: ignore[import-untyped]
    n = len(result.sessions)
    data = [["名次\nRank", "姓名\nName", "队\nTeam", *[f"第{i}局\nS{i}" for i in range(1, n + 1)],
             "标准分\nStd total", "比赛分\nScore total"]]
    for s in result.standings:
        rank = f"{s.rank} DQ" if s.disqualified else str(s.rank)
        data.append([rank, result.group.player(s.player).name or s.player, s.team or "",
                     *[fmt(v) if sc is not None else sr.cell(s.player, sc).split()[0]
                       for v, sc, sr in zip(s.session_standards, s.session_scores, result.sessions, strict=True)],
                     fmt(s.standard_total), str(s.match_total)])
    heading = _style("t", 15)
    story: list[Any] = [_para(f"{title} Standings", heading),
                        _para(f"标准分 scheme {result.scheme} · {result.field_size} players", _style("m", 9)),
                        Spacer(1, 3 * mm), _table(data)]
    if result.teams:
        tdata = [["名次\nRank", "队\nTeam", "队员\nMembers", "标准分\nStd total", "比赛分\nScore total"]]
        tdata += [[str(x.rank), x.team, ", ".join(x.members), fmt(x.standard_total), str(x.match_total)]
                  for x in result.teams]
        story += [Spacer(1, 6 * mm), _para("团体名次 Team standings", heading), Spacer(1, 3 * mm), _table(tdata)]
    buf = io.BytesIO()
    _doc(buf, title).build(story)
    return buf.getvalue()


def write(data: bytes, path: str | Path) -> Path:
    p = Path(path)
    p.write_bytes(data)
    return p
