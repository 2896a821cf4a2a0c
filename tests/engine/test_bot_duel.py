"""benchmarks/bot_duel.py's paired comparison: two duels on the same walls, the difference of their
margins wall by wall."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
try:
    import bot_duel
finally:
    sys.path.pop(0)


def test_a_bot_against_itself_differs_by_nothing_and_another_bot_by_its_walls():
    same = bot_duel.duel(48, 3, ["eff", "rand", "rand", "rand"])
    again = bot_duel.duel(48, 3, ["eff", "rand", "rand", "rand"])
    assert bot_duel.paired(same, again) == (0.0, 0.0)
    weaker = bot_duel.duel(48, 3, ["rand", "rand", "rand", "rand"])
    diff, half = bot_duel.paired(same, weaker)
    per_wall = [a - b for a, b in zip(same["wall_margins"], weaker["wall_margins"], strict=True)]
    assert diff == pytest.approx(sum(per_wall) / 2) and diff == pytest.approx(same["margin"] - weaker["margin"])
    assert half > 0 and diff - half > 0  # eff beats rand's play of the same two walls
    with pytest.raises(ValueError, match="same walls"):
        bot_duel.paired(same, bot_duel.duel(48, 4, ["eff", "rand", "rand", "rand"]))
