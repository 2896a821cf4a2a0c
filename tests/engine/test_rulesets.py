"""The ruleset registry: what each entry tells the edges (calculator, bots, tiles, names)."""

from __future__ import annotations

import pytest

from majiang.bots.base import make_bot
from majiang.bots.nanchang import NanchangBot
from majiang.rulesets import calculator, entries, info, make_ruleset, names


def test_every_entry_makes_its_ruleset() -> None:
    assert names() == ["botzone", "gb", "nanchang"]
    assert [r.name for r in entries()] == ["gb", "botzone", "nanchang"]
    for name in names():
        assert make_ruleset(name).name == name
    with pytest.raises(ValueError, match="unknown ruleset 'xyz'"):
        info("xyz")


def test_tiles_dead_wall_and_what_the_client_is_told() -> None:
    assert (info("gb").tiles, info("gb").dead_wall) == (144, 0)
    assert (info("nanchang").tiles, info("nanchang").dead_wall) == (136, 34)
    assert info("nanchang").public() == {
        "name": "nanchang",
        "zh": "南昌",
        "en": "Nanchang",
        "tiles": 136,
        "dead_wall": 34,
        "form": "nanchang",
        "points": ["倍", "multiplier"],
    }
    assert info("botzone").form == "mcr"


def test_the_calculator_by_rules() -> None:
    mcr = {
        "melds": [],
        "hand": ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "5p", "6p", "7p", "8p", "9p", "9p"],
        "win_tile": "9p",
    }
    assert calculator("gb")(mcr, False)["total"] == calculator(None)(mcr, False)["total"]
    assert "error" in calculator(5)({**mcr, "rules": 5}, False)  # not a name: the default reports it
    assert "error" in calculator("nanchang")({"rules": "nanchang"}, False)


def test_default_bots_per_ruleset() -> None:
    assert isinstance(make_bot("eff", 1, rules="nanchang"), NanchangBot)
    assert not isinstance(make_bot("fan", 1, rules="gb"), NanchangBot)
    assert make_bot("fan", 1, rules="gb").name == make_bot("fan", 1, rules="botzone").name
