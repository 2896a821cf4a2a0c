"""examples/bc_train.py end to end on a small self-play dataset: it trains, reports accuracy per
decision kind, and exports weights the numpy ``net`` bot plays with the choices torch makes."""

import subprocess
import sys
from pathlib import Path

import numpy as np

from majiang.bots import make_bot
from majiang.rl import selfplay
from majiang.rl.net import PolicyNet
from majiang.sim import simulate

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "bc_train.py"


def test_bc_train_exports_weights_numpy_plays(tmp_path):
    selfplay.build(["fan", "eff", "fan", "eff"], 40, tmp_path / "data", seed=5, shard_size=300)
    out = tmp_path / "w.npz"
    run = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            str(tmp_path / "data"),
            "--epochs",
            "1",
            "--channels",
            "8",
            "--hidden",
            "16",
            "--blocks",
            "3",
            "--held-out",
            "0.25",
            "-o",
            str(out),
            "--threads",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    for kind in ("discard", "claim", "kong", "win", "all"):
        assert f"  {kind}" in run.stdout
    assert "numpy forward agrees with torch on 100.0%" in run.stdout
    assert PolicyNet.load(out).blocks == 3
    res = simulate(4, 1, [make_bot(f"net:{out}", 0), make_bot("eff", 1), make_bot("eff", 2), make_bot("eff", 3)])
    assert res.illegal_actions == 0


def test_bc_train_on_look_ahead_rows_exports_weights_that_read_them(tmp_path):
    """A dataset built with the ev bot's look-ahead rows trains a net that takes them as input
    (``look`` in its config), and the numpy forward pass, given the stored rows, picks what torch picks."""
    selfplay.build(["ev", "eff", "fan", "eff"], 24, tmp_path / "data", seed=6, shard_size=200, look=True)
    out = tmp_path / "look.npz"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "data"), "--epochs", "1", "--channels", "8", "--hidden", "16"]
        + ["--held-out", "0.25", "-o", str(out), "--threads", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "numpy forward agrees with torch on 100.0%" in run.stdout
    assert PolicyNet.load(out).look
    res = simulate(4, 2, [make_bot(f"net:{out}", 0), make_bot("eff", 1), make_bot("eff", 2), make_bot("eff", 3)])
    assert res.illegal_actions == 0
    # self-play fine-tuning reads the rows from vector_env(look=True) and keeps them in the weights
    tuned = tmp_path / "look-pg.npz"
    subprocess.run(
        [sys.executable, "pg_finetune.py", "--init", str(out), "--hands", "8", "--envs", "4", "--update", "4"]
        + ["--eval-hands", "24", "--checkpoints", "1", "--threads", "1", "-o", str(tuned)],
        cwd=SCRIPT.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    after = PolicyNet.load(tuned)
    assert after.look and not np.array_equal(after.w["conv1.weight"], PolicyNet.load(out).w["conv1.weight"])


def test_torch_dataset_streams_every_record_once_across_workers(tmp_path):
    import torch

    from majiang.rl.shards import read_meta, torch_dataset

    meta = selfplay.build(["eff", "rand", "eff", "rand"], 12, tmp_path / "d", seed=2, shard_size=150)
    loader = torch.utils.data.DataLoader(torch_dataset(tmp_path / "d", batch_size=32), batch_size=None, num_workers=2)
    batches = list(loader)
    assert sum(len(b["action"]) for b in batches) == meta["records"] == read_meta(tmp_path / "d")["records"]
    assert batches[0]["obs"].dtype == torch.float32 and batches[0]["obs"].shape[1:] == (204, 34)


def test_pg_finetune_runs_and_exports(tmp_path):
    """A tiny run of examples/pg_finetune.py from the shipped weights: it steps, evaluates and
    writes weights numpy loads, and a curve plot_curve.py reads."""
    import json

    from majiang.rl.net import SHIPPED

    out, curve = tmp_path / "pg.npz", tmp_path / "pg.json"
    subprocess.run(
        [
            sys.executable,
            "pg_finetune.py",
            "--init",
            str(SHIPPED),
            "--hands",
            "8",
            "--envs",
            "4",
            "--update",
            "4",
            "--eval-hands",
            "24",
            "--checkpoints",
            "1",
            "--threads",
            "1",
            "-o",
            str(out),
            "--curve",
            str(curve),
            "--keep",
        ],
        cwd=SCRIPT.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert PolicyNet.load(out).config["finetuned_hands"] >= 8
    kept = sorted(p.name for p in tmp_path.glob("pg-*.npz"))  # --keep: each checkpoint under its hands
    assert kept[0] == "pg-0.npz" and len(kept) == 2
    points = json.loads(curve.read_text())["points"]
    assert points[0]["hands"] == 0 and len(points) == 2


def test_pg_finetune_with_a_critic_ppo_a_league_and_session_places(tmp_path):
    """The options of pg_finetune.py together: PPO epochs with a critic, past policies at two seats,
    16-hand sessions paid by place; the weights move and the curve names what ran."""
    import json

    import numpy as np

    from majiang.rl.net import SHIPPED

    out, curve = tmp_path / "pg.npz", tmp_path / "pg.json"
    args = "--hands 96 --envs 2 --update 16 --eval-hands 24 --checkpoints 2 --threads 1 --critic"
    args += " --critic-warmup 0 --epochs 2 --opponents eff,league,league --episode session --reward rank"
    args += " --eval-sessions 2"
    paths = ["--init", str(SHIPPED), "-o", str(out), "--curve", str(curve)]
    subprocess.run(
        [sys.executable, "pg_finetune.py", *args.split(), *paths],
        cwd=SCRIPT.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    with np.load(SHIPPED) as before, np.load(out) as after:
        assert any(not np.array_equal(before[k], after[k]) for k in before.files if k != "config")
    got = json.loads(curve.read_text())
    assert got["opponents"] == "eff,league,league" and "PPO with a critic" in got["algorithm"]
    assert "session episodes, rank reward" in got["algorithm"] and got["points"][-1]["hands"] >= 96
    assert all(p["sessions"] == 2 and 0 <= p["places"] <= 4 for p in got["points"])
