"""``majiang review``: an AI review (复盘) of one seat's decisions in hand logs (docs/review.md)."""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

VERBS = {
    "discard": "打 discard",
    "chow": "吃 chow",
    "pung": "碰 pung",
    "kong": "杠 kong",
    "added_kong": "加杠 add kong",
    "concealed_kong": "暗杠 kong",
    "win": "和 win",
    "pass": "过 pass",
}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="review one seat's decisions in hand logs against a bot (复盘)",
        description="Replay each hand log; at every decision of the reviewed seat ask the reviewer bot what it "
        "would do from that seat's view, value both actions (fan-aware shanten, unseen useful tiles, "
        "deal-in danger: docs/review.md) and list where they differ, with the estimated loss.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  majiang simulate --hands 16 --log logs/ && majiang review logs/*.jsonl --seat 0\n"
        "  majiang review logs/hand-000003.jsonl --seat 2 --bot eff --json",
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help="hand logs (.jsonl), one hand each")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, choices=range(4), metavar="N", help="the seat reviewed, 0-3 (default 0)")
    who.add_argument(
        "--player",
        metavar="NAME",
        help="review the seat of this player (the log header's names, else its players entries)",
    )
    p.add_argument("--bot", help="the reviewer: any bot spec (default best, fan while best is not available)")
    p.add_argument("--top", type=int, default=5, metavar="K", help="the K biggest mistakes to highlight (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object (docs/review.md has the schema)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from majiang.engine.log import read_log
    from majiang.review import SessionReview, review_hand, reviewer_spec, seat_of_player

    try:
        spec = reviewer_spec(args.bot)
        hands = []
        for path in args.logs:
            events = read_log(path)
            if not events:
                raise ValueError(f"{path}: an empty log")
            seat = seat_of_player(events[0], args.player) if args.player is not None else (args.seat or 0)
            hands.append(review_hand(events, seat, spec, label=path))
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    session = SessionReview(spec, tuple(hands))
    top = max(0, args.top)
    if args.json:
        print(json.dumps(session.to_dict(top), ensure_ascii=False))
    else:
        print(render(session, top))
    return 0


def action_text(a: dict[str, Any]) -> str:
    verb = VERBS.get(a["type"], a["type"])
    tiles = "".join(a.get("tiles", [])) or a.get("tile", "")
    return f"{verb} {tiles}".strip()


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _pad(s: str, w: int, right: bool = False) -> str:
    fill = " " * max(0, w - _width(s))
    return fill + s if right else s + fill


def _table(headers: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(_width(r[i]) for r in [headers, *rows]) for i in range(len(headers))]

    def line(r: list[str]) -> str:
        return "  ".join(_pad(c, widths[i], i in right) for i, c in enumerate(r)).rstrip()

    return [line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


HEADERS = [
    "事件 Event",
    "巡 Turn",
    "手牌 Hand",
    "玩家 Player",
    "机器人 Bot",
    "玩家值 Value",
    "机器人值 Bot value",
    "损失 Loss",
    "",
]
RIGHT = {0, 1, 5, 6, 7}


def _row(d: dict[str, Any]) -> list[str]:
    hand = "".join(d["hand"]) + "".join(f" [{''.join(m)}]" for m in d["melds"])
    if d["drawn"]:
        hand += f" +{d['drawn']}"
    if d["offered"]:
        hand += f" ←{d['offered']}"
    return [
        str(d["event"]),
        str(d["turn"]),
        hand,
        action_text(d["player"]),
        action_text(d["bot"]),
        f"{d['player_value']:.2f}",
        f"{d['bot_value']:.2f}",
        f"{d['loss']:.2f}" if not d["agree"] else "",
        "✓" if d["agree"] else "✗ 不同 differs",
    ]


def _summary_text(s: dict[str, Any]) -> str:
    return (
        f"决策 decisions {s['decisions']} · 一致 agreed {s['agreed']} ({s['agreement']:.0%}) · "
        f"估计损失 estimated loss {s['loss']:.2f}"
    )


def render(session: Any, top: int) -> str:
    """The session review as text tables (Chinese and English headers)."""
    d = session.to_dict(top)
    out = [f"复盘 AI review · 评审 reviewer {d['reviewer']} · {len(d['hands'])} hand(s)", ""]
    for i, h in enumerate(d["hands"]):
        out.append(
            f"第 {i + 1} 局 hand {i + 1}: {h['label']} · 局号 hand_no {h['hand_no']} · 座位 seat {h['seat']} · "
            f"{h['rules']}"
        )
        out.extend(_table(HEADERS, [_row(x) for x in h["decisions"]], RIGHT))
        out.append(_summary_text(h["summary"]))
        out.append("")
    if d["mistakes"]:
        out.append(f"最大失误 biggest mistakes (top {top})")
        rows = [[str(m["hand_index"] + 1), *_row(m)[:-1]] for m in d["mistakes"]]
        out.extend(_table(["局 Hand", *HEADERS[:-1]], rows, {0, *(i + 1 for i in RIGHT)}))
        out.append("")
    out.append("全部 session: " + _summary_text(d["summary"]))
    out.append(f"方法 method: {d['method']}")
    return "\n".join(out)
