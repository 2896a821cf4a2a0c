"""Botzone's tile spelling: W1–9 (万), B1–9 (饼), T1–9 (条), F1–4 (winds), J1–3 (中 发 白), H1–8 (flowers).

The match records themselves (export and import) are the Botzone ruleset's:
:mod:`majiang.rulesets.botzone`.
"""

from __future__ import annotations

from majiang.tiles import Tile

_SUIT = "WBT"  # our 0–8 m, 9–17 p, 18–26 s → Botzone W, B, T
_HONOR = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def botzone_tile(t: Tile) -> str:
    if t < 27:
        return f"{_SUIT[t // 9]}{t % 9 + 1}"
    if t < 34:
        return _HONOR[t - 27]
    return f"H{t - 33}"


def parse_botzone_tile(text: str) -> Tile:
    """The inverse of :func:`botzone_tile`; raises ValueError for anything else."""
    if len(text) == 2 and text[1].isdigit():
        n = int(text[1])
        if text[0] in _SUIT and 1 <= n <= 9:
            return _SUIT.index(text[0]) * 9 + n - 1
        if text in _HONOR:
            return 27 + _HONOR.index(text)
        if text[0] == "H" and 1 <= n <= 8:
            return 33 + n
    raise ValueError(f"not a Botzone tile: {text!r}")
