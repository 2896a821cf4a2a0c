"""Differential tests against PyMahjongGB 1.4 (the Botzone judge's calculator) on generated hands."""

import random
from dataclasses import replace

import pytest

from majiang.mcr import Fan, score
from majiang.mcr.generate import random_winning_hand

pmgb = pytest.importorskip("pmgb")  # tests/pmgb.py; needs the PyMahjongGB dev dependency
pytest.importorskip("MahjongGB")

N = 4000


def _ours(hand, rules):
    return {fc.name: fc.count for fc in score(hand, rules).fans}


def test_pymahjonggb_profile_equals_pymahjonggb():
    rng = random.Random(20261129)
    mismatches = []
    for _ in range(N):
        h = random_winning_hand(rng, "botzone")
        if _ours(h, "pymahjonggb") != pmgb.fans(h):
            mismatches.append(h.to_string())
    assert mismatches == []


def test_gb_differs_only_by_concealed_and_melded_kong():
    rng = random.Random(7)
    seen_difference = 0
    for _ in range(N):
        h = random_winning_hand(rng, "gb")
        gb, ref = _ours(h, "gb"), pmgb.fans(h)
        if gb != ref:
            seen_difference += 1
            assert ref.pop("Concealed Kong and Melded Kong") == 1
            for name in ("Melded Kong", "Concealed Kong"):
                assert gb.pop(name) == 1
            assert gb == ref
    assert seen_difference > 0  # the generator does produce 明暗杠 hands


def test_explicit_concealed_and_melded_kong():
    from majiang.mcr import WinningHand

    h = WinningHand.from_string("[EEEE1]{5555p}123m789s1p 1p")
    assert score(h, "gb").count(Fan.MELDED_KONG) == score(h, "gb").count(Fan.CONCEALED_KONG) == 1
    assert score(h, "botzone").count(Fan.CONCEALED_KONG_AND_MELDED_KONG) == 1
    assert score(replace(h, rules="botzone")).total == score(h, "gb").total + 2
