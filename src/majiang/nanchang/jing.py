"""精 (jing): the wild pair and its bonus settlement (精分, 冲关, 霸王精).

The indicator (翻精) gives the 正精 (its own kind, 2 points) and the 副精 (the next kind in its
cycle, 1 point): 1→2→…→9→1 within a suit, 东→南→西→北→东, 中→发→白→中.  Both are wild while held
in the concealed hand (§2.4–2.5).

>>> from majiang.tiles import parse_tile, tile_str
>>> p = JingPair.from_indicator(parse_tile("9m"))
>>> tile_str(p.zheng), tile_str(p.fu)
('9m', '1m')
>>> jing_round_scores([7, 1, 0, 0])
(28, 1, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from majiang.tiles import NUM_KINDS, NotationError, Tile, tile_str

CHONGGUAN_MIN = 5  # 冲关 from 5 points on (§3: "超过5点" but both tables start at 5)


def next_kind(tile: Tile) -> Tile:
    """The kind after ``tile`` in its jing cycle (副精 of an indicator)."""
    if not 0 <= tile < NUM_KINDS:
        raise NotationError(f"not a tile kind: {tile!r}")
    if tile < 27:
        base = tile - tile % 9
        return base + (tile % 9 + 1) % 9
    if tile <= 30:  # winds 东南西北
        return 27 + (tile - 27 + 1) % 4
    return 31 + (tile - 31 + 1) % 3  # dragons 中发白


@dataclass(frozen=True, slots=True)
class JingPair:
    """A jing pair: ``zheng`` 正精 (2 points) and ``fu`` 副精 (1 point)."""

    zheng: Tile
    fu: Tile

    @classmethod
    def from_indicator(cls, indicator: Tile) -> JingPair:
        return cls(indicator, next_kind(indicator))

    def __contains__(self, tile: object) -> bool:
        return tile == self.zheng or tile == self.fu

    @property
    def kinds(self) -> tuple[Tile, Tile]:
        return (self.zheng, self.fu)

    def points(self, tiles: Sequence[Tile]) -> int:
        """Raw jing score of a holding: 2 per 正精, 1 per 副精."""
        return sum(2 if t == self.zheng else 1 if t == self.fu else 0 for t in tiles)

    def __str__(self) -> str:
        return f"正精 {tile_str(self.zheng)} / 副精 {tile_str(self.fu)}"


def chongguan(raw: int) -> int:
    """冲关: a raw score ``r ≥ 5`` becomes ``r·(r−3)`` (5→10, 6→18 … 10→70)."""
    return raw * (raw - 3) if raw >= CHONGGUAN_MIN else raw


def jing_round_scores(raw: Sequence[int], bawang: str = "x2") -> tuple[int, ...]:
    """Each seat's bonus ``s_i`` for one jing round: 冲关, then 霸王精 if one seat alone holds jing."""
    scores = [chongguan(r) for r in raw]
    holders = [i for i, r in enumerate(raw) if r > 0]
    if len(holders) == 1:
        i = holders[0]
        scores[i] = scores[i] * 2 if bawang == "x2" else scores[i] + 10
    return tuple(scores)


def jing_round_deltas(scores: Sequence[int]) -> list[int]:
    """Each seat receives its ``s_i`` from each of the other three: ``4·s_i − Σs`` (zero-sum)."""
    total = sum(scores)
    return [len(scores) * s - total for s in scores]
