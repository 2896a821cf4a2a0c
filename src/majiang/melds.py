"""Declared sets (副露): the one meld value type of the engine, the MCR scorer and Nanchang.

A meld keeps its tiles explicitly, sorted, so a chow can be Nanchang's honour chow (东南西, 中发白)
and another seat's concealed kong can be shown face down (:data:`FACE_DOWN`).  ``tile`` is the
lowest tile, stored in a slot of its own because the scorer and the C fan port read it.

The type checks nothing: whoever parses input validates it (:func:`majiang.mcr.hand.meld` and
``meld_from_tiles`` for MCR, :func:`majiang.nanchang.melds.meld_from_tiles` for Nanchang), and the
table builds only legal melds.

>>> m = Meld.of(MeldKind.CHOW, 0, claimed=1)
>>> m.tiles, m.tile, m.compact(), m.compact(with_source=True)
((0, 1, 2), 0, '[123m]', '[123m2]')
>>> Meld.of(MeldKind.KONG, 8, concealed=True).face_down().to_dict()
{'kind': 'kong', 'concealed': True, 'tiles': [None, None, None, None]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from majiang.tiles import Tile, format_compact, tile_str

__all__ = [
    "CHOW",
    "FACE_DOWN",
    "FROM_LEFT",
    "FROM_OPPOSITE",
    "FROM_RIGHT",
    "KONG",
    "PUNG",
    "Meld",
    "MeldKind",
]


class MeldKind(StrEnum):
    CHOW = "chow"  # 吃 顺子
    PUNG = "pung"  # 碰 刻子
    KONG = "kong"  # 杠


CHOW, PUNG, KONG = MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG

#: ``source`` values: the seat a claimed tile came from, relative to the claimer (hand-json ``from``)
FROM_LEFT, FROM_OPPOSITE, FROM_RIGHT = 1, 2, 3  # 上家 对家 下家
_SEAT_STEP = {FROM_LEFT: -1, FROM_OPPOSITE: 2, FROM_RIGHT: 1}

#: a tile seen from its back (another seat's concealed kong): no tile index, never use it as one
FACE_DOWN: Tile = -1


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: ``tiles`` sorted (a kong has four), ``tile`` the lowest of them.

    ``claimed``: for a chow, the index in ``tiles`` of the tile taken from the 上家.  ``source``: for
    a pung or exposed kong, where its claimed tile came from (1 上家, 2 对家, 3 下家), if known.
    ``added``: a kong made by adding to an exposed pung (加杠).
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    concealed: bool = False  # a concealed kong (暗杠), shown face down to the others
    claimed: int | None = None
    source: int | None = None
    added: bool = False
    tile: Tile = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tile", self.tiles[0])

    @classmethod
    def of(
        cls,
        kind: MeldKind,
        tile: Tile,
        concealed: bool = False,
        claimed: int | None = None,
        source: int | None = None,
        added: bool = False,
    ) -> Meld:
        """The meld of ``kind`` whose lowest tile is ``tile`` (a suited chow, a pung or a kong)."""
        if kind is MeldKind.CHOW:
            tiles: tuple[Tile, ...] = (tile, tile + 1, tile + 2)
        else:
            tiles = (tile,) * (4 if kind is MeldKind.KONG else 3)
        return cls(kind, tiles, concealed, claimed, source, added)

    @property
    def exposed(self) -> bool:
        return not self.concealed

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
        return (seat + _SEAT_STEP[self.source]) % 4

    def claimed_tile(self) -> Tile | None:
        """The tile taken from another player's discard, if it is known which it was."""
        if self.concealed:
            return None
        if self.kind is MeldKind.CHOW:
            return None if self.claimed is None else self.tiles[self.claimed]
        return self.tiles[0] if self.source is not None else None

    def face_down(self) -> Meld:
        """The meld as the other seats see it: a concealed kong's faces turned down (:data:`FACE_DOWN`)."""
        return Meld(self.kind, (FACE_DOWN,) * len(self.tiles), concealed=True) if self.concealed else self

    def to_dict(self, hide: bool = False) -> dict[str, object]:
        """JSON for logs and views (tile indices); ``hide`` masks a concealed kong's tiles for other
        seats (a tile face down is None)."""
        d: dict[str, object] = {"kind": self.kind.value, "concealed": self.concealed}
        d["tiles"] = [None] * 4 if hide and self.concealed else [None if t == FACE_DOWN else t for t in self.tiles]
        if self.claimed is not None:
            d["claimed"] = self.claimed
        if self.source is not None:
            d["from"] = self.source
        if self.added:
            d["added"] = True
        return d

    def hand_json(self) -> dict[str, Any]:
        """The hand-json meld object (``docs/hand-json.md``): tile strings, ``claimed`` for a chow,
        ``from`` for a pung or kong."""
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

    def compact(self, with_source: bool = False) -> str:
        """``[123m]``, ``{9999s}`` for a concealed kong; ``with_source`` adds hand-json's compact digit
        after an exposed meld's tiles (``claimed`` + 1 for a chow, ``from`` for a pung or kong)."""
        body = format_compact(self.tiles)
        if self.concealed:
            return "{" + body + "}"
        info = ""
        if with_source:
            if self.kind is MeldKind.CHOW and self.claimed is not None:
                info = str(self.claimed + 1)
            elif self.kind is not MeldKind.CHOW and self.source is not None:
                info = str(self.source)
        return f"[{body}{info}]"
