"""How much of the wall's contents public information tells (issue 27; docs/bots.md, *How far
information alone goes*).

`ev` counts a tile's unseen copies as if each were in the wall or in another hand by their sizes alone;
told which copies are really in the wall (``ev_oracle.patch``, ``MJ_EV_ORACLE=2``) it gains about 1.6
points a hand.  This asks how much of that a seat could estimate: four core `ev` bots play ``--hands``
hands; at about half the turns, for each tile kind the deciding seat has not seen all of, a row of
public features and the label (its copies still in the wall) is kept.  A logistic model of "a copy is
in the wall", with the sizes' share as its offset (the baseline), is fitted on the first half of the
hands and scored on the second.  Prints the baseline's and the model's held-out log-loss per copy and
the squared error of the expected copies in the wall.

    .venv/bin/python benchmarks/experiments/wall_estimate.py --hands 1200 --seed 2
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from majiang.cli.progress import hands_bar
from majiang.engine.compiled import BOT_EV, BOT_PYTHON, CompiledHand
from majiang.rulesets import make_ruleset

FEATURES = (
    "bias",
    "honour",
    "terminal",
    "2 or 8",
    "1 unseen",
    "2 unseen",
    "3 unseen",
    "in the others' ponds",
    "neighbours in the others' ponds (of 6)",
    "the others' melds in its suit (of 4)",
    "honour, 2+ unseen",
    "honour, 2+ unseen, past 40 % of the hand",
    "share of the hand gone",
)


@dataclass
class Rows:
    x: list[list[float]] = field(default_factory=list)
    in_wall: list[int] = field(default_factory=list)
    unseen: list[int] = field(default_factory=list)
    share: list[float] = field(default_factory=list)  # the wall's share of the hidden tiles


def observe(hand: CompiledHand, seat: int, rows: Rows) -> None:
    """The rows of ``seat``'s view now: one per tile kind with an unseen copy."""
    seats = hand.seats
    in_wall = [0] * 34
    for tile, taken in zip(hand.wall.tiles, hand.wall.taken, strict=True):
        if not taken and tile < 34:
            in_wall[tile] += 1
    wall = sum(in_wall)
    held = sum(seats[o].n_concealed for o in range(4) if o != seat)
    share = wall / max(1, wall + held)
    ponds = [0] * 34
    suit_melds = [0] * 4
    for o in range(4):
        if o == seat:
            continue
        for tile in seats[o].discards:
            ponds[tile] += 1
        for meld in seats[o].melds:
            suit_melds[min(int(meld.tile) // 9, 3)] += 1
    visible = hand.visible
    for t in range(34):
        unseen = 4 - visible[t] - seats[seat].counts[t]
        if unseen <= 0:
            continue
        honour, rank = t >= 27, t % 9
        near = 0 if honour else sum(ponds[t + d] for d in (-2, -1, 1, 2) if 0 <= rank + d < 9)
        rows.x.append(
            [
                1.0,
                honour,
                not honour and rank in (0, 8),
                not honour and rank in (1, 7),
                unseen == 1,
                unseen == 2,
                unseen == 3,
                ponds[t] > 0,
                min(near, 6) / 6,
                suit_melds[min(t // 9, 3)] / 4,
                honour and unseen >= 2,
                honour and unseen >= 2 and share < 0.6,
                1 - share,
            ]
        )
        rows.in_wall.append(in_wall[t])
        rows.unseen.append(unseen)
        rows.share.append(share)


def collect(hands: int, seed: int, done: Callable[[], None] | None = None) -> Rows:
    """Rows from ``hands`` hands of four core `ev` bots, on walls from ``seed`` (``done()`` after each)."""
    rules = make_ruleset("gb")
    rng = random.Random(seed)
    rows = Rows()
    for _ in range(hands):
        hand = CompiledHand(rules, rng.randbytes(16))

        def decide(seat: int, hand: CompiledHand = hand) -> None:
            if hand.phase.name == "TURN" and rng.random() < 0.5:
                observe(hand, seat, rows)
            hand.act(seat, hand.bot_choice(seat, BOT_EV))

        hand.play((BOT_PYTHON,) * 4, tuple(random.Random(s) for s in range(4)), decide)
        if done is not None:
            done()
    return rows


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return np.asarray(np.log(p / (1 - p)))


def fit(x: np.ndarray, y: np.ndarray, n: np.ndarray, offset: np.ndarray, steps: int = 12) -> np.ndarray:
    """Binomial logistic regression (``y`` of ``n`` copies) with a fixed offset, by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(offset + x @ w)))
        grad = x.T @ (y - n * p)
        hess = (x * (n * p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(len(w))
        w += np.linalg.solve(hess, grad)
    return w


def log_loss(p: np.ndarray, y: np.ndarray, n: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (n - y) * np.log(1 - p)).sum() / n.sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=1200, help="hands of four ev bots (half to fit, half to score)")
    ap.add_argument("--seed", type=int, default=2, help="the walls' seed")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar (shown only on a terminal)")
    a = ap.parse_args()
    if a.hands < 2:
        ap.error("--hands: at least 2 (one to fit, one to score)")
    played = [0]
    with hands_bar(a.hands, show=not a.no_progress) as update:

        def done() -> None:
            played[0] += 1
            if update is not None:
                update(played[0])

        parts = [collect(a.hands // 2, a.seed, done), collect(a.hands - a.hands // 2, a.seed + 1, done)]
    arrays = [
        (np.array(r.x, float), np.array(r.in_wall, float), np.array(r.unseen, float), np.array(r.share, float))
        for r in parts
    ]
    (x, y, n, share), (xt, yt, nt, st) = arrays
    w = fit(x, y, n, _logit(share))
    p = 1 / (1 + np.exp(-(_logit(st) + xt @ w)))
    print(f"rows: {len(y):,} to fit, {len(yt):,} to score (seeds {a.seed} and {a.seed + 1})")
    print("| held out | log-loss per copy | squared error of the copies in the wall |")
    print("|---|---:|---:|")
    print(f"| the sizes alone (`ev`) | {log_loss(st, yt, nt):.4f} | {np.mean((yt - nt * st) ** 2):.3f} |")
    print(f"| the model | {log_loss(p, yt, nt):.4f} | {np.mean((yt - nt * p) ** 2):.3f} |")
    print(f"| (the copies' variance) | | {np.var(yt):.3f} |")
    print("weights:", ", ".join(f"{name} {v:+.2f}" for name, v in zip(FEATURES, w, strict=True)))


if __name__ == "__main__":
    main()
