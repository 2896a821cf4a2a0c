#!/usr/bin/env python3
"""Policy-gradient fine-tuning of a cloned ``net`` policy against the efficiency bot, with batched
inference on the compiled core's vector environment (a first step of docs/rl.md's item "self-play
RL on top"; torch on CPU).

    python examples/pg_finetune.py --init src/majiang/bots/data/net.npz --hands 2000 -o net-pg.npz \\
        --curve pg.json --eval-hands 240

``vector_env(N, opponents="eff")`` plays N hands at once with the core's efficiency bots at seats
1–3, so every decision it returns is the learner's: one batched forward pass chooses for all N
hands (sampled from the masked softmax), and a hand's result (seat 0's score change) is the return
of each of its decisions.  Every ``--update`` finished hands the policy takes one REINFORCE step
along (return − running mean) / running std, plus a small entropy bonus, and a KL penalty towards
the cloned policy keeps it near what imitation learned.  Evaluation is greedy, in duplicate
(``majiang.sim.evaluate``), before, at checkpoints and after; ``--curve`` writes them as JSON for
``examples/plot_curve.py``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from bc_train import Policy, export, masked  # type: ignore[import-not-found]

from majiang.rl import extras, vector_env
from majiang.rl.net import PolicyNet


def load(path: str) -> tuple[Policy, dict[str, object]]:
    with np.load(path) as z:
        config = json.loads(str(z["config"]))
        model = Policy(
            int(config.get("channels", 64)),
            int(config.get("hidden", 128)),
            bool(config.get("extras", True)),
            int(config.get("blocks", 2)),
        )
        model.load_state_dict({k: torch.from_numpy(z[k]) for k in z.files if k != "config"})
    return model, config


def inputs(obs: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.concatenate([obs, extras.planes(obs)], axis=1))


def evaluate_greedy(path: Path, hands: int, seed: int) -> dict[str, object]:
    from majiang.bots import make_bot
    from majiang.sim import simulate

    res = simulate(hands, seed, [make_bot(f"net:{path}", 0)] + [make_bot("eff", i) for i in (1, 2, 3)], duplicate=True)
    return res.seats[0].to_dict()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--init", required=True, help="the cloned weights to start from (.npz)")
    ap.add_argument("-o", "--out", default="net-pg.npz")
    ap.add_argument("--hands", type=int, default=2000, help="training hands (default 2000)")
    ap.add_argument("--envs", type=int, default=32, help="hands played at once (default 32)")
    ap.add_argument("--update", type=int, default=32, help="finished hands per policy step (default 32)")
    ap.add_argument("--lr", type=float, default=1e-5)
    ap.add_argument("--kl", type=float, default=0.1, help="weight of the KL penalty towards the cloned policy")
    ap.add_argument("--entropy", type=float, default=0.001)
    ap.add_argument("--checkpoints", type=int, default=2)
    ap.add_argument("--eval-hands", type=int, default=240, help="duplicate evaluation hands (multiple of 24)")
    ap.add_argument("--eval-seed", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", help="write the learning curve here (JSON)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--keep",
        action="store_true",
        help="also keep each checkpoint as OUT-HANDS.npz (the file -o names is overwritten)",
    )
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    model, config = load(args.init)
    ref, _ = load(args.init)
    before = int(config.get("finetuned_hands", 0))
    ref.eval()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    out = Path(args.out)
    t0 = time.process_time()
    points: list[dict[str, object]] = []

    def checkpoint(hands: int) -> None:
        meta = {**config, "finetuned_hands": before + hands}  # across runs that continue one another
        export(model, out, meta)
        if args.keep:
            export(model, out.with_name(f"{out.stem}-{hands}.npz"), meta)
        me = evaluate_greedy(out, args.eval_hands, args.eval_seed)
        me.update(hands=hands, seconds=time.process_time() - t0)
        points.append(me)
        print(f"hands {hands:5d}  {me['avg_score']:+.2f} {me['avg_score_ci95']}  win {me['win_rate']:.1%}", flush=True)

    checkpoint(0)
    env = vector_env(args.envs, opponents="eff")
    obs, masks, _ = env.reset(seed=args.seed)
    traj: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(args.envs)]
    done_eps: list[tuple[list[tuple[np.ndarray, np.ndarray, int]], float]] = []
    mean, var, finished = 0.0, 400.0, 0
    every = max(1, args.hands // max(args.checkpoints, 1))
    while finished < args.hands:
        with torch.no_grad():
            logits = masked(model(inputs(obs)), masks)
            acts = torch.distributions.Categorical(logits=logits).sample().numpy()
        for i in range(args.envs):
            traj[i].append((obs[i].copy(), masks[i].copy(), int(acts[i])))
        obs, masks, _, rewards, dones = env.step(acts)
        for i in np.flatnonzero(dones):
            done_eps.append((traj[i], float(rewards[i, 0])))
            traj[i] = []
            finished += 1
            if finished % every == 0 and finished < args.hands:
                checkpoint(finished)
        if len(done_eps) >= args.update:
            rets = np.array([r for _, r in done_eps])
            for r in rets:  # running statistics of the return
                mean += 0.01 * (r - mean)
                var += 0.01 * ((r - mean) ** 2 - var)
            steps = [s for ep, _ in done_eps for s in ep]
            adv = np.concatenate([np.full(len(ep), (r - mean) / np.sqrt(var + 1e-6)) for ep, r in done_eps])
            x = inputs(np.stack([s[0] for s in steps]))
            m = np.stack([s[1] for s in steps])
            a = torch.from_numpy(np.array([s[2] for s in steps]))
            logp = torch.log_softmax(masked(model(x), m), dim=1)
            with torch.no_grad():
                ref_logp = torch.log_softmax(masked(ref(x), m), dim=1)
            p = logp.exp()
            chosen = logp.gather(1, a[:, None])[:, 0]
            legal = torch.from_numpy(m > 0)
            entropy = -(p * logp).masked_fill(~legal, 0).sum(1)
            kl = (p * (logp - ref_logp)).masked_fill(~legal, 0).sum(1)
            loss = -(torch.from_numpy(np.clip(adv, -5, 5)).float() * chosen).mean()
            loss = loss - args.entropy * entropy.mean() + args.kl * kl.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            done_eps = []
    checkpoint(finished)
    print(f"{finished} hands in {time.process_time() - t0:.0f} s CPU (evaluations included) → {out}")
    PolicyNet.load(out)  # the export loads for numpy
    if args.curve:
        Path(args.curve).write_text(
            json.dumps({"algorithm": "REINFORCE fine-tuning of net", "opponents": "eff", "points": points}, indent=1)
        )


if __name__ == "__main__":
    main()
