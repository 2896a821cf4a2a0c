"""Botzone's Chinese-Standard-Mahjong (the judge's 136-tile wall in quarters, its fan profile) as
PettingZoo serves its environments: ``env()``, ``raw_env()``, ``parallel_env()`` (keyword arguments:
``render_mode``, ``max_cycles``, ``illegal``, ``illegal_reward``)."""

from functools import partial

from majiang.rl import aec, parallel

RULES = "botzone"

raw_env = partial(aec.raw_env, rules=RULES)
env = partial(aec.env, rules=RULES)
parallel_env = partial(parallel.parallel_env, rules=RULES)
