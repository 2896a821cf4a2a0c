"""``majiang serve`` for the toggle tests: the first hand of every table is dealt from a rigged wall
read from the JSON file named by ``MAJIANG_TEST_RIG`` (re-read at each deal; missing or ``{}``: a
normal shuffle).  ``{"dealer": 14 tiles, "right": the dealer's 下家's 13, "draws": the live draws}``.
The arrangement is logged as any arranged hand is, so the hand still replays and verifies."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import majiang.engine.session as session_module
from majiang.cli import main
from majiang.engine.arrange import layout, swaps_for
from majiang.engine.hand import Hand
from majiang.tiles import parse_tiles


def rigged_hand(rules: Any, seed: bytes, **kw: Any) -> Hand:
    rig = Path(os.environ["MAJIANG_TEST_RIG"])
    wanted: dict[str, str] = json.loads(rig.read_text()) if rig.exists() else {}
    if kw.get("hand_no", 0) == 0 and wanted:
        hands = {0: parse_tiles(wanted["dealer"])}
        if wanted.get("right"):
            hands[1] = parse_tiles(wanted["right"])
        lay = layout(hands, parse_tiles(wanted.get("draws", "")), n_tiles=len(rules.tile_set()))
        kw["arrange"] = swaps_for(rules.build_wall(seed).tiles, lay)
    return Hand(rules, seed, **kw)


if __name__ == "__main__":  # only in the server's own process: importing this (pytest collects it) patches nothing
    session_module.Hand = rigged_hand  # type: ignore[misc,assignment]
    sys.exit(main(sys.argv[1:]))
