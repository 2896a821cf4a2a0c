"""MERS, the EMA's ranking across events (issue 29): base ranks, weights, age, the minimum of five
results, parts A and B, worked by hand here; EMA files read by EMA number or name; the CLI and page."""

import json
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

import pytest

from majiang.cli.tournament import main
from majiang.tournament.adapters.mers_files import MersFileError, read_ema_results
from majiang.tournament.mers import EventResult, MersRules, base_rank, rank_players

ON = date(2026, 12, 5)


def res(player: str, place: int, n: int, days_ago: int, weight: float = 1.0, event: str = "") -> EventResult:
    return EventResult(
        player, player.title(), event or f"e{place}{n}{days_ago}", ON - timedelta(days=days_ago), place, n, weight
    )


def test_base_ranks_are_the_emas_examples() -> None:
    assert base_rank(100, 1) == 1000 and base_rank(100, 100) == 0
    assert int(base_rank(100, 75)) == 252  # "if you are number 75 out of 100 you get a base rank of 252"
    assert round(base_rank(16, 3), 2) == 866.67  # 3rd of 16
    with pytest.raises(ValueError, match="2\\+ players"):
        base_rank(1, 1)
    with pytest.raises(ValueError):
        base_rank(16, 17)


def test_a_ranking_worked_by_hand() -> None:
    # ann: 1st of 16 last month (weight 1), 8th of 16 400 days ago (weight 2, age ⅔) → 2 results, 3 zeros
    results = [res("ann", 1, 16, 30), res("ann", 8, 16, 400, weight=2)]
    # bob: five results (two in their third year: ⅓), one too old (3 years and more) and one held after
    # the ranking date
    results += [res("bob", p, 10, d) for p, d in ((2, 10), (5, 100), (3, 200), (1, 800), (4, 900))]
    results += [res("bob", 1, 10, 1100), res("bob", 1, 10, -5)]
    results.append(res("cat", 1, 16, 5))  # one result: not listed
    got = {r.player: r for r in rank_players(results, ON)}
    assert set(got) == {"ann", "bob"}

    f = Fraction
    ann = [(f(1000), f(1)), (f(1000 * 8, 15), f(2) * f(2, 3))] + [(f(0), f(1))] * 3
    a = sum(v * w for v, w in ann) / sum(w for _, w in ann)
    b = sum(v * w for v, w in ann[:3]) / sum(w for _, w in ann[:3])
    assert got["ann"].part_a == pytest.approx(float(a)) and got["ann"].part_b == pytest.approx(float(b))
    assert got["ann"].mers == pytest.approx(float((a + b) / 2)) and got["ann"].missing == 3

    bob = sorted(
        [(f(1000 * (10 - p), 9), age) for p, age in ((2, f(1)), (5, f(1)), (3, f(1)), (1, f(1, 3)), (4, f(1, 3)))],
        key=lambda x: -x[0],
    )
    a = sum(v * w for v, w in bob) / sum(w for _, w in bob)
    b = sum(v * w for v, w in bob[:3]) / sum(w for _, w in bob[:3])
    assert got["bob"].mers == pytest.approx(float((a + b) / 2)) and got["bob"].missing == 0
    assert len(got["bob"].counted) == 5  # the one over three years old and the future one left out
    assert [r.player for r in rank_players(results, ON)] == sorted(got, key=lambda p: -got[p].mers)


def test_equal_rankings_share_the_better_rank() -> None:
    results = [res(p, 1, 8, 10, event=f"x{p}") for p in ("a", "b")] + [res(p, 2, 8, 20, event=f"y{p}") for p in "ab"]
    results += [res("c", 5, 8, 10), res("c", 6, 8, 10)]
    ranks = [(r.player, r.rank) for r in rank_players(results, ON)]
    assert ranks == [("a", 1), ("b", 1), ("c", 3)]


def test_rules_are_parameters() -> None:
    results = [res("ann", 1, 16, 30), res("ann", 16, 16, 30)]
    plain = rank_players(results, ON, MersRules(minimum=0, best=1))[0]
    assert plain.part_a == 500 and plain.part_b == 1000 and plain.mers == 750


EMA_A = """position,last_name,first_name,ema_number,nationality,table_points,mahjong_points
1,García-López,María José,04123456,ESP,12,80
2,Müller,Hans,,GER,9,20
2,Wang,Fang,,CHN,9,20
DQ,Doe,John,,GBR,0,-300
"""
EMA_B = """Place,Name,EMA Number
1,Hans  müller,
2,Maria Jose Garcia Lopez,04123456
3,Someone Else,
"""


def test_ema_files_are_read_by_ema_number_else_by_name() -> None:
    a = read_ema_results(EMA_A, "A", ON - timedelta(days=50), 2)
    b = read_ema_results("\ufeff" + EMA_B, "B", ON - timedelta(days=20))
    assert [(r.place, r.players, r.weight) for r in a] == [(1, 4, 2), (2, 4, 2), (2, 4, 2), (4, 4, 2)]  # DQ: last
    keys = {r.player for r in a} & {r.player for r in b}
    assert keys == {"ema:04123456", "name:hans müller"}  # the number matches despite the spelling
    listed = {r.player: r for r in rank_players(a + b, ON)}
    assert set(listed) == keys
    for bad, why in (
        ("name\nx\ny\n", "no position column"),
        ("position,name\n1,x\n", "at least 2 players"),
        ("position,name\n1,x\n9,y\n", "position '9'"),
        ("position,name\n1,x\n2,\n", "no name"),
        ("", "no results"),
    ):
        with pytest.raises(MersFileError, match=why):
            read_ema_results(bad, "bad", ON)


def test_the_mers_command_reads_files_and_events_and_writes_a_page(tmp_path: Any, capsys: Any) -> None:
    url = f"sqlite:///{tmp_path}/m.db"

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", url])
        out, err = capsys.readouterr()
        return code, out, err

    assert (
        run("demo", "--players", "8", "--teams", "0", "--sessions", "2", "--seed", "3", "--save", "--no-progress")[0]
        == 0
    )
    ema = tmp_path / "cup.csv"
    assert run("export", "demo-3", "--format", "ema", "-o", str(ema))[0] == 0
    old = tmp_path / "open-2025.csv"
    old.write_text(EMA_A)
    code, out, err = run(
        "mers", f"{old}@2025-12-20*2", f"{ema}@2026-06-01", "db:demo-3@2026-12-01", "--on", "2026-12-05", "--json"
    )
    assert code == 0, err
    rows = json.loads(out)
    # the demo's players met twice (the file and the database: the same results), so all 8 are listed
    assert len(rows) == 8 and [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert all(len(r["results"]) == 2 and r["missing"] == 3 for r in rows)
    page = tmp_path / "mers.html"
    code, out, _ = run("mers", f"{old}@2025-12-20*2", f"{ema}@2026-06-01", "db:demo-3@2026-12-01", "-o", str(page))
    assert code == 0 and "8 players" in out
    html = page.read_text()
    assert html.count("<tr data-player=") == 8 and "base rank" in html
    for argv, why in (
        ((f"{ema}",), "@2026-05-31"),
        ((f"{ema}@2026-13-01",), "not a date"),
        ((f"{ema}@2026-01-01*x",), "weight"),
        ((f"{tmp_path}/none.csv@2026-01-01",), "no such file"),
    ):
        code, _, err = run("mers", *argv)
        assert code != 0 and why in err, err
