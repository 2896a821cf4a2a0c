"""``majiang dataset``: hand logs → sharded (observation, mask, action, reward) records."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "dataset",
        help="turn hand logs into (observation, mask, action, reward) records for RL",
        description="Replay each hand log (as 'majiang simulate --log DIR' writes them; or a Botzone match record, "
        "a .json file as Botzone's judge writes it) through the engine and "
        "record every decision — declined claims included, as 'pass' — with the deciding seat's "
        "observation planes, legal-action mask, action code and reward, into compressed numpy "
        "shards; read them back with majiang.rl.dataset.load(DIR) (docs/rl.md).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  majiang simulate --hands 50 --bots fan,eff,eff,eff --log logs/\n"
        "  majiang dataset logs/ -o data/",
    )
    p.add_argument(
        "logs",
        nargs="+",
        metavar="LOG",
        help="hand logs (.jsonl), Botzone match records (.json), or directories of them",
    )
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="where the shards and meta.json go")
    p.add_argument("--shard-size", type=int, default=2048, metavar="N", help="records per shard (default 2048)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from majiang.rl.dataset import build

    try:
        meta = build(args.logs, args.out, shard_size=args.shard_size)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{meta['records']} decisions from {meta['hands']} hands in {len(meta['shards'])} shards → {args.out}")
    return 0
