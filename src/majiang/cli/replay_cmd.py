"""``majiang replay``: show or verify a hand log; export it to the Botzone format."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="verify a hand log, print it, or export it to the Botzone format",
                       description="Replay a hand from its JSON-lines log (the seed and the recorded decisions).")
    p.add_argument("file", help="a hand log (.jsonl)")
    p.add_argument("--verify", action="store_true", help="replay and check every event is reproduced exactly")
    p.add_argument("--botzone", metavar="OUT", help="write the hand in the Botzone MCR judge-log format")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from majiang.engine.log import read_log, verify
    from majiang.rulesets import from_header

    try:
        events = read_log(args.file)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.botzone:
        from majiang.engine.botzone import export_botzone

        with open(args.botzone, "w", encoding="utf-8") as f:
            json.dump(export_botzone(events), f, ensure_ascii=False)
        print(f"wrote {args.botzone}")
    if args.verify:
        ok, msg = verify(events, from_header)
        print(("OK " if ok else "MISMATCH ") + msg)
        return 0 if ok else 1
    if not args.botzone:
        from majiang.engine.log import dumps_event

        for event in events:
            print(dumps_event(event))
    return 0
