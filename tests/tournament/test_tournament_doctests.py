"""The examples in the tournament modules' docstrings stay true."""

import doctest
import importlib

import pytest

MODULES = ["penalties", "seating", "standard", "scoring", "schedule", "pairing", "designs", "model", "ranking",
           "sheet", "demo", "search", "adapters.bridge", "draw", "registration", "adapters.repository"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"majiang.tournament.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
