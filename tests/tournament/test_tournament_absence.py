"""Absentees entered by the organiser (``absent``, ``draw --method redraw``) and the 1998 rules they follow."""

import json

import pytest

from majiang.cli.tournament import main
from majiang.store import Database
from majiang.tournament.adapters.repository import TournamentRepository


@pytest.fixture
def run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path}/cli.db"

    def run(*argv: str, ok: bool = True) -> tuple[int, str, str]:
        code = main([*argv, "--db", url])
        out, err = capsys.readouterr()
        if ok:
            assert code == 0, err
        return code, out, err

    run.url = url  # type: ignore[attr-defined]
    return run


def stored(run):
    db = Database(run.url)
    try:
        return TournamentRepository(db).load("cup")
    finally:
        db.dispose()


def new_cup(run, sessions: int = 3) -> list[list[str]]:
    run("new", "Cup", "--count", "16", "--teams", "4", "--sessions", str(sessions), "--seed", "5")
    _, out, _ = run("draw", "cup", "--json")
    return json.loads(out)["tables"]


def test_a_substitute_takes_the_seat_and_the_absentee_gets_a_bye(run):
    tables = new_cup(run)
    away = tables[0][3]  # North at table 1
    _, out, err = run("absent", "cup", "--session", "1", "--player", away, "--substitute", "Zhao Lei")
    assert f"S1 Zhao Lei (unranked substitute 替补) plays for {away}" in err
    assert f"{away}: table 1 N → 缺席 absent" in err and "S1" in out
    session = stored(run).groups[0].sessions[0]
    assert session.tables[0].players == (*tables[0][:3], "S1") and session.absent == (away,)
    assert stored(run).groups[0].player("S1").ranked is False
    # the substitute wins his table by far; his points count for the table, not for any ranking
    run("enter", "cup", "--session", "1", "--table", "1", "--totals=-30,-30,-40,100")
    for t in (2, 3, 4):
        run("enter", "cup", "--session", "1", "--table", str(t), "--totals", f"{12 - t},{t - 12},{t},{-t}")
    _, out, _ = run("standings", "cup", "--json")
    rows = json.loads(out)["groups"][0]["standings"]
    by = {r["player"]: r for r in rows}
    assert len(rows) == 16 and "S1" not in by
    # 1998: N = 16 ranked players; the 15 present take 16, 14, 13 … 1, the absentee 0 (last)
    assert by[away]["session_scores"] == [None] and by[away]["standard_total"] == 0 and rows[-1]["player"] == away
    present = sorted(r["standard_total"] for r in rows if r["player"] != away)
    assert sum(present) == 16 + sum(range(1, 15)) and present[-1] == 16 and present[0] == 1
    assert by[tables[0][0]]["session_scores"] == [470]
    _, out, _ = run("standings", "cup")
    assert "缺席 absent" in out


def test_a_player_who_leaves_during_play(run):
    tables = new_cup(run)
    for n in (1, 2):
        run("enter", "cup", "--session", "1", "--table", "2", "--hand", str(n), "--winner", "S", "--points", "8")
    code, _, err = run("absent", "cup", "--session", "1", "--player", tables[1][1], "--substitute", "R", ok=False)
    assert code == 2 and "--from-hand" in err  # results entered: only a mid-session substitution
    run("absent", "cup", "--session", "1", "--player", tables[1][1], "--substitute", "R", "--from-hand", "3")
    run("enter", "cup", "--session", "1", "--table", "2", "--hand", "3", "--winner", "S", "--points", "8")
    table = stored(run).groups[0].sessions[0].tables[1]
    assert len(table.hands) == 3 and table.substitutions[0].to_dict() == {"seat": 1, "substitute": "S1", "from_hand": 3}
    run("enter", "cup", "--session", "1", "--table", "2", "--time-called")
    _, out, _ = run("standings", "cup", "--json")
    by = {r["player"]: r for r in json.loads(out)["groups"][0]["standings"]}
    assert by[tables[1][1]]["session_scores"] == [500 + 2 * 48]  # he keeps what he had when he left


def test_redraw_after_absences(run):
    new_cup(run)
    for t in (1, 2, 3, 4):
        run("enter", "cup", "--session", "1", "--table", str(t), "--totals", "30,10,-10,-30")
    run("draw", "cup")  # session 2 from the schedule
    before = stored(run).groups[0].sessions[1]
    code, _, err = run("absent", "cup", "--session", "2", "--player", "P01", "--bye", ok=False)
    assert code == 2 and "15 players present do not fill tables of four" in err and "--substitute" in err
    _, out, err = run(
        "draw", "cup", "--session", "2", "--method", "redraw", "--absent", "P01,P06", "--absent", "P11,P16", "--json"
    )
    data = json.loads(out)
    assert data["absent"] == ["P01", "P06", "P11", "P16"] and len(data["tables"]) == 3
    assert "re-drawn (重新编排) for 12 players" in err and "P01: table" in err and "缺席 absent" in err
    after = stored(run).groups[0].sessions[1]
    assert after.absent == ("P01", "P06", "P11", "P16") and after != before
    seated = sorted(p for t in after.tables for p in t.players)
    assert seated == sorted(f"P{i:02d}" for i in range(1, 17) if i not in (1, 6, 11, 16))
    team = {p.id: p.team for p in stored(run).groups[0].players}
    assert all(len({team[p] for p in t.players}) == 4 for t in after.tables)  # team-mates apart
    for t in (1, 2, 3):
        run("enter", "cup", "--session", "2", "--table", str(t), "--totals", "0,0,0,0")
    _, out, _ = run("standings", "cup", "--json")
    by = {r["player"]: r for r in json.loads(out)["groups"][0]["standings"]}
    assert by["P01"]["session_scores"][1] is None and by["P01"]["session_standards"][1] == 0
    # a session with results is never re-drawn
    code, _, err = run("draw", "cup", "--session", "2", "--method", "redraw", ok=False)
    assert code == 2 and "has results entered" in err


def test_byes_by_the_absent_command(run):
    new_cup(run)
    _, out, err = run(
        "absent", "cup", "--session", "1", *(x for p in ("P02", "P07", "P12", "P13") for x in ("--player", p)), "--bye"
    )
    assert "byes 缺席: P02, P07, P12, P13" in err and "第1局" in out
    assert stored(run).groups[0].sessions[0].absent == ("P02", "P07", "P12", "P13")
    code, _, err = run("draw", "cup", "--absent", "P03", ok=False)
    assert code == 2 and "--method redraw" in err


def test_an_incomplete_session_is_provisional_not_final(run):
    """Was: a session with a table not entered and one at 3/16 hands was ranked as if final, and nothing
    in the standings said so.  Now JSON ``final`` false with each unfinished table, 暂定 in the text."""
    new_cup(run, sessions=2)
    run("enter", "cup", "--session", "1", "--table", "1", "--totals", "30,-10,-10,-10")
    run("enter", "cup", "--session", "1", "--table", "2", "--totals", "30,-10,-10,-10")
    for n in (1, 2, 3):
        run("enter", "cup", "--session", "1", "--table", "3", "--hand", str(n), "--winner", "E", "--points", "8")
    _, out, _ = run("standings", "cup", "--json")
    g = json.loads(out)["groups"][0]
    assert g["final"] is False
    assert g["provisional"] == [
        {"session": 1, "table": 3, "hands": 3},
        {"session": 1, "table": 4, "hands": None},
    ]
    _, out, _ = run("standings", "cup")
    assert "PROVISIONAL" in out and "table 3 3/16 hands" in out and "table 4 not entered" in out
    _, _, err = run("export", "cup", "--format", "ema", "-o", "-")
    assert "warning: 暂定 provisional" in err
    run("enter", "cup", "--session", "1", "--table", "3", "--time-called")
    run("enter", "cup", "--session", "1", "--table", "4", "--totals", "30,-10,-10,-10")
    _, out, _ = run("standings", "cup", "--json")
    g = json.loads(out)["groups"][0]
    assert g["final"] is True and g["provisional"] == []
    _, out, _ = run("standings", "cup")
    assert "PROVISIONAL" not in out


def test_a_reserve_not_needed_is_not_shown_absent(run, tmp_path):
    """Was: the CLI standings showed a team's reserve as 缺席 absent in a session he was not needed for."""
    rows = ["name,team,reserve"] + [f"T{t}P{i},T{t}," for t in range(4) for i in range(4)] + ["Res,T0,yes"]
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    run("new", "Cup", "--players", str(tmp_path / "p.csv"), "--sessions", "2", "--seed", "5")
    ev = stored(run)
    reserve = ev.groups[0].teams[0].reserve
    _, out, _ = run("draw", "cup", "--json")
    tables = json.loads(out)["tables"]
    away = next(p for t in tables for p in t if p in ev.groups[0].teams[0].players)
    run("absent", "cup", "--session", "1", "--player", away, "--substitute", reserve)
    for t in range(1, 5):
        run("enter", "cup", "--session", "1", "--table", str(t), "--totals", "30,-10,-10,-10")
    _, out, _ = run("draw", "cup", "--json")
    for t in range(1, 5):
        run("enter", "cup", "--session", "2", "--table", str(t), "--totals", "30,-10,-10,-10")
    _, out, _ = run("standings", "cup", "--json")
    by = {r["player"]: r for r in json.loads(out)["groups"][0]["standings"]}
    assert by[reserve]["session_scores"][1] is None
    assert by[reserve]["session_notes"][1].startswith("替补 reserve") and by[away]["session_notes"][0] == "缺席 absent"
    _, out, _ = run("standings", "cup")
    line = next(ln for ln in out.splitlines() if "Res" in ln)
    assert "缺席" not in line and "替补" in line, line
