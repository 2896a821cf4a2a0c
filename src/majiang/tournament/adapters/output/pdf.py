"""PDF score sheets and standings with reportlab, in two embedded TrueType fonts: DejaVu Sans (the
copy that matplotlib ships) for Latin with diacritics, digits and symbols, and Debian's Droid Sans
Fallback (package ``fonts-droid-fallback``, which ``make test`` installs) for Chinese.  Each text is
split into runs by which font has the glyph, so "Jürgen Weiß", "Tomáš Dvořák" and "空叫 −5" come
out whole, also for ``pdftotext``.  Without a Chinese TrueType font the Chinese runs fall back to
reportlab's built-in CID font STSong-Light (drawn by the viewer's Adobe-GB1 font, not embedded, and
read back by ``pdftotext`` only where poppler-data is installed)."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from majiang.tournament.adapters.output.html import fmt
from majiang.tournament.model import HANDS_PER_SESSION, Group
from majiang.tournament.ranking import GroupResult, provisional_note
from majiang.tournament.sheet import MARKS, ScoreSheet

LATIN = "DejaVuSans"
CJK_TTF = (
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
    Path("/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf"),
)


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

    return SimpleDocTemplate(
        buf,
        pagesize=landscape(A4),
        leftMargin=8 * mm,
        rightMargin=8 * mm,
        topMargin=8 * mm,
        bottomMargin=8 * mm,
        title=title,
    )


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
    table = Table([[_para(x, head if i == 0 else cell) for x in row] for i, row in enumerate(rows)], repeatRows=1, **kw)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
            ]
        )
    )
    return table


def _sheet_story(sheet: ScoreSheet) -> list[Any]:
    """The flowables of one score sheet (one A4 landscape page)."""
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import Spacer  # type: ignore[import-untyped]

    header = [
        "方位\nSeat",
        "姓名\nName",
        *[str(n) for n in range(1, HANDS_PER_SESSION + 1)],
        "得分\nWon",
        "失分\nLost",
        "罚分\nPen.",
        "局分\nScore",
        "名次\nPlace",
        "标准分\nStd",
        "签名\nSignature",
    ]
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
        data.append(
            [
                r.start_wind,
                r.name,
                *cells,
                fmt(r.won),
                fmt(r.lost),
                str(r.deductions or ""),
                fmt(r.total),
                fmt(r.place),
                fmt(r.standard),
                r.note,
            ]
        )
    widths = [10 * mm, 28 * mm] + [10 * mm] * HANDS_PER_SESSION + [11 * mm] * 6 + [17 * mm]
    table = _table(data, 7, colWidths=widths, rowHeights=[9 * mm] + [17 * mm] * 4)
    entry = "" if sheet.entry == "hands" else " · 快速录入 totals only"
    small = _style("s", 8, align=0)
    story: list[Any] = [
        _para("比赛成绩记录表 Score sheet", _style("t", 15)),
        _para(
            " · ".join(
                x
                for x in (
                    sheet.event,
                    f"组 Group {sheet.group}",
                    f"第 {sheet.session} 局 Session {sheet.session}",
                    f"第 {sheet.table} 桌 Table {sheet.table}",
                    f"{sheet.hands_played} 盘 hands{entry}",
                )
                if x
            ),
            _style("m", 9),
        ),
        Spacer(1, 3 * mm),
        table,
        Spacer(1, 2 * mm),
        _para(" · ".join(f"{k} {v}" for k, v in MARKS.items()), small),
    ]
    story += [_para(n, small) for n in sheet.notes]
    story.append(Spacer(1, 4 * mm))
    story.append(_para("裁判员签名 Referee: ________________", small))
    return story


def score_sheet_pdf(sheet: ScoreSheet) -> bytes:
    """The sheet on one A4 landscape page."""
    return score_sheets_pdf([sheet])


def score_sheets_pdf(sheets: Sequence[ScoreSheet]) -> bytes:
    """Several sheets (all the tables of a session), one A4 landscape page each."""
    from reportlab.platypus import PageBreak  # type: ignore[import-untyped]

    if not sheets:
        raise ValueError("no score sheets to print")
    story: list[Any] = []
    for i, sheet in enumerate(sheets):
        if i:
            story.append(PageBreak())
        story += _sheet_story(sheet)
    first = sheets[0]
    title = (
        f"比赛成绩记录表 {first.session}-{first.table}"
        if len(sheets) == 1
        else f"比赛成绩记录表 第{first.session}局 Session {first.session}"
    )
    buf = io.BytesIO()
    _doc(buf, title).build(story)
    return buf.getvalue()


@dataclass(frozen=True)
class Seat:
    """One player's seat in a session: table number and first-round wind (0 E … 3 N)."""

    name: str
    table: int
    wind: int


WIND_LABELS = ("东 East", "南 South", "西 West", "北 North")


def session_seats(group: Group, session_no: int) -> tuple[list[tuple[int, list[str]]], list[Seat], list[str]]:
    """A drawn session's tables (number, the four names in first-round seats E S W N), every seated
    player's seat in alphabetical order (:func:`alphabetical`), and the names of the absent (轮空/缺席)."""
    if not 1 <= session_no <= len(group.sessions):
        raise ValueError(f"session {session_no} is not drawn ({len(group.sessions)} drawn)")
    sess = group.sessions[session_no - 1]
    names = {p.id: p.name or p.id for p in group.players}
    tables = [(t.no, [names.get(pid, pid) for pid in t.players]) for t in sess.tables]
    seats = [Seat(n, no, w) for no, four in tables for w, n in enumerate(four)]
    seats.sort(key=lambda x: (alphabetical(x.name), x.table, x.wind))
    return tables, seats, sorted((names.get(p, p) for p in sess.absent), key=alphabetical)


def alphabetical(name: str) -> tuple[str, str]:
    """A sort key that files a letter with its diacritics under the plain letter (É with E, Š with S,
    Ø with O), case-insensitively, and a Chinese name by its pinyin (刘 liu between Li and Lu: 陈 李 刘
    孙 王 吴 张 周, not the code-point order 刘 吴 周 孙), tones breaking ties (mā before má)."""
    from pypinyin import Style, lazy_pinyin  # type: ignore[import-untyped]

    latin = " ".join(lazy_pinyin(name, style=Style.TONE3, errors="default"))
    base = unicodedata.normalize(
        "NFKD", latin.replace("Ø", "O").replace("ø", "o").replace("Ł", "L").replace("ł", "l").replace("ß", "ss")
    )
    return "".join(c for c in base if not unicodedata.combining(c)).casefold(), name


def seating_pdf(
    group: Group,
    session_no: int,
    event: str = "",
    links: dict[int, str] | None = None,
    pins: dict[int, list[str]] | None = None,
) -> bytes:
    """What the organiser prints for a session, on A4 portrait: the table cards (two to a page, cut
    along the dashes: table number and the four names by first-round seat wind, large; with
    ``links``, table → its entry page, a QR code of the link in the corner), the seat slips (name →
    table and wind, 3 × 8 to a page; with ``pins``, table → its four seats' PINs, each slip carries its
    seat's PIN: the table card is public, a slip is its player's) and the alphabetical find-your-seat
    list."""
    from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import PageBreak, SimpleDocTemplate, Spacer  # type: ignore[import-untyped]

    tables, seats, absent = session_seats(group, session_no)
    if not tables:
        raise ValueError(f"session {session_no} has no tables")
    head = " · ".join(x for x in (event, group.name, f"第 {session_no} 局 Session {session_no}") if x)
    story = _table_cards(tables, head, links or {})
    # seat slips, 3 across, cut along the dashed grid
    story.append(PageBreak())
    story.append(_para(f"座位条 Seat slips · {head}", _style("t", 13)))
    story.append(Spacer(1, 3 * mm))
    story.append(_seat_slips(seats, pins or {}))
    # find your seat, alphabetical
    story.append(PageBreak())
    story.append(_para(f"查找座位 Find your seat · {head}", _style("t", 15)))
    story.append(Spacer(1, 3 * mm))
    data = [["姓名\nName", "桌\nTable", "座位\nSeat"]]
    data += [[s.name, str(s.table), WIND_LABELS[s.wind]] for s in seats]
    data += [[n, "—", "轮空 bye"] for n in absent]
    story.append(_table(data, 11, colWidths=[110 * mm, 25 * mm, 40 * mm]))
    buf = io.BytesIO()
    SimpleDocTemplate(
        buf,
        pagesize=A4,
        leftMargin=10 * mm,
        rightMargin=10 * mm,
        topMargin=10 * mm,
        bottomMargin=10 * mm,
        title=f"座位 Seating {head}",
    ).build(story)
    return buf.getvalue()


def _table_cards(tables: Any, head: str, links: dict[int, str]) -> list[Any]:
    """The table cards, two to a page with a dashed cut between them."""
    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, Spacer, Table, TableStyle

    big, num = _style("big", 22, align=0), _style("num", 54)
    meta, wind = _style("meta", 12), _style("wind", 18, align=0)
    story: list[Any] = []
    for i, (no, four) in enumerate(tables):
        if i and i % 2 == 0:
            story.append(PageBreak())
        rows = [[_para(WIND_LABELS[w], wind), _para(n, big)] for w, n in enumerate(four)]
        seats_t = Table(rows, colWidths=[42 * mm, 128 * mm], rowHeights=[18 * mm] * 4)
        seats_t.setStyle(
            TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LINEBELOW", (0, 0), (-1, -2), 0.5, colors.grey)])
        )
        title = [_para(f"第 {no} 桌", num), _para(f"Table {no}", _style("num2", 30))]
        if no in links:
            from majiang.tournament.adapters.output.qr import qr_drawing

            code: list[Any] = [qr_drawing(links[no], 32 * mm)]
            title_t = Table([[title, code]], colWidths=[140 * mm, 40 * mm], rowHeights=[38 * mm])
            title_t.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
            top: list[list[Any]] = [[title_t]]
            heights = [38 * mm]
        else:
            top, heights = [[title[0]], [title[1]]], [24 * mm, 14 * mm]
        card = Table(
            [*top, [_para(head, meta)], [seats_t]], colWidths=[180 * mm], rowHeights=[*heights, 10 * mm, 78 * mm]
        )
        card.setStyle(TableStyle([("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
        story.append(card)
        if i % 2 == 0:
            cut = Table([[""]], colWidths=[190 * mm], rowHeights=[8 * mm])
            cut.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.5, colors.grey, None, (3, 3))]))
            story += [cut, Spacer(1, 6 * mm)]
    return story


def _seat_slips(seats: Any, pins: dict[int, list[str]]) -> Any:
    """Name → table and wind (and the seat's PIN), three across (a cell is a list of paragraphs, one
    under the other)."""
    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import Table, TableStyle

    slip_name, slip_seat = _style("sn", 13), _style("ss", 11)
    cells = [
        [
            _para(s.name, slip_name),
            _para(f"第 {s.table} 桌 Table {s.table}", slip_seat),
            _para(WIND_LABELS[s.wind], slip_seat),
            *([_para(f"PIN {pins[s.table][s.wind]}", slip_seat)] if s.table in pins else []),
        ]
        for s in seats
    ]
    grid: list[list[Any]] = [cells[i : i + 3] + [""] * (3 - len(cells[i : i + 3])) for i in range(0, len(cells), 3)]
    slips = Table(grid, colWidths=[63 * mm] * 3, rowHeights=[33 * mm] * len(grid))
    slips.setStyle(
        TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey, None, (3, 3)), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")])
    )
    return slips


def standings_pdf(
    result: GroupResult,
    title: str = "个人名次",
    movement: Mapping[str, str] | None = None,
    team_movement: Mapping[str, str] | None = None,
    marks: Mapping[str, str] | None = None,
    late: Mapping[str, int] | None = None,
) -> bytes:
    """Individual (and team) standings (with ``movement`` and ``team_movement``: a 升降 column after the
    rank of each table; ``marks``, player → what follows his name: " · 补报 late entry", " · 退赛 withdrawn";
    ``late``, a late entry → his first session: the sessions before it say 补报, not 缺席)."""
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.platypus import Spacer  # type: ignore[import-untyped]

    moved = movement is not None
    data = [
        [
            "名次\nRank",
            *(["升降\nMove"] if moved else []),
            "姓名\nName",
            "队\nTeam",
            *[f"第{sr.no}局\nS{sr.no}" for sr in result.sessions],
            "标准分\nStd total",
            "比赛分\nScore total",
        ]
    ]
    for s in result.standings:
        rank = f"{s.rank} DQ" if s.disqualified else str(s.rank)
        data.append(
            [
                rank,
                *([(movement or {}).get(s.player, "")] if moved else []),
                (result.group.player(s.player).name or s.player) + (marks or {}).get(s.player, ""),
                s.team or "",
                *[
                    fmt(v) if sc is not None else sr.cell(s.player, sc, (late or {}).get(s.player)).split()[0]
                    for v, sc, sr in zip(s.session_standards, s.session_scores, result.sessions, strict=True)
                ],
                fmt(s.standard_total),
                str(s.match_total),
            ]
        )
    heading = _style("t", 15)
    story: list[Any] = [
        _para(f"{title} Standings", heading),
        _para(f"标准分 scheme {result.scheme} · {result.field_size} players", _style("m", 9)),
        *([_para(note, _style("m", 9))] if (note := provisional_note(result)) else []),
        Spacer(1, 3 * mm),
        _table(data),
    ]
    if result.teams:
        name = {p.id: p.name or p.id for p in result.group.players}  # members by name, not id
        team_name = {t.id: t.name or t.id for t in result.group.teams}
        tm = team_movement
        tmove = ["升降\nMove"] if tm is not None else []
        tdata = [["名次\nRank", *tmove, "队\nTeam", "队员\nMembers", "标准分\nStd total", "比赛分\nScore total"]]
        tdata += [
            [
                str(x.rank),
                *([tm.get(x.team, "")] if tm is not None else []),
                team_name.get(x.team, x.team),
                ", ".join(name.get(m, m) for m in x.members),
                fmt(x.standard_total),
                str(x.match_total),
            ]
            for x in result.teams
        ]
        story += [Spacer(1, 6 * mm), _para("团体名次 Team standings", heading), Spacer(1, 3 * mm), _table(tdata)]
    buf = io.BytesIO()
    _doc(buf, title).build(story)
    return buf.getvalue()


def write(data: bytes, path: str | Path) -> Path:
    p = Path(path)
    p.write_bytes(data)
    return p
