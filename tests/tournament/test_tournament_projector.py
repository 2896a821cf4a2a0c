"""The projector's pages (projector.js under node, a stub DOM) and the team rows of the PDF standings."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import majiang.tournament.adapters as adapters
from majiang.cli.tournament import main

ADAPTERS = Path(adapters.__file__).resolve().parent
NODE = shutil.which("node")


@pytest.fixture
def run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path}/cli.db"

    def run(*argv: str) -> str:
        code = main([*argv, "--db", url])
        out, err = capsys.readouterr()
        assert code == 0, err
        return out

    return run


def _event(run, tmp_path, teams: bool) -> None:
    lines = ["name,team"] + [f"Player {i:02d},{'Team ' + 'ABCD'[i % 4] if teams else ''}" for i in range(16)]
    (tmp_path / "p.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run("new", "Cup", "--players", str(tmp_path / "p.csv"), "--sessions", "2", "--seed", "3")
    run("draw", "cup")
    for t in range(1, 5):
        run("enter", "cup", "--session", "1", "--table", str(t), "--totals", "30,10,-10,-30")


def _pages(run, tmp_path) -> list[dict]:
    (tmp_path / "s.json").write_text(run("standings", "cup", "--json"), encoding="utf-8")
    harness = Path(__file__).with_name("projector_harness.js")
    out = subprocess.run(
        [NODE, str(harness), str(ADAPTERS / "projector.js"), str(tmp_path / "s.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    return json.loads(out)


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_an_individual_event_has_no_team_column_on_the_projector(run, tmp_path):
    """Was: the individual (non-team) projector kept an empty 队 Team column."""
    _event(run, tmp_path, teams=False)
    first = _pages(run, tmp_path)[0]
    assert first["head"] == ["名次 Rank", "升降", "选手 Player", "标准分 Std", "比赛分 Score"]
    assert len(first["rows"]) == 16 and all(len(r) == 5 for r in first["rows"])


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_team_rows_on_the_projector_name_the_members(run, tmp_path):
    """Was: the team standings on the projector listed the members by id (P01, P05 …)."""
    _event(run, tmp_path, teams=True)
    pages = _pages(run, tmp_path)
    assert "队 Team" in pages[0]["head"]
    teams = next(p for p in pages if p["head"][3] == "队员 Members")
    members = teams["rows"][0][3]
    assert "Player" in members and "P0" not in members and "P1" not in members, members


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_team_rows_in_the_pdf_name_the_members(run, tmp_path):
    """Was: the PDF's team standings listed members by id."""
    _event(run, tmp_path, teams=True)
    run("export", "cup", "-o", str(tmp_path / "standings.pdf"))
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "standings.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    team_part = text[text.index("Team standings") :]
    assert "Player 00" in team_part and "P01" not in team_part, team_part


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_the_projector_says_provisional_while_a_table_is_not_entered(run, tmp_path):
    """Was: the projector showed an incomplete session's standings as if final."""
    run("new", "Cup", "--count", "8", "--sessions", "2", "--seed", "3")
    run("draw", "cup")
    run("enter", "cup", "--session", "1", "--table", "1", "--totals", "30,10,-10,-30")
    assert "暂定 provisional" in _pages(run, tmp_path)[0]["what"]
    run("enter", "cup", "--session", "1", "--table", "2", "--totals", "30,10,-10,-30")
    assert "暂定" not in _pages(run, tmp_path)[0]["what"]
