"""The bot league in IJCAI 2020's duplicate format (``majiang.arena``, ``majiang arena``)."""

import json
import random
import shlex
import sys
from itertools import combinations
from pathlib import Path

import pytest

import majiang.arena as arena
from majiang.arena import (
    FORMAT,
    IJCAI_SEATINGS,
    IJCAI_WALLS,
    field_of,
    match_seatings,
    rank_points,
    run_league,
    swiss_groups,
)
from majiang.bots.base import make_bot
from majiang.cli import main
from majiang.engine.compiled import new_hand
from majiang.engine.protocol import DISCARD, Action

FIVE = ["rand", "eff", "fan", "eff", "fan"]  # three fillers make it eight: two tables


def _small(specs=FIVE, rounds=2, seed=1, **kw):
    return run_league(specs, rounds, seed=seed, walls=1, seatings=4, **kw)


def _timeless(report: dict) -> dict:
    report = json.loads(json.dumps(report))
    del report["seconds"]
    for s in report["standings"]:
        del s["time_per_decision_ms"]
    return report


# ---- ranking points --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scores", "points"),
    [
        ([10, -2, 5, -13], [4, 2, 3, 1]),
        ([5, 5, 0, -10], [3.5, 3.5, 2, 1]),
        ([0, 7, 7, 7], [1, 3, 3, 3]),
        ([-1, 2, -1, 0], [1.5, 4, 1.5, 3]),
        ([0, 0, 0, 0], [2.5, 2.5, 2.5, 2.5]),
    ],
)
def test_rank_points_are_4_3_2_1_and_tied_bots_share(scores, points):
    assert rank_points(scores) == points
    assert sum(rank_points(scores)) == 10


def test_seatings_are_every_order_or_every_bot_once_in_each_seat():
    every = match_seatings(24)
    assert len(set(every)) == 24 and all(sorted(s) == [0, 1, 2, 3] for s in every)
    rotations = match_seatings(4)
    for seat in range(4):
        assert sorted(s[seat] for s in rotations) == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        match_seatings(6)


# ---- the field ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "fillers"), [(2, 2), (4, 0), (5, 3), (6, 2), (7, 1), (8, 0)])
def test_fillers_make_the_field_a_multiple_of_four(n, fillers):
    entrants = field_of(["eff"] * n, filler="rand")
    assert len(entrants) % 4 == 0
    assert [e.spec for e in entrants if e.filler] == ["rand"] * fillers
    assert len({e.id for e in entrants}) == len(entrants)  # duplicates get their own names


# ---- Swiss pairing -------------------------------------------------------------------------------------
def test_swiss_groups_follow_the_standings():
    assert swiss_groups(list("ABCDEFGHIJKL")) == (tuple("ABCD"), tuple("EFGH"), tuple("IJKL"))


def test_swiss_groups_pass_over_a_group_that_has_met():
    played = {frozenset("ABCD"), frozenset("EFGH")}
    groups = swiss_groups(list("ABCDEFGH"), played)
    assert not any(frozenset(g) in played for g in groups)
    assert groups[0][:3] == tuple("ABC")  # as close to the standings as that allows
    assert sorted(sum(groups, ())) == list("ABCDEFGH")


def test_swiss_groups_repeat_only_when_there_is_no_other_grouping():
    assert swiss_groups(list("ABCD"), {frozenset("ABCD")}) == (tuple("ABCD"),)
    # eight bots have 35 groupings into two tables; after all of them any grouping repeats
    everyone = list("ABCDEFGH")
    played = {frozenset(("A", *t)) for t in combinations("BCDEFGH", 3)}
    played |= {frozenset(set(everyone) - g) for g in played}
    assert swiss_groups(everyone, played) == (tuple("ABCD"), tuple("EFGH"))


def test_swiss_groups_avoid_repeats_round_after_round():
    rng = random.Random(5)
    ids = [f"b{i}" for i in range(16)]
    played: set[frozenset[str]] = set()
    for _ in range(8):
        rng.shuffle(ids)
        groups = swiss_groups(ids, played)
        assert not any(frozenset(g) in played for g in groups)
        played |= {frozenset(g) for g in groups}


# ---- a league on the engine ------------------------------------------------------------------------------
def test_a_small_league_scores_every_match_4_3_2_1():
    d = _small().to_dict()
    assert d["rounds"] == 2 and d["hands_per_match"] == 4
    for r in d["pairings"]:
        assert len(r["matches"]) == 2
        for m in r["matches"]:
            assert sum(m["points"]) == 10 and m["points"] == rank_points(m["scores"])
            assert sum(m["scores"]) == 0 and m["hands"] == 4
        seated = [b for m in r["matches"] for b in m["bots"]]
        assert sorted(seated) == sorted(e["bot"] for e in d["entrants"])
    for s in d["standings"]:
        earned = [
            p
            for r in d["pairings"]
            for m in r["matches"]
            for b, p in zip(m["bots"], m["points"], strict=True)
            if b == s["bot"]
        ]
        assert s["points"] == sum(earned) and s["matches"] == 2 and s["hands"] == 8
        assert s["decisions"] > 0 and s["faults"] == 0
    assert sum(s["points"] for s in d["standings"]) == 10 * 2 * 2


def test_the_filler_appears_when_needed():
    d = _small(filler="rand").to_dict()
    fillers = [e for e in d["entrants"] if e["filler"]]
    assert [e["spec"] for e in fillers] == ["rand"] * 3
    seated = {b for r in d["pairings"] for m in r["matches"] for b in m["bots"]}
    assert {e["bot"] for e in fillers} <= seated
    d = _small(["rand", "eff", "fan", "eff"]).to_dict()
    assert not any(e["filler"] for e in d["entrants"]) and len(d["entrants"]) == 4


def test_later_rounds_pair_by_the_standings_without_repeat_groups():
    league = _small(rounds=3)
    d = league.to_dict()
    groups = [frozenset(m["bots"]) for r in d["pairings"] for m in r["matches"]]
    assert len(set(groups)) == len(groups) and all(r["repeats"] == 0 for r in d["pairings"])
    assert d["pairings"][0]["order"] == league.draw
    # round 2 is grouped from the standings after round 1: points, then total score
    after_one = {
        b: (p, s)
        for m in d["pairings"][0]["matches"]
        for b, p, s in zip(m["bots"], m["points"], m["scores"], strict=True)
    }
    order = d["pairings"][1]["order"]
    keys = [after_one[b] for b in order]
    assert keys == sorted(keys, reverse=True)
    assert d["pairings"][1]["matches"][0]["bots"][0] == order[0]


def test_four_bots_meet_again_each_round():
    d = _small(["rand", "eff", "fan", "eff"], rounds=2).to_dict()
    assert d["pairings"][1]["repeats"] == 1  # nobody else to play


def test_the_same_seed_gives_the_same_report_but_for_the_times():
    a, b = _small(seed=7).to_dict(), _small(seed=7).to_dict()
    assert _timeless(a) == _timeless(b)
    assert _timeless(_small(seed=8).to_dict()) != _timeless(a)


def test_a_match_is_four_walls_in_24_seatings_by_default(monkeypatch):
    dealt = []

    def spy(rules, seed, **kw):
        dealt.append((seed, kw["prevalent"], kw["dealer"]))
        return new_hand(rules, seed, **kw)

    monkeypatch.setattr(arena, "new_hand", spy)
    league = run_league(["rand"] * 4, 1, seed=3)
    d = league.to_dict()
    assert (IJCAI_WALLS, IJCAI_SEATINGS) == (4, 24)
    assert d["walls_per_match"] == 4 and d["seatings_per_match"] == 24 and d["hands_per_match"] == 96
    assert [m["hands"] for m in d["pairings"][0]["matches"]] == [96]
    assert all(s["hands"] == 96 for s in d["standings"])
    # wall w, prevalent wind 东南西北[w], in 24 seatings: a new wall for each wind
    assert [p for _, p, _ in dealt] == [w for w in range(4) for _ in range(24)]
    assert len({seed for seed, _, _ in dealt}) == 4 and all(seed == dealt[0][0] for seed, _, _ in dealt[:24])


class _Cheat:
    """Discards a tile it does not hold, every time; the engine plays the default instead."""

    name = "cheat"

    def choose(self, view, legal):
        return Action(DISCARD, 99)


class _Patchy:
    """Counts a fault of its own every decision, as an external bot replacing a bad reply does."""

    name = "patchy"

    def __init__(self):
        self.faults = 0

    def choose(self, view, legal):
        self.faults += 1
        return legal[0]


def test_faults_are_counted_for_the_bot_that_made_them(monkeypatch):
    bots = {"cheat": _Cheat, "patchy": _Patchy}
    monkeypatch.setattr(
        arena,
        "make_bot",
        lambda spec, seed=None, rules="gb": bots[spec]() if spec in bots else make_bot(spec, seed, rules),
    )
    d = _small(["cheat", "patchy", "eff", "rand"], rounds=1).to_dict()
    by_bot = {s["bot"]: s for s in d["standings"]}
    assert by_bot["cheat"]["faults"] == by_bot["cheat"]["decisions"] > 0
    assert by_bot["patchy"]["faults"] == by_bot["patchy"]["decisions"] > 0
    assert by_bot["eff"]["faults"] == by_bot["rand"]["faults"] == 0


# ---- the command ---------------------------------------------------------------------------------------
def _cli(*args: str) -> list[str]:
    return [
        "arena",
        "--bots",
        ",".join(FIVE),
        "--rounds",
        "2",
        "--walls",
        "1",
        "--seatings",
        "4",
        "--no-progress",
        *args,
    ]


def test_the_json_report_has_its_schema(tmp_path, capsys):
    out = tmp_path / "report.json"
    assert main(_cli("--json", str(out))) == 0
    printed = capsys.readouterr().out  # the tables are printed as well
    assert "选手" in printed and "对阵 pairings" in printed
    d = json.loads(out.read_text())
    assert set(d) == {
        "format",
        "rules",
        "faults",
        "seed",
        "filler",
        "rounds",
        "walls_per_match",
        "seatings_per_match",
        "hands_per_match",
        "entrants",
        "standings",
        "pairings",
        "seconds",
    }
    assert d["format"] == FORMAT and d["filler"] == "eff" and d["rules"] == "gb"
    assert set(d["entrants"][0]) == {"bot", "spec", "filler"}
    row = d["standings"][0]
    assert set(row) == {
        "rank",
        "bot",
        "spec",
        "filler",
        "points",
        "matches",
        "hands",
        "score",
        "score_per_hand",
        "score_per_hand_ci95",
        "win_rate",
        "deal_in_rate",
        "draw_rate",
        "faults",
        "fault_kinds",
        "false_wins",
        "decisions",
        "time_per_decision_ms",
    }
    assert set(row["time_per_decision_ms"]) == {"mean", "p50", "p99"}
    assert set(row["fault_kinds"]) == {"timeout", "illegal", "crash"} and d["faults"] == "botzone"
    lo, hi = row["score_per_hand_ci95"]
    assert lo <= row["score_per_hand"] <= hi
    assert [s["rank"] for s in d["standings"]] == list(range(1, 9))
    assert set(d["pairings"][0]) == {"round", "order", "repeats", "matches"}
    assert set(d["pairings"][0]["matches"][0]) == {"table", "bots", "scores", "points", "hands"}


def test_json_dash_prints_the_report_alone(capsys):
    assert main(_cli("--json", "-", "--seed", "4")) == 0
    first = _timeless(json.loads(capsys.readouterr().out))
    assert main(_cli("--json", "-", "--seed", "4")) == 0
    assert _timeless(json.loads(capsys.readouterr().out)) == first


def test_help_answers(capsys):
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = capsys.readouterr().out
    for words in ("IJCAI 2020", "Swiss", "24 seatings", "4/3/2/1", "--filler", "--json OUT", "--time-limit", "95%"):
        assert words in text
    assert "%%" not in text and "--walls" not in text  # the cut-down matches are for tests


@pytest.mark.parametrize(
    "args", [["--bots", "eff"], ["--bots", "eff,nosuchbot"], ["--rounds", "0"], ["--seatings", "5"]]
)
def test_bad_arguments_are_refused(args, capsys):
    argv = ["arena", "--bots", "eff,fan", "--rounds", "1", "--no-progress", *args]
    assert main(argv) == 2
    assert "error:" in capsys.readouterr().err


def test_majiang_help_lists_the_arena(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "arena" in capsys.readouterr().out


def test_a_named_botzone_bot_keeps_its_name_under_a_time_limit(tmp_path, capsys):
    program = Path(__file__).parents[2] / "examples" / "botzone_bot.py"
    out = tmp_path / "r.json"
    command = shlex.join([sys.executable, str(program)])
    argv = [
        "arena",
        "--bots",
        f"mine=botzone:{command},eff,rand",
        "--rounds",
        "1",
        "--walls",
        "1",
        "--seatings",
        "1",
        "--time-limit",
        "5",
        "--no-progress",
        "--json",
        str(out),
    ]
    assert main(argv) == 0
    d = json.loads(out.read_text())
    mine = next(s for s in d["standings"] if s["bot"] == "mine")
    assert mine["spec"] == f"botzone:{command}"  # the time limit is not part of the name
    assert mine["decisions"] > 0 and mine["faults"] == 0 and mine["time_per_decision_ms"]["mean"] > 0


def test_json_into_a_missing_folder_is_refused_before_the_league(tmp_path, capsys):
    assert main(_cli("--json", str(tmp_path / "no" / "r.json"))) == 2
    assert "no such folder" in capsys.readouterr().err


def test_help_lists_every_bot_kind(capsys):
    from majiang.bots.base import BOT_KINDS

    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = capsys.readouterr().out
    assert all(f"{kind} (" in text for kind in BOT_KINDS) and "--faults" in text


class _Late:
    """Reports every answer as late (a Botzone bot over its time), playing the replacement."""

    name = "late"

    def __init__(self):
        self.faults = 0
        self.last_fault = None

    def choose(self, view, legal):
        self.faults += 1
        self.last_fault = "TLE"
        return legal[-1]


@pytest.mark.parametrize(("faults", "ends"), [("botzone", True), ("substitute", False)])
def test_a_reported_fault_ends_the_hand_botzone_s_way_unless_substituted(monkeypatch, faults, ends):
    monkeypatch.setattr(
        arena,
        "make_bot",
        lambda spec, seed=None, rules="gb": _Late() if spec == "late" else make_bot(spec, seed, rules),
    )
    d = arena.run_league(["late", "eff", "rand", "eff"], rounds=1, seed=3, walls=1, seatings=4, faults=faults).to_dict()
    late = next(s for s in d["standings"] if s["bot"] == "late")
    assert late["fault_kinds"]["timeout"] == late["faults"] == late["decisions"] > 0
    assert late["fault_kinds"]["illegal"] == late["fault_kinds"]["crash"] == 0
    if ends:  # every hand ends at its first decision: −30 for it, +10 for the others
        assert late["faults"] == late["hands"] and late["score_per_hand"] == -30
    else:
        assert late["faults"] > late["hands"] and late["score_per_hand"] != -30
