"""The ``majiang`` command line.  Each subcommand lives in its own module with a ``register``
function; heavy imports happen inside the command, so ``majiang fan --jsonl`` starts fast."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from majiang import __version__
from majiang.cli.parser import Parser

#: subcommand modules, in the order ``--help`` lists them
COMMANDS = (
    "fan",
    "shanten",
    "nanchang",
    "play",
    "simulate",
    "arena",
    "replay",
    "review",
    "dataset",
    "serve",
    "cluster",
    "tournament",
    "ledger",
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = Parser(
        prog="majiang",
        description="Chinese mahjong: MCR (国标) fan calculator, shanten, game engine, hall, competitions, "
        "Nanchang (南昌麻将).",
        epilog="Run 'majiang COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"majiang {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if only is None or name == only:  # import just the command asked for: a fast start for fan --jsonl
            importlib.import_module(f"majiang.cli.{name}_cmd").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    first = args_list[0] if args_list else None
    parser = build_parser(first if first in COMMANDS else None)
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
