"""Hypothesis strategies for Nanchang: winning hands built by construction, then jing swapped in."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from majiang.tiles import NUM_KINDS

LAN_SUIT_PATTERNS = (
    (0, 3, 6),
    (0, 3, 7),
    (0, 3, 8),
    (0, 4, 7),
    (0, 4, 8),
    (0, 5, 8),
    (1, 4, 7),
    (1, 4, 8),
    (1, 5, 8),
    (2, 5, 8),
)
HONOUR_CHOWS = ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30), (31, 32, 33))


def _set(draw: Any, kind: str) -> list[int]:
    if kind == "pung":
        t = draw(st.integers(0, NUM_KINDS - 1))
        return [t, t, t]
    if kind == "chow":
        suit = draw(st.integers(0, 2))
        r = draw(st.integers(0, 6))
        return [suit * 9 + r, suit * 9 + r + 1, suit * 9 + r + 2]
    return list(draw(st.sampled_from(HONOUR_CHOWS)))


@st.composite
def complete_tiles(
    draw: Any, n_sets: int = 4, shapes: tuple[str, ...] = ("std", "std", "pengpeng", "qidui", "lan")
) -> list[int]:
    """A natural complete hand of ``3·n_sets + 2`` tiles (≤ 4 copies a kind), of a random shape."""
    shape = draw(st.sampled_from(shapes)) if n_sets == 4 else draw(st.sampled_from(("std", "pengpeng")))
    if shape in ("std", "pengpeng"):
        kinds = ("pung",) if shape == "pengpeng" else ("pung", "chow", "chow", "honour_chow")
        tiles: list[int] = []
        for _ in range(n_sets):
            tiles += _set(draw, draw(st.sampled_from(kinds)))
        p = draw(st.integers(0, NUM_KINDS - 1))
        tiles += [p, p]
    elif shape == "qidui":
        kinds = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=7, max_size=7))
        tiles = [k for k in kinds for _ in range(2)]
    else:
        tiles = []
        for s in range(3):
            tiles += [s * 9 + r for r in draw(st.sampled_from(LAN_SUIT_PATTERNS))]
        tiles += list(range(27, 34))
        drop = draw(st.permutations(tiles))[:2]
        for t in drop:
            tiles.remove(t)
    from hypothesis import assume

    assume(all(tiles.count(t) <= 4 for t in set(tiles)))
    return tiles


@st.composite
def jing_swapped(draw: Any, tiles: list[int], jing: tuple[int, int], max_wilds: int) -> list[int]:
    """Replace up to ``max_wilds`` tiles by jing tiles (keeping ≤ 4 copies of each jing kind)."""
    out = list(tiles)
    n = draw(st.integers(0, max_wilds))
    idx = draw(st.permutations(range(len(out))))[:n]
    for i in idx:
        j = draw(st.sampled_from(jing))
        if out.count(j) < 4:
            out[i] = j
    return out
