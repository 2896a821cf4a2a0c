"""``majiang tournament`` end to end on a temp SQLite file: new → draw → enter → standings → export."""

import csv
import io
import json
import shutil
import subprocess

import pytest

from majiang.cli.tournament import main


@pytest.fixture
def run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path}/cli.db"

    def run(*argv: str, ok: bool = True) -> tuple[int, str, str]:
        code = main([*argv, "--db", url] if argv and argv[0] != "--help" else list(argv))
        out, err = capsys.readouterr()
        if ok:
            assert code == 0, err
        return code, out, err

    return run


def test_a_team_event_from_new_to_exports(run, tmp_path):
    _, out, err = run("new", "Spring Cup", "--count", "16", "--teams", "4", "--sessions", "4", "--seed", "7")
    assert out.strip() == "spring-cup" and "affine-plane-4 with 0 repeat" in err
    _, out, _ = run("draw", "spring-cup", "--json")
    drawn = json.loads(out)
    assert drawn["session"] == 1 and len(drawn["tables"]) == 4
    t1 = drawn["tables"][0]
    assert sorted(p for t in drawn["tables"] for p in t) == [f"P{i:02d}" for i in range(1, 17)]
    _, out, _ = run(
        "enter",
        "spring-cup",
        "--session",
        "1",
        "--table",
        "1",
        "--hand",
        "1",
        "--winner",
        "E",
        "--discarder",
        "W",
        "--fans",
        "清一色,平和",
        "--flowers",
        "1",
    )
    assert "1/16 hands" in out and f"E {t1[0]} 551" in out
    _, out, err = run(
        "enter", "spring-cup", "--session", "1", "--table", "1", "--hand", "2", "--winner", t1[1], "--points", "6"
    )  # below 8: a false win by South
    assert "false win" in err and f"S {t1[1]} 462" in out
    run(
        "enter",
        "spring-cup",
        "--session",
        "1",
        "--table",
        "1",
        "--hand",
        "3",
        "--winner",
        "none",
        "--penalty",
        "N:warning",
    )
    _, out, _ = run(
        "enter",
        "spring-cup",
        "--session",
        "1",
        "--table",
        "1",
        "--hand",
        "4",
        "--winner",
        "2",
        "--fans",
        "Pure Straight,门前清*2",
    )  # English or Chinese names; 'name*2' counts a fan twice
    assert "4/16 hands" in out
    run("enter", "spring-cup", "--session", "1", "--table", "1", "--penalty", "S:迟到:10", "--time-called")
    run("enter", "spring-cup", "--session", "1", "--table", "2", "--totals", "40,-8,-16,-16")
    run("enter", "spring-cup", "--session", "1", "--table", "3", "--totals", "520,490,500,490")
    run("enter", "spring-cup", "--session", "1", "--table", "4", "--totals", "0,0,0,0")
    _, out, _ = run("standings", "spring-cup", "--json")
    data = json.loads(out)
    g = data["groups"][0]
    assert data["event"] == "spring-cup" and g["sessions_scored"] == 1
    assert sum(r["standard_total"] for r in g["standings"]) == 16 + sum(range(15))
    assert len(g["teams"]) == 4 and g["teams"][0]["rank"] == 1
    _, out, _ = run("standings", "spring-cup")
    assert "名次" in out and "Rank" in out and "标准分" in out and "团体名次" in out
    _, out, _ = run("seating", "spring-cup")
    assert "4/16" in out and "totals" in out
    _, out, _ = run("list", "--json")
    assert json.loads(out)[0]["id"] == "spring-cup"
    sizes = {}
    for fmt in ("csv", "hands", "ema", "html", "pdf", "png", "svg"):
        path = tmp_path / f"out.{fmt}"
        run("export", "spring-cup", "--format", fmt, "-o", str(path))
        sizes[fmt] = path.stat().st_size
        assert sizes[fmt] > 100
    assert (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "out.png").read_bytes().startswith(b"\x89PNG")
    assert "<svg" in (tmp_path / "out.svg").read_text()
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out.csv").read_text())))
    assert len(rows) == 16 and rows[0]["rank"] == "1"
    assert (tmp_path / "out.ema").read_text().startswith("position,last_name,first_name")
    run("export", "spring-cup", "--session", "1", "--table", "1", "-o", "sheet.html")
    sheet = (tmp_path / "sheet.html").read_text()
    assert "比赛成绩记录表" in sheet and "清一色" in sheet
    run("export", "spring-cup", "--session", "1", "--table", "1", "-o", "sheet.pdf")
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    _, out, _ = run("export", "spring-cup", "--format", "ema", "-o", "-")
    assert out.startswith("position,")
    # the next session by the standings
    _, out, _ = run("draw", "spring-cup", "--method", "swiss")
    assert "session 2" in out


def test_errors_say_how_to_fix_them(run, tmp_path):
    code, _, err = run("standings", "nope", ok=False)
    assert code == 2 and "no event 'nope'" in err and "majiang tournament new" in err
    code, _, err = run("new", "X", "--players", "missing.txt", ok=False)
    assert code == 2 and "no player file" in err
    (tmp_path / "players.txt").write_text("Anna\nBo\nCai\n")
    code, _, err = run("new", "X", "--players", "players.txt", ok=False)
    assert code == 2 and "do not fill tables of four" in err
    run("new", "Cup", "--count", "16", "--sessions", "2", "--seed", "1")
    code, _, err = run(
        "enter", "cup", "--session", "1", "--table", "1", "--hand", "1", "--winner", "E", "--points", "8", ok=False
    )
    assert "draw cup --session 1" in err
    run("draw", "cup")
    for argv, msg in [
        (("--hand", "1", "--winner", "Q", "--points", "8"), "seat 'Q'"),
        (("--hand", "1", "--winner", "E", "--fans", "nonsense"), "unknown fan"),
        (("--hand", "1", "--winner", "E"), "--fans"),
        (("--hand", "2", "--winner", "E", "--points", "8"), "enter hand 1 before hand 2"),
        (("--hand", "1", "--winner", "E", "--discarder", "E", "--points", "8"), "discarder cannot be the winner"),
        (("--hand", "1", "--winner", "E", "--points", "8", "--penalty", "S:misconduct:7"), "may deduct"),
        (("--hand", "1", "--winner", "E", "--points", "8", "--penalty", "S:bogus"), "unknown code"),
        (("--totals", "1,2,3"), "four numbers"),
        (("--totals", "10,0,0,0"), "add up to 10"),
        ((), "nothing to enter"),
    ]:
        code, _, err = run("enter", "cup", "--session", "1", "--table", "1", *argv, ok=False)
        assert code == 2 and msg in err, (argv, err)
    run("enter", "cup", "--session", "1", "--table", "1", "--hand", "1", "--winner", "E", "--points", "8")
    code, _, err = run(
        "enter", "cup", "--session", "1", "--table", "1", "--hand", "1", "--winner", "S", "--points", "8", ok=False
    )
    assert "--replace" in err
    run("enter", "cup", "--session", "1", "--table", "1", "--hand", "1", "--winner", "S", "--points", "8", "--replace")
    code, _, err = run("draw", "cup", "--session", "1", ok=False)
    assert "already has results" in err
    code, _, err = run("draw", "cup", "--session", "3", "--method", "perfect", ok=False)
    assert "draw session 2 next" in err
    code, _, err = run("export", "cup", "-o", "x.txt", ok=False)
    assert "--format" in err
    code, _, err = run("export", "cup", "--format", "png", "-o", "-", ok=False)
    assert "binary" in err
    code, _, err = run("export", "cup", "--format", "csv", "--session", "1", "--table", "1", "-o", "s.csv", ok=False)
    assert "html or pdf" in err


def test_player_files(run, tmp_path):
    colours = ["Red", "Blue", "Green", "Gold"]
    (tmp_path / "p.csv").write_text(
        "name,team,reserve,country\n"
        + "".join(f"Player {i},{colours[(i - 1) // 4]},,CN\n" for i in range(1, 17))
        + "Spare,Red,yes,CN\n"
    )
    _, out, _ = run("new", "Four teams", "--players", "p.csv", "--sessions", "2", "--seed", "3")
    _, out, _ = run("draw", out.strip(), "--json")
    tables = json.loads(out)["tables"]
    assert len(tables) == 4 and "P17" not in [p for t in tables for p in t]  # the reserve is not drawn
    (tmp_path / "p.json").write_text(json.dumps([{"name": f"N{i}", "id": f"x{i}"} for i in range(4)]))
    _, out, _ = run("new", "Json", "--players", "p.json", "--sessions", "1", "--scheme", "4210", "--seed", "1")
    _, out, _ = run("draw", "json", "--json")
    assert sorted(json.loads(out)["tables"][0]) == ["x0", "x1", "x2", "x3"]


def test_help_texts(capsys):
    for cmd in ("new", "draw", "enter", "standings", "export", "demo"):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        out = capsys.readouterr().out
        assert "examples:" in out and "majiang tournament" in out


def test_wired_into_the_majiang_command(monkeypatch, tmp_path, capsys):
    """What the lead adds: "tournament" in majiang.cli.COMMANDS."""
    import majiang.cli as cli

    if "tournament" not in cli.COMMANDS:
        monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "tournament"))
    url = f"sqlite:///{tmp_path}/w.db"
    assert cli.main(["tournament", "new", "Wired", "--count", "4", "--sessions", "1", "--seed", "1", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == "wired"
    assert cli.main(["tournament", "list", "--json", "--db", url]) == 0
    assert '"wired"' in capsys.readouterr().out
    assert cli.main(["tournament"]) == 2  # bare: prints the help
    assert "majiang tournament new" in capsys.readouterr().out


def test_negative_totals_and_an_export_named_by_its_suffix(run, tmp_path):
    """``--totals -20,40,-10,-10`` is a value, not an option; ``-o hands.csv`` writes the hands."""
    run("new", "Cup", "--count", "4", "--sessions", "1", "--seed", "1")
    run("draw", "cup")
    _, out, _ = run("enter", "cup", "--session", "1", "--table", "1", "--totals", "-20,40,-10,-10")
    assert "quick totals" in out
    run("enter", "cup", "--session", "1", "--table", "1", "--penalty", "E:违例:10")
    run("export", "cup", "-o", "hands.csv")
    head = (tmp_path / "hands.csv").read_text(encoding="utf-8").splitlines()[0]
    assert head.startswith("session,table,hand"), head
    run("export", "cup", "-o", "standings.csv")
    assert (tmp_path / "standings.csv").read_text(encoding="utf-8").startswith("rank,player")


def test_printing_a_session_seating_and_all_its_sheets(run, tmp_path):
    """export --format seating (table cards, slips, list) and --all-tables (every sheet, one page each)."""
    names = ["Jürgen Weiß", "Tomáš Dvořák", "王芳", "Élodie Lefèvre"] + [f"Player {i:02d}" for i in range(4, 16)]
    (tmp_path / "players.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    run("new", "Cup", "--players", "players.txt", "--sessions", "2", "--seed", "3")
    code, _, err = run("export", "cup", "--format", "seating", "-o", "seating.pdf", ok=False)
    assert code == 2 and "draw cup" in err
    run("draw", "cup")
    run("enter", "cup", "--session", "1", "--table", "2", "--hand", "1", "--winner", "E", "--points", "8")
    run("export", "cup", "--session", "1", "-o", "seating-1.pdf")  # the name asks for the seating PDF
    run("export", "cup", "--session", "1", "--all-tables", "-o", "sheets-1.pdf")
    run("export", "cup", "--session", "1", "--format", "seating", "--url", "http://10.0.0.2:8000", "-o", "qr.pdf")
    for f in ("seating-1.pdf", "sheets-1.pdf", "qr.pdf"):
        assert (tmp_path / f).read_bytes().startswith(b"%PDF")
    # the QR codes: many more drawing operations on the table cards' page
    assert (tmp_path / "qr.pdf").stat().st_size > (tmp_path / "seating-1.pdf").stat().st_size + 2000
    if PDFTOTEXT:
        seating = _text(tmp_path / "seating-1.pdf")
        sheets = _text(tmp_path / "sheets-1.pdf")
        for n in names:
            assert seating.count(n) >= 3, n  # card, slip, list
            assert _text(tmp_path / "qr.pdf").count(n) >= 3, n
            assert n in sheets, n
        assert _text(tmp_path / "qr.pdf").count("PIN ") == 16  # one on each seat slip, none on the public cards
        assert sheets.count("Score sheet") == 4 and "Find your seat" in seating
    for argv, msg in [
        (("--all-tables", "-o", "x.pdf"), "--session K"),
        (("--session", "1", "--table", "1", "--all-tables", "-o", "x.pdf"), "not --table"),
        (("--session", "1", "--all-tables", "-o", "x.html"), "one PDF"),
        (("--format", "seating", "--session", "3", "-o", "x.pdf"), "not 3"),
        (("--format", "seating", "--session", "1", "-o", "-"), "binary"),
    ]:
        code, _, err = run("export", "cup", *argv, ok=False)
        assert code == 2 and msg in err, (argv, err)


PDFTOTEXT = shutil.which("pdftotext")


def _text(path) -> str:
    return subprocess.run([PDFTOTEXT, "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_undo_and_the_entries_log(run):
    run("new", "Cup", "--count", "16", "--sessions", "2", "--seed", "1")
    run("draw", "cup")
    run(
        "enter",
        "cup",
        "--session",
        "1",
        "--table",
        "1",
        "--hand",
        "1",
        "--winner",
        "E",
        "--points",
        "8",
        "--by",
        "anna",
    )
    run("enter", "cup", "--session", "1", "--table", "1", "--penalty", "S:late:10")
    _, out, _ = run("enter", "cup", "--session", "1", "--table", "1", "--penalty", "S:late:10")
    assert " S P" in out
    _, out, _ = run("log", "cup", "--json")
    log = json.loads(out)
    assert [e["summary"] for e in log] == ["hand 1", "penalty S late -10", "penalty S late -10"]
    assert log[0]["by"] == "anna" and log[1]["by"].startswith("cli")
    _, out, _ = run("undo", "cup", "--session", "1", "--table", "1")
    assert f"undid entry {log[2]['id']} (penalty S late -10" in out and "1/16 hands" in out
    _, out, _ = run("undo", "cup", "--entry", str(log[1]["id"]))
    assert "undid entry" in out
    _, out, _ = run("log", "cup", "--session", "1", "--table", "1")
    assert "undo of entry" in out and "anna" in out
    run("undo", "cup", "--session", "1", "--table", "1")
    for argv, msg in [
        ((), "undo what?"),
        (("--entry", "1", "--session", "1"), "leave out"),
        (("--session", "1", "--table", "1"), "nothing to undo"),
        (("--session", "1", "--table", "9"), "tables 1–4, not 9"),
    ]:
        code, _, err = run("undo", "cup", *argv, ok=False)
        assert code == 2 and msg in err, (argv, err)


def test_pins_print_each_tables_link_and_each_seats_stable_pin(run):
    run("new", "Cup", "--count", "16", "--sessions", "2", "--seed", "1")
    code, _, err = run("pins", "cup", ok=False)
    assert code == 2 and "draw cup" in err
    run("draw", "cup")
    _, out, _ = run("pins", "cup", "--session", "1", "--url", "http://10.0.0.2:8000/", "--json")
    links = json.loads(out)
    assert [x["table"] for x in links] == [1, 2, 3, 4] and links[1][
        "url"
    ] == "http://10.0.0.2:8000/tournaments/cup/t/1/2"
    pins = [p for x in links for p in x["pins"]]
    assert all(len(p) == 9 and p.replace(" ", "").isdigit() for p in pins) and len(set(pins)) == 16
    _, again, _ = run("pins", "cup", "--json")
    assert [x["pins"] for x in json.loads(again)] == [x["pins"] for x in links]
    _, out, _ = run("pins", "cup")
    assert all(f"PIN {p}" in out for p in links[0]["pins"])


def test_the_session_clock_and_a_time_call_at_every_table_still_playing(run):
    run("new", "Cup", "--count", "16", "--sessions", "2", "--seed", "1")
    run("draw", "cup")
    _, out, _ = run("clock", "cup")
    assert "not started" in out
    _, out, _ = run("clock", "cup", "--session", "1", "--start", "--minutes", "150", "--warn", "10", "--json")
    state = json.loads(out)
    assert state["phase"] == "running" and 149 * 60 < state["remaining_s"] <= 150 * 60 and state["warn"] == 10
    run("enter", "cup", "--session", "1", "--table", "2", "--totals", "10,-10,0,0")
    run("enter", "cup", "--session", "1", "--table", "1", "--hand", "1", "--winner", "E", "--points", "8")
    _, out, _ = run("clock", "cup", "--session", "1", "--call")
    assert "time called at table(s) 1, 3, 4" in out and "2:29:" in out
    # 第六条: the hand in play at the call (hand 2 at table 1) is finished and entered; no hand after it
    run("enter", "cup", "--session", "1", "--table", "1", "--hand", "2", "--winner", "E", "--points", "8")
    code, _, err = run(
        "enter", "cup", "--session", "1", "--table", "1", "--hand", "3", "--winner", "E", "--points", "8", ok=False
    )
    assert code == 2 and "time was called" in err
    _, out, _ = run("log", "cup", "--json")
    assert [e["by"] for e in json.loads(out) if e["kind"] == "time_call"] == ["clock"] * 3
    code, _, err = run("clock", "cup", "--session", "1", "--start", "--minutes", "10", "--warn", "10", ok=False)
    assert code == 2 and "warn < minutes" in err


def test_withdrawn_players_are_left_out_of_every_later_draw_and_marked(run, tmp_path):
    """Was: no withdrawal (退赛): a withdrawn player was drawn again every session (session 4 drew both
    withdrawn players at one table) and nothing marked him in the standings or on the projector."""
    run("new", "Cup", "--count", "20", "--sessions", "4", "--seed", "3")
    _, out, _ = run("draw", "cup", "--json")
    for t in range(1, 6):
        run("enter", "cup", "--session", "1", "--table", str(t), "--totals", "30,-10,-10,-10")
    code, _, err = run("withdraw", "cup", "P99", ok=False)
    assert code == 2 and "no player" in err
    _, _, err = run("withdraw", "cup", "P03", "--reason", "ill")
    assert "from session 2" in err
    run("withdraw", "cup", "P11")
    code, _, err = run("withdraw", "cup", "P11", ok=False)
    assert code == 2 and "already" in err
    # 18 present: two substitutes fill the tables, or the draw says so
    code, _, err = run("draw", "cup", "--session", "2", ok=False)
    assert code == 2 and "18 players" in err, err
    run("withdraw", "cup", "P11", "--undo")
    run("withdraw", "cup", "P15")
    run("withdraw", "cup", "P19")
    run("withdraw", "cup", "P11")  # four gone: 16 present fill four tables
    for k in (2, 3, 4):
        _, out, _ = run("draw", "cup", "--session", str(k), "--json")
        seated = {p for t in json.loads(out)["tables"] for p in t}
        assert len(seated) == 16 and not seated & {"P03", "P11", "P15", "P19"}, (k, seated)
        for t in range(1, 5):
            run("enter", "cup", "--session", str(k), "--table", str(t), "--totals", "30,-10,-10,-10")
    _, out, _ = run("standings", "cup", "--json")
    rows = {r["player"]: r for r in json.loads(out)["groups"][0]["standings"]}
    assert len(rows) == 20 and all(rows[p]["withdrawn"] for p in ("P03", "P11", "P15", "P19"))
    assert not rows["P01"]["withdrawn"]
    assert rows["P03"]["session_scores"][1:] == [None, None, None]  # byes: standard 0 from session 2 on


def test_a_late_entry_is_ranked_drawn_from_his_first_session_and_marked(run, tmp_path):
    """Was: no late registration (补报): 'tournament add' did not exist, the only way in mid-event was an
    unranked S substitute.  Now a new P id, in every later draw (re-drawn), the sessions he missed an
    absentee's (standard 0, no session score), marked in the standings."""
    run("new", "Cup", "--count", "16", "--sessions", "3", "--seed", "3")
    run("draw", "cup")
    for t in range(1, 5):
        run("enter", "cup", "--session", "1", "--table", str(t), "--totals", "30,-10,-10,-10")
    run("withdraw", "cup", "P03")
    _, out, _ = run("standings", "cup", "--json")
    before = {r["player"]: r["session_standards"][0] for r in json.loads(out)["groups"][0]["standings"]}
    _, out, err = run("add", "cup", "Zhao Lei", "--country", "CN")
    assert out.strip() == "P17" and "from session 2" in err
    _, out, _ = run("standings", "cup", "--json")
    after = {r["player"]: r for r in json.loads(out)["groups"][0]["standings"]}
    # like an absentee (ruling 9): N counts him, so everyone placed in session 1 gains one point (1998)
    assert all(after[p]["session_standards"][0] == v + 1 for p, v in before.items())
    assert after["P17"]["session_standards"] == [0] and after["P17"]["session_notes"][0].startswith("补报")
    for k in (2, 3):
        _, out, _ = run("draw", "cup", "--session", str(k), "--json")
        seated = {p for t in json.loads(out)["tables"] for p in t}
        assert len(seated) == 16 and "P17" in seated and "P03" not in seated, (k, seated)
        for t in range(1, 5):
            run("enter", "cup", "--session", str(k), "--table", str(t), "--totals", "30,-10,-10,-10")
    _, out, _ = run("standings", "cup", "--json")
    g = json.loads(out)["groups"][0]
    rows = {r["player"]: r for r in g["standings"]}
    assert rows["P17"]["late_entry"] == 2 and rows["P01"]["late_entry"] is None
    assert rows["P17"]["session_scores"][0] is None and rows["P17"]["session_standards"][0] == 0
    assert rows["P17"]["session_scores"][1:] != [None, None]
    _, out, _ = run("standings", "cup")
    assert "补报" in out
    _, out, _ = run("export", "cup", "--format", "html", "-o", "-")
    assert "Zhao Lei · 补报 late entry (S2)" in out and "P03 · 退赛 withdrawn" in out
    assert out.count("补报 late entry, not yet registered") == 1  # his session 1, not 缺席 absent
    code, _, err = run("add", "cup", "Zhao Lei", "--id", "P17", ok=False)
    assert code == 2 and "already" in err


def test_add_help_says_what_a_late_entry_is(capsys):
    with pytest.raises(SystemExit):
        main(["add", "--help"])
    out = capsys.readouterr().out
    assert "补报" in out and "absentee" in out and "re-draw" in out.replace("\n", " ")


def test_a_swiss_draw_reports_the_repeat_meetings_it_cannot_avoid(run):
    """Was: 8 players drawn swiss in session 2 must meet again (two tables of four after two tables of
    four), and the draw said nothing.  Now the CLI lists them and says they are unavoidable; JSON too."""
    run("new", "Eight", "--count", "8", "--sessions", "3", "--seed", "2")
    run("draw", "eight")
    run("enter", "eight", "--session", "1", "--table", "1", "--totals", "30,10,-10,-30")
    run("enter", "eight", "--session", "1", "--table", "2", "--totals", "20,10,-10,-20")
    _, out, err = run("draw", "eight", "--method", "swiss", "--json")
    got = json.loads(out)
    assert got["repeats"] and all(r["met_in"] == [1] for r in got["repeats"])
    assert len(got["repeats"]) == got["fewest_repeats"] == 4  # 2 + 2 from each old table at each new one
    assert "4 repeat meeting(s)" in err and "unavoidable" in err and "met in session 1" in err
    _, out, err = run("draw", "eight", "--session", "2", "--method", "swiss")
    assert "repeat meeting(s)" in err


def test_family_and_given_names_go_into_the_ema_file_and_the_player_list(run, tmp_path):
    """Was: the EMA file split the whole name at its first space ("María José García-López" → first
    "María", last "José García-López"; 王芳 went whole into last_name), players.csv had no name columns,
    and the EMA file had one order only."""
    rows = [
        "name,family,given,romanised,country",
        "María José García-López,García-López,María José,,ES",
        "王芳,,,Wang Fang,CN",
        "欧阳娜娜,,,,CN",
        "Jan de Vries,,,,NL",
    ] + [f"Player {i},,,," for i in range(5, 9)]
    (tmp_path / "players.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    run("new", "Cup", "--players", str(tmp_path / "players.csv"), "--sessions", "2", "--seed", "4")
    run("add", "cup", "Li Na", "--family", "Li", "--given", "Na", "--country", "CN", "--from-session", "2")
    run("draw", "cup")
    run("enter", "cup", "--session", "1", "--table", "1", "--totals", "40,-10,-10,-20")
    run("enter", "cup", "--session", "1", "--table", "2", "--totals", "5,0,0,-5")
    _, out, _ = run("export", "cup", "--format", "ema", "-o", "-")
    ema = {r["last_name"]: r for r in csv.DictReader(io.StringIO(out))}
    assert ema["García-López"]["first_name"] == "María José"
    assert ema["Wang"]["first_name"] == "Fang"  # the romanisation, family name first
    assert ema["欧阳"]["first_name"] == "娜娜"  # never the whole Chinese name in last_name
    assert ema["de Vries"]["first_name"] == "Jan" and ema["Li"]["first_name"] == "Na"
    assert "王芳" not in ema and "欧阳娜娜" not in ema
    # --order official: the event's 1998 ranking positions; ema: table points first
    _, official, _ = run("export", "cup", "--format", "ema", "--order", "official", "-o", "-")
    _, out, _ = run("standings", "cup", "--json")
    ranks = [r["rank"] for r in json.loads(out)["groups"][0]["standings"]]
    assert [int(r["position"]) for r in csv.DictReader(io.StringIO(official))] == ranks
    # the player list round-trips with its name columns
    run("export", "cup", "-o", str(tmp_path / "players-out.csv"), "--format", "players")
    back = list(csv.DictReader(io.StringIO((tmp_path / "players-out.csv").read_text(encoding="utf-8"))))
    assert back[0]["family"] == "García-López" and back[0]["given"] == "María José"
    assert back[1]["romanised"] == "Wang Fang" and back[-1]["name"] == "Li Na" and back[-1]["family"] == "Li"
    eight = "".join((tmp_path / "players-out.csv").read_text(encoding="utf-8").splitlines(keepends=True)[:-1])
    (tmp_path / "eight.csv").write_text(eight, encoding="utf-8")  # the late entry left out: tables of four
    run("new", "Copy", "--players", str(tmp_path / "eight.csv"), "--sessions", "1")
    _, out, _ = run("export", "copy", "--format", "players", "-o", "-")
    assert out == eight


def test_a_player_list_may_give_family_and_given_names_only():
    """Was: 'name' was required and family/given were unknown columns."""
    from majiang.tournament.registration import parse_players

    rows = parse_players("family,given,country\n王,芳,CN\nGarcía-López,María José,ES\n")
    assert [(r.name, r.family, r.given) for r in rows] == [
        ("王芳", "王", "芳"),
        ("María José García-López", "García-López", "María José"),
    ]
