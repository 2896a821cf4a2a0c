"""``majiang nanchang``: settle one Nanchang (南昌麻将) hand from JSON — a readable breakdown or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXAMPLE = """\
{"rules": "nanchang", "jing_indicator": "5p", "dealer": 0,
 "winner": 1, "win_tile": "2s", "method": "self_drawn", "discarder": null,
 "hands": [{"concealed": "1234567m 123p 123s"},
           {"concealed": "1m1m 3s3s 9p9p EE CC 7m7m 5p"},
           {"concealed": "2345678m 234p 4s 4s 4s"},
           {"concealed": "345689m 234p 5s5s5s S"}]}"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "nanchang",
        help="settle a Nanchang (南昌麻将) hand: win, kong and jing (精) points",
        description="Settle one finished Nanchang hand given as hand-json (docs/hand-json.md, section\n"
        "'Nanchang hand settlement'): the four seats' tiles, the jing indicator, the winner and how\n"
        "they won ('winner': null for an exhaustive draw). Prints the 胡 items, the multiplier and\n"
        "each seat's win / kong / jing points. Rule options are the flags of docs/nanchang.md\n"
        "(spec §2.14), in the JSON's 'options' or with -o.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example hand (seed example 1, 闲家精钓小七对 — seat 1 self-draws 2s to pair its lone jing):\n"
        + "\n".join("  " + line for line in EXAMPLE.splitlines())
        + "\n\nexamples:\n"
        "  majiang nanchang hand.json\n"
        "  majiang nanchang < hand.json --json\n"
        "  majiang nanchang hand.json -o dianpao_pay=one -o bawang=plus10\n"
        "  majiang nanchang --list-options\n"
        "  majiang fan --jsonl --rules nanchang < hands.jsonl   # many hands, JSON lines",
    )
    p.add_argument("file", nargs="?", default="-", help="a JSON file with one hand; '-' or nothing reads stdin")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a rule option (overrides the JSON's 'options'); VALUE is JSON or a bare word",
    )
    p.add_argument("--json", action="store_true", help="print the hand-json result object instead of the table")
    p.add_argument("--list-options", action="store_true", help="list the rule options and their defaults")
    p.set_defaults(func=run)


def _parse_option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ValueError(f"-o expects NAME=VALUE, got {text!r}")
    try:
        return name.strip(), json.loads(value)
    except json.JSONDecodeError:
        return name.strip(), value


def run(args: argparse.Namespace) -> int:
    from majiang.nanchang import DEFAULT_OPTIONS

    if args.list_options:
        for name, value in DEFAULT_OPTIONS.to_dict().items():
            print(f"{name} = {json.dumps(value)}")
        return 0
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except OSError as e:
        print(f"error: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        d = json.loads(text)
        if not isinstance(d, dict):
            raise ValueError("expected one JSON object (a hand), got " + type(d).__name__)
        extra = dict(_parse_option(o) for o in args.option)
    except (json.JSONDecodeError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if extra:
        opts = d.get("options") or {}
        d["options"] = {**opts, **extra} if isinstance(opts, dict) else opts
    return _settle(d, as_json=args.json)


def _settle(d: dict[str, Any], as_json: bool) -> int:
    from majiang.nanchang import render_settlement, settle, settlement_to_dict
    from majiang.nanchang.hand_json import record_from_dict

    try:
        rec, options = record_from_dict(d)
        s = settle(rec, options)
    except ValueError as e:
        if as_json:
            print(json.dumps({"error": str(e)}, ensure_ascii=False))
        else:
            print(f"error: {e}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(settlement_to_dict(s, options), ensure_ascii=False))
    else:
        print(render_settlement(rec, s, options))
        changed = options.changed()
        if changed:
            print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items()))
    return 0
