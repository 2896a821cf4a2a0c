"""A progress bar on the terminal for long runs (hands played), or nothing when stderr is not one."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def hands_bar(total: int, show: bool = True) -> Iterator[Callable[[int], None] | None]:
    """Yields ``update(done)`` for a bar of ``total`` hands, or None (no bar: ``show`` is false or
    stderr is not a terminal)."""
    if not show or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        transient=True,
    ) as prog:
        task = prog.add_task("hands", total=total)
        yield lambda n: prog.update(task, completed=n)
