"""托管 (auto-play), old and new: the engine's default — discard the drawn tile, pass
every claim, never win — against the room's fan-aware bot that 托管 now plays with
(:func:`majiang.hall.settings.autoplay_bot`: the room's bot kind, ``fan`` in the shipped MCR rooms).

The seat in 托管 plays against three of the room's bots; both runs play exactly the same hands
(``majiang simulate --duplicate``: the same walls from ``--seed``, each wall in all 24 seatings, so
the 托管 seat sits in every chair of every wall).  Reported for the 托管 seat: win rate, deal-in rate
(its discard won on), mean score a hand.

    .venv/bin/python benchmarks/tuoguan_bench.py --hands 960 --seed 16
"""

from __future__ import annotations

import argparse
import json
import time

from majiang.engine.protocol import DISCARD, PASS, Action
from majiang.engine.view import SeatView
from majiang.sim import simulate


class DrawnTileBot:
    """The old 托管 (``Hand.default_action``): discard the drawn tile, else the last legal discard;
    pass every claim; never win, never kong."""

    name = "drawn-tile (old 托管)"

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        if view.phase == "turn":
            drawn = view.drawn
            if drawn is not None and (a := Action(DISCARD, drawn)) in legal:
                return a
            return [a for a in legal if a.type == DISCARD][-1]
        return Action(PASS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=960, help="hands per run (a multiple of 24)")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--rules", default="gb")
    ap.add_argument("--room-bots", default="fan", help="the room's bot kind (rooms.toml `bots`)")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    from majiang.hall.settings import autoplay_kind

    kind = autoplay_kind(args.room_bots)
    rows = []
    for label, player in (("old: drawn tile", DrawnTileBot()), (f"new: {kind} bot", kind)):
        t0 = time.perf_counter()
        res = simulate(
            args.hands,
            args.seed,
            [player, args.room_bots, args.room_bots, args.room_bots],
            rules=args.rules,
            duplicate=True,
            workers=args.workers,
        )
        me = res.to_dict()["seats"][0]
        rows.append(
            {
                "托管": label,
                "hands": res.hands,
                "win_rate": round(me["win_rate"], 4),
                "deal_in_rate": round(me["deal_in_rate"], 4),
                "avg_score": round(me["avg_score"], 2),
                "avg_score_ci95": [round(x, 2) for x in me["avg_score_ci95"]],
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    print(f"rules {args.rules}, room bots {args.room_bots}, seed {args.seed}, duplicate")
    print(f"{'托管':<22}{'hands':>7}{'win':>9}{'deal-in':>9}{'score/hand':>12}")
    for r in rows:
        print(f"{r['托管']:<22}{r['hands']:>7}{r['win_rate']:>9.1%}{r['deal_in_rate']:>9.1%}{r['avg_score']:>12.2f}")
    print(json.dumps(rows, ensure_ascii=False))


if __name__ == "__main__":
    main()
