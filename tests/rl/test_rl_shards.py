"""Compact shards and self-play datasets: bits that unpack to the same planes, the chosen claim kept
when a higher claim wins it, and a shuffled loader that holds a bounded number of records."""

import hashlib
import json

import numpy as np
import pytest

from majiang.bots import make_bot
from majiang.cli import main
from majiang.engine.compiled import new_hand
from majiang.engine.view import SeatView
from majiang.rl import dataset, selfplay, shards
from majiang.rl.actions import decode_action, encode_action
from majiang.rl.features import OBS_SHAPE
from majiang.rulesets import make_ruleset


def _hand(h: int, rules: str = "gb"):
    seed = hashlib.sha256(b"shards" + h.to_bytes(8, "big")).digest()
    return new_hand(make_ruleset(rules), seed, dealer=h % 4, prevalent=(h // 4) % 4, hand_no=h)


def _played(hands: int, bots=("eff", "eff", "eff", "eff"), rules: str = "gb"):
    players = [make_bot(b, i, rules=rules) for i, b in enumerate(bots)]
    for h in range(hands):
        hand = _hand(h, rules)
        yield hand, selfplay.play_recorded(hand, players)


def test_pack_unpack_is_exact():
    obs = np.stack([c.obs for _, cs in _played(3, ("rand", "eff", "rand", "eff")) for c in cs])
    bits, dense = shards.pack_obs(obs)
    assert bits.dtype == np.uint8 and bits.shape == (len(obs), shards.BIT_BYTES)
    assert bits.nbytes + dense.nbytes < obs.nbytes / 10
    np.testing.assert_array_equal(shards.unpack_obs(bits, dense), obs)
    assert np.any(dense != 0) and np.any((dense != 0) & (dense != 1))  # the fractions are in the dense rows
    bad = obs[:1].copy()
    bad[0, 0, 0] = 0.5
    with pytest.raises(ValueError, match="DENSE_ROWS"):
        shards.pack_obs(bad)


def test_outranked_claim_is_recorded_as_chosen_with_its_outcome():
    """A log shows only the claim that won the window: the dataset built from it records the losing
    seat's pung or chow as pass.  Self-play records the choice (``action``) and what the hand did
    with it (``taken``), which is exactly what the log says."""
    outranked = 0
    for hand, choices in _played(30):
        logged = dataset.decisions(hand.events)
        assert [(d.seat, d.action) for d in logged] == [(c.seat, c.taken) for c in choices]
        for c, d in zip(choices, logged, strict=True):
            np.testing.assert_array_equal(c.obs, d.obs)
            np.testing.assert_array_equal(c.mask, d.mask)
            assert c.mask[c.action]
            if c.action != c.taken:
                outranked += 1
                assert c.claim and c.action in (102, 103, 104, 105, 106) and c.taken == shards.PASS_CODE
                closing = hand.events[c.events]
                assert closing["seat"] != c.seat and closing["type"] in ("pung", "chow", "kong", "win")
    assert outranked > 0


def test_rewards_add_up_to_each_seats_result():
    for hand, choices in _played(6, ("rand", "eff", "rand", "eff")):
        final = [b + d for b, d in zip(hand.scores_before, hand.deltas, strict=True)]
        pairs = selfplay.rewards(choices, final)
        for seat in range(4):
            mine = [(c, r) for c, r in zip(choices, pairs, strict=True) if c.seat == seat]
            assert sum(r for _, (r, _) in mine) == pytest.approx(final[seat] - hand.scores_before[seat])
            assert mine[0][1][1] == pytest.approx(final[seat] - hand.scores_before[seat])


def test_selfplay_cli_and_loader_visit_every_record_once(tmp_path, capsys):
    out = tmp_path / "sp"
    assert (
        main(
            [
                "dataset",
                "--selfplay",
                "eff,rand,eff,rand",
                "--hands",
                "8",
                "--seed",
                "3",
                "-o",
                str(out),
                "--shard-size",
                "100",
                "--seats",
                "0,2",
            ]
        )
        == 0
    )
    assert "from 8 hands" in capsys.readouterr().out
    meta = json.loads((out / "meta.json").read_text())
    assert meta["format"] == shards.FORMAT and len(meta["shards"]) > 2
    stored = [shards.unpack(shards.read_shard(p)) for p in shards.shard_paths(out)]
    assert all(set(np.unique(s["seat"])) <= {0, 2} for s in stored)
    n = meta["records"]

    loader = shards.ShardLoader([out], batch_size=64, window=2, seed=1)
    seen = [b for b in loader]
    assert sum(len(b["action"]) for b in seen) == n
    assert all(b["obs"].shape[1:] == OBS_SHAPE and b["obs"].dtype == np.float32 for b in seen)

    def key(d):
        return sorted(
            zip(d["hand"].tolist(), d["action"].tolist(), d["ret"].tolist(), d["obs"].sum((1, 2)).tolist(), strict=True)
        )

    cat = {k: np.concatenate([b[k] for b in seen]) for k in ("hand", "action", "ret", "obs")}
    ref = {k: np.concatenate([s[k] for s in stored]) for k in ("hand", "action", "ret", "obs")}
    assert key(cat) == key(ref)
    assert not np.array_equal(cat["hand"], ref["hand"])  # shuffled
    biggest = max(len(s["action"]) for s in stored)
    assert loader.peak_records <= 2 * biggest + 64  # a window of shards and the carried remainder

    train, held = shards.split(out, held_out=0.25, seed=0)
    assert held and not set(train) & set(held) and len(train) + len(held) == len(meta["shards"])
    hands_train = {int(h) for p in train for h in shards.read_shard(p)["hand"]}
    hands_held = {int(h) for p in held for h in shards.read_shard(p)["hand"]}
    assert not hands_train & hands_held  # shards hold whole hands


def test_logs_compact_equal_to_the_float_dataset(tmp_path):
    from majiang.sim import simulate

    simulate(3, 5, [make_bot(b, i) for i, b in enumerate(["fan", "eff", "rand", "eff"])], log_dir=tmp_path / "logs")
    main(["dataset", str(tmp_path / "logs"), "-o", str(tmp_path / "f")])
    main(["dataset", str(tmp_path / "logs"), "-o", str(tmp_path / "c"), "--compact"])
    ref = dataset.load(tmp_path / "f")
    got = shards.unpack(shards.read_shard(shards.shard_paths(tmp_path / "c")[0]))
    for k in ("obs", "mask", "action", "reward", "ret", "seat", "hand"):
        np.testing.assert_array_equal(got[k], ref[k])
    np.testing.assert_array_equal(got["taken"], ref["action"])


def test_a_directory_without_meta_says_how_to_build_one(tmp_path):
    with pytest.raises(ValueError, match="majiang dataset --selfplay"):
        shards.ShardLoader(tmp_path)


def test_a_teacher_labels_each_view_while_the_bots_play(tmp_path):
    """DAgger's data (``--teacher``): the hand is played exactly as without a teacher, each record's
    ``action`` is what the teacher chooses in that view and ``taken`` what the hand did with the
    bot's choice."""
    teacher = make_bot("eff", 9)
    differ = 0
    for h in range(6):
        bots = [make_bot("rand", i) for i in range(4)]
        plain = selfplay.play_recorded(_hand(h), bots)
        bots = [make_bot("rand", i) for i in range(4)]
        hand = _hand(h)
        taught = selfplay.play_recorded(hand, bots, teacher)
        assert [(c.seat, c.taken, c.played) for c in taught] == [(c.seat, c.taken, c.played) for c in plain]
        replay = _hand(h)
        for c, p in zip(taught, plain, strict=True):
            np.testing.assert_array_equal(c.obs, p.obs)
            assert c.mask[c.action]
            view = SeatView(replay, c.seat)
            assert c.action == encode_action(teacher.choose(view, view.legal))
            replay.act(c.seat, decode_action(c.played, view.legal))
            differ += c.action != c.played
    assert differ > 0  # the random bots' choices are not the teacher's

    out = tmp_path / "dagger"
    cli = ["dataset", "--selfplay", "rand,eff,eff,eff", "--seats", "0", "--teacher", "eff", "--hands", "3", "-o"]
    assert main([*cli, str(out)]) == 0
    assert json.loads((out / "meta.json").read_text())["teacher"] == "eff"
    assert main(["dataset", "logs/", "--teacher", "eff", "-o", str(out)]) == 2


def test_an_interrupted_run_leaves_the_shards_it_finished(tmp_path):
    """meta.json is rewritten after every shard, so a self-play run stopped midway (Ctrl-C, a killed
    job) leaves a dataset of its finished shards; only close() marks it complete."""
    w = shards.ShardWriter(tmp_path, shard_size=30, extra={"source": "test"})
    n = 0
    for h, (_, choices) in enumerate(_played(4, ("rand", "eff", "rand", "eff"))):
        for c in choices:
            w.add(c.obs, c.mask, c.action, c.taken, 0.0, 0.0, c.seat, h)
            n += 1
        w.end_hand()
        meta = json.loads((tmp_path / "meta.json").read_text())
        assert meta["complete"] is False and meta["hands"] == h + 1 and meta["records"] == n
        assert sum(len(b["action"]) for b in shards.ShardLoader([tmp_path], batch_size=16)) == n
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind
    assert w.close()["complete"] is True


def test_self_play_of_the_core_s_bots_records_what_the_python_bots_choose(monkeypatch):
    """On the compiled core the seats (and a teacher) the core has a twin of — here ``ev`` — decide in
    C (``CompiledHand.bot_choice``); the records equal those of the Python engine, where the Python
    bots decide."""
    from majiang.bots.ev import EVBot

    def players():
        bots = [make_bot(b, i) for i, b in enumerate(("ev", "fan", "ev", "eff"))]
        teacher = EVBot(9, budget_s=float("inf"))
        for b in bots:
            if isinstance(b, EVBot):
                b.budget_s = float("inf")  # the core's ev is bounded by its node count alone
        return bots, teacher

    runs = {}
    for engine in ("python", "core"):
        monkeypatch.setenv("MAJIANG_ENGINE", engine)
        records = []
        for h in range(4):
            hand = _hand(h)
            assert (type(hand).__name__ == "CompiledHand") == (engine == "core")
            bots, teacher = players()
            records += [
                (c.seat, c.action, c.played, c.taken, c.obs.tobytes())
                for c in selfplay.play_recorded(hand, bots, teacher)
            ]
        runs[engine] = records
    assert len(runs["core"]) > 100
    assert runs["core"] == runs["python"]


def test_look_ahead_rows_are_kept_with_each_record_and_show_the_ev_bot_s_choice(tmp_path, capsys):
    """``dataset --selfplay … --look`` keeps the ev bot's look-ahead rows with every record: the ev
    seat's discard is the highest valued column of row 1 and its claim the highest of row 2 where it
    valued them; a loader over shards with and without rows refuses to mix them."""
    out = tmp_path / "look"
    assert (
        main(["dataset", "--selfplay", "ev,eff,fan,eff", "--hands", "12", "--seed", "4", "--look", "-o", str(out)]) == 0
    )
    assert json.loads((out / "meta.json").read_text())["look"] is True
    turns = claims = 0
    for b in shards.ShardLoader(out, 4096):
        assert b["look"].shape == (len(b["action"]), 3, 34) and b["look"].dtype == np.float32
        assert (b["look"][:, 0] >= 0).all() and (b["look"][:, 0] < 1).all()  # deal-in chances
        for seat, action, rows in zip(b["seat"], b["action"], b["look"], strict=True):
            valued = np.flatnonzero(rows[1])
            if seat == 0 and action < 34 and len(valued):
                assert rows[1, action] == rows[1, valued].max()
                turns += 1
            if seat == 0 and 102 <= action <= 106 and rows[2].any():
                assert rows[2, action - 102] == rows[2, :5].max() and rows[2, action - 102] > rows[2, 6]
                claims += 1
    assert turns > 100 and claims > 0
    plain = tmp_path / "plain"
    selfplay.build(["eff"] * 4, 2, plain, seed=1)
    with pytest.raises(ValueError, match="look-ahead"):
        list(shards.ShardLoader([out, plain], 64, window=4))
    with pytest.raises(ValueError, match="MCR"):
        selfplay.build(["ev"] * 4, 1, tmp_path / "nc", rules="nanchang", look=True)
    assert main(["dataset", "logs", "--look", "-o", str(tmp_path / "x")]) == 2
    assert "--look is for self-play" in capsys.readouterr().err
