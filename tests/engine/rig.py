"""Rigged hands for engine scenarios: chosen deals and draws, still replayable from the log."""

from __future__ import annotations

from collections.abc import Sequence

from majiang.engine.arrange import arranged, layout
from majiang.engine.hand import Hand
from majiang.rulesets import make_ruleset
from majiang.tiles import parse_tiles

SEED = bytes(range(32))


def rig(hands: dict[int, str], draws: str = "", tail: str = "", rules: str = "gb", dealer: int = 0,
        seed: bytes = SEED, prevalent: int = 0) -> Hand:
    """``hands[k]``: the tiles of the seat k places after the dealer (the dealer holds 14)."""
    ruleset = make_ruleset(rules)
    for k, v in hands.items():
        assert len(parse_tiles(v)) == (14 if k == 0 else 13), f"seat +{k} needs {14 if k == 0 else 13} tiles: {v}"
    wanted = layout({k: parse_tiles(v) for k, v in hands.items()}, parse_tiles(draws), parse_tiles(tail),
                    n_tiles=len(ruleset.tile_set()))
    swaps = arranged(ruleset.tile_set(), seed, ruleset.stacks_per_wall, wanted)
    return Hand(ruleset, seed, dealer=dealer, prevalent=prevalent, arrange=swaps)


def tiles(text: str) -> Sequence[int]:
    return parse_tiles(text)
