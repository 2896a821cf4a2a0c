"""``majiang._speedups.winshape`` (winshape.c) against its Python reference in :mod:`majiang.mcr.shapes`
(``is_win_shape_py``, ``is_win_shape_with_py``): every one-suit count vector of up to 11 tiles, and
generated hands of every shape (sets + pair, 七对, 十三幺, 全不靠, 组合龙) near and off a win."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang._speedups import load
from majiang.mcr.shapes import KNITTED_STRAIGHTS, THIRTEEN_ORPHANS, is_win_shape_py, is_win_shape_with_py
from majiang.tiles import NUM_KINDS

FAST = load("winshape")
pytestmark = pytest.mark.skipif(FAST is None, reason="majiang._speedups.winshape not built, or MAJIANG_PURE=1")


def _bounded(n: int, total: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()] if total == 0 else []
    return [(k, *rest) for k in range(min(4, total) + 1) for rest in _bounded(n - 1, total - k)]


@pytest.mark.parametrize("total", [2, 5, 8, 11])
def test_every_one_suit_vector(total: int) -> None:
    assert FAST is not None
    n_melds = (14 - total) // 3
    checked = 0
    for suit in _bounded(9, total):
        for base in (0, 18):
            counts = [0] * NUM_KINDS
            counts[base : base + 9] = suit
            assert FAST.is_win_shape(counts, n_melds) == is_win_shape_py(counts, n_melds), (counts, n_melds)
            checked += 1
    assert checked > 50


@st.composite
def near_wins(draw: st.DrawFn) -> tuple[list[int], int]:
    """3k+2 concealed tiles (at most four of a kind) with 0–4 declared sets: a winning shape of some
    kind, then perhaps a few tiles swapped for random ones."""
    n_melds = draw(st.integers(0, 4))
    counts = [0] * NUM_KINDS
    shape = draw(st.sampled_from(["regular", "pairs", "orphans", "knitted", "honors_knitted", "random"]))
    size = 14 - 3 * n_melds

    def put(t: int) -> None:
        counts[t] += 1

    if shape == "pairs":
        for t in draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=size // 2, max_size=size // 2)):
            put(t), put(t)
    elif shape == "orphans":
        for t in THIRTEEN_ORPHANS:
            put(t)
        put(draw(st.sampled_from(THIRTEEN_ORPHANS)))
    elif shape in ("knitted", "honors_knitted"):
        ks = draw(st.sampled_from(KNITTED_STRAIGHTS))
        for t in ks:
            put(t)
        if shape == "knitted":
            rest = size - 9
            while sum(counts) < 9 + rest - 2:
                t = draw(st.integers(0, 24))
                put(t), put(t + 1), put(t + 2)
            p = draw(st.integers(0, NUM_KINDS - 1))
            put(p), put(p)
        else:
            for t in draw(st.permutations(range(27, 34)))[:5]:
                put(t)
    elif shape == "regular":
        for _ in range(4 - n_melds):
            if draw(st.booleans()):
                suit, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
                for k in range(3):
                    put(suit * 9 + r + k)
            else:
                t = draw(st.integers(0, NUM_KINDS - 1))
                put(t), put(t), put(t)
        p = draw(st.integers(0, NUM_KINDS - 1))
        put(p), put(p)
    else:
        for t in draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=size, max_size=size)):
            put(t)
    for _ in range(draw(st.integers(0, 2))):  # swap a tile or two
        held = [t for t in range(NUM_KINDS) if counts[t]]
        counts[draw(st.sampled_from(held))] -= 1
        put(draw(st.integers(0, NUM_KINDS - 1)))
    counts = [min(c, 4) for c in counts]  # at most four of a kind
    while sum(counts) > size:  # the knitted/honours shapes may overshoot a small hand
        counts[next(t for t in range(NUM_KINDS) if counts[t])] -= 1
    while sum(counts) < size:
        put(draw(st.sampled_from([t for t in range(NUM_KINDS) if counts[t] < 4])))
    return counts, n_melds


@settings(max_examples=3000, deadline=None)
@given(near_wins())
def test_generated_hands(hand: tuple[list[int], int]) -> None:
    assert FAST is not None
    counts, n_melds = hand
    assert FAST.is_win_shape(counts, n_melds) == is_win_shape_py(counts, n_melds)
    t = next(t for t in range(NUM_KINDS) if counts[t])
    counts[t] -= 1  # 3k+1 tiles: the waits, and each candidate tile
    waits = [x for x in range(NUM_KINDS) if is_win_shape_with_py(counts, n_melds, x)]
    assert FAST.waits(counts, n_melds) == waits
    for x in range(NUM_KINDS):
        assert FAST.is_win_shape_with(counts, n_melds, x) == (x in waits)


def test_generation_reaches_wins_of_every_kind() -> None:
    assert FAST is not None
    seven_pairs = [2] * 7 + [0] * 27
    orphans = [1 if t in THIRTEEN_ORPHANS else 0 for t in range(NUM_KINDS)]
    orphans[0] += 1
    knitted = [0] * NUM_KINDS
    for t in (*KNITTED_STRAIGHTS[0][:7], 27, 28, 29, 30, 31, 32, 33):
        knitted[t] = 1
    for counts in (seven_pairs, orphans, knitted):
        assert FAST.is_win_shape(counts, 0) and is_win_shape_py(counts, 0)
