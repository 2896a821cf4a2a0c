"""``majiang fan``: score a finished hand — readable breakdown or JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXAMPLE = "[123m1][EEE2]{9999s}456pC C"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "fan",
        help="score a winning hand (MCR fan calculator / Nanchang settlement)",
        description="Score a finished hand. Give the compact hand string, e.g. "
        f"'{EXAMPLE}' = an exposed chow 123m claimed as 1st tile, a pung of East from 对家, "
        "a concealed kong of 9s, concealed 456p and 中, winning on 中 (the last tile, after a space). "
        "With --jsonl, read hand-json objects (docs/hand-json.md) from stdin, one per line.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        f"  majiang fan '{EXAMPLE}'\n"
        "  majiang fan '1112345678999m 5m' --self-drawn --explain\n"
        "  majiang fan '123m456p789s123pEE E' --seat-wind S --prevalent-wind E --flowers 2\n"
        "  majiang fan --jsonl < hands.jsonl > results.jsonl",
    )
    p.add_argument("hand", nargs="?", help="compact hand string; winning tile last, after a space")
    p.add_argument("--jsonl", action="store_true", help="read hand-json objects from stdin, write one result per line")
    p.add_argument(
        "--rules",
        default=None,
        help="rules profile: gb (default), botzone; nanchang with --jsonl (overrides a line's 'rules')",
    )
    p.add_argument("--self-drawn", action="store_true", help="自摸: the winning tile was self-drawn")
    p.add_argument("--fourth-tile", action="store_true", help="和绝张: the other three copies are visible")
    p.add_argument("--kong", action="store_true", help="杠上开花 when self-drawn, 抢杠和 otherwise")
    p.add_argument("--last-tile", action="store_true", help="妙手回春 when self-drawn, 海底捞月 otherwise")
    p.add_argument("--seat-wind", default="E", help="门风 E/S/W/N (default E)")
    p.add_argument("--prevalent-wind", default="E", help="圈风 E/S/W/N (default E)")
    p.add_argument("--flowers", type=int, default=None, help="number of flowers (or write f1..f8 in the hand)")
    p.add_argument("--explain", action="store_true", help="show which sets or tiles each fan was counted from")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        return _run_jsonl(args)
    if not args.hand:
        print(f"give a hand, e.g.  majiang fan '{EXAMPLE}'   (or use --jsonl; see --help)", file=sys.stderr)
        return 2
    from majiang.rulebook import DEFAULT, lookup

    rules = args.rules or DEFAULT
    entry = lookup(rules)  # not registered: an MCR profile name, which the scorer checks
    if entry is not None and entry.min_fan is None:
        print(
            f"error: the compact hand string is an MCR hand, and {rules} is not scored in fans: give its "
            f"hands as hand-json (docs/hand-json.md): majiang fan --jsonl --rules {rules}",
            file=sys.stderr,
        )
        return 2
    from majiang.mcr import WinningHand, score

    flags: dict[str, Any] = dict(
        self_drawn=args.self_drawn,
        fourth_tile=args.fourth_tile,
        kong=args.kong,
        last_tile=args.last_tile,
        seat_wind=args.seat_wind,
        prevalent_wind=args.prevalent_wind,
        rules=rules,
    )
    if args.flowers is not None:
        flags["flowers"] = args.flowers
    try:
        hand = WinningHand.from_string(args.hand, **flags)
        result = score(hand)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(explain=args.explain), ensure_ascii=False))
        return 0
    from majiang.cli.render import print_score

    print_score(hand, result, explain=args.explain)
    return 0


def _run_jsonl(args: argparse.Namespace) -> int:
    from majiang.cli.jsonl import run_jsonl
    from majiang.rulebook import DEFAULT, Calculator, calculator

    forced = args.rules
    explain = args.explain
    # calculator() looked up once per ruleset the lines name (and so imported only then), not on every line
    table: dict[Any, Calculator] = {}

    def handle(d: dict[str, Any]) -> dict[str, Any]:
        if forced:
            d = {**d, "rules": forced}
        rules = d.get("rules", DEFAULT)
        try:
            calc = table.get(rules)
        except TypeError:  # a list or an object: unhashable, not a name
            return calculator(None)(d, explain)
        if calc is None:
            calc = table[rules] = calculator(rules)
        return calc(d, explain)

    return run_jsonl(handle)
