"""Standings over sessions: each player's cumulative standard score after each session, as PNG or
SVG (matplotlib, headless Agg backend)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Literal

from majiang.tournament.ranking import GroupResult, standings_history

Format = Literal["png", "svg"]


def standings_plot(result: GroupResult, fmt: Format = "png", *, title: str = "Standings",
                   top: int | None = None) -> bytes:
    """Lines of cumulative standard score per player (the ``top`` best, default all), labelled at the end."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    history = standings_history(result)
    players = [s.player for s in result.standings][: top or None]
    n = len(result.sessions)
    fig = Figure(figsize=(8, 5), dpi=100)
    ax = fig.add_subplot()
    xs = list(range(0, n + 1))
    for pid in players:
        ys = [0.0] + [float(v) for v in history[pid]]
        (line,) = ax.plot(xs, ys, marker="o", markersize=3, linewidth=1.2)
        ax.annotate(pid, (xs[-1], ys[-1]), xytext=(4, 0), textcoords="offset points", fontsize=7,
                    color=line.get_color(), va="center")
    ax.set_xticks(xs)
    ax.set_xlabel("session")
    ax.set_ylabel(f"cumulative standard score ({result.scheme})")
    ax.set_title(title)
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
    top = kwargs.get("top")
    p.write_bytes(standings_plot(result, fmt, title=title, top=top if isinstance(top, int) else None))
    return p
