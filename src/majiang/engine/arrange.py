"""Arranging a wall: the swaps that put chosen tiles at chosen draw positions.

Positions are in draw order after the break (see :class:`~majiang.engine.wall.Wall`).  With the
standard deal, the 13 tiles of the seat ``k`` places after the dealer are positions
``[16r + 4k + i for r in 0..2 for i in 0..3]`` plus one 跳牌 position, and live draws continue from
position 53.  Used by test scenarios and by start-of-hand items; the swaps are logged, so the hand
replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from majiang.engine.wall import Wall
from majiang.tiles import Tile

JUMP = {0: (48, 52), 1: (49,), 2: (50,), 3: (51,)}
FIRST_LIVE = 53


def deal_positions(k: int) -> list[int]:
    """Wall positions dealt to the seat ``k`` places after the dealer (dealer: 14 positions)."""
    return [16 * r + 4 * k + i for r in range(3) for i in range(4)] + list(JUMP[k])


def swaps_for(wall_tiles: Sequence[Tile], wanted: dict[int, Tile]) -> list[tuple[int, int]]:
    """Swaps turning ``wall_tiles`` into an arrangement with ``wanted[position] == tile``."""
    tiles = list(wall_tiles)
    fixed = set(wanted)
    swaps: list[tuple[int, int]] = []
    for pos in sorted(wanted):
        t = wanted[pos]
        if tiles[pos] == t:
            continue
        j = next((q for q in range(len(tiles)) if tiles[q] == t and q not in fixed), None)
        if j is None:
            j = next((q for q in sorted(fixed) if q > pos and tiles[q] == t and wanted.get(q) != t), None)
        if j is None:
            raise ValueError(f"cannot place tile {t} at {pos}: no free copy left")
        tiles[pos], tiles[j] = tiles[j], tiles[pos]
        swaps.append((pos, j))
    return swaps


def layout(
    hands: dict[int, Sequence[Tile]], draws: Sequence[Tile] = (), tail: Sequence[Tile] = (), n_tiles: int = 144
) -> dict[int, Tile]:
    """Wanted positions: ``hands[k]`` for the seat k places after the dealer (13 tiles, the dealer
    14), then the live draws in order, then replacement tiles from the tail in order."""
    wanted: dict[int, Tile] = {}
    for k, tiles in hands.items():
        for pos, t in zip(deal_positions(k), tiles, strict=False):
            wanted[pos] = t
    for i, t in enumerate(draws):
        wanted[FIRST_LIVE + i] = t
    n_stacks = n_tiles // 2
    for i, t in enumerate(tail):
        stack = n_stacks - 1 - i // 2
        wanted[2 * stack + i % 2] = t
    return wanted


def arranged(
    tile_set: Sequence[Tile], seed: bytes, stacks_per_wall: int, wanted: dict[int, Tile]
) -> list[tuple[int, int]]:
    """The swaps for the wall that ``seed`` builds."""
    wall = Wall.build(tile_set, seed, stacks_per_wall)
    return swaps_for(wall.tiles, wanted)


def parts_layout(
    hands: dict[int, Sequence[Tile]], draws: dict[int, Sequence[Tile]] | None = None, n_tiles: int = 136
) -> dict[int, Tile]:
    """Wanted positions on a wall cut into one part per seat (:class:`~majiang.engine.wall.SeatWalls`):
    the seat ``k`` places after the dealer takes ``hands[k]`` (13 tiles; the dealer 14, its first
    draw last) and then ``draws[k]`` (its draws and replacements, in order) from the back of part ``k``."""
    part = n_tiles // 4
    wanted: dict[int, Tile] = {}
    for k in range(4):
        seq = list(hands.get(k, ())) + list((draws or {}).get(k, ()))
        if len(seq) > part:
            raise ValueError(f"seat +{k} takes {len(seq)} tiles from a part of {part}")
        for i, t in enumerate(seq):
            wanted[(k + 1) * part - 1 - i] = t
    return wanted
