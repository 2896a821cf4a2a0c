"""The organiser's day of issue 29, from registration to the EMA file with the command line only: 20
players over 4 sessions, a late entry and two withdrawals after session 1 (19 players left: a substitute
fills the tables), session 3 in duplicate at physical tables (printed walls, sealed standings), and
every standard score recomputed here by the 1998 rules (第十条: the session ranked over the whole
group of N ranked players, 1st N and the k-th N − k, ties sharing the average; absentees 0; the
substitute's points count for his table but he is not ranked)."""

from __future__ import annotations

import csv
import io
import json
import random
import shutil
import subprocess
from fractions import Fraction
from typing import Any

from majiang.cli.tournament import main
from majiang.store import Database
from majiang.tournament.adapters.repository import TournamentRepository
from majiang.tournament.sealing import sealed_sessions


def standard_1998(scores: dict[str, int], n: int) -> dict[str, Fraction]:
    values = [n if k == 1 else n - k for k in range(1, n + 1)]
    order = sorted(scores, key=lambda p: -scores[p])
    out: dict[str, Fraction] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and scores[order[j]] == scores[order[i]]:
            j += 1
        share = Fraction(sum(values[i:j]), j - i)
        for p in order[i:j]:
            out[p] = share
        i = j
    return out


def test_an_organisers_day_from_registration_to_the_ema_file(tmp_path: Any, capsys: Any) -> None:
    url = f"sqlite:///{tmp_path}/day.db"

    def run(*argv: str, ok: bool = True) -> tuple[str, str]:
        code = main([*argv, "--db", url])
        out, err = capsys.readouterr()
        assert (code == 0) == ok, (argv, out, err)
        return out, err

    drawn: dict[int, list[list[str]]] = {}

    def draw(k: int, *extra: str) -> tuple[str, str]:
        out, err = run("draw", "day", "--session", str(k), "--json", *extra)
        drawn[k] = [list(t) for t in json.loads(out)["tables"]]
        return out, err

    rng = random.Random(29)
    played: dict[int, dict[str, int]] = {}  # session → player → session score (ranked players only)
    ranked: set[str] = set()

    def enter(k: int) -> None:
        played[k] = {}
        for t, seats in enumerate(drawn[k], start=1):
            a, b, c = (rng.randrange(-60, 61) for _ in range(3))
            totals = [a, b, c, -(a + b + c)]
            run("enter", "day", "--session", str(k), "--table", str(t), "--totals", ",".join(map(str, totals)))
            for p, x in zip(seats, totals, strict=True):
                if p in ranked:
                    played[k][p] = 500 + x

    run("new", "Day Cup", "--count", "20", "--sessions", "4", "--teams", "0", "--id", "day")
    ranked |= {f"P{i:02d}" for i in range(1, 21)}
    draw(1)
    enter(1)
    out, _ = run("add", "day", "赵磊", "--family", "赵", "--given", "磊", "--romanised", "Zhao Lei")
    late = out.split()[-1]
    ranked.add(late)
    run("withdraw", "day", "P05")
    run("withdraw", "day", "P11")
    _, err = run("draw", "day", "--session", "2", ok=False)  # 19 players: the draw says what to do
    assert "--substitute" in err and "19 players" in err
    _, err = draw(2, "--substitute", "Li Ming")
    assert "S1" in err
    seated = [p for t in drawn[2] for p in t]
    assert sorted(seated) == sorted((ranked - {"P05", "P11"}) | {"S1"}) and late in seated
    enter(2)

    # session 3: duplicate walls at physical tables
    draw(3, "--substitute", "S1")
    walls = tmp_path / "walls.html"
    run("walls", "day", "--session", "3", "-o", str(walls))
    assert walls.read_text().count('class="hand"') == 16 * 5
    db = Database(url)
    repo = TournamentRepository(db)
    assert sealed_sessions(repo.load("day")) == [3]
    enter(3)
    assert sealed_sessions(repo.load("day")) == []
    draw(4, "--substitute", "S1")
    enter(4)

    # every standard score by the 1998 rules, N = the 21 ranked players (the late entry counted)
    n = len(ranked)
    want = {p: Fraction(0) for p in ranked}
    for k in range(1, 5):
        for p, v in standard_1998(played[k], n).items():
            want[p] += v
    got = json.loads(run("standings", "day", "--json")[0])["groups"][0]
    rows = {r["player"]: r for r in got["standings"]}
    assert set(rows) == ranked and got["final"]
    for p in ranked:
        assert abs(rows[p]["standard_total"] - float(want[p])) < 0.01, (p, rows[p], want[p])
    assert rows["P05"]["withdrawn"] and rows["P11"]["withdrawn"] and rows[late]["late_entry"]
    assert rows[late]["session_standards"][0] == 0 and rows["P05"]["session_standards"][1:] == [0, 0, 0]

    ema = tmp_path / "ema.csv"
    run("export", "day", "--format", "ema", "--order", "official", "-o", str(ema))
    lines = list(csv.DictReader(io.StringIO(ema.read_text(encoding="utf-8"))))
    assert len(lines) == n  # the substitute is not ranked
    zhao = next(r for r in lines if r["last_name"] == "Zhao")
    assert zhao["first_name"] == "Lei"
    official = {rows[p]["rank"] for p in ranked}
    assert {int(r["position"]) for r in lines} <= official

    # the printed standings too: the late entry's first session says 补报, not 缺席 (was: 缺席 in the PDF)
    if shutil.which("pdftotext"):
        pdf = tmp_path / "standings.pdf"
        run("export", "day", "--format", "pdf", "-o", str(pdf))
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True)
        # the mark after his name, and his session-1 cell (a table row wraps over lines: count, not find)
        assert text.stdout.count("补报") == 2, text.stdout

    # the public standings page: the late entry's first session says why it is empty, the withdrawn marked
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from majiang.tournament.adapters.web import get_db, router

    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_db] = lambda: db
    page = TestClient(app).get("/tournaments/day").text
    assert page.count("补报 late entry, not yet registered") == 1 and page.count("退赛 withdrawn") >= 2
    db.dispose()
