"""The botzone ruleset is Botzone's game as the judge (ailab-pku/Chinese-Standard-Mahjong) plays it: arranged
walls for each rule, and match records both ways."""

import json
import random
from argparse import Namespace

import pytest
import rig as rigging
from rig import rig

from majiang.bots.base import RandomBot
from majiang.engine import Hand
from majiang.engine.botzone import botzone_tile, parse_botzone_tile
from majiang.engine.hand import IllegalAction, Phase
from majiang.engine.log import verify
from majiang.engine.protocol import Action
from majiang.rulesets import from_header, info, make_ruleset
from majiang.rulesets.botzone import (
    compare,
    export_record,
    hand_from_walltiles,
    hand_result,
    import_record,
    record_result,
)
from majiang.sim import play_hand
from majiang.tiles import parse_tile as T

DEALER_JUNK = "5p ESWNCFP EE SS WW"  # 14 tiles (the 14th is the first draw), discards 5p first
WIN_CLEAR = "123456789m 11s 46p"  # waits on 5p (嵌张, 清龙)
WIN_FLUSH = "123p 46p 789p 22p 999p"  # waits on 5p, 清一色
PUNG_5P = "55p 13579s 2468m EN"
ROB = {0: "3s 5p SWNCFP SS WW NC", 1: "33s 123456789p E N", 2: "13579m 2468s CFP S", 3: "123456789m 12s EE"}


@pytest.fixture(autouse=True, params=["python", "core"])
def engine(request, monkeypatch):
    """The rigged scenarios on the Python engine and on the compiled core (tests/engine/test_core_equal.py)."""
    if request.param == "core" and not rigging.CORE:
        pytest.skip("the compiled core is not built (or MAJIANG_PURE=1)")
    monkeypatch.setattr(rigging, "ENGINE", request.param)
    return request.param


def _pass_all(h):
    if h.phase not in (Phase.CLAIM, Phase.ROB):
        return
    for s in list(h.prompted()):
        h.act(s, Action("pass"))


def _discard_drawn(h):
    s = h.current
    h.act(s, Action("discard", h.seats[s].drawn if h.seats[s].drawn is not None else h.legal(s)[-1].tile))


def test_136_tiles_without_flowers():
    assert info("botzone").tiles == 136 and info("gb").tiles == 144
    assert not any(make_ruleset("botzone").is_bonus(t) for t in range(34))


def test_each_player_is_dealt_from_the_back_of_its_quarter_and_the_dealer_draws_first():
    rng = random.Random(5)
    wall = [t for t in range(34) for _ in range(4)]
    rng.shuffle(wall)
    h = hand_from_walltiles(wall, quan=2)
    assert h.prevalent == 2 and h.dealer == 0
    for p in range(4):
        dealt = sorted(wall[34 * p + 21 : 34 * p + 34])
        if p == 0:
            dealt = sorted([*dealt, wall[20]])  # the dealer's first draw: the next tile of its quarter
        assert h.seats[p].concealed() == dealt
    assert h.seats[0].drawn == wall[20] and h.current == 0 and h.phase is Phase.TURN
    _discard_drawn(h)
    _pass_all(h)
    draw = next(e for e in reversed(h.events) if e["type"] == "draw")
    assert draw["seat"] == 1 and draw["tile"] == wall[34 + 20]  # player 1 draws from its own quarter


def test_a_kong_replacement_comes_from_the_konger_s_own_quarter():
    h = rig(
        {0: "EEEE 123m 456p 789s 9m", 1: WIN_FLUSH, 2: "55p 13579s 2468m SN", 3: WIN_CLEAR},
        rules="botzone",
        parts={0: "7s"},
    )
    assert h.wall.left(0) == 20
    h.act(0, Action("concealed_kong", T("E")))
    draw = h.events[-1]
    assert draw["type"] == "draw" and draw["seat"] == 0 and draw["tile"] == T("7s") and draw["tail"]
    assert h.wall.left(0) == 19 and [h.wall.left(s) for s in (1, 2, 3)] == [21, 21, 21]
    assert verify(h.events, from_header)[0]


def _run_out(h, kong_seat=None):
    """Discard the drawn tile, pass every claim; ``kong_seat`` declares its first concealed kong."""
    konged = False
    while not h.over:
        if h.phase is Phase.TURN:
            s = h.current
            kong = [a for a in h.legal(s) if a.type == "concealed_kong"]
            if s == kong_seat and kong and not konged:
                h.act(s, kong[0])
                konged = True
            else:
                _discard_drawn(h)
        else:
            _pass_all(h)


def quarters(fixed, seed=0):
    """A wall with ``fixed[(player, i)]``: the i-th tile that player takes from its quarter (0–12 the
    deal, then its draws; the dealer's 13 is its first draw); the rest shuffled."""
    wall = [None] * 136
    pool = [t for t in range(34) for _ in range(4)]
    for (p, i), text in fixed.items():
        t = T(text)
        wall[34 * p + 33 - i] = t
        pool.remove(t)
    random.Random(seed).shuffle(pool)
    return [t if t is not None else pool.pop() for t in wall]


def test_the_hand_is_exhausted_when_the_seat_to_draw_has_an_empty_quarter():
    # player 2 kongs once: its quarter runs out a turn before the others'
    h = rig(
        {0: DEALER_JUNK, 1: "19m 19p 19s ESWN CFP", 2: "2222m 36m 47p 58s 9s 1p 1s", 3: "13579s 2468p 3m 4m 5m 6m"},
        rules="botzone",
    )
    _run_out(h, kong_seat=2)
    assert h.events[-3]["type"] == "exhausted"
    last_draw = next(e for e in reversed(h.events) if e["type"] == "draw")
    assert last_draw["seat"] == 1  # player 2 was to draw next, with nothing left in its quarter
    assert [h.wall.left(s) for s in range(4)] == [0, 0, 0, 1]
    assert h.deltas == [0, 0, 0, 0] and verify(h.events, from_header)[0]


def test_last_tile_is_by_the_quarter_of_the_seat_to_draw_next():
    rng = random.Random(11)
    h = Hand(make_ruleset("botzone"), rng.randbytes(32))
    seen = []
    while not h.over:
        if h.phase is Phase.TURN:
            s = h.current
            ctx = h.win_context(s, h.seats[s].drawn, None)
            assert ctx.last == (h.wall.left((s + 1) % 4) == 0)
            seen.append((s, ctx.last))
            _discard_drawn(h)
        else:
            _pass_all(h)
    # no claims: every quarter gives 21 draws; only player 3's last draw is the last tile (player 0's
    # quarter is empty then) — not player 0's last draw, although its own quarter is empty after it
    assert len(seen) == 84 and seen[-1] == (3, True) and sum(last for _, last in seen) == 1


def test_claims_and_kongs_are_refused_at_the_end_of_a_quarter_but_the_discard_can_be_won():
    # player 1 holds 77p; player 3 draws 7p first and last: the first may be punged, the last not
    # (player 0, next to draw, has an empty quarter then)
    h = hand_from_walltiles(quarters({(1, 0): "7p", (1, 1): "7p", (3, 13): "7p", (3, 33): "7p"}), 0)
    offered = []
    while not h.over:
        if h.phase is Phase.TURN:
            s = h.current
            sevens = s == 3 and h.seats[3].drawn == T("7p")
            _discard_drawn(h)
            if sevens:
                pung = h.phase is Phase.CLAIM and 1 in h.prompted() and Action("pung", T("7p")) in h.legal(1)
                offered.append((pung, h.wall.left(0)))
            continue
        if h.wall.left((h.pending[0] + 1) % 4) == 0:
            assert all(a.type in ("win", "pass") for q in h.prompted() for a in h.legal(q))
        _pass_all(h)
    assert offered == [(True, 20), (False, 0)]
    assert h.events[-3]["type"] == "exhausted"


@pytest.mark.parametrize(("last", "offered"), [(33, False), (32, True)])
def test_no_concealed_kong_from_an_empty_quarter(last, offered):
    # the dealer holds EEE and draws the fourth E as its last (21st) or its 20th draw
    h = hand_from_walltiles(quarters({(0, 0): "E", (0, 1): "E", (0, 2): "E", (0, last): "E"}), 0)
    seen = None
    while not h.over:
        if h.phase is Phase.TURN:
            s = h.current
            if s == 0 and h.seats[0].drawn == T("E"):
                seen = any(a.type == "concealed_kong" for a in h.legal(0))
            _discard_drawn(h)
        else:
            _pass_all(h)
    assert seen is offered


def test_scores_self_draw_discard_and_robbed_kong():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR}, rules="botzone")
    h.act(0, Action("discard", T("5p")))
    h.act(2, Action("pass"))
    h.act(3, Action("pass"))
    h.act(1, Action("win", T("5p")))
    f = h.win.points
    assert h.deltas == [-(8 + f), 24 + f, -8, -8]
    # self-draw: 3 × (8 + F)
    h = rig({0: "123p 46p 789p 22p 999p 5p", 1: "19m 19s ESWN CFP 3m 5m", 2: PUNG_5P, 3: WIN_CLEAR}, rules="botzone")
    h.act(0, Action("win", T("5p")))
    f = h.win.points
    assert h.deltas == [3 * (8 + f), -(8 + f), -(8 + f), -(8 + f)]


def _to_added_kong(h):
    h.act(0, Action("discard", T("3s")))
    for s in list(h.prompted()):
        h.act(s, Action("pung", T("3s")) if s == 1 else Action("pass"))
    h.act(1, Action("discard", T("N")))
    while not (h.current == 1 and h.phase is Phase.TURN):
        if h.phase is Phase.TURN:
            _discard_drawn(h)
        else:
            _pass_all(h)
    h.act(1, Action("added_kong", T("3s")))


def test_robbing_a_kong_the_robbed_player_pays_as_the_discarder_and_the_record_has_a_bugang_turn():
    h = rig(ROB, rules="botzone", parts={0: "P", 1: "3s", 2: "C", 3: "F"})
    _to_added_kong(h)
    assert h.phase is Phase.ROB and h.prompted() == [3]
    h.act(3, Action("win", T("3s")))
    f = h.win.points
    assert "Robbing the Kong" in {x["name"] for x in h.win.names}
    assert h.deltas == [-8, -(8 + f), -8, 24 + f]
    rec = export_record(h.events)
    i = next(i for i, e in enumerate(rec["log"]) if e.get("output", {}).get("content", {}).get("0") == "3 1 BUGANG T3")
    assert rec["log"][i - 1]["1"]["response"] == "BUGANG T3" and rec["log"][i + 1]["3"]["response"] == "HU"
    assert rec["log"][i + 2]["output"]["command"] == "finish" and len(rec["log"]) == i + 3
    assert rec["scores"] == h.deltas
    back = import_record(rec)
    assert hand_result(back)["score"] == h.deltas and back.win.points == f


def test_a_wrong_answer_or_a_timeout_ends_the_hand_minus_30_plus_10():
    for kind in ("WA", "TLE"):
        h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR}, rules="botzone")
        h.act(0, Action("discard", T("5p")))
        h.fault(2, kind)
        assert h.over and h.deltas == [10, 10, -30, 10]
        assert verify(h.events, from_header)[0]
        rec = export_record(h.events)
        assert rec["scores"] == [10, 10, -30, 10]
        assert rec["log"][-2]["2"] == (
            {"verdict": "OK", "response": "WA"} if kind == "WA" else {"verdict": "TLE", "response": "PASS"}
        )
        assert compare(hand_result(import_record(rec)), record_result(rec)) == []


def test_false_win_ends_the_hand_minus_30_plus_10():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR}, rules="botzone")
    h.act(0, Action("discard", T("5p")))
    h.act(2, Action("win", T("5p")))
    assert h.over and h.deltas == [10, 10, -30, 10]
    rec = export_record(h.events)
    assert record_result(rec)["action"] == "WH"
    assert compare(hand_result(import_record(rec)), record_result(rec)) == []


def test_gb_has_no_penalty_for_a_wrong_answer():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR})
    with pytest.raises(IllegalAction):
        h.fault(1, "WA")


def test_botzone_tiles_round_trip():
    assert [parse_botzone_tile(botzone_tile(t)) for t in range(42)] == list(range(42))
    with pytest.raises(ValueError):
        parse_botzone_tile("Z1")


@pytest.mark.parametrize("seed", range(12))
def test_export_import_round_trip(seed):
    rng = random.Random(seed)
    h = Hand(make_ruleset("botzone"), rng.randbytes(32), dealer=seed % 4, prevalent=seed // 4 % 4)
    bots = [RandomBot(seed * 4 + i) for i in range(4)]
    if seed % 2:
        from majiang.bots import make_bot

        bots = [make_bot("fan", seed * 4 + i, rules="botzone") for i in range(4)]
    play_hand(h, bots)
    rec = export_record(h.events)
    assert rec["initdata"]["quan"] == h.prevalent and len(rec["initdata"]["walltiles"].split()) == 136
    assert rec["scores"] == [h.deltas[(h.dealer + p) % 4] for p in range(4)]
    back = import_record(json.loads(json.dumps(rec)))
    assert back.over and compare(hand_result(back), record_result(rec)) == []
    assert export_record(back.events) == rec  # the same record again, turn by turn
    assert verify(back.events, from_header)[0]


def test_replay_command_reads_a_match_record(tmp_path, capsys):
    from majiang.cli.replay_cmd import run

    h = rig(ROB, rules="botzone", parts={0: "P", 1: "3s", 2: "C", 3: "F"})
    _to_added_kong(h)
    h.act(3, Action("win", T("3s")))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(export_record(h.events)))
    assert run(Namespace(file=str(path), verify=True, botzone=None, json=True)) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == h.deltas and out["winner"] == 3 and out["verify"] == "ok"
    rec = json.loads(path.read_text())
    rec["log"][-1]["output"]["content"]["0"] = -7
    path.write_text(json.dumps(rec))
    assert run(Namespace(file=str(path), verify=True, botzone=None, json=False)) == 1


# records the judge itself wrote (its outputs turn by turn, the players' responses from majiang's bots):
# benchmarks/botzone_judge.py --strict N --judge-records DIR, and the robbed kong above
DATA = __import__("pathlib").Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("name", "action", "scores"),
    [
        ("botzone_judge_rob.json", "HU", [-8, -37, -8, 53]),
        ("botzone_judge_hu.json", "HU", [35, -19, -8, -8]),
        ("botzone_judge_huang.json", "HUANG", [0, 0, 0, 0]),
    ],
)
def test_records_written_by_the_judge_replay_to_its_result(name, action, scores, capsys):
    from majiang.cli.replay_cmd import run

    rec = json.loads((DATA / name).read_text())
    assert record_result(rec)["action"] == action and record_result(rec)["score"] == scores
    hand = import_record(rec)
    assert compare(hand_result(hand), record_result(rec)) == []
    # the judge's requests are the ones majiang's export writes for the same hand
    ours = export_record(hand.events)
    assert [e["output"]["content"] for e in ours["log"][2::2]] == [e["output"]["content"] for e in rec["log"][2::2]]
    assert [e for e in ours["log"][1::2]] == [e for e in rec["log"][1::2]]
    assert run(Namespace(file=str(DATA / name), verify=True, botzone=None, json=True)) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == scores


def test_a_bot_s_illegal_choice_is_a_wrong_answer_in_botzone_s_game():
    class Wrong:
        name = "wrong"

        def choose(self, view, legal):
            return Action("discard", 99)

    h = Hand(make_ruleset("botzone"), bytes(32), dealer=1)
    seen = []
    play_hand(h, [RandomBot(1), Wrong(), RandomBot(2), RandomBot(3)], lambda seat, kind: seen.append((seat, kind)))
    assert seen == [(1, "WA")] and h.events[-1]["result"] == "fault" and h.deltas == [10, -30, 10, 10]
    assert export_record(h.events)["scores"] == [-30, 10, 10, 10]  # player 0 is the dealer, seat 1


@pytest.mark.parametrize("given", [{"srand": 1796143318}, "", {}])
def test_a_record_whose_wall_is_only_in_the_judge_s_first_output_replays(given, tmp_path, capsys):
    """A match started without a wall: the judge shuffled one and wrote it in its first output's
    initdata, the record's own initdata holding only the seed (or nothing)."""
    from majiang.cli.replay_cmd import run

    rec = json.loads((DATA / "botzone_judge_hu.json").read_text())
    init = rec["initdata"]
    rec["log"][0]["output"]["initdata"] = {"walltiles": init["walltiles"], "quan": init["quan"], "srand": init["srand"]}
    rec["initdata"] = given
    hand = import_record(rec)
    assert compare(hand_result(hand), record_result(rec)) == []
    path = tmp_path / "judge.json"
    path.write_text(json.dumps(rec))
    assert run(Namespace(file=str(path), verify=True, botzone=None, json=True)) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [35, -19, -8, -8]


def test_a_record_without_any_wall_says_where_it_looked():
    rec = json.loads((DATA / "botzone_judge_hu.json").read_text())
    rec["initdata"] = {"srand": 5}
    with pytest.raises(ValueError, match="judge's first output"):
        import_record(rec)
