"""The ruleset registry: what each entry tells the edges (calculator, bots, tiles, names)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from majiang.bots.base import make_bot
from majiang.bots.nanchang import NanchangBot
from majiang.rulesets import calculator, choices, entries, fan_names, info, make_ruleset, names


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
        "min_fan": None,
        "prevalent_wind": False,
        "seat_changes": False,
        "default": False,
    }
    assert info("gb").public()["default"] and info("gb").public()["min_fan"] == 8
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


def test_what_the_entry_declares_is_what_the_adapter_does() -> None:
    """The registry answers the edges without making the ruleset; the adapter answers the engine:
    the two agree."""
    for entry in entries():
        made = make_ruleset(entry.name)
        assert (entry.min_fan, entry.seat_changes) == (made.min_fan, made.seat_changes), entry.name
    assert choices() == ["gb", "botzone", "nanchang"]
    assert fan_names() == ["gb", "botzone"]


def _modules_after(code: str, stdin: str = "") -> set[str]:
    report = "\nimport sys\nprint(' '.join(m for m in sys.modules if m.startswith('majiang')))"
    out = subprocess.run(
        [sys.executable, "-c", code + report],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(out.splitlines()[-1].split())


MCR_LINE = '{"hand": ["1p","1p","1p","2p","3p","4p","5p","5p","6p","7p","8p","9p","9p"], "win_tile": "9p"}\n'


def test_looking_up_a_calculator_imports_only_that_calculator() -> None:
    """``majiang fan --jsonl`` on MCR lines imports the fan calculator: not the engine, not Nanchang
    (before the registry named its adapters and calculators as data: 53 majiang modules, now 29)."""
    loaded = _modules_after("from majiang.cli import main\nmain(['fan', '--jsonl'])", MCR_LINE)
    assert "majiang.mcr.scorer" in loaded
    assert not {m for m in loaded if m.startswith(("majiang.engine", "majiang.nanchang", "majiang.rulesets"))}
    listed = _modules_after("from majiang.rulebook import choices, info\nchoices(); info('gb').min_fan")
    assert listed == {"majiang", "majiang.rulebook"}  # a parser's choices cost nothing
    nanchang = _modules_after("from majiang.rulebook import calculator\ncalculator('nanchang')")
    assert "majiang.nanchang.hand_json" in nanchang and not {m for m in nanchang if m.startswith("majiang.engine")}
