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

``--critic`` subtracts a learned value of each decision instead of the running mean; ``--epochs K``
(K > 1) takes K passes over each batch with PPO's clipped ratio; ``--episode session --reward rank``
plays 16-hand sessions whose every decision is credited with the session's place (4/2/1/0);
``--opponents eff,league,league`` seats past policies (``--league`` files, then each checkpoint of
the run) beside the core's bots, each league policy choosing for all its seats in one batched pass.
docs/rl.md has the runs.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path

import numpy as np
import torch
from bc_train import Policy, export, masked  # type: ignore[import-not-found]

from majiang.rl import extras, vector_env
from majiang.rl.features import ROWS
from majiang.rl.net import PolicyNet
from majiang.rl.vector import CORE_BOTS

#: one decision of the learner: observation, mask, action, its log-probability when sampled
Step = tuple[np.ndarray, np.ndarray, int, float]


def load(path: str) -> tuple[Policy, dict[str, object]]:
    with np.load(path) as z:
        config = json.loads(str(z["config"]))
        model = Policy(
            int(config.get("channels", 64)),
            int(config.get("hidden", 128)),
            bool(config.get("extras", True)),
            int(config.get("blocks", 2)),
            bool(config.get("look", False)),
        )
        model.load_state_dict({k: torch.from_numpy(z[k]) for k in z.files if k != "config"})
    return model, config


class Critic(torch.nn.Module):
    """The value of a decision's observation (the return expected from it, in units of ``SCALE``
    points or places): a small convolutional net beside the policy, used only in training (never exported)."""

    def __init__(self, cin: int, scale: float, channels: int = 32, hidden: int = 64) -> None:
        super().__init__()
        self.scale = scale  # the returns' usual size: the net predicts return / scale
        self.conv1 = torch.nn.Conv1d(cin, channels, 3, padding=1)
        self.conv2 = torch.nn.Conv1d(channels, channels, 3, padding=1)
        self.fc1 = torch.nn.Linear(channels * 34, hidden)
        self.fc2 = torch.nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.conv1(x))
        h = torch.relu(self.conv2(h)) + h
        return self.fc2(torch.relu(self.fc1(h.flatten(1))))[:, 0]


def inputs(obs: np.ndarray) -> torch.Tensor:
    """The policy's channels: the planes, their extras, and the look-ahead rows the environment
    appends after the planes for weights that read them (``vector_env(look=True)``)."""
    x = obs[:, :ROWS]
    return torch.from_numpy(np.concatenate([x, extras.planes(x), obs[:, ROWS:]], axis=1))


def evaluate_greedy(path: Path, hands: int, seed: int) -> dict[str, object]:
    from majiang.bots import make_bot
    from majiang.sim import simulate

    res = simulate(hands, seed, [make_bot(f"net:{path}", 0)] + [make_bot("eff", i) for i in (1, 2, 3)], duplicate=True)
    return res.seats[0].to_dict()


def evaluate_places(model: Policy, sessions: int, seed: int, look: bool) -> dict[str, float]:
    """The greedy policy's mean place points (4/2/1/0; 1.75 is an equal) in ``sessions`` 16-hand
    sessions against three efficiency bots, with a 95 % CI over sessions: each of the environment's
    hands plays the same number of whole sessions, so no session is kept for ending early."""
    envs = min(32, sessions)
    per = -(-sessions // envs)
    env = vector_env(envs, opponents="eff", episode="session", reward="rank", look=look)
    obs, masks, _ = env.reset(seed=seed)
    done = np.zeros(envs, dtype=int)
    got: list[float] = []
    while (done < per).any():
        with torch.no_grad():
            acts = masked(model(inputs(obs)), masks).argmax(1).numpy()
        obs, masks, _, rewards, dones = env.step(acts)
        for i in np.flatnonzero(dones):
            if done[i] < per:
                got.append(float(rewards[i, 0]))
            done[i] += 1
    mean, half = float(np.mean(got)), 1.96 * float(np.std(got, ddof=1)) / np.sqrt(len(got))
    return {"places": mean, "places_ci95": [mean - half, mean + half], "sessions": len(got)}


def parse_args() -> argparse.Namespace:
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
    ap.add_argument(
        "--eval-sessions",
        type=int,
        default=0,
        help="also measure the mean place (4/2/1/0) over this many 16-hand sessions against three eff",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", help="write the learning curve here (JSON)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--critic",
        action="store_true",
        help="advantage = return − a learned value of each decision (default: return − running mean)",
    )
    ap.add_argument("--critic-warmup", type=int, default=20, help="updates that train only the critic (default 20)")
    ap.add_argument("--epochs", type=int, default=1, help="passes over each batch; above 1, PPO's clipped ratio")
    ap.add_argument("--clip", type=float, default=0.2, help="PPO's ratio clip (with --epochs above 1)")
    ap.add_argument(
        "--episode",
        choices=["hand", "session"],
        default="hand",
        help="an episode is one hand, or a 16-hand session whose hands share its return (default hand)",
    )
    ap.add_argument(
        "--reward",
        choices=["score", "rank"],
        default="score",
        help="the return: points, or (sessions) the session's place, 4/2/1/0 (default score)",
    )
    ap.add_argument(
        "--opponents",
        default="eff,eff,eff",
        help="seats 1-3: eff, fan, rand (the core's bots) or league (a past policy, greedy); default eff,eff,eff",
    )
    ap.add_argument(
        "--league",
        nargs="*",
        default=[],
        help="weights for the league seats (default: --init); every checkpoint of the run joins them",
    )
    ap.add_argument(
        "--keep",
        action="store_true",
        help="also keep each checkpoint as OUT-HANDS.npz (the file -o names is overwritten)",
    )
    args = ap.parse_args()
    args.seats = args.opponents.split(",")
    if len(args.seats) != 3 or not set(args.seats) <= {*CORE_BOTS, "league"}:
        kinds = ", ".join(sorted(CORE_BOTS))
        ap.error(f"--opponents: three of {kinds}, league, comma-separated; got {args.opponents!r}")
    return args


class Learner:
    """The policy, the policy it started from (the KL anchor), the optional critic and the running
    statistics of the return: one policy-gradient step per batch of finished episodes."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.model, self.config = load(args.init)
        self.ref, _ = load(args.init)
        self.ref.eval()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        cin = int(self.model.conv1.in_channels)
        self.critic = Critic(cin, 30.0 if args.reward == "score" else 2.0) if args.critic else None
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3) if self.critic else None
        self.mean, self.var = 0.0, 0.0 if args.episode == "session" else 400.0  # sessions: from the first batch
        self.updates = 0

    def update(self, episodes: list[tuple[list[Step], float]]) -> None:
        args = self.args
        rets = np.array([r for _, r in episodes])
        if self.var == 0.0:
            self.mean, self.var = float(rets.mean()), float(rets.var()) + 1e-6
        for r in rets:  # running statistics of the return
            self.mean += 0.01 * (r - self.mean)
            self.var += 0.01 * ((r - self.mean) ** 2 - self.var)
        steps = [s for ep, _ in episodes for s in ep]
        x = inputs(np.stack([s[0] for s in steps]))
        m = np.stack([s[1] for s in steps])
        ret = np.concatenate([np.full(len(ep), r) for ep, r in episodes])
        baseline = self.mean if self.critic is None else self.fit_critic(x, ret)
        self.updates += 1
        if self.critic is not None and self.updates <= args.critic_warmup:
            return
        advantage = torch.from_numpy(np.clip((ret - baseline) / np.sqrt(self.var + 1e-6), -5, 5)).float()
        a = torch.from_numpy(np.array([s[2] for s in steps]))
        old_logp = torch.tensor([s[3] for s in steps])
        with torch.no_grad():
            ref_logp = torch.log_softmax(masked(self.ref(x), m), dim=1)
        legal = torch.from_numpy(m > 0)
        for _ in range(max(args.epochs, 1)):
            logp = torch.log_softmax(masked(self.model(x), m), dim=1)
            p = logp.exp()
            chosen = logp.gather(1, a[:, None])[:, 0]
            if args.epochs > 1:  # PPO: the ratio to the sampling policy, clipped
                ratio = torch.exp(chosen - old_logp)
                clipped = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
                gain = torch.min(ratio * advantage, clipped * advantage)
            else:
                gain = advantage * chosen
            entropy = -(p * logp).masked_fill(~legal, 0).sum(1)
            kl = (p * (logp - ref_logp)).masked_fill(~legal, 0).sum(1)
            loss = -gain.mean() - args.entropy * entropy.mean() + args.kl * kl.mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()

    def fit_critic(self, x: torch.Tensor, ret: np.ndarray) -> np.ndarray:
        """The critic's values of the decisions (before this fit, in points), then one fit per epoch."""
        assert self.critic is not None and self.critic_opt is not None
        target = torch.from_numpy((ret / self.critic.scale).astype(np.float32))
        with torch.no_grad():
            value: np.ndarray = self.critic(x).numpy() * self.critic.scale
        for _ in range(max(self.args.epochs, 1)):
            loss = torch.nn.functional.smooth_l1_loss(self.critic(x), target)
            self.critic_opt.zero_grad()
            loss.backward()
            self.critic_opt.step()
        return value


def act(
    model: Policy, league: list[Policy], theirs: np.ndarray, obs: np.ndarray, masks: np.ndarray, seats: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every hand's action: the learner's sampled where seat 0 decides (returned: those hands and the
    log-probabilities of their actions), league policy ``theirs[i]``'s greedy choice elsewhere."""
    mine = np.flatnonzero(seats == 0)
    acts = np.zeros(len(seats), dtype=np.int64)
    old = np.zeros(len(mine), dtype=np.float32)
    with torch.no_grad():
        if len(mine):
            dist = torch.distributions.Categorical(logits=masked(model(inputs(obs[mine])), masks[mine]))
            sampled = dist.sample()
            old = dist.log_prob(sampled).numpy()
            acts[mine] = sampled.numpy()
        for m in np.unique(theirs[theirs >= 0]):  # each league policy: one batch, greedy
            rows = np.flatnonzero(theirs == m)
            acts[rows] = masked(league[m](inputs(obs[rows])), masks[rows]).argmax(1).numpy()
    return mine, acts, old


def main() -> None:
    args = parse_args()
    league_seats = [s for s, spec in enumerate(args.seats, 1) if spec == "league"]
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    learner = Learner(args)
    model, config = learner.model, learner.config
    look = bool(config.get("look", False))  # the weights read the ev bot's look-ahead rows
    before = int(config.get("finetuned_hands", 0))
    out = Path(args.out)
    t0 = time.process_time()
    points: list[dict[str, object]] = []

    def checkpoint(hands: int) -> None:
        meta = {**config, "finetuned_hands": before + hands}  # across runs that continue one another
        export(model, out, meta)
        if args.keep:
            export(model, out.with_name(f"{out.stem}-{hands}.npz"), meta)
        if league_seats and hands:  # a past self joins the league
            league.append(copy.deepcopy(model).eval())
        me = evaluate_greedy(out, args.eval_hands, args.eval_seed)
        place = ""
        if args.eval_sessions:
            me.update(evaluate_places(model, args.eval_sessions, args.eval_seed, look))
            place = f"  place {me['places']:.3f} [{me['places_ci95'][0]:.3f}, {me['places_ci95'][1]:.3f}]"
        me.update(hands=hands, seconds=time.process_time() - t0)
        points.append(me)
        score = f"{me['avg_score']:+.2f} {me['avg_score_ci95']}"
        print(f"hands {hands:5d}  {score}  win {me['win_rate']:.1%}{place}", flush=True)

    league = [load(f)[0].eval() for f in (args.league or [args.init])] if league_seats else []
    if any(p.conv1.in_channels != model.conv1.in_channels for p in league):
        raise SystemExit("error: --league weights must read the same inputs as --init (look-ahead rows or not)")
    pick = np.random.default_rng(args.seed)
    member = np.full((args.envs, 4), -1)  # which league policy plays each league seat of each hand
    for s in league_seats:
        member[:, s] = pick.integers(len(league), size=args.envs)
    checkpoint(0)
    env = vector_env(
        args.envs,
        opponents=[None if spec == "league" else spec for spec in args.seats],
        episode=args.episode,
        reward=args.reward,
        look=look,
    )
    obs, masks, seats = env.reset(seed=args.seed)
    ret_so_far, hands_in = np.zeros(args.envs), np.zeros(args.envs, dtype=int)  # per episode in play
    traj: list[list[Step]] = [[] for _ in range(args.envs)]
    done_eps: list[tuple[list[Step], float]] = []
    finished, pending = 0, 0
    every = max(1, args.hands // max(args.checkpoints, 1))
    while finished < args.hands:
        mine, acts, old = act(model, league, member[np.arange(args.envs), seats], obs, masks, seats)
        for k, i in enumerate(mine):
            traj[i].append((obs[i].copy(), masks[i].copy(), int(acts[i]), float(old[k])))
        obs, masks, seats, rewards, dones = env.step(acts)
        ret_so_far += rewards[:, 0]
        hands_in += env.hand_over
        for _ in range(int(env.hand_over.sum())):
            finished += 1
            if finished % every == 0 and finished < args.hands:
                checkpoint(finished)
        for i in np.flatnonzero(dones):
            done_eps.append((traj[i], float(ret_so_far[i])))
            pending += int(hands_in[i])
            traj[i], ret_so_far[i], hands_in[i] = [], 0.0, 0
            for s in league_seats:  # the next episode's opponents
                member[i, s] = pick.integers(len(league))
        if pending >= args.update:  # hands in finished episodes
            learner.update(done_eps)
            pending = 0
            done_eps = []
    checkpoint(finished)
    print(f"{finished} hands in {time.process_time() - t0:.0f} s CPU (evaluations included) → {out}")
    PolicyNet.load(out)  # the export loads for numpy
    critic = " with a critic" if args.critic else ""
    algorithm = f"{'PPO' if args.epochs > 1 else 'REINFORCE'}{critic} fine-tuning of net"
    algorithm += f", {args.episode} episodes, {args.reward} reward"
    if args.curve:
        Path(args.curve).write_text(
            json.dumps({"algorithm": algorithm, "opponents": args.opponents, "points": points}, indent=1)
        )


if __name__ == "__main__":
    main()
