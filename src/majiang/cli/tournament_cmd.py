"""``majiang tournament``: the command's entry in :data:`majiang.cli.COMMANDS` (``majiang.cli.NAME_cmd``);
the commands are the :mod:`majiang.cli.tournament` package.  ``python -m majiang.cli.tournament_cmd`` still
works."""

from __future__ import annotations

import sys

from majiang.cli.tournament import main, register

__all__ = ["main", "register"]

if __name__ == "__main__":
    sys.exit(main())
