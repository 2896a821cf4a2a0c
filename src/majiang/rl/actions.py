"""The 109 action codes of the RL environments and their mapping to engine actions.

0–33 discard tile *t* · 34–67 concealed kong *t* · 68–101 added kong *t* · 102 pung · 103 kong
from a discard · 104–106 chow with the claimed tile lowest / middle / highest · 107 win · 108 pass.
"""

from __future__ import annotations

import numpy as np

from majiang.engine.protocol import Action

ACTION_SIZE = 109
DISCARD, CONCEALED_KONG, ADDED_KONG, PUNG, KONG, CHOW, WIN, PASS = 0, 34, 68, 102, 103, 104, 107, 108


def encode_action(a: Action) -> int:
    if a.type == "discard":
        return DISCARD + a.tile
    if a.type == "concealed_kong":
        return CONCEALED_KONG + a.tile
    if a.type == "added_kong":
        return ADDED_KONG + a.tile
    if a.type == "pung":
        return PUNG
    if a.type == "kong":
        return KONG
    if a.type == "chow":
        return CHOW + a.tiles.index(a.tile)
    if a.type == "win":
        return WIN
    return PASS


_CODES: dict[Action, int] = {}  # encode_action's answers, remembered (an engine hands out few distinct actions)


def decode_action(index: int, legal: list[Action]) -> Action:
    """The legal engine action with code ``index``; ValueError when there is none."""
    codes = _CODES
    for a in legal:
        c = codes.get(a)
        if c is None:
            c = codes[a] = encode_action(a)
        if c == index:
            return a
    raise ValueError(f"action {index} is not legal now (mask it with 'action_mask')")


def action_mask(legal: list[Action], out: np.ndarray | None = None) -> np.ndarray:
    """int8 mask of the legal codes (into ``out`` when given); a seat with nothing to decide may
    only pass (its action is ignored), so a mask is never empty."""
    mask = np.zeros(ACTION_SIZE, dtype=np.int8) if out is None else out
    if out is not None:
        mask.fill(0)
    if not legal:
        mask[PASS] = 1
        return mask
    codes = _CODES
    idx = []
    for a in legal:
        c = codes.get(a)
        if c is None:
            c = codes[a] = encode_action(a)
        idx.append(c)
    mask[idx] = 1
    return mask
