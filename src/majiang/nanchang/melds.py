"""Declared sets (副露) in Nanchang: the MCR meld kinds plus the honour chows (字牌顺子).

Nanchang lets a player chow (吃) any three different winds (东南西, 东南北, 东西北, 南西北) or 中发白
(§2.6), which :mod:`majiang.mcr.hand` rejects; :class:`Meld` here keeps its tiles explicitly so a
chow can be an honour chow.  Suited melds are still checked by the MCR ``meld_from_tiles``.

>>> from majiang.tiles import parse_tiles
>>> meld_from_tiles(parse_tiles("E S N")).compact()
'[ESN]'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from majiang.mcr.hand import InvalidHandError, MeldKind
from majiang.mcr.hand import meld_from_tiles as mcr_meld_from_tiles
from majiang.tiles import DRAGONS, WINDS, Tile, format_compact, parse_tile, tile_str

__all__ = [
    "FROM_LEFT",
    "FROM_OPPOSITE",
    "FROM_RIGHT",
    "InvalidHandError",
    "Meld",
    "MeldKind",
    "is_honour_chow",
    "meld_from_tiles",
]

#: ``source`` values: the seat a claimed tile came from, relative to the claimer (as in MCR hand-json)
FROM_LEFT, FROM_OPPOSITE, FROM_RIGHT = 1, 2, 3  # 上家 对家 下家


def is_honour_chow(tiles: Sequence[Tile]) -> bool:
    """Three different winds, or 中发白."""
    s = set(tiles)
    return len(tiles) == 3 and len(s) == 3 and (s <= set(WINDS) or s == set(DRAGONS))


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set.  ``tiles`` sorted; a kong has four.

    ``claimed``: for a chow, the index in ``tiles`` of the tile taken from the 上家.  ``source``: for a
    pung or exposed kong, where its claimed tile came from (1 上家, 2 对家, 3 下家), if known.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    concealed: bool = False  # 暗杠
    claimed: int | None = None
    source: int | None = None

    @property
    def tile(self) -> Tile:
        return self.tiles[0]

    @property
    def is_chow(self) -> bool:
        return self.kind is MeldKind.CHOW

    @property
    def is_kong(self) -> bool:
        return self.kind is MeldKind.KONG

    def provider(self, seat: int) -> int | None:
        """The absolute seat that supplied the claimed tile of this meld held by ``seat`` (turn order
        0→1→2→3, so the 上家 of seat ``s`` is ``s−1``), or ``None`` if not known / not claimed."""
        if self.concealed:
            return None
        if self.kind is MeldKind.CHOW:
            return (seat - 1) % 4
        if self.source is None:
            return None
        return (seat + {FROM_LEFT: -1, FROM_OPPOSITE: 2, FROM_RIGHT: 1}[self.source]) % 4

    def claimed_tile(self) -> Tile | None:
        """The tile taken from another player's discard, if the input says which it was."""
        if self.concealed:
            return None
        if self.kind is MeldKind.CHOW:
            return None if self.claimed is None else self.tiles[self.claimed]
        return self.tiles[0] if self.source is not None else None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind.value,
            "tiles": [tile_str(t) for t in self.tiles],
            "concealed": self.concealed,
        }
        if self.kind is MeldKind.CHOW:
            if self.claimed is not None:
                d["claimed"] = self.claimed
        elif self.source is not None:
            d["from"] = self.source
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Meld:
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
        return meld_from_tiles(
            [parse_tile(t) for t in raw], kind=kind, concealed=concealed, claimed=claimed, source=source
        )

    def compact(self) -> str:
        body = format_compact(self.tiles)
        return "{" + body + "}" if self.concealed else f"[{body}]"


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
    m = mcr_meld_from_tiles(ts, kind=kind, concealed=concealed, claimed=claimed, source=source)
    return Meld(m.kind, m.tiles, concealed=m.concealed, claimed=m.claimed, source=m.source)
