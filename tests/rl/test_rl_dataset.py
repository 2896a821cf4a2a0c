"""simulate → dataset → load: every decision of the logged hands, declined claims included."""

import json
from pathlib import Path

import numpy as np
import pytest

from majiang.bots import make_bot
from majiang.cli import main
from majiang.rl import dataset
from majiang.rl.actions import PASS
from majiang.sim import simulate


class Counting:
    """A bot that counts the decisions it is asked for, and which of them were claim offers passed."""

    def __init__(self, spec, seed):
        self.bot = make_bot(spec, seed)
        self.name = spec
        self.decisions = 0
        self.passes = 0

    def choose(self, view, legal):
        self.decisions += 1
        a = self.bot.choose(view, legal)
        self.passes += a.type == "pass"
        return a


def test_simulate_dataset_load_round_trip(tmp_path, capsys):
    bots = [Counting(spec, i) for i, spec in enumerate(["fan", "eff", "rand", "eff"])]
    simulate(12, 4, bots, log_dir=tmp_path / "logs")
    assert main(["dataset", str(tmp_path / "logs"), "-o", str(tmp_path / "data"), "--shard-size", "300"]) == 0
    assert "decisions from 12 hands" in capsys.readouterr().out
    meta = json.loads((tmp_path / "data" / "meta.json").read_text())
    assert meta["hands"] == 12 and len(meta["shards"]) > 1

    d = dataset.load(tmp_path / "data")
    n = sum(b.decisions for b in bots)
    assert meta["records"] == n and len(d["action"]) == n  # the replay recovers every decision
    assert d["obs"].shape == (n, 204, 34) and d["obs"].dtype == np.float32
    assert d["mask"][np.arange(n), d["action"]].all()  # the chosen action is always legal
    passes = int((d["action"] == PASS).sum())
    assert passes >= sum(b.passes for b in bots) > 0  # declined claims are decisions ("pass")
    assert set(np.unique(d["hand"])) == set(range(12))
    for h in range(12):  # a hand's rewards add up to each seat's result, zero-sum
        rows = d["hand"] == h
        per_seat = [d["reward"][rows & (d["seat"] == s)].sum() for s in range(4)]
        assert sum(per_seat) == pytest.approx(0)
        first = [np.flatnonzero(rows & (d["seat"] == s))[0] for s in range(4)]
        assert [d["ret"][i] for i in first] == pytest.approx(per_seat)
    assert sum(len(s["action"]) for s in dataset.iter_shards(tmp_path / "data")) == n


def test_the_records_are_the_environment_observations(tmp_path):
    """Replaying a log gives the planes the AEC env shows while playing the same hand."""
    from majiang.engine.log import read_log, write_log
    from majiang.rl import mcr_v0

    env = mcr_v0.raw_env()
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    seen = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[-1] if rng.random() < 0.5 else rng.choice(legal))  # claims and wins often
        seen.append((int(agent[-1]), obs["observation"].copy(), a))
        env.step(a)
    write_log(env.hand.events, tmp_path / "h.jsonl")
    recs = dataset.decisions(read_log(tmp_path / "h.jsonl"))
    assert len(recs) == len(seen)
    for r, (seat, obs, a) in zip(recs, seen, strict=True):
        assert (r.seat, r.action) == (seat, a)
        assert np.array_equal(r.obs, obs)


def test_bad_input_is_refused(tmp_path, capsys):
    (tmp_path / "x.jsonl").write_text('{"type": "discard"}\n')
    assert main(["dataset", str(tmp_path / "x.jsonl"), "-o", str(tmp_path / "d")]) == 2
    assert "hand_start" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not a majiang dataset"):
        (tmp_path / "e").mkdir()
        (tmp_path / "e" / "meta.json").write_text("{}")
        dataset.load(tmp_path / "e")


# match records Botzone's own judge wrote (tests/engine/data; benchmarks/botzone_judge.py --judge-records)
JUDGE = Path(__file__).parents[1] / "engine" / "data"
JUDGE_SCORES = {"botzone_judge_rob.json": [-8, -37, -8, 53], "botzone_judge_hu.json": [35, -19, -8, -8]}


def test_botzone_match_records_become_records(tmp_path, capsys):
    for name in JUDGE_SCORES:
        (tmp_path / "logs").mkdir(exist_ok=True)
        (tmp_path / "logs" / name).write_bytes((JUDGE / name).read_bytes())
    assert main(["dataset", str(tmp_path / "logs"), "-o", str(tmp_path / "d")]) == 0
    assert "from 2 hands" in capsys.readouterr().out
    data = dataset.load(tmp_path / "d")
    meta = json.loads((tmp_path / "d" / "meta.json").read_text())
    assert len(data["action"]) == meta["records"] > 50
    assert all(m[a] for m, a in zip(data["mask"], data["action"], strict=True))  # every choice was legal
    assert (data["action"] == PASS).sum() > 0  # the claims each player declined
    for h, log in enumerate(meta["logs"]):
        ours = data["hand"] == h
        for seat, score in enumerate(JUDGE_SCORES[Path(log).name]):
            first = np.flatnonzero(ours & (data["seat"] == seat))[0]
            assert data["ret"][first] == score  # a seat's return from its first decision: the judge's score
            assert data["reward"][ours & (data["seat"] == seat)].sum() == score


def test_a_botzone_wrong_answer_is_replayed_but_not_recorded(tmp_path):
    rec = json.loads((JUDGE / "botzone_judge_hu.json").read_text())
    rec["log"] = rec["log"][:10]  # player 1 draws J3 (entry 8) and answers with a tile it does not hold
    rec["log"][9] = {str(p): {"verdict": "OK", "response": "PLAY W9" if p == 1 else "PASS"} for p in range(4)}
    (tmp_path / "wa.json").write_text(json.dumps(rec))
    events = dataset.hand_events(tmp_path / "wa.json")
    assert [e["type"] for e in events[-3:]] == ["fault", "payment", "hand_end"] and events[-3]["seat"] == 1
    assert events[-2]["deltas"] == [10, -30, 10, 10]  # Botzone's WA: −30 for it, +10 each other
    out = dataset.decisions(events)
    assert [(d.seat, d.ret) for d in out] == [(0, 10.0)]  # seat 0's discard; the wrong answer is no record


def test_a_json_file_that_is_no_match_record_is_refused(tmp_path, capsys):
    (tmp_path / "x.json").write_text('{"log": []}')
    assert main(["dataset", str(tmp_path / "x.json"), "-o", str(tmp_path / "d")]) == 2
    assert "not a Botzone match record" in capsys.readouterr().err
