"""The wall's inlined shuffle and break against their plain definitions: Fisher–Yates on
:meth:`SeedStream.below`, and the stacks taken in order from the break (so a faster wall is the
same wall)."""

import random

from majiang.engine.wall import SeedStream, Wall, shuffle
from majiang.tiles import full_set


def reference_shuffle(tiles: list[int], seed: bytes) -> list[int]:
    out = list(tiles)
    rng = SeedStream(seed, b"shuffle")
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_shuffle_and_break_are_the_plain_definitions() -> None:
    rng = random.Random(12)
    for flowers, stacks in ((True, 18), (False, 17)):
        tiles = full_set(flowers)
        for _ in range(300):
            seed = rng.randbytes(32)
            shuffled = reference_shuffle(tiles, seed)
            assert shuffle(tiles, seed) == shuffled
            wall = Wall.build(tiles, seed, stacks)
            n = len(tiles) // 2
            dice = SeedStream(seed, b"dice")
            d1, d2 = dice.below(6) + 1, dice.below(6) + 1
            d3, d4 = dice.below(6) + 1, dice.below(6) + 1
            start = (((d1 + d2 - 1) % 4) * stacks + d1 + d2 + d3 + d4) % n
            order = [(start + k) % n for k in range(n)]
            assert wall.tiles == [shuffled[2 * s + h] for s in order for h in (0, 1)]
