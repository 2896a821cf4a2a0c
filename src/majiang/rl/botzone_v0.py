"""Botzone's Chinese-Standard-Mahjong (the judge's 136-tile wall in quarters, its fan profile) as
PettingZoo serves its environments: ``env()``, ``raw_env()``, ``parallel_env()`` (keyword arguments:
``render_mode``, ``max_cycles``, ``illegal``, ``illegal_reward``)."""

from __future__ import annotations

from typing import Any

from majiang.rl import aec, parallel
from majiang.rl.aec import MahjongEnv
from majiang.rl.parallel import MahjongParallelEnv

RULES = "botzone"


def raw_env(**kwargs: Any) -> MahjongEnv:
    return aec.raw_env(**{"rules": RULES, **kwargs})


def env(**kwargs: Any) -> Any:
    return aec.env(**{"rules": RULES, **kwargs})


def parallel_env(**kwargs: Any) -> MahjongParallelEnv:
    return parallel.parallel_env(**{"rules": RULES, **kwargs})
