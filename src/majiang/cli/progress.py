"""A progress bar on the terminal for long runs (hands, tables), drawn on stderr so that what a command
prints on stdout (a table, JSON) stays clean; nothing when stderr is not a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol


class Update(Protocol):
    def __call__(self, done: int, total: int | None = None, label: str | None = None) -> None:
        """Move the bar to ``done``; a new ``total`` or ``label`` where given."""


@contextmanager
def bar(label: str, total: int | None = None, show: bool = True) -> Iterator[Update | None]:
    """Yields ``update(done, total=None, label=None)`` for a bar of ``total`` steps (None: not yet
    known), or None (no bar: ``show`` is false or stderr is not a terminal)."""
    if not show or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as prog:
        task = prog.add_task(label, total=total)

        def update(done: int, total: int | None = None, label: str | None = None) -> None:
            prog.update(task, completed=done, total=total, description=label)

        yield update


def hands_bar(total: int, show: bool = True) -> AbstractContextManager[Update | None]:
    """:func:`bar` for ``total`` hands: yields ``update(done)``, or None."""
    return bar("hands", total, show)
