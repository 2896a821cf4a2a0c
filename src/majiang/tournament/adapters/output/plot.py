"""Standings over sessions: each player's cumulative standard score after each session, as PNG or
SVG (matplotlib, headless Agg backend)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Literal

from majiang.tournament.ranking import GroupResult, standings_history

Format = Literal["png", "svg"]


def standings_plot(
    result: GroupResult,
    fmt: Format = "png",
    *,
    title: str = "Standings",
    top: int | None = None,
    highlight: str | None = None,
) -> bytes:
    """Lines of cumulative standard score per player, labelled with their names at the end.  With
    ``top``, the ``top`` best are drawn in colour and labelled and everybody else as faint grey lines
    (a field of 40 stays readable); ``highlight`` (a player id) is drawn thick and labelled wherever he
    stands."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"font.family": _families()}):
        return _plot(Figure, result, fmt, title, top, highlight)


def _families() -> list[str]:
    """DejaVu Sans, then Droid Sans Fallback for Chinese names where Debian has it (the PDFs' fonts)."""
    from matplotlib import font_manager

    from majiang.tournament.adapters.output.pdf import CJK_TTF

    for path in CJK_TTF:
        if path.exists():
            font_manager.fontManager.addfont(str(path))
            return ["DejaVu Sans", font_manager.FontProperties(fname=str(path)).get_name()]
    return ["DejaVu Sans"]


def _plot(Figure: Any, result: GroupResult, fmt: Format, title: str, top: int | None, highlight: str | None) -> bytes:
    history = standings_history(result)
    order = [s.player for s in result.standings]
    shown = order[: top or None]
    names = {p.id: p.name or p.id for p in result.group.players}
    n = len(result.sessions)
    fig = Figure(figsize=(10, 6) if len(order) > 16 else (8, 5), dpi=100)
    ax = fig.add_subplot()
    xs = list(range(0, n + 1))

    def ys(pid: str) -> list[float]:
        return [0.0] + [float(v) for v in history[pid]]

    for pid in order:
        if pid not in shown and pid != highlight:
            ax.plot(xs, ys(pid), color="#bbbbbb", linewidth=0.7, alpha=0.6, zorder=1)
    for pid in [*shown, *([highlight] if highlight in history and highlight not in shown else [])]:
        y = ys(pid)
        thick = pid == highlight
        (line,) = ax.plot(
            xs,
            y,
            marker="o",
            markersize=4 if thick else 3,
            linewidth=3 if thick else 1.2,
            color="#111111" if thick else None,
            zorder=3 if thick else 2,
        )
        rank = order.index(pid) + 1
        ax.annotate(
            f"{rank}. {names.get(pid, pid)}",
            (xs[-1], y[-1]),
            xytext=(4, 0),
            textcoords="offset points",
            fontsize=9 if thick else 7,
            fontweight="bold" if thick else "normal",
            color=line.get_color(),
            va="center",
        )
    ax.set_xticks(xs)
    ax.set_xlim(0, max(n, 1) * 1.18)
    ax.set_xlabel("session")
    ax.set_ylabel(f"cumulative standard score ({result.scheme})")
    ax.set_title(title + (f" · top {top}" if top and top < len(order) else ""))
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
    return buf.getvalue()


def save_standings_plot(result: GroupResult, path: str | Path, **kwargs: object) -> Path:
    """Write the plot; the format follows the suffix (``.png`` or ``.svg``)."""
    p = Path(path)
    fmt: Format = "svg" if p.suffix.lower() == ".svg" else "png"
    title = str(kwargs.get("title", "Standings"))
    top, highlight = kwargs.get("top"), kwargs.get("highlight")
    p.write_bytes(
        standings_plot(
            result,
            fmt,
            title=title,
            top=top if isinstance(top, int) else None,
            highlight=highlight if isinstance(highlight, str) else None,
        )
    )
    return p
