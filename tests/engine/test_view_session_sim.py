import io
import json
import random
from argparse import Namespace

from majiang.bots.base import RandomBot
from majiang.engine import Hand
from majiang.engine.log import dumps_event, loads_events, verify
from majiang.engine.session import Session
from majiang.engine.view import SeatView, event_view, tiles_to_json
from majiang.rulesets import from_header, make_ruleset
from majiang.rulesets.botzone import export_record
from majiang.sim import play_hand, simulate


def _random_hand(seed, rules="gb"):
    rng = random.Random(seed)
    h = Hand(make_ruleset(rules), rng.randbytes(32), dealer=seed % 4)
    play_hand(h, [RandomBot(seed + i) for i in range(4)])
    return h


def test_views_never_leak_other_concealed_tiles_or_the_wall():
    for seed in range(40):
        h = _random_hand(seed)
        for s in range(4):
            for e in h.events:
                v = event_view(e, s)
                if v is None:
                    continue
                if v["type"] == "deal":
                    assert all(not hh for i, hh in enumerate(v["hands"]) if i != s)
                if v["type"] == "draw" and v["seat"] != s:
                    assert "tile" not in v
                if v["type"] == "flower" and v["seat"] != s:
                    assert "replacement" not in v
                if v["type"] == "kong" and v.get("kind") == "concealed" and v["seat"] != s:
                    assert "tile" not in v
                if v["type"] == "hand_start":
                    assert "seed" not in v


def test_seat_view_dict_holds_only_own_tiles():
    rng = random.Random(2)
    h = Hand(make_ruleset("gb"), rng.randbytes(32))
    bots = [RandomBot(i) for i in range(4)]
    steps = 0
    while not h.over and steps < 60:
        for s in range(4):
            d = SeatView(h, s).to_dict()
            assert len(d["hand"]) == h.seats[s].n_concealed
            assert "seed" not in d and "wall_tiles" not in json.dumps(d)
            for other in d["seats"]:
                for m in other["melds"]:
                    if m["concealed"] and other["seat"] != s:
                        assert m["tiles"] == [None] * 4
        p = h.prompted()[0]
        h.act(p, bots[p].choose(SeatView(h, p), h.legal(p)))
        steps += 1


def test_log_round_trip_and_replay_many_hands():
    for seed in range(60):
        h = _random_hand(seed)
        events = loads_events([dumps_event(e) for e in h.events])
        ok, msg = verify(events, from_header)
        assert ok, msg
        assert sum(h.deltas) == 0


def test_replay_detects_a_tampered_log():
    h = _random_hand(3)
    events = loads_events([dumps_event(e) for e in h.events])
    i = next(i for i, e in enumerate(events) if e["type"] == "draw")
    events[i]["tile"] = (events[i]["tile"] + 1) % 34
    assert not verify(events, from_header)[0]


def test_session_rotation_every_player_deals_four_times_and_holds_each_wind_four_times():
    session = Session(make_ruleset("gb"), b"session-seed")
    dealt = [0] * 4
    winds = [[0] * 4 for _ in range(4)]
    bots = [RandomBot(i) for i in range(4)]
    while (hand := session.new_hand()) is not None:
        for s in range(4):
            winds[session.player_at(s)][hand.seat_wind(s)] += 1
        dealt[session.player_at(hand.dealer)] += 1
        assert hand.prevalent == session.round
        play_hand(hand, bots)
        session.finish_hand(hand)
    assert len(session.records) == 16
    assert dealt == [4, 4, 4, 4]
    assert winds == [[4, 4, 4, 4]] * 4
    assert sum(session.scores) == 2000


def test_session_time_limit_finishes_the_hand_in_play():
    t = [0.0]
    session = Session(make_ruleset("gb"), b"x", clock=lambda: t[0])
    from majiang.engine.session import SessionConfig

    session = Session(make_ruleset("gb"), b"x", SessionConfig(time_limit_s=10), clock=lambda: t[0])
    hand = session.new_hand()
    play_hand(hand, [RandomBot(i) for i in range(4)])
    t[0] = 11.0
    session.finish_hand(hand)
    assert session.over and session.new_hand() is None and len(session.records) == 1


def test_simulate_summary_shape_and_invariants():
    r = simulate(48, 7, ["rand", "rand", "rand", "rand"], duplicate=True, verify=True).to_dict()
    assert r["hands"] == 48 and r["illegal_actions"] == 0 and r["zero_sum_violations"] == 0
    assert r["replay_mismatches"] == 0 and r["false_wins"] == 0
    assert set(r["seats"][0]) == {
        "bot",
        "win_rate",
        "deal_in_rate",
        "avg_fan_on_win",
        "avg_score",
        "avg_score_ci95",
        "faults",
    }
    assert r["seats"][0]["faults"] == {"timeout": 0, "illegal": 0, "crash": 0}
    assert abs(sum(s["avg_score"] for s in r["seats"])) < 1e-9  # zero-sum over the same hands


def test_botzone_export_has_requests_and_responses():
    h = _random_hand(9, "botzone")
    bz = export_record(h.events)
    assert bz["log"][0]["output"]["content"]["0"].startswith("0 0 ")
    assert all(set(entry) == {"0", "1", "2", "3"} for entry in bz["log"][1::2])
    plays = [r for entry in bz["log"][1::2] for r in entry.values() if r["response"].startswith("PLAY")]
    assert len(plays) == sum(1 for e in h.events if e["type"] == "discard") - sum(
        1 for e in h.events if e["type"] in ("pung", "chow")
    )


def test_tiles_to_json_converts_only_tile_keys():
    assert tiles_to_json({"tile": 0, "seat": 0, "hands": [[27, 33]]}) == {
        "tile": "1m",
        "seat": 0,
        "hands": [["E", "P"]],
    }


def test_play_command_runs_a_hand_from_typed_input():
    from majiang.cli.play_cmd import run

    out = io.StringIO()
    inp = io.StringIO("\n" * 400)
    rc = run(Namespace(bots="rand,rand,rand", tiles="letters", seed=3, rules="gb", hands=1), inp, out)
    text = out.getvalue()
    assert rc == 0 and "your choice>" in text and "final scores" in text


def test_seat_view_melds_show_other_seats_concealed_kongs_face_down():
    from rig import rig

    from majiang.engine.protocol import Action
    from majiang.melds import FACE_DOWN
    from majiang.tiles import parse_tile

    h = rig(
        {0: "5555p 2468m SWNC SS", 1: "13579s 2468p CF 19m", 2: "13579m 2468s CFP N", 3: "123456789m 11s 46p"},
        tail="9p",
    )
    h.act(0, Action("concealed_kong", parse_tile("5p")))
    own = SeatView(h, 0).melds[0]
    assert own[0].concealed and own[0].tiles == (parse_tile("5p"),) * 4
    for s in (1, 2, 3, -1):
        v = SeatView(h, s)
        kong = v.melds[0][0]
        assert kong.kind == "kong" and kong.concealed and kong.tiles == (FACE_DOWN,) * 4
        if s >= 0:
            assert v.unseen(parse_tile("5p")) == 4 - v.counts[parse_tile("5p")]  # nothing learnt from the kong
            assert v.to_dict()["seats"][0]["melds"][0]["tiles"] == [None] * 4
