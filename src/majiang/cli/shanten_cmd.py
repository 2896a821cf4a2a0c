"""``majiang shanten``: 向听数 and tile efficiency (牌效) of a hand — a readable table or JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from majiang.rulebook import DEFAULT, fan_names

if TYPE_CHECKING:
    from rich.console import Console

    from majiang.shanten import Analysis

EXAMPLE = "123m456p789s11s56m"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "shanten",
        help="shanten (向听数), useful tiles, waits and the discard table of a hand",
        description="How far a hand is from ready (听牌): the shanten of every MCR winning form (4 sets + pair, "
        "七对, 十三幺, 组合龙, 全不靠), the useful tiles (有效牌) with the copies still unseen, the waits "
        "of a ready hand and, for a hand holding one tile more (14 − 3 per meld), the discard table. "
        "Declared melds go first in brackets as in 'majiang fan' ([…] exposed, {…} concealed kong). "
        'With --jsonl, read shanten queries (docs/hand-json.md: {"melds": [...], "hand": [...], '
        '"visible": [...]}) from stdin and write one result per line.\n\n'
        "合法听 (legal waits): in MCR a wait only counts if winning on it scores --min-fan fans (8, "
        "flowers never counted). For a ready hand the table lists every wait with its fans on a discard "
        "(点和) and self-drawn (自摸), scored by majiang's own calculator with --seat-wind, "
        "--prevalent-wind and --rules; the legal waits are those whose discard win reaches the minimum "
        "(a wait reaching it only when self-drawn is shown apart: it may not be claimed). A tile the "
        "hand and its melds hold four of is no wait. 'fan shanten' is the fewest exchanges to a ready "
        "hand with a legal wait (searched up to 3 exchanges; '≥ n' = a lower bound); with one tile "
        "more, the discards are ranked by it. In --jsonl the same options are the query's keys "
        "(min_fan, seat_wind, prevalent_wind, rules); these flags give their defaults.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        f"  majiang shanten '{EXAMPLE}'        # ready: waits 4m 7m\n"
        "  majiang shanten '123m456p789s11s56mE'       # 14 tiles: which tile to discard\n"
        "  majiang shanten '[123m1][EEE2]456p1s5s9sC' --visible '2s 2s C'\n"
        "  majiang shanten '19m19p19sESWNCFP'          # 十三幺, waiting on 13 tiles\n"
        "  majiang shanten '23m123p456p789s11s' --min-fan 8   # 1m legal (花龙, 13), 4m only 5 fans\n"
        "  majiang shanten '456p789s11s78mSSS' --seat-wind S --prevalent-wind E\n"
        '  echo \'{"hand": "19m19p19sESWNCFP", "visible": ["E", "E"]}\' | majiang shanten --jsonl\n'
        "  majiang shanten --jsonl < queries.jsonl > results.jsonl",
    )
    p.add_argument("hand", nargs="?", help="the hand: melds in brackets, then the concealed tiles")
    p.add_argument(
        "--visible",
        default="",
        metavar="TILES",
        help="tiles seen elsewhere (discards, other players' melds), for the unseen counts and 和绝张",
    )
    p.add_argument(
        "--min-fan",
        type=int,
        default=None,
        metavar="N",
        help="fans a win needs, flowers not counted (起和, default 8): which waits are legal",
    )
    p.add_argument("--seat-wind", default=None, metavar="WIND", help="门风 E/S/W/N for the waits' fans (default E)")
    p.add_argument(
        "--prevalent-wind", default=None, metavar="WIND", help="圈风 E/S/W/N for the waits' fans (default E)"
    )
    p.add_argument(
        "--rules", default=None, choices=fan_names(), help=f"MCR rules profile for 合法听 (default {DEFAULT})"
    )
    p.add_argument(
        "--no-fans",
        dest="fans",
        action="store_false",
        default=None,
        help="leave 合法听 out (the plain shanten query: much faster for big --jsonl runs)",
    )
    p.add_argument("--jsonl", action="store_true", help="read shanten queries from stdin, write one result per line")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=run)


def _fan_defaults(args: argparse.Namespace) -> dict[str, Any]:
    """The 合法听 options given on the command line, as query keys."""
    given = {
        "min_fan": args.min_fan,
        "seat_wind": args.seat_wind,
        "prevalent_wind": args.prevalent_wind,
        "rules": args.rules,
        "fans": args.fans,
    }
    return {k: v for k, v in given.items() if v is not None}


def run(args: argparse.Namespace) -> int:
    defaults = _fan_defaults(args)
    if args.jsonl:
        from majiang.cli.jsonl import run_jsonl
        from majiang.shanten import analyze_dict

        if not defaults:
            return run_jsonl(analyze_dict)
        return run_jsonl(lambda d: analyze_dict({**defaults, **d}))
    if not args.hand:
        print(f"give a hand, e.g.  majiang shanten '{EXAMPLE}'   (or use --jsonl; see --help)", file=sys.stderr)
        return 2
    from majiang.mcr.hand import parse_melds_and_rest
    from majiang.shanten import analyze
    from majiang.shanten.query import fan_options
    from majiang.tiles import is_flower, parse_tiles

    try:
        melds, outside, flowers = parse_melds_and_rest(args.hand)
        if flowers:
            raise ValueError("flowers do not belong in the hand")
        visible = [t for t in parse_tiles(args.visible) if not is_flower(t)]
        result = analyze(parse_tiles(outside), melds, visible, **fan_options(defaults))
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
    melds = "".join(m.compact(with_source=True) for m in result.melds)
    glyphs = " ".join(
        ["".join(tile_glyph(t) for t in m.tiles) for m in result.melds]
        + ["".join(tile_glyph(t) for t in sorted(result.hand))]
    )
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
        useful = Table(
            show_header=True,
            header_style="bold",
            title="waits 听牌" if result.waits is not None else "useful tiles 有效牌",
        )
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
            table.add_row(
                f"{format_tiles([r.discard])} {tile_glyph(r.discard)} {tile_zh(r.discard)}",
                str(r.shanten),
                format_compact(r.useful),
                str(len(r.useful)),
                str(r.unseen),
                style=style,
            )
        console.print(table)

    if result.fan is not None:
        print_fans(result, console)


def _fan_shanten_words(value: int, exact: bool) -> str:
    return str(value) if exact else f"≥ {value}"


def print_fans(result: Analysis, console: Console) -> None:
    """合法听: the waits' fans and the legal waits (13 tiles), or the discards by fan shanten (one more)."""
    from rich.table import Table

    from majiang.tiles import format_compact, format_tiles, tile_glyph, tile_zh

    fan = result.fan
    assert fan is not None
    if fan.waits is not None:
        table = Table(
            show_header=True,
            header_style="bold",
            title=f"waits and fans 听牌番数 (min {fan.min_fan}, flowers not counted 花牌不计)",
        )
        table.add_column("听 wait")
        table.add_column("点和 discard", justify="right")
        table.add_column("自摸 self-drawn", justify="right")
        table.add_column("unseen", justify="right")
        table.add_column("合法 legal")
        for w in fan.waits:
            if w.discard >= fan.min_fan:
                verdict, style = "[green]yes 合法[/green]", "bold"
            elif w.self_drawn >= fan.min_fan:
                verdict, style = "仅自摸 self-drawn", ""
            else:
                verdict, style = "[red]no 不够番[/red]", ""
            table.add_row(
                f"{format_tiles([w.tile])} {tile_glyph(w.tile)} {tile_zh(w.tile)}",
                str(w.discard),
                str(w.self_drawn),
                str(result.unseen(w.tile)),
                verdict,
                style=style,
            )
        console.print(table)
        if fan.legal_waits:
            console.print(f"legal waits 合法听: [bold]{format_tiles(fan.legal_waits)}[/bold]")
        else:
            console.print(
                "[red]no legal wait 无合法听[/red]"
                + (f" (self-drawn only: {format_tiles(fan.self_drawn_waits)})" if fan.self_drawn_waits else "")
            )
    console.print(
        f"番向听 fan shanten (to a wait of ≥ {fan.min_fan} fans on a discard): "
        f"[bold]{_fan_shanten_words(fan.fan_shanten, fan.exact)}[/bold]"
    )
    if fan.discards:
        table = Table(show_header=True, header_style="bold", title="discards by fan shanten 按番向听打牌 (best first)")
        table.add_column("打 discard")
        table.add_column("fan shanten 番向听", justify="right")
        table.add_column("shanten", justify="right")
        table.add_column("legal waits 合法听 (fans)")
        table.add_column("unseen", justify="right")
        best = fan.discards[0]
        for r in fan.discards:
            legal = " ".join(f"{format_compact([w.tile])}({w.discard})" for w in r.waits if w.discard >= fan.min_fan)
            style = "bold" if (r.fan_shanten, r.exact) == (best.fan_shanten, best.exact) else ""
            table.add_row(
                f"{format_tiles([r.discard])} {tile_glyph(r.discard)} {tile_zh(r.discard)}",
                _fan_shanten_words(r.fan_shanten, r.exact),
                str(r.shanten),
                legal or "—",
                str(r.legal_unseen if legal else r.unseen),
                style=style,
            )
        console.print(table)
