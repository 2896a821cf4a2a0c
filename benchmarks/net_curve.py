"""The learning curve of the ``net`` policy: each checkpoint against three efficiency bots on the same
walls, its margin with the 95 % CI over walls (``bot_duel.duel``), plotted against the self-play hands
it was fine-tuned on (``finetuned_hands`` in its config; a cloned policy is at 0).

    .venv/bin/python benchmarks/net_curve.py bc.npz pg-a-10000.npz pg-a-50000.npz … \\
        --hands 12000 --seed 2027 --reference fan -o docs/img/net-curve.png

``--reference`` draws another bot's margin on the same walls as a band.  Writes the figures as JSON
beside the picture (``--json``); the picture needs matplotlib.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from bot_duel import duel

from majiang.rl.net import PolicyNet


def finetuned(path: str) -> int:
    return int(PolicyNet.load(path).config.get("finetuned_hands", 0))


def plot(points: list[dict[str, Any]], ref: dict[str, Any] | None, out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    x = [p["finetuned_hands"] / 1000 for p in points]
    y = [p["margin"] for p in points]
    lo = [m - p["margin_ci95"][0] for m, p in zip(y, points, strict=True)]
    hi = [p["margin_ci95"][1] - m for m, p in zip(y, points, strict=True)]
    ax.errorbar(x, y, yerr=np.array([lo, hi]), marker="o", capsize=3, label="net checkpoints")
    if ref is not None:
        ax.axhspan(*ref["margin_ci95"], color="tab:green", alpha=0.15)
        ax.axhline(ref["margin"], color="tab:green", label=f"{ref['bots'][0]} (95 % CI band)")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("self-play hands of REINFORCE fine-tuning (thousands; 0 = the cloned policy)")
    ax.set_ylabel("margin over 3 × eff a hand (95 % CI over walls)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoints", nargs="+", metavar="WEIGHTS.npz")
    ap.add_argument("--hands", type=int, default=2400, help="hands a checkpoint, a multiple of 24 (default 2400)")
    ap.add_argument("--seed", type=int, default=2027, help="the walls' seed (default 2027)")
    ap.add_argument("--reference", metavar="BOT", help="also measure this bot on the same walls (e.g. fan)")
    ap.add_argument("-o", "--out", default="net-curve.png", help="the picture (default net-curve.png)")
    ap.add_argument("--json", help="the figures (default: the picture's name with .json)")
    args = ap.parse_args()
    points = []
    for i, path in enumerate(args.checkpoints, 1):
        d = duel(args.hands, args.seed, [f"net:{path}", "eff", "eff", "eff"])
        d["finetuned_hands"] = finetuned(path)
        d["weights"] = path
        points.append(d)
        lo, hi = d["margin_ci95"]
        print(
            f"[{i}/{len(args.checkpoints)}] {path}: {d['finetuned_hands']:,} hands fine-tuned, "
            f"margin {d['margin']:+.2f} [{lo:+.2f}, {hi:+.2f}], win {d['win_rate'][0]:.1%}",
            file=sys.stderr,
            flush=True,
        )
    ref = duel(args.hands, args.seed, [args.reference, "eff", "eff", "eff"]) if args.reference else None
    if ref is not None:
        print(f"{args.reference}: margin {ref['margin']:+.2f} {ref['margin_ci95']}", file=sys.stderr)
    out = Path(args.out)
    Path(args.json or out.with_suffix(".json")).write_text(
        json.dumps({"hands": args.hands, "seed": args.seed, "points": points, "reference": ref}, indent=1) + "\n"
    )
    plot(points, ref, out, f"net vs 3 × eff, {args.hands:,} duplicate hands a point (seed {args.seed})")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
