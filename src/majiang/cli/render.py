"""Readable terminal output (rich tables) for people; machines get JSON."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from majiang.mcr import ScoreResult, WinningHand
from majiang.tiles import tile_glyph


def hand_glyphs(hand: WinningHand) -> str:
    parts = []
    for m in hand.melds:
        g = "".join(tile_glyph(t) for t in m.tiles)
        parts.append(f"[{g}]" if m.exposed else "{" + g + "}")
    parts.append("".join(tile_glyph(t) for t in sorted(hand.hand)))
    parts.append(" + " + tile_glyph(hand.win_tile))
    return " ".join(parts)


def print_score(hand: WinningHand, result: ScoreResult, explain: bool = False, console: Console | None = None) -> None:
    console = console or Console()
    console.print(f"[bold]{hand.to_string()}[/bold]   {hand_glyphs(hand)}")
    how = "自摸 self-drawn" if hand.self_drawn else "点和 on a discard"
    console.print(
        f"{how} · 门风 seat {'ESWN'[hand.seat_wind]} · 圈风 round {'ESWN'[hand.prevalent_wind]} · "
        f"rules {result.rules.name}"
    )
    table = Table(show_header=True, header_style="bold")
    table.add_column("番种")
    table.add_column("Fan")
    table.add_column("pts", justify="right")
    table.add_column("×", justify="right")
    table.add_column("sum", justify="right")
    if explain:
        table.add_column("counted from")
    for fc in result.fans:
        row = [fc.zh, fc.name, str(fc.points), str(fc.count), str(fc.points * fc.count)]
        if explain:
            row.append("; ".join(" + ".join(src) for src in fc.sources))
        table.add_row(*row)
    console.print(table)
    ok = "[green]yes[/green]" if not result.below_minimum else "[red]no — below the 8-fan minimum (错和)[/red]"
    console.print(
        f"[bold]total {result.total}[/bold] (fans without flowers: {result.fan_points}) · "
        f"≥ {result.rules.min_fan}: {ok}"
    )
    if explain:
        console.print(f"reading: {result.reading}")
