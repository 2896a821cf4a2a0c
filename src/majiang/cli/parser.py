"""The argument parser every ``majiang`` command is built with."""

from __future__ import annotations

import argparse
import re


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that takes a list of numbers starting with a minus sign (``--totals
    -20,40,-10,-10``) as a value, as it already takes a single negative number; its subcommands'
    parsers are of this class too."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._negative_number_matcher = re.compile(r"^-\d[\d.]*([,\s]+-?\d[\d.]*)*$")
