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


def test_a_duel_on_the_compiled_core_is_the_python_engine_s(monkeypatch):
    """The duel runs on the engine the ruleset picks (the core, where ev decides in C); the walls, the
    scores and their intervals are the reference's."""
    from majiang.bots.ev import EVBot

    monkeypatch.setattr(EVBot, "__init__", _unbounded(EVBot.__init__))
    runs = {}
    for engine in ("python", "core"):
        monkeypatch.setenv("MAJIANG_ENGINE", engine)
        r = bot_duel.duel(48, 5, ["best", "eff", "best", "eff"])
        assert r["decision_s"]["n"] > 0
        runs[engine] = {k: v for k, v in r.items() if k not in ("seconds", "decision_s")}
    assert runs["core"] == runs["python"]
    assert runs["core"]["score"][0] == runs["core"]["score"][2]  # the same bot in both chairs: one game
    assert all(half > 0 for half in runs["core"]["score_ci95"])


def _unbounded(init):
    def wrapped(self, *args, **kw):
        init(self, *args, **kw)
        self.budget_s = float("inf")  # as the core's ev: bounded by its node count alone

    return wrapped


def test_workers_share_the_walls_and_change_nothing():
    """``--workers 2``: two processes play the walls between them; the bots here keep nothing from
    one hand to the next, so every figure but the times is the one process's."""
    figures = [
        {
            k: v
            for k, v in bot_duel.duel(72, 6, ["fan", "eff", "fan", "eff"], workers=w).items()
            if k not in ("seconds", "decision_s")
        }
        for w in (1, 2)
    ]
    assert figures[0] == figures[1] and figures[0]["walls"] == 3 and len(figures[0]["per_wall"]) == 3


@pytest.mark.parametrize("workers", [1, 2])
def test_the_progress_counts_every_hand_once(workers):
    """``progress(hands done)`` as walls are played (the bar of a run of minutes), up to the hands asked."""
    seen: list[int] = []
    r = bot_duel.duel(72, 7, ["eff", "rand", "eff", "rand"], workers=workers, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == r["hands"] == 72 and len(seen) == 3
