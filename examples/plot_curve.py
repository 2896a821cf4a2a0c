"""Draw learning curves written by rl_ppo.py / rl_train.py --curve (matplotlib):

python examples/plot_curve.py ppo.json reinforce.json -o docs/img/rl-curve.png
"""

import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after choosing the file backend

ap = argparse.ArgumentParser()
ap.add_argument("curves", nargs="+")
ap.add_argument("-o", "--out", default="rl-curve.png")
args = ap.parse_args()

fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
for path in args.curves:
    with open(path) as f:
        c = json.load(f)
    pts = c["points"]
    x = [p["seconds"] / 60 for p in pts]
    y = [p["avg_score"] for p in pts]
    lo = [p["avg_score_ci95"][0] for p in pts]
    hi = [p["avg_score_ci95"][1] for p in pts]
    (line,) = ax.plot(x, y, marker="o", label=f"{c['algorithm']} vs 3 × {c['opponents']}")
    ax.fill_between(x, lo, hi, alpha=0.2, color=line.get_color())
ax.axhline(0, color="grey", lw=0.8)
ax.set_xlabel("training time (minutes, evaluations included)")
ax.set_ylabel("score per hand, duplicate evaluation (95 % CI)")
ax.set_title("majiang/MCR-v0: one learning seat against three bots")
ax.legend()
fig.tight_layout()
fig.savefig(args.out)
print(f"wrote {args.out}")
