"""Declared sets as the engine keeps them (rulesets convert them for scoring).

Unlike the MCR scorer's meld, a chow here is just three tiles, so rulesets with honour chows
(Nanchang: any three winds, 中发白) need no special case in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from majiang.tiles import Tile, format_compact

CHOW, PUNG, KONG = "chow", "pung", "kong"
#: a tile seen from its back (another seat's concealed kong): no tile index, never use it as one
FACE_DOWN: Tile = -1


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str  # chow / pung / kong
    tiles: tuple[Tile, ...]
    concealed: bool = False  # a concealed kong (暗杠), shown face down to the others
    claimed: int | None = None  # index in ``tiles`` of the claimed tile (chow)
    source: int | None = None  # 1 上家, 2 对家, 3 下家 (pung / kong from a discard)
    added: bool = False  # a kong made by adding to an exposed pung (加杠)

    @property
    def tile(self) -> Tile:
        return self.tiles[0]

    def face_down(self) -> Meld:
        """The meld as the other seats see it: a concealed kong's faces turned down (:data:`FACE_DOWN`)."""
        return Meld(self.kind, (FACE_DOWN,) * len(self.tiles), concealed=True) if self.concealed else self

    def to_dict(self, hide: bool = False) -> dict[str, object]:
        """JSON for logs and views; ``hide`` masks a concealed kong's tiles for other seats (a tile
        face down is None)."""
        d: dict[str, object] = {"kind": self.kind, "concealed": self.concealed}
        d["tiles"] = [None] * 4 if hide and self.concealed else [None if t == FACE_DOWN else t for t in self.tiles]
        if self.claimed is not None:
            d["claimed"] = self.claimed
        if self.source is not None:
            d["from"] = self.source
        if self.added:
            d["added"] = True
        return d

    def compact(self) -> str:
        body = format_compact(self.tiles)
        return "{" + body + "}" if self.concealed else f"[{body}]"
