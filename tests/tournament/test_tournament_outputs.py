"""The score sheet and its marks (penalties, false wins), HTML/PDF renderers, CSV and EMA exports, plots."""

import csv
import io
import shutil
import subprocess

import pytest

from majiang.tournament import (
    Group,
    HandRecord,
    Penalty,
    PenaltyCode,
    Player,
    SessionRecord,
    TableRecord,
    evaluate,
    score_sheet,
)
from majiang.tournament.adapters.output import exports, html, pdf, plot


@pytest.fixture(scope="module")
def result():
    hands = (
        HandRecord(no=1, winner=0, points=8),  # A self-draws
        HandRecord(no=2),  # exhaustive draw
        HandRecord(
            no=3, winner=3, discarder=2, fans=("花龙",), penalties=(Penalty(1, PenaltyCode.FALSE_WIN),)
        ),  # B false win, D wins off C
        HandRecord(no=4, penalties=(Penalty(0, PenaltyCode.WARNING, note="slow"),)),  # draw, A warned
    )
    table = TableRecord(
        no=1,
        players=("A", "B", "C", "D"),
        hands=hands,
        time_called=True,
        penalties=(Penalty(2, PenaltyCode.MISCONDUCT, 10),),
    )
    players = (Player("A", "Li Wei", ema_id="14990001", country="CHN"), Player("B", "王芳"), Player("C"), Player("D"))
    g = Group(id="G", name="甲组", players=players, sessions=(SessionRecord(no=1, tables=(table,)),))
    return evaluate(g, scheme="4210")


def test_sheet_marks_points_and_totals(result):
    sheet = score_sheet(result, 1, 1, event="Test Open")
    a, b, c, d = sheet.rows
    assert [x.marks for x in a.cells[:4]] == ["▲+", "○", "", "○×"]
    assert [x.marks for x in b.cells[:4]] == ["", "▲○", "√", "○"]
    assert [x.marks for x in c.cells[:4]] == ["", "○", "▲—", "○"]
    assert [x.marks for x in d.cells[:4]] == ["", "○", "", "▲○"]
    assert all(x.points is None for x in a.cells[4:]) and len(a.cells) == 16
    # hand 3: D +32 −C 16 −A 8 −B 8, then B's false win: −30 to B, +10 to each other
    assert [r.cells[2].points for r in sheet.rows] == [2, -38, -6, 42]
    assert d.cells[2].hand_name == "花龙" and d.cells[2].fan == 8
    assert a.cells[0].hand_name == "和" and a.cells[0].fan == 8
    assert [r.total for r in sheet.rows] == [550, 446, 468, 526]
    assert [r.place for r in sheet.rows] == [1, 4, 3, 2]
    assert [r.standard for r in sheet.rows] == [4, 0, 1, 2]
    assert (a.won, a.lost, b.won, b.lost) == (50, 0, 0, 54)
    assert c.deductions == 10 and a.deductions == 0
    assert sheet.time_called and sheet.hands_played == 4
    assert any("错和" in n for n in sheet.notes) and any("警告" in n for n in sheet.notes)
    assert any("违例 −10" in n for n in sheet.notes)


def test_html_and_pdf(result, tmp_path):
    sheet = score_sheet(result, 1, 1, event="Test Open")
    page = html.score_sheet_html(sheet)
    assert page.startswith("<!DOCTYPE html>") and "比赛成绩记录表" in page and "签名" in page
    assert page.count('<td class="cell">') == 64 and "▲" in page and "√" in page and "×" in page
    assert "王芳" in page and "花龙" in page
    data = pdf.score_sheet_pdf(sheet)
    assert data.startswith(b"%PDF") and b"DejaVuSans" in data and b"DroidSansFallback" in data  # both embedded
    assert pdf.write(data, tmp_path / "sheet.pdf").stat().st_size == len(data)
    st = html.standings_html(result, "名次")
    assert "Li Wei" in st and "名次" in st
    assert pdf.standings_pdf(result).startswith(b"%PDF")


def test_csv_exports(result):
    rows = list(csv.DictReader(io.StringIO(exports.standings_csv(result))))
    assert [r["player"] for r in rows] == ["A", "D", "C", "B"]
    assert rows[0]["standard_total"] == "4" and rows[0]["s1_score"] == "550"
    ema = list(csv.DictReader(io.StringIO(exports.ema_csv(result))))
    assert list(ema[0]) == [
        "position",
        "last_name",
        "first_name",
        "ema_number",
        "nationality",
        "table_points",
        "mahjong_points",
    ]
    # a Chinese player's name in Latin letters is family name first (was: last "Wei", first "Li")
    assert (ema[0]["last_name"], ema[0]["first_name"], ema[0]["ema_number"], ema[0]["mahjong_points"]) == (
        "Li",
        "Wei",
        "14990001",
        "50",
    )
    assert (ema[3]["last_name"], ema[3]["first_name"]) == ("王", "芳")  # was 王芳 whole in last_name
    hands = list(csv.DictReader(io.StringIO(exports.hands_csv(result))))
    assert len(hands) == 4 and hands[2]["winner"] == "D" and hands[2]["discarder"] == "C"
    assert hands[2]["penalties"] == "B:false_win" and hands[0]["self_drawn"] == "1"
    assert sum(int(hands[2][f"delta_{i}"]) for i in range(4)) == 0


def test_plot_of_a_big_field_top_n_and_a_highlighted_player(hand_generator):
    """40 players: the top 5 labelled (rank and name), the others faint and unlabelled, the highlighted
    40th labelled too (matplotlib writes each text as a comment beside its outline)."""
    from majiang.tournament import build_demo

    event, _, _ = build_demo(40, 0, 3, 2, "1998", play_session=hand_generator)
    res = evaluate(event.groups[0], scheme="1998")
    order = [s.player for s in res.standings]
    names = {p.id: p.name or p.id for p in res.group.players}
    svg = plot.standings_plot(res, "svg", top=5, highlight=order[-1]).decode()
    labels = [f"<!-- {i + 1}. {names[pid]} -->" for i, pid in enumerate(order)]
    assert all(x in svg for x in labels[:5]) and labels[-1] in svg
    assert not any(x in svg for x in labels[5:-1])
    assert "top 5" in svg
    everyone = plot.standings_plot(res, "svg").decode()
    assert all(x in everyone for x in labels)


def test_plots(result, tmp_path):
    png = plot.standings_plot(result, "png")
    assert png.startswith(b"\x89PNG")
    svg = plot.standings_plot(result, "svg")
    assert b"<svg" in svg
    assert plot.save_standings_plot(result, tmp_path / "s.svg").read_bytes().find(b"<svg") >= 0


def _sheet_group(hands, *, substitutions=(), penalties=(), players=("A", "B", "C", "D", "S")):
    from majiang.tournament import Substitution

    table = TableRecord(
        no=1,
        players=("A", "B", "C", "D"),
        hands=tuple(hands),
        penalties=tuple(penalties),
        substitutions=tuple(Substitution(*s) for s in substitutions),
    )
    empty = TableRecord(no=2, players=("E", "F", "G", "H"))
    ids = (*players, "E", "F", "G", "H")
    ps = tuple(Player(p, ranked=p != "S") for p in ids)
    return evaluate(Group(id="G", players=ps, sessions=(SessionRecord(no=1, tables=(table, empty)),)), scheme="4210")


def test_sheet_rows_reconcile_each_penalty_once():
    """局分 = 500 + 得分 − 失分 − 罚分 on every row: a penalty given within a hand counts in 罚分 only,
    a table penalty too; false wins are payments between players and count in 得分/失分."""
    hands = [
        HandRecord(no=1, winner=0, discarder=1, points=8, penalties=(Penalty(1, PenaltyCode.MISCONDUCT, 10),)),
        HandRecord(no=2, penalties=(Penalty(2, PenaltyCode.FALSE_WIN),)),
        HandRecord(no=3, winner=3, points=9),
    ]
    res = _sheet_group(hands, penalties=(Penalty(1, PenaltyCode.MISCONDUCT, 5),))
    sheet = score_sheet(res, 1, 1)
    for r in sheet.rows:
        assert r.total == 500 + r.won - r.lost - r.deductions, r
    b = sheet.rows[1]
    assert b.deductions == 15 and b.cells[0].points == -16 and b.lost == 16 + 17


def test_sheet_of_a_player_who_left_mid_session():
    """第十二条: her row shows her own hands only; the substitute's false win is not hers."""
    hands = [
        HandRecord(no=1, winner=0, discarder=1, points=8),
        HandRecord(no=2),
        HandRecord(no=3, penalties=(Penalty(1, PenaltyCode.FALSE_WIN),)),
        HandRecord(no=4, winner=2, points=8),
    ]
    res = _sheet_group(hands, substitutions=[(1, "S", 3)])
    b = score_sheet(res, 1, 1).rows[1]
    assert [c.points for c in b.cells[:4]] == [-16, 0, None, None]
    assert "√" not in "".join(c.marks for c in b.cells)
    assert (b.won, b.lost, b.total) == (0, 16, 484) and b.total == 500 + b.won - b.lost - b.deductions
    # was: the note said "第3盘 B: 错和", the substitute's false win under the player he replaced
    notes = score_sheet(res, 1, 1).notes
    assert "第3盘 S: 错和" in notes and not any(n.startswith("第3盘 B") for n in notes), notes
    rows = list(csv.DictReader(io.StringIO(exports.hands_csv(res))))
    assert rows[2]["penalties"] == "S:false_win" and rows[3]["discarder"] == ""
    assert rows[0]["discarder"] == "B" and rows[3]["winner"] == "C"


def test_blank_sheet_is_blank():
    res = _sheet_group([HandRecord(no=1)])
    sheet = score_sheet(res, 1, 2)
    assert all(r.total is None and r.place is None and r.standard is None and r.won is None for r in sheet.rows)
    page = html.score_sheet_html(sheet)
    assert ">500<" not in page and "<b></b>" in page
    assert pdf.score_sheet_pdf(sheet).startswith(b"%PDF")


PDFTOTEXT = shutil.which("pdftotext")


@pytest.mark.skipif(PDFTOTEXT is None, reason="needs pdftotext (Debian's poppler-utils; make test installs it)")
def test_pdf_text_keeps_every_name_whole(tmp_path):
    """Latin with diacritics, CJK and the minus sign come back from pdftotext as they were registered;
    headers are bilingual."""
    names = ["Jürgen Weiß", "Élodie Lefèvre", "Tomáš Dvořák", "王芳"]
    players = tuple(Player(f"P{i}", n) for i, n in enumerate(names))
    hands = (HandRecord(no=1, winner=0, discarder=1, points=8),)
    table = TableRecord(
        no=1, players=tuple(p.id for p in players), hands=hands, penalties=(Penalty(1, PenaltyCode.EMPTY_CALL, 5),)
    )
    res = evaluate(Group(id="G", players=players, sessions=(SessionRecord(no=1, tables=(table,)),)), scheme="4210")

    def text(data: bytes) -> str:
        path = tmp_path / "x.pdf"
        path.write_bytes(data)
        return subprocess.run([PDFTOTEXT, "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout

    sheet = text(pdf.score_sheet_pdf(score_sheet(res, 1, 1)))
    standings = text(pdf.standings_pdf(res))
    for page in (sheet, standings):
        for n in names:
            assert n in page, (n, page)
    assert "空叫 −5" in sheet and "Score sheet" in sheet and "Referee" in sheet and "−16" not in sheet
    assert "Standings" in standings and "Rank" in standings


def _pdf_text(data: bytes, tmp_path, name: str = "x.pdf") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return subprocess.run([PDFTOTEXT, "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


NAMES = [
    "Jürgen Weiß",
    "Élodie Lefèvre",
    "Tomáš Dvořák",
    "王芳",
    "Ана Петровић",
    "Zoë Ødegård",
    "李小龙",
    "Ślązak Łukasz",
]


def _two_tables():
    players = tuple(Player(f"P{i}", n) for i, n in enumerate(NAMES)) + (Player("P8", "Absent Andy"),)
    tables = (
        TableRecord(no=1, players=("P0", "P1", "P2", "P3"), hands=(HandRecord(no=1, winner=0, points=8),)),
        TableRecord(no=2, players=("P4", "P5", "P6", "P7")),
    )
    return Group(id="G", name="甲组", players=players, sessions=(SessionRecord(no=1, tables=tables, absent=("P8",)),))


def test_session_seats_alphabetical_with_winds_and_byes():
    tables, seats, absent = pdf.session_seats(_two_tables(), 1)
    assert tables[1] == (2, ["Ана Петровић", "Zoë Ødegård", "李小龙", "Ślązak Łukasz"])
    assert [s.name for s in seats] == [  # Chinese names by pinyin among the Latin ones, Cyrillic after
        "Élodie Lefèvre",
        "Jürgen Weiß",
        "李小龙",
        "Ślązak Łukasz",
        "Tomáš Dvořák",
        "王芳",
        "Zoë Ødegård",
        "Ана Петровић",
    ]
    assert next(s for s in seats if s.name == "李小龙") == pdf.Seat("李小龙", 2, 2)
    assert absent == ["Absent Andy"]
    with pytest.raises(ValueError, match="not drawn"):
        pdf.session_seats(_two_tables(), 2)


@pytest.mark.skipif(PDFTOTEXT is None, reason="needs pdftotext (Debian's poppler-utils; make test installs it)")
def test_seating_pdf_cards_slips_and_list(tmp_path):
    """Table cards two to a page, then the slips, then the list: every name whole on each, winds bilingual."""
    data = pdf.seating_pdf(_two_tables(), 1, event="Spring Cup")
    text = _pdf_text(data, tmp_path)
    pages = text.split("\f")
    assert len([p for p in pages if p.strip()]) == 3, text
    cards, slips, listing = pages[:3]
    for page in (cards, slips, listing):
        for n in NAMES:
            assert n in page, (n, page)
    assert "第1桌" in cards.replace(" ", "") and "Table 2" in cards and "东 East" in cards and "北 North" in cards
    assert "Seat slips" in slips and "座位条" in slips and "Absent Andy" not in slips
    assert "Find your seat" in listing and "Absent Andy" in listing and "bye" in listing
    rows = [ln for ln in listing.splitlines() if any(n in ln for n in NAMES)]
    assert [next(n for n in NAMES if n in r) for r in rows] == sorted(NAMES, key=pdf.alphabetical)


@pytest.mark.skipif(PDFTOTEXT is None, reason="needs pdftotext (Debian's poppler-utils; make test installs it)")
def test_all_score_sheets_of_a_session_in_one_pdf(tmp_path):
    res = evaluate(_two_tables(), scheme="4210")
    sheets = [score_sheet(res, 1, t, event="Spring Cup") for t in (1, 2)]
    text = _pdf_text(pdf.score_sheets_pdf(sheets), tmp_path)
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) == 2
    assert "Table 1" in pages[0] and "Table 2" in pages[1] and "比赛成绩记录表" in pages[1]
    for n in NAMES[:4]:
        assert n in pages[0]
    for n in NAMES[4:]:
        assert n in pages[1]
    assert "+24" not in pages[1] and "500" not in pages[1]  # the unplayed table's sheet is blank
    with pytest.raises(ValueError):
        pdf.score_sheets_pdf([])


def test_chinese_names_are_filed_by_pinyin():
    """Was: the find-your-seat list sorted Chinese names by code point (刘 吴 周 孙 …)."""
    names = ["刘洋", "吴磊", "周杰", "孙丽", "陈静", "李娜", "Émile Roux", "Lukas Berg"]
    assert sorted(names, key=pdf.alphabetical) == [
        "陈静",
        "Émile Roux",
        "李娜",
        "刘洋",
        "Lukas Berg",
        "孙丽",
        "吴磊",
        "周杰",
    ]
