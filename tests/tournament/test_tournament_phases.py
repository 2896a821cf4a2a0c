"""Check-in before each session, multi-day events in phases (qualifying, then final tables
seeded from the standings), and the standings after any session with each player's rank movement."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest

from majiang.cli.tournament import main
from majiang.store import Database
from majiang.tournament.adapters.repository import RepositoryError, TournamentRepository
from majiang.tournament.demo import demo_group
from majiang.tournament.model import Event, SessionRecord, TableRecord


@pytest.fixture
def run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path}/phases.db"

    def run(*argv: str, ok: bool = True) -> tuple[int, str, str]:
        code = main([*argv, "--db", url])
        out, err = capsys.readouterr()
        if ok:
            assert code == 0, err
        return code, out, err

    run.url = url  # type: ignore[attr-defined]
    return run


def _repo(run) -> TournamentRepository:
    db = Database(run.url)
    db.migrate()
    return TournamentRepository(db)


def _std_1998(scores: dict[str, int], n: int) -> dict[str, Fraction]:
    """1998 standard scores computed here, independently: the k-th of the group gets n − k (the 1st n),
    ties share the average of their places' points."""
    points = [n] + [n - k for k in range(2, n + 1)]
    order = sorted(scores, key=lambda p: -scores[p])
    out: dict[str, Fraction] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = Fraction(sum(points[i : j + 1]), j - i + 1)
        for p in order[i : j + 1]:
            out[p] = share
        i = j + 1
    return out


# ---- check-in ----------------------------------------------------------------------------------------
def test_players_not_checked_in_get_a_bye_with_the_right_scores(run):
    run("new", "Desk Cup", "--count", "16", "--sessions", "3", "--seed", "5")
    run("checkin", "desk-cup", "--require")
    code, _, err = run("draw", "desk-cup", ok=False)
    assert code == 2 and "nobody is checked in for session 1" in err  # nothing drawn yet
    here = [f"P{i:02d}" for i in range(1, 13)]
    _, _, err = run("checkin", "desk-cup", "--session", "1", *here)
    assert "12 checked in" in err
    _, out, _ = run("checkin", "desk-cup", "--session", "1", "--list", "--json")
    listed = json.loads(out)
    assert listed["required"] and sorted(x["player"] for x in listed["checked_in"]) == here
    assert listed["missing"] == ["P13", "P14", "P15", "P16"]
    _, out, err = run("draw", "desk-cup", "--json")
    tables = json.loads(out)["tables"]
    assert "P13, P14, P15, P16" in err and len(tables) == 3
    assert sorted(p for t in tables for p in t) == here  # only those checked in are seated
    repo = _repo(run)
    assert repo.load("desk-cup").groups[0].sessions[0].absent == ("P13", "P14", "P15", "P16")
    totals = ([60, 20, -30, -50], [45, 5, -10, -40], [35, -5, -12, -18])
    score: dict[str, int] = {}
    for t, (seats, tot) in enumerate(zip(tables, totals, strict=True), start=1):
        run("enter", "desk-cup", "--session", "1", "--table", str(t), f"--totals={','.join(map(str, tot))}")
        score.update({p: 500 + x for p, x in zip(seats, tot, strict=True)})
    expected = _std_1998(score, 16)  # N stays the 16 ranked players: the absentees are last with 0
    _, out, _ = run("standings", "desk-cup", "--json")
    rows = {r["player"]: r for r in json.loads(out)["groups"][0]["standings"]}
    for p in here:
        assert Fraction(rows[p]["standard_total"]).limit_denominator() == expected[p], p
        assert rows[p]["session_scores"] == [score[p]]
    for p in ("P13", "P14", "P15", "P16"):
        assert rows[p]["standard_total"] == 0 and rows[p]["session_scores"] == [None] and rows[p]["rank"] == 13
    assert max(expected.values()) == 16 and min(expected.values()) == 4
    _, out, _ = run("standings", "desk-cup")
    assert "缺席 absent" in out


def test_check_in_is_opt_in_and_guards_the_clock(run):
    run("new", "Open Door", "--count", "8", "--sessions", "2", "--seed", "1")
    _, out, _ = run("draw", "open-door", "--json")  # check-in not required: everybody, as before
    assert len(json.loads(out)["tables"]) == 2
    run("checkin", "open-door", "--require")
    run("checkin", "open-door", "--session", "1", "--all")
    run("checkin", "open-door", "--session", "1", "--undo", "P03")
    code, _, err = run("clock", "open-door", "--session", "1", "--start", ok=False)
    assert code == 2 and "P03 not checked in" in err  # drawn before the check-in: not started
    run("checkin", "open-door", "--session", "1", "P03")
    run("clock", "open-door", "--session", "1", "--start")
    code, _, err = run("checkin", "open-door", "--session", "1", "Nobody", ok=False)
    assert code == 2 and "no player 'Nobody'" in err
    with pytest.raises(RepositoryError, match="no player"):
        _repo(run).check_in("open-door", 1, ["X9"])


# ---- phases ------------------------------------------------------------------------------------------
QUALIFYING = {  # table → (players E S W N, hand-score totals)
    1: (("P01", "P02", "P03", "P04"), (60, 20, -30, -50)),
    2: (("P05", "P06", "P07", "P08"), (10, 70, -40, -40)),
    3: (("P09", "P10", "P11", "P12"), (45, -5, -15, -25)),
    4: (("P13", "P14", "P15", "P16"), (30, 25, -35, -20)),
}


def _qualified_event(run) -> TournamentRepository:
    repo = _repo(run)
    group = demo_group(16, 0)
    s1 = SessionRecord(no=1, tables=tuple(TableRecord(no=t, players=p) for t, (p, _) in QUALIFYING.items()))
    from dataclasses import replace

    repo.create(Event(id="open", name="Open", groups=(replace(group, sessions=(s1,)),), extra={"seed": 3}))
    run("phase", "open", "--add", "qualifying", "--sessions", "1")
    _, out, _ = run("phase", "open", "--add", "final", "--sessions", "1", "--draw", "seeded", "--cut", "8", "--json")
    assert json.loads(out)[1] == {
        "name": "final",
        "sessions": 1,
        "draw": "seeded",
        "carry": True,
        "cut": 8,
        "first": 2,
        "last": 2,
    }
    return repo


def test_a_two_phase_event_seeds_the_final_tables_from_the_qualifying_standings(run):
    repo = _qualified_event(run)
    code, _, err = run("draw", "open", ok=False)
    assert code == 2 and "session 1 has results" not in err  # session 2: the qualifying is not entered yet
    assert "enter every table of sessions 1–1" in err
    for t, (_, tot) in QUALIFYING.items():
        repo.enter_totals("open", 1, t, tot)
    # by hand: session scores 570 P06, 560 P01, 545 P09, 530 P13 | 525 P14, 520 P02, 510 P05, 495 P10 | 485 P11 …
    _, out, _ = run("draw", "open", "--json")
    drawn = json.loads(out)
    assert drawn["session"] == 2 and len(drawn["tables"]) == 2
    assert set(drawn["tables"][0]) == {"P06", "P01", "P09", "P13"}
    assert set(drawn["tables"][1]) == {"P14", "P02", "P05", "P10"}
    session = repo.load("open").groups[0].sessions[1]
    assert session.absent == ()  # those cut are out of the phase, not absentees
    finals = {t.no: t.players for t in session.tables}
    result = {"P13": 50, "P09": 10, "P01": -20, "P06": -40, "P10": 30, "P14": 15, "P02": -5, "P05": -40}
    for t, seats in finals.items():
        repo.enter_totals("open", 2, t, [result[p] for p in seats])
    # final phase (carry: qualifying N=16 + final N=8 among the eight): P13 12+8, P09 13+4, P06 16+0.5,
    # P01 14+2 = P14 11+5 = 16 (equal Σ session scores 1040: best session 14 > 11), P10 8+6, P02 10+3, P05 9+0.5
    full = repo.full_result("open")  # the score sheets: the final's N is its cut, 8
    assert full.sessions[1].standard["P13"] == 8 and full.sessions[1].standard["P10"] == 6
    assert full.sessions[1].standard["P06"] == full.sessions[1].standard["P05"] == Fraction(1, 2)
    assert full.sessions[0].standard["P06"] == 16 and full.sessions[0].standard["P07"] == Fraction(3, 2)
    _, out, _ = run("standings", "open", "--phase", "final", "--json")
    final = json.loads(out)["groups"][0]["standings"]
    assert [r["player"] for r in final] == ["P13", "P09", "P06", "P01", "P14", "P10", "P02", "P05"]
    assert [r["standard_total"] for r in final] == [20, 17, 16.5, 16, 16, 14, 13, 9.5]
    # overall: the finalists in the final's order, then the others in qualifying order (P07 = P08 shared)
    _, out, _ = run("standings", "open", "--json")
    overall = json.loads(out)["groups"][0]["standings"]
    order = [r["player"] for r in overall]
    assert order[:8] == ["P13", "P09", "P06", "P01", "P14", "P10", "P02", "P05"]
    assert order[8:13] == ["P11", "P16", "P12", "P03", "P15"] and set(order[13:15]) == {"P07", "P08"}
    assert [r["rank"] for r in overall] == [*range(1, 14), 14, 14, 16]
    _, out, _ = run("standings", "open", "--phase", "qualifying", "--json")
    qual = json.loads(out)["groups"][0]["standings"]
    assert [r["player"] for r in qual][:4] == ["P06", "P01", "P09", "P13"] and len(qual) == 16
    repo.undo("open", 1, 4)  # a qualifying result taken back after the final: no crash, one ranking for now
    _, out, _ = run("standings", "open", "--json")
    assert len(json.loads(out)["groups"][0]["standings"]) == 16
    code, _, err = run("standings", "open", "--phase", "final", ok=False)
    assert code == 2 and "enter every table of sessions 1–1" in err


def test_phases_are_checked_and_keep_drawn_sessions(run):
    repo = _qualified_event(run)
    code, _, err = run("phase", "open", "--add", "semi", "--sessions", "1", "--cut", "6", ok=False)
    assert code == 2 and "multiple of four" in err
    code, _, err = run("phase", "open", "--remove", "qualifying", ok=False)
    assert code == 2 and "cannot be changed or removed" in err  # session 1 is drawn
    run("phase", "open", "--remove", "final")
    assert [p["name"] for p in repo.load("open").extra["phases"]] == ["qualifying"]
    code, _, err = run("standings", "open", "--phase", "nope", ok=False)
    assert code == 2 and "no phase 'nope'" in err


# ---- standings after session K with movement -------------------------------------------------------
def _independent(tables_by_session, totals_by_session, k):
    """4/2/1/0 standings after session k, computed here: per table 4/2/1/0 by session score, ranked by
    Σ standard score then Σ session scores (the totals are chosen without ties)."""
    std: dict[str, int] = {}
    score: dict[str, int] = {}
    for s in range(k):
        for seats, tot in zip(tables_by_session[s], totals_by_session[s], strict=True):
            order = sorted(range(4), key=lambda i: -tot[i])
            for place, i in enumerate(order):
                std[seats[i]] = std.get(seats[i], 0) + (4, 2, 1, 0)[place]
                score[seats[i]] = score.get(seats[i], 0) + 500 + tot[i]
    ranked = sorted(std, key=lambda p: (-std[p], -score[p]))
    return {p: i + 1 for i, p in enumerate(ranked)}


def test_standings_after_any_session_with_rank_movement(run, tmp_path):
    run("new", "Night", "--count", "8", "--sessions", "3", "--scheme", "4210", "--seed", "2")
    patterns = [(61, 17, -29, -49), (53, 11, -23, -41), (47, 19, -31, -35)]
    tables_by_session, totals_by_session = [], []
    for s in range(3):
        _, out, _ = run("draw", "night", "--json")
        tables = json.loads(out)["tables"]
        tots = []
        for t in range(1, len(tables) + 1):
            pat = patterns[(s + t) % 3]
            shift = (s * 2 + t) % 4
            tot = pat[shift:] + pat[:shift]
            run("enter", "night", "--session", str(s + 1), "--table", str(t), f"--totals={','.join(map(str, tot))}")
            tots.append(tot)
        tables_by_session.append(tables)
        totals_by_session.append(tots)
    for k in (1, 2, 3):
        now = _independent(tables_by_session, totals_by_session, k)
        before = _independent(tables_by_session, totals_by_session, k - 1) if k > 1 else None
        _, out, _ = run("standings", "night", "--after", str(k), "--json")
        data = json.loads(out)
        assert data["after"] == k
        rows = data["groups"][0]["standings"]
        assert {r["player"]: r["rank"] for r in rows} == now
        assert rows[0]["session_standards"] and len(rows[0]["session_standards"]) == k
        for r in rows:
            if before is None:
                assert r["movement"] == "" and r["previous_rank"] is None
                continue
            d = before[r["player"]] - now[r["player"]]
            want = f"▲{d}" if d > 0 else f"▼{-d}" if d < 0 else "–"
            assert r["movement"] == want and r["previous_rank"] == before[r["player"]], r
    moved = {r["player"]: r["movement"] for r in rows}
    assert any(m.startswith("▲") for m in moved.values()) and any(m.startswith("▼") for m in moved.values())
    _, out, _ = run("standings", "night", "--after", "3")
    assert "升降" in out and "第3局后 after session 3" in out
    run("export", "night", "--after", "2", "-o", "after-2.csv")
    got = list(csv.DictReader(io.StringIO((tmp_path / "after-2.csv").read_text(encoding="utf-8"))))
    now2 = _independent(tables_by_session, totals_by_session, 2)
    before2 = _independent(tables_by_session, totals_by_session, 1)
    assert {r["player"]: int(r["rank"]) for r in got} == now2
    assert "s3_standard" not in got[0]
    for r in got:
        d = before2[r["player"]] - now2[r["player"]]
        assert r["movement"] == (f"▲{d}" if d > 0 else f"▼{-d}" if d < 0 else "–")
    run("export", "night", "--after", "2", "-o", "after-2.html")
    page = (tmp_path / "after-2.html").read_text(encoding="utf-8")
    assert "升降" in page and "第3局" not in page
    run("export", "night", "--after", "2", "-o", "after-2.pdf")
    assert (tmp_path / "after-2.pdf").read_bytes().startswith(b"%PDF")
    code, _, err = run("standings", "night", "--after", "4", ok=False)
    assert code == 2 and "sessions 1–3 have results" in err
    _, out, _ = run("export", "night", "--format", "csv", "-o", "-")  # without --after: the standings CSV as before
    assert "movement" not in out.splitlines()[0]


# ---- the web: the check-in desk's API, the standings after a session ---------------------------------
def _web_event(tmp_path):
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from majiang.tournament.adapters.web import get_db, router
    from majiang.tournament.organiser import issue_token
    from majiang.tournament.registration import build_group, count_entries, new_event

    db = Database(f"sqlite:///{tmp_path}/desk.db")
    db.migrate()
    repo = TournamentRepository(db)
    token, extra = issue_token()
    repo.create(new_event("desk", "Desk", build_group(count_entries(8), 0), sessions=2, seed=5))
    repo.set_extra("desk", **extra)
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_db] = lambda: db
    return db, repo, {"Authorization": f"Bearer {token}"}, TestClient(app)


def test_the_check_in_desk_api_needs_the_organiser_token(tmp_path):
    from majiang.tournament.phases import draw_phase_session

    db, repo, auth, c = _web_event(tmp_path)
    assert c.get("/api/tournaments/desk/checkin").status_code == 401
    assert c.get("/api/tournaments/desk/checkin", headers={"Authorization": "Bearer nope"}).status_code == 403
    state = c.get("/api/tournaments/desk/checkin", headers=auth).json()
    assert state["session"] == 1 and not state["required"] and state["checked"] == 0 and state["expected"] == 8
    r = c.post("/api/tournaments/desk/checkin", headers=auth, json={"required": True, "players": ["P01", "P02"]})
    assert r.status_code == 200 and r.json()["required"] and r.json()["checked"] == 2
    assert c.post("/api/tournaments/desk/checkin", headers=auth, json={"player": ["P03"]}).status_code == 422
    assert c.post("/api/tournaments/desk/checkin", headers=auth, json={"players": ["x" * 41]}).status_code == 422
    r = c.post("/api/tournaments/desk/checkin", headers=auth, json={"players": ["P09"]})
    assert r.status_code == 409 and "no player P09" in r.json()["detail"]
    c.post("/api/tournaments/desk/checkin", headers=auth, json={"players": ["P03", "P04", "P05"]})
    r = c.post("/api/tournaments/desk/checkin", headers=auth, json={"players": ["P05"], "undo": True})
    rows = {p["id"]: p for p in r.json()["players"]}
    assert r.json()["checked"] == 4 and rows["P04"]["checked_in"] and rows["P04"]["by"] == "web:desk"
    assert not rows["P05"]["checked_in"]
    from majiang.tournament.checkin import absentees

    event = repo.load("desk")
    session = draw_phase_session(event, "A", 1, absent=absentees(event, event.groups[0], 1))
    assert sorted(session.tables[0].players) == ["P01", "P02", "P03", "P04"] and len(session.tables) == 1
    assert session.absent == ("P05", "P06", "P07", "P08")
    page = c.get("/tournaments/desk/checkin")
    assert page.status_code == 200 and "/tournaments/assets/checkin.js" in page.text
    db.dispose()


def test_the_standings_page_and_api_after_a_session(tmp_path):
    from majiang.tournament.draw import draw_session

    db, repo, _, c = _web_event(tmp_path)
    for k, totals in ((1, ((40, 10, -20, -30), (35, 5, -15, -25))), (2, ((-30, -20, 10, 40), (-25, -15, 5, 35)))):
        repo.put_session("desk", "A", draw_session(repo.load("desk"), "A", k))
        for t, tot in enumerate(totals, start=1):
            repo.enter_totals("desk", k, t, tot)
    after1 = c.get("/api/tournaments/desk/standings?after=1").json()
    latest = c.get("/api/tournaments/desk/standings").json()
    assert after1["after"] == 1 and latest["after"] is None
    g1, g2 = after1["groups"][0], latest["groups"][0]
    assert g1["sessions"] == [1] and g2["sessions"] == [1, 2] and g2["sessions_available"] == 2
    assert all(r["movement"] == "" for r in g1["standings"])
    before = {r["player"]: r["rank"] for r in g1["standings"]}
    for r in g2["standings"]:
        d = before[r["player"]] - r["rank"]
        assert r["previous_rank"] == before[r["player"]]
        assert r["movement"] == (f"▲{d}" if d > 0 else f"▼{-d}" if d < 0 else "–")
    page = c.get("/tournaments/desk?after=1").text
    assert '<option value="1" selected>' in page and "第2局<br>" not in page and "升降" in page
    page = c.get("/tournaments/desk").text
    assert "第2局<br>" in page and ('class="up">▲' in page or 'class="down">▼' in page)
    assert c.get("/tournaments/desk?after=3").status_code == 404
    assert c.get("/api/tournaments/desk/standings?after=0").status_code == 404
    assert 'data-after="2"' in c.get("/tournaments/desk/projector?after=2").text
    db.dispose()


def test_check_ins_and_phases_in_the_database(db):
    from majiang.tournament.phases import Phase, phases_of

    repo = TournamentRepository(db)
    repo.create(Event(id="both", name="Both", groups=(demo_group(8, 0),)))
    assert repo.check_in("both", 1, ["P01", "P02", "P01"], by="desk-1") == ["P01", "P02"]
    assert repo.check_in("both", 1, ["P02"], by="desk-2") == []  # already in: unchanged
    assert repo.check_in("both", 1, ["P02"], undo=True) == ["P02"]
    assert list(repo.checkins("both", 1)) == ["P01"] and repo.checkins("both", 1)["P01"]["by"] == "desk-1"
    repo.set_phases("both", [Phase("heats", 2), Phase("final", 1, draw="seeded", cut=4, carry=False)])
    assert phases_of(repo.load("both"))[1] == Phase("final", 1, draw="seeded", cut=4, carry=False)
    repo.save(repo.load("both"))  # a re-saved event keeps both
    assert list(repo.checkins("both", 1)) == ["P01"] and len(phases_of(repo.load("both"))) == 2


def test_team_standings_move_too(run, tmp_path):
    """Was: the teams' 升降 column was blank everywhere.  A team's movement is the place it moved up in
    the team standings since the session before, in the JSON, the terminal table, HTML, PDF and the
    web page alike."""
    import re
    import shutil
    import subprocess

    run("new", "Cup", "--count", "16", "--teams", "4", "--sessions", "3", "--scheme", "4210", "--seed", "5")
    patterns = [(61, 17, -29, -49), (53, 11, -23, -41), (47, 19, -31, -35), (70, 3, -21, -52)]
    for s in range(3):
        _, out, _ = run("draw", "cup", "--json")
        for t in range(1, len(json.loads(out)["tables"]) + 1):
            pat = patterns[(s * 3 + t) % 4]
            shift = (s + 3 * t) % 4
            tot = pat[shift:] + pat[:shift]
            run("enter", "cup", "--session", str(s + 1), "--table", str(t), f"--totals={','.join(map(str, tot))}")
    ranks: dict[int, dict[str, int]] = {}
    arrows: dict[int, dict[str, str]] = {}
    for k in (1, 2, 3):
        _, out, _ = run("standings", "cup", "--after", str(k), "--json")
        teams = json.loads(out)["groups"][0]["teams"]
        assert len(teams) == 4
        ranks[k] = {t["team"]: t["rank"] for t in teams}
        arrows[k] = {t["team"]: t["movement"] for t in teams}
        for t in teams:
            if k == 1:
                assert t["movement"] == "" and t["previous_rank"] is None, t
                continue
            d = ranks[k - 1][t["team"]] - t["rank"]
            assert t["previous_rank"] == ranks[k - 1][t["team"]]
            assert t["movement"] == (f"▲{d}" if d > 0 else f"▼{-d}" if d < 0 else "–"), t
    moved = [m for k in (2, 3) for m in arrows[k].values()]
    assert any(m.startswith("▲") for m in moved) and any(m.startswith("▼") for m in moved), arrows

    k = next(k for k in (2, 3) if any(m != "–" for m in arrows[k].values()))
    shown = sorted(arrows[k].values())
    _, out, _ = run("standings", "cup", "--after", str(k))
    teams_table = out[out.index("团体名次") :]
    assert "升降" in teams_table and sorted(re.findall(r"[▲▼]\d|–", teams_table)) == shown, teams_table
    run("export", "cup", "--after", str(k), "-o", "teams.html")
    page = (tmp_path / "teams.html").read_text(encoding="utf-8")
    team_part = page[page.index("团体名次") :]
    assert "<th>升降</th>" in team_part and sorted(re.findall(r"<td>([▲▼]\d|–)</td>", team_part)) == shown
    if shutil.which("pdftotext"):
        run("export", "cup", "--after", str(k), "-o", "teams.pdf")
        text = subprocess.run(
            ["pdftotext", "-layout", str(tmp_path / "teams.pdf"), "-"], capture_output=True, text=True, check=True
        ).stdout
        team_text = text[text.index("团体名次") :]
        assert "升降" in team_text and sorted(re.findall(r"[▲▼]\d|–", team_text)) == shown, team_text
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from majiang.tournament.adapters.web import get_db, router

    db = Database(run.url)
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_db] = lambda: db
    web = TestClient(app).get(f"/tournaments/cup?after={k}").text
    web_teams = web[web.index("团体名次") :]
    assert "升降" in web_teams
    assert sorted(re.findall(r'<td class="(?:up|down|same)">([▲▼]\d|–)</td>', web_teams)) == shown
    db.dispose()


def test_the_check_in_desk_finds_chinese_names_by_pinyin(tmp_path):
    """The desk's search box: a Chinese name by its pinyin or initials (赵磊: zhaolei, zl), as the find-your-
    seat list sorts them (issue 29: pinyin sort and search)."""
    from majiang.tournament.registration import Entry, build_group, new_event

    _, repo, auth, c = _web_event(tmp_path)
    names = ["赵磊", "欧阳娜娜", "Hans Müller", "王芳", "Li Wei", "刘洋", "陈晨", "吕布"]
    repo.create(new_event("pin", "Pin", build_group([Entry(n) for n in names], 0), sessions=2, seed=5))
    repo.set_extra("pin", **{k: v for k, v in repo.load("desk").extra.items() if k.startswith("organiser")})
    rows = {p["name"]: p for p in c.get("/api/tournaments/pin/checkin", headers=auth).json()["players"]}
    assert (rows["赵磊"]["pinyin"], rows["赵磊"]["initials"]) == ("zhaolei", "zl")
    assert (rows["欧阳娜娜"]["pinyin"], rows["吕布"]["pinyin"]) == ("ouyangnana", "lvbu")
    assert (rows["Hans Müller"]["pinyin"], rows["Hans Müller"]["initials"]) == ("", "")
    page = c.get("/tournaments/pin/checkin").text
    assert "拼音" in page and "pinyin" in page
