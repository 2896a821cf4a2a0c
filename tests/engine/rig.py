"""Rigged hands for engine scenarios: chosen deals and draws, still replayable from the log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from majiang.engine.arrange import layout, parts_layout, swaps_for
from majiang.engine.compiled import CompiledHand, core_rules
from majiang.engine.hand import Hand
from majiang.engine.wall import SeatWalls
from majiang.rulesets import make_ruleset
from majiang.tiles import parse_tiles

SEED = bytes(range(32))
#: which engine rig() builds on: "python" (the reference) or "core" (the compiled core; a test module
#: sets it to run its scenarios on both)
ENGINE = "python"
#: whether the compiled core is there to run them on
CORE = core_rules(make_ruleset("gb")) is not None


def rig(
    hands: dict[int, str],
    draws: str = "",
    tail: str = "",
    rules: str = "gb",
    dealer: int = 0,
    seed: bytes = SEED,
    prevalent: int = 0,
    parts: dict[int, str] | None = None,
) -> Any:
    """``hands[k]``: the tiles of the seat k places after the dealer (the dealer holds 14).  On a wall
    in one part per seat (botzone), ``parts[k]``: what that seat draws after the deal, in order
    (kong replacements included); ``draws``/``tail`` are for the shared wall."""
    ruleset = make_ruleset(rules)
    for k, v in hands.items():
        assert len(parse_tiles(v)) == (14 if k == 0 else 13), f"seat +{k} needs {14 if k == 0 else 13} tiles: {v}"
    wall = ruleset.build_wall(seed)
    dealt = {k: parse_tiles(v) for k, v in hands.items()}
    if isinstance(wall, SeatWalls):
        assert not draws and not tail, "a wall in parts takes parts={seat: draws}"
        wanted = parts_layout(dealt, {k: parse_tiles(v) for k, v in (parts or {}).items()}, len(wall.tiles))
    else:
        assert not parts, "parts= is for a wall in one part per seat"
        wanted = layout(dealt, parse_tiles(draws), parse_tiles(tail), n_tiles=len(ruleset.tile_set()))
    swaps = swaps_for(wall.tiles, wanted)
    make = CompiledHand if ENGINE == "core" else Hand
    return make(ruleset, seed, dealer=dealer, prevalent=prevalent, arrange=swaps)


def tiles(text: str) -> Sequence[int]:
    return parse_tiles(text)
