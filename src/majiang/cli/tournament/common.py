"""Shared by the ``majiang tournament`` commands: the error type and its wrapper, the database, and how a
session's seating is printed."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from majiang.tournament.adapters.repository import TournamentRepository

DB_HELP = "database URL (default $MAJIANG_DB or the SQLite file var/majiang.db; postgresql://… for PostgreSQL)"
RAW = argparse.RawDescriptionHelpFormatter


def describe(text: str) -> str:
    """A description wrapped for the terminal (the formatter keeps the epilog's examples as written)."""
    return textwrap.fill(text, 100)


class CliError(Exception):
    """Printed as ``error: …`` with exit status 2."""


def usage(p: argparse.ArgumentParser) -> int:
    p.print_help()
    return 2


def wrap(fn: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(fn(args) or 0)
        except BrokenPipeError:  # the reader left (… | head): stop quietly
            return pipe_closed()
        except (CliError, ValueError, KeyError) as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else e
            print(f"error: {msg}", file=sys.stderr)
            return 2
        except OSError as e:
            print(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), file=sys.stderr)
            return 2

    return run


def pipe_closed() -> int:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail again; exit status 141
    (128 + SIGPIPE), as a shell tool killed by the closed pipe would."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a file (captured in tests)
        pass
    return 141


def open_repo(args: argparse.Namespace) -> TournamentRepository:
    from sqlalchemy.exc import OperationalError

    from majiang.store import Database
    from majiang.tournament.adapters.repository import TournamentRepository

    db = Database(args.db)
    try:
        db.migrate()
    except OperationalError as e:
        raise CliError(f"cannot open the database {args.db or '(default)'}: {e.orig}; check --db") from None
    return TournamentRepository(db)


def print_session(event: Any, session: Any, group_id: str) -> None:
    from rich.console import Console
    from rich.table import Table

    names = {p.id: p.name for p in event.group(group_id).players}
    t = Table(title=f"{event.name} · 第{session.no}局 session {session.no}")
    for col in ("桌 Table", "东 E", "南 S", "西 W", "北 N", "盘 Hands"):
        t.add_column(col)
    for tb in session.tables:
        cells = [f"{pid} {names.get(pid, '')}".strip() if names.get(pid, pid) != pid else pid for pid in tb.players]
        done = "totals" if tb.totals is not None else f"{len(tb.hands)}/16"
        t.add_row(str(tb.no), *cells, done)
    Console().print(t)


def fmt_score(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:.2f}"
