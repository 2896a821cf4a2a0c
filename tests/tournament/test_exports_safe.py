"""A standings export opened in a spreadsheet runs no formula a player put in a name."""

from __future__ import annotations

import csv
import io

from majiang.tournament.adapters.output.exports import _csv, spreadsheet_safe


def test_cells_a_spreadsheet_would_run_are_written_as_text() -> None:
    """Was: standings.csv wrote a name starting with '=' as a formula."""
    rows = [['=HYPERLINK("http://x","y")', "+1+1", "@SUM(A1)", "-cmd", "\tx", 12, -3, "-2.5", "Zhang 张"]]
    got = next(csv.reader(io.StringIO(_csv(rows))))
    assert got == [
        '\'=HYPERLINK("http://x","y")',
        "'+1+1",
        "'@SUM(A1)",
        "'-cmd",
        "'\tx",
        "12",
        "-3",
        "-2.5",
        "Zhang 张",
    ]
    assert spreadsheet_safe(-16) == -16
