"""Declared sets (副露) in Nanchang: the MCR meld kinds plus the honour chows (字牌顺子).

Nanchang lets a player chow (吃) any three different winds (东南西, 东南北, 东西北, 南西北) or 中发白
(§2.6), which :mod:`majiang.mcr.hand` rejects.  The meld type is the one of :mod:`majiang.melds`
(explicit tiles, so a chow can be an honour chow); this module checks Nanchang input.  Suited melds
are checked by the MCR ``meld_from_tiles``.

>>> from majiang.tiles import parse_tiles
>>> meld_from_tiles(parse_tiles("E S N")).compact()
'[ESN]'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from majiang.mcr.hand import InvalidHandError
from majiang.mcr.hand import meld_from_tiles as mcr_meld_from_tiles
from majiang.melds import FROM_LEFT, FROM_OPPOSITE, FROM_RIGHT, Meld, MeldKind
from majiang.tiles import DRAGONS, WINDS, Tile, format_compact, parse_tile

__all__ = [
    "FROM_LEFT",
    "FROM_OPPOSITE",
    "FROM_RIGHT",
    "InvalidHandError",
    "Meld",
    "MeldKind",
    "is_honour_chow",
    "meld_from_dict",
    "meld_from_tiles",
]


def is_honour_chow(tiles: Sequence[Tile]) -> bool:
    """Three different winds, or 中发白."""
    s = set(tiles)
    return len(tiles) == 3 and len(s) == 3 and (s <= set(WINDS) or s == set(DRAGONS))


def meld_from_dict(d: Mapping[str, Any]) -> Meld:
    """The hand-json meld object: ``{"kind": "chow", "tiles": ["E","S","W"], "claimed": 0}``."""
    if not isinstance(d, Mapping):
        raise InvalidHandError(f"a meld must be an object with 'kind' and 'tiles', got {d!r}")
    kind_raw = d.get("kind")
    kind: MeldKind | None = None
    if kind_raw is not None:
        try:
            kind = MeldKind(str(kind_raw))
        except ValueError:
            raise InvalidHandError(f"unknown meld kind {kind_raw!r}: use chow, pung or kong") from None
    raw = d.get("tiles")
    if not isinstance(raw, list | tuple) or not all(isinstance(t, str) for t in raw):
        raise InvalidHandError(f"meld 'tiles' must be a list of tile strings, got {raw!r}")
    concealed = d.get("concealed", False)
    if not isinstance(concealed, bool):
        raise InvalidHandError(f"meld 'concealed' must be true or false, got {concealed!r}")
    claimed, source = d.get("claimed"), d.get("from")
    for key, val in (("claimed", claimed), ("from", source)):
        if val is not None and (not isinstance(val, int) or isinstance(val, bool)):
            raise InvalidHandError(f"meld '{key}' must be an integer, got {val!r}")
    return meld_from_tiles([parse_tile(t) for t in raw], kind=kind, concealed=concealed, claimed=claimed, source=source)


def meld_from_tiles(
    tiles: Sequence[Tile],
    kind: MeldKind | None = None,
    concealed: bool = False,
    claimed: int | None = None,
    source: int | None = None,
) -> Meld:
    """Build a Nanchang meld from its tiles, inferring or checking its kind."""
    ts = tuple(sorted(tiles))
    if is_honour_chow(ts):
        if kind is not None and kind is not MeldKind.CHOW:
            raise InvalidHandError(f"meld {format_compact(ts)!r} is a chow, not a {kind.value}")
        if concealed:
            raise InvalidHandError(f"meld {format_compact(ts)!r}: only a kong can be concealed")
        if claimed is not None and claimed not in (0, 1, 2):
            raise InvalidHandError(f"chow 'claimed' must be 0, 1 or 2, got {claimed!r}")
        return Meld(MeldKind.CHOW, ts, claimed=claimed)
    return mcr_meld_from_tiles(ts, kind=kind, concealed=concealed, claimed=claimed, source=source)
