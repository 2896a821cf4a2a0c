"""``majiang replay``: show or verify a hand log; export it to a Botzone match record, or replay one."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="verify a hand log, print it, export it to Botzone, or replay a Botzone match",
        description="Replay a hand from its JSON-lines log (the seed and the recorded decisions), or a "
        "Botzone match record (a JSON object with initdata.walltiles and the log) on the "
        "botzone ruleset.",
    )
    p.add_argument("file", help="a hand log (.jsonl) or a Botzone match record (.json)")
    p.add_argument(
        "--verify",
        action="store_true",
        help="hand log: replay and check every event is reproduced exactly; match record: exit 1 when "
        "majiang's result differs from the record's final judge output",
    )
    p.add_argument("--botzone", metavar="OUT", help="write the hand (botzone ruleset) as a Botzone match record")
    p.add_argument(
        "--json",
        action="store_true",
        help="match record: print majiang's result as JSON (scores in Botzone player order)",
    )
    p.set_defaults(func=run)


def _match_record(path: str) -> dict[str, Any] | None:
    """The file as a Botzone match record, or None when it is a hand log."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        return None
    return data if "initdata" in data or _judge_output_has_initdata(data["log"]) else None


def _judge_output_has_initdata(log: list[Any]) -> bool:
    first = log[0] if log and isinstance(log[0], dict) else {}
    out = first.get("output", first)
    return isinstance(out, dict) and "initdata" in out


def run_record(record: dict[str, Any], args: argparse.Namespace) -> int:
    from majiang.rulesets.botzone import compare, hand_result, import_record, record_result

    try:
        hand = import_record(record)
    except (ValueError, KeyError, TypeError) as e:
        print(f"error: not a replayable Botzone match record: {e}", file=sys.stderr)
        return 2
    ours = hand_result(hand)
    result = {
        "result": ours.get("action"),
        "winner": ours.get("player"),
        "fan": ours.get("fanCnt"),
        "fans": ours.get("fan", []),
        "scores": ours["score"],
        "over": hand.over,
    }
    diffs: list[str] = []
    if args.verify:
        try:
            diffs = compare(ours, record_result(record))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            diffs = [f"the record has no final judge output ({e})"]
        result["verify"] = diffs or "ok"
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        who = f" by player {result['winner']}" if result["winner"] is not None else ""
        fan = f", {result['fan']} fan" if result["fan"] is not None else ""
        print(f"{result['result']}{who}{fan}; scores {result['scores']}")
        if args.verify:
            print("OK the record's result is reproduced" if not diffs else "MISMATCH " + "; ".join(diffs))
    return 1 if diffs else 0


def run(args: argparse.Namespace) -> int:
    from majiang.engine.log import read_log, verify
    from majiang.rulesets import from_header

    if args.file.endswith(".json") or not args.file.endswith(".jsonl"):
        record = _match_record(args.file)
        if record is not None:
            return run_record(record, args)
    try:
        events = read_log(args.file)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.botzone:
        from majiang.rulesets.botzone import export_record

        try:
            record = export_record(events)
        except (ValueError, KeyError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        with open(args.botzone, "w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False)
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
