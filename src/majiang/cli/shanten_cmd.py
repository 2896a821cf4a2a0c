"""``majiang shanten``: 向听数 and tile efficiency (牌效) of a hand — a readable table or JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from majiang.shanten import Analysis

EXAMPLE = "123m456p789s11s56m"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "shanten", help="shanten (向听数), useful tiles, waits and the discard table of a hand",
        description="How far a hand is from ready (听牌): the shanten of every MCR winning form (4 sets + pair, "
                    "七对, 十三幺, 组合龙, 全不靠), the useful tiles (有效牌) with the copies still unseen, the waits "
                    "of a ready hand and, for a hand holding one tile more (14 − 3 per meld), the discard table. "
                    "Declared melds go first in brackets as in 'majiang fan' ([…] exposed, {…} concealed kong). "
                    "With --jsonl, read shanten queries (docs/hand-json.md: {\"melds\": [...], \"hand\": [...], "
                    "\"visible\": [...]}) from stdin and write one result per line.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               f"  majiang shanten '{EXAMPLE}'        # ready: waits 4m 7m\n"
               "  majiang shanten '123m456p789s11s56mE'       # 14 tiles: which tile to discard\n"
               "  majiang shanten '[123m1][EEE2]456p1s5s9sC' --visible '2s 2s C'\n"
               "  majiang shanten '19m19p19sESWNCFP'          # 十三幺, waiting on 13 tiles\n"
               "  echo '{\"hand\": \"19m19p19sESWNCFP\", \"visible\": [\"E\", \"E\"]}' | majiang shanten --jsonl\n"
               "  majiang shanten --jsonl < queries.jsonl > results.jsonl",
    )
    p.add_argument("hand", nargs="?", help="the hand: melds in brackets, then the concealed tiles")
    p.add_argument("--visible", default="", metavar="TILES",
                   help="tiles seen elsewhere (discards, other players' melds), for the unseen counts")
    p.add_argument("--jsonl", action="store_true", help="read shanten queries from stdin, write one result per line")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        from majiang.cli.jsonl import run_jsonl
        from majiang.shanten import analyze_dict

        return run_jsonl(analyze_dict)
    if not args.hand:
        print(f"give a hand, e.g.  majiang shanten '{EXAMPLE}'   (or use --jsonl; see --help)", file=sys.stderr)
        return 2
    from majiang.mcr.hand import parse_melds_and_rest
    from majiang.shanten import analyze
    from majiang.tiles import is_flower, parse_tiles

    try:
        melds, outside, flowers = parse_melds_and_rest(args.hand)
        if flowers:
            raise ValueError("flowers do not belong in the hand")
        visible = [t for t in parse_tiles(args.visible) if not is_flower(t)]
        result = analyze(parse_tiles(outside), melds, visible)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    print_analysis(result)
    return 0


def _shanten_words(s: int) -> str:
    if s < 0:
        return "[green]complete 和了[/green]"
    if s == 0:
        return "[green]ready 听牌[/green]"
    return f"{s} tile{'s' if s > 1 else ''} from ready"


def print_analysis(result: Analysis, console: Console | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    from majiang.shanten import FORM_EN, FORM_ZH, FORMS
    from majiang.tiles import format_compact, format_tiles, tile_glyph, tile_zh

    console = console or Console()
    melds = "".join(m.compact() for m in result.melds)
    glyphs = " ".join(["".join(tile_glyph(t) for t in m.tiles) for m in result.melds]
                      + ["".join(tile_glyph(t) for t in sorted(result.hand))])
    console.print(f"[bold]{melds}{format_compact(sorted(result.hand))}[/bold]   {glyphs}")
    console.print(f"向听数 shanten [bold]{result.shanten}[/bold] — {_shanten_words(result.shanten)}")

    forms = Table(show_header=True, header_style="bold", title="forms 和型")
    forms.add_column("和型")
    forms.add_column("Form")
    forms.add_column("shanten", justify="right")
    for name, value in zip(FORMS, result.forms, strict=True):
        style = "bold" if value == result.shanten else ""
        forms.add_row(FORM_ZH[name], FORM_EN[name], "—" if value is None else str(value), style=style)
    console.print(forms)

    if result.useful:
        useful = Table(show_header=True, header_style="bold",
                       title="waits 听牌" if result.waits is not None else "useful tiles 有效牌")
        useful.add_column("tile")
        useful.add_column("")
        useful.add_column("牌")
        useful.add_column("unseen", justify="right")
        for t in result.useful:
            useful.add_row(format_tiles([t]), tile_glyph(t), tile_zh(t), str(result.unseen(t)))
        console.print(useful)
        total = sum(result.unseen(t) for t in result.useful)
        console.print(f"{len(result.useful)} kinds, {total} unseen copies")

    if result.discards:
        table = Table(show_header=True, header_style="bold", title="discards 打牌 (best first)")
        table.add_column("打 discard")
        table.add_column("shanten", justify="right")
        table.add_column("useful tiles 有效牌")
        table.add_column("kinds", justify="right")
        table.add_column("unseen", justify="right")
        best = result.discards[0]
        for r in result.discards:
            style = "bold" if (r.shanten, r.unseen) == (best.shanten, best.unseen) else ""
            table.add_row(f"{format_tiles([r.discard])} {tile_glyph(r.discard)} {tile_zh(r.discard)}", str(r.shanten),
                          format_compact(r.useful), str(len(r.useful)), str(r.unseen), style=style)
        console.print(table)
