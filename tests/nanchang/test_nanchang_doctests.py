"""The docstring examples of majiang.nanchang stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["hand_json", "jing", "melds", "options", "payment", "render", "settle", "shapes", "table", "terms", "win"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(f"majiang.nanchang.{name}"))
    assert result.failed == 0
