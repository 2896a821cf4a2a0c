"""The score sheet and its marks (penalties, false wins), HTML/PDF renderers, CSV and EMA exports, plots."""

import csv
import io

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
        HandRecord(no=1, winner=0, points=8),                                         # A self-draws
        HandRecord(no=2),                                                             # exhaustive draw
        HandRecord(no=3, winner=3, discarder=2, fans=("花龙",),
                   penalties=(Penalty(1, PenaltyCode.FALSE_WIN),)),                   # B false win, D wins off C
        HandRecord(no=4, penalties=(Penalty(0, PenaltyCode.WARNING, note="slow"),)),  # draw, A warned
    )
    table = TableRecord(no=1, players=("A", "B", "C", "D"), hands=hands, time_called=True,
                        penalties=(Penalty(2, PenaltyCode.MISCONDUCT, 10),))
    players = (Player("A", "Li Wei", ema_id="14990001", country="CHN"), Player("B", "王芳"), Player("C"),
               Player("D"))
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
    assert data.startswith(b"%PDF") and b"STSong-Light" in data
    assert pdf.write(data, tmp_path / "sheet.pdf").stat().st_size == len(data)
    st = html.standings_html(result, "名次")
    assert "Li Wei" in st and "名次" in st
    assert pdf.standings_pdf(result).startswith(b"%PDF")


def test_csv_exports(result):
    rows = list(csv.DictReader(io.StringIO(exports.standings_csv(result))))
    assert [r["player"] for r in rows] == ["A", "D", "C", "B"]
    assert rows[0]["standard_total"] == "4" and rows[0]["s1_score"] == "550"
    ema = list(csv.DictReader(io.StringIO(exports.ema_csv(result))))
    assert list(ema[0]) == ["position", "last_name", "first_name", "ema_number", "nationality", "table_points",
                            "mahjong_points"]
    assert (ema[0]["last_name"], ema[0]["first_name"], ema[0]["ema_number"], ema[0]["mahjong_points"]) == \
        ("Wei", "Li", "14990001", "50")
    assert ema[3]["last_name"] == "王芳"
    hands = list(csv.DictReader(io.StringIO(exports.hands_csv(result))))
    assert len(hands) == 4 and hands[2]["winner"] == "D" and hands[2]["discarder"] == "C"
    assert hands[2]["penalties"] == "B:false_win" and hands[0]["self_drawn"] == "1"
    assert sum(int(hands[2][f"delta_{i}"]) for i in range(4)) == 0


def test_plots(result, tmp_path):
    png = plot.standings_plot(result, "png")
    assert png.startswith(b"\x89PNG")
    svg = plot.standings_plot(result, "svg")
    assert b"<svg" in svg
    assert plot.save_standings_plot(result, tmp_path / "s.svg").read_bytes().find(b"<svg") >= 0
