#!/usr/bin/env python3
"""Behaviour cloning: train the ``net`` policy (majiang.rl.net) on compact self-play shards with
torch on CPU, report held-out accuracy per decision kind, export the weights for numpy.

    majiang dataset --selfplay best,best,best,best --hands 2000 --seed 11 -o data/ev-11
    pip install -e '.[train]'                      # torch (CPU), docs/rl.md
    python examples/bc_train.py data/ev-11 --epochs 3 -o net.npz
    # datasets built with --look also give the net the ev bot's look-ahead rows (docs/rl.md)
    majiang simulate --bots net:net.npz,eff,eff,eff --hands 480 --duplicate

The target is the action the seat *chose* (``action``: a claim outranked by a higher one stays the
claim).  Shards are split into training and held-out sets by whole shards (whole hands).  Decision
kinds, each counted where it was possible: ``win`` (the win code legal), ``kong`` (a kong legal, no
win), ``claim`` (a chow, pung or exposed kong of a discard legal, no win), ``discard`` (a turn with
only discards legal) — accuracy is the share of those decisions where the policy picks the same
code as the bot it clones.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from majiang.bots.ev import LOOK_ROWS
from majiang.rl import extras
from majiang.rl.actions import ACTION_SIZE
from majiang.rl.features import ROWS
from majiang.rl.net import TILE_CODES, PolicyNet
from majiang.rl.shards import ShardLoader, read_meta, split

KINDS = ("discard", "claim", "kong", "win")


class Policy(nn.Module):
    """The torch twin of :class:`majiang.rl.net.PolicyNet` (same layers, same parameter names)."""

    def __init__(
        self, channels: int = 64, hidden: int = 128, use_extras: bool = True, blocks: int = 2, look: bool = False
    ) -> None:
        super().__init__()
        cin = ROWS + (extras.EXTRA_ROWS if use_extras else 0) + (LOOK_ROWS if look else 0)
        self.blocks = blocks
        self.conv1 = nn.Conv1d(cin, channels, 3, padding=1)
        for i in range(2, blocks + 2):  # conv2, conv3, …: the names PolicyNet reads
            setattr(self, f"conv{i}", nn.Conv1d(channels, channels, 3, padding=1))
        self.tile = nn.Conv1d(channels, 3, 1)
        self.fc1 = nn.Linear(channels * 34, hidden)
        self.fc2 = nn.Linear(hidden, ACTION_SIZE - TILE_CODES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.conv1(x))
        for i in range(2, self.blocks + 2):
            h = torch.relu(getattr(self, f"conv{i}")(h)) + h
        tiles = self.tile(h).reshape(len(x), TILE_CODES)
        other = self.fc2(torch.relu(self.fc1(h.flatten(1))))
        return torch.cat([tiles, other], dim=1)


def kinds_of(mask: np.ndarray) -> dict[str, np.ndarray]:
    win = mask[:, 107] > 0
    kong = (mask[:, 34:102].any(axis=1) | (mask[:, 103] > 0)) & ~win
    claim = mask[:, [102, 103, 104, 105, 106]].any(axis=1) & ~win
    discard = mask[:, :34].any(axis=1) & ~mask[:, 34:108].any(axis=1)
    return {"discard": discard, "claim": claim, "kong": kong, "win": win}


def batch_inputs(b: dict[str, np.ndarray], use_extras: bool) -> torch.Tensor:
    """The channels PolicyNet.inputs makes: the planes, their extras, the look-ahead rows if stored."""
    parts = [b["obs"], *([extras.planes(b["obs"])] if use_extras else []), *([b["look"]] if "look" in b else [])]
    return torch.from_numpy(np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0])


def has_look(dirs: list[str]) -> bool:
    """Whether the datasets keep the ev bot's look-ahead rows (``--look``): all of them or none."""
    looks = {bool(read_meta(d).get("look")) for d in dirs}
    if len(looks) > 1:
        raise SystemExit("error: some of these datasets have look-ahead rows and some not: give one kind")
    return looks.pop()


def masked(logits: torch.Tensor, mask: np.ndarray) -> torch.Tensor:
    return logits.masked_fill(torch.from_numpy(mask == 0), -1e9)


def evaluate(model: Policy, loader: ShardLoader, use_extras: bool) -> dict[str, tuple[int, int]]:
    """(correct, decisions) of each kind, and of all."""
    tally = {k: [0, 0] for k in (*KINDS, "all")}
    model.eval()
    with torch.no_grad():
        for b in loader:
            pred = masked(model(batch_inputs(b, use_extras)), b["mask"]).argmax(1).numpy()
            ok = pred == b["action"]
            for k, sel in (*kinds_of(b["mask"]).items(), ("all", np.ones(len(ok), bool))):
                tally[k][0] += int(ok[sel].sum())
                tally[k][1] += int(sel.sum())
    model.train()
    return {k: (c, n) for k, (c, n) in tally.items()}


def export(model: Policy, path: Path, config: dict[str, object]) -> None:
    arrays = {k: v.detach().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    np.savez_compressed(path, config=np.array(json.dumps(config)), **arrays)  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="compact dataset directories (majiang dataset --selfplay …)")
    ap.add_argument("-o", "--out", default="net.npz", help="where the numpy weights go (default net.npz)")
    ap.add_argument("--epochs", type=float, default=2, help="passes over the training shards (default 2)")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--blocks", type=int, default=2, help="residual convolutions after the first (default 2)")
    ap.add_argument("--no-extras", action="store_true", help="the 204 observation rows only")
    ap.add_argument("--held-out", type=float, default=0.1, help="share of shards held out (default 0.1)")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads (default 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", metavar="WEIGHTS.npz", help="start from these weights (a run to continue)")
    ap.add_argument(
        "--checkpoint-every", type=int, default=0, metavar="STEPS", help="export the weights every STEPS steps too"
    )
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    use_extras = not args.no_extras
    train, held = split(args.data, args.held_out, seed=args.seed)
    look = has_look(args.data)
    model = Policy(args.channels, args.hidden, use_extras, args.blocks, look)
    if args.init:
        with np.load(args.init) as z:
            model.load_state_dict({k: torch.from_numpy(z[k]) for k in z.files if k != "config"})
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    loader = ShardLoader(args.data, args.batch, window=8, seed=args.seed, shards=train)
    total = sum(len(np.load(p)["action"]) for p in train)
    steps = int(args.epochs * total / args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=max(steps, 1))
    print(f"{len(train)} training shards ({total:,} records), {len(held)} held out; {steps:,} steps")
    config = {
        "channels": args.channels,
        "hidden": args.hidden,
        "extras": use_extras,
        "blocks": args.blocks,
        "look": look,
        "data": args.data,
        "records": total,
        "epochs": args.epochs,
    }
    t0, step = time.process_time(), 0
    while step < steps:
        for b in loader:
            logits = masked(model(batch_inputs(b, use_extras)), b["mask"])
            loss = loss_fn(logits, torch.from_numpy(b["action"].astype(np.int64)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 200 == 0:
                print(
                    f"step {step:,}/{steps:,} loss {loss.item():.3f} cpu {time.process_time() - t0:.0f} s", flush=True
                )
            if args.checkpoint_every and step % args.checkpoint_every == 0:
                export(model, Path(args.out), config)
            if step >= steps:
                break
    export(model, Path(args.out), config)
    res = evaluate(model, ShardLoader(args.data, 1024, shards=held), use_extras)
    print(f"trained in {time.process_time() - t0:.0f} s CPU; held-out accuracy:")
    for k, (c, n) in res.items():
        print(f"  {k:8s} {c / max(n, 1):6.1%} of {n:,}")
    # the exported file, run by numpy, must choose what the torch model chooses
    b = next(iter(ShardLoader(args.data, 256, shards=held)))
    net = PolicyNet.load(args.out)
    with torch.no_grad():
        want = masked(model.eval()(batch_inputs(b, use_extras)), b["mask"]).argmax(1).numpy()
    agree = float((net.act(b["obs"], b["mask"], b.get("look")) == want).mean())
    print(f"numpy forward agrees with torch on {agree:.1%} of 256 held-out decisions → {args.out}")


if __name__ == "__main__":
    main()
