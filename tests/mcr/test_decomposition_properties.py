"""Decomposition invariants (property tests): every regular division rebuilds the hand's tiles, is
exactly the sets still needed plus one pair, no division is listed twice, and the divisions are
exactly those a brute-force enumeration finds; a hand is a regular win iff it has a division."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.mcr.shapes import CHOW, PAIR, PUNG, Pack, is_regular_win, regular_divisions
from majiang.tiles import NUM_KINDS

CHOW_LOWS = [t for t in range(27) if t % 9 <= 6]


def _brute_sets(counts: list[int], need: int) -> set[tuple[tuple[int, int], ...]]:
    """All multisets of ``need`` sets using exactly ``counts``: the lowest tile left must start a
    pung or a chow, so trying both at that tile finds every split."""
    if need == 0:
        return {()} if not any(counts) else set()
    t = next((i for i in range(NUM_KINDS) if counts[i]), None)
    if t is None:
        return set()
    out: set[tuple[tuple[int, int], ...]] = set()
    if counts[t] >= 3:
        counts[t] -= 3
        out |= {tuple(sorted(((PUNG, t), *rest))) for rest in _brute_sets(counts, need - 1)}
        counts[t] += 3
    if t < 27 and t % 9 <= 6 and counts[t + 1] and counts[t + 2]:
        for x in (t, t + 1, t + 2):
            counts[x] -= 1
        out |= {tuple(sorted(((CHOW, t + 1), *rest))) for rest in _brute_sets(counts, need - 1)}
        for x in (t, t + 1, t + 2):
            counts[x] += 1
    return out


def _brute(counts: list[int], need: int) -> set[tuple[tuple[tuple[int, int], ...], int]]:
    found = set()
    for p in range(NUM_KINDS):
        if counts[p] >= 2:
            counts[p] -= 2
            found |= {(sets, p) for sets in _brute_sets(counts, need)}
            counts[p] += 2
    return found


@st.composite
def concealed(draw: st.DrawFn) -> tuple[list[int], int]:
    """Tiles for ``need`` concealed sets and a pair: built from sets (so most are wins, often with
    several readings, e.g. 111222333m), or with one tile swapped (mostly not)."""
    need = draw(st.integers(0, 4))
    tiles: list[int] = []
    for _ in range(need):
        if draw(st.booleans()):
            low = draw(st.sampled_from(CHOW_LOWS[:9] if draw(st.booleans()) else CHOW_LOWS))
            tiles += [low, low + 1, low + 2]
        else:
            tiles += [draw(st.integers(0, NUM_KINDS - 1))] * 3
    tiles += [draw(st.integers(0, NUM_KINDS - 1))] * 2
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, NUM_KINDS - 1))
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts, need


@settings(max_examples=1500, deadline=None)
@given(concealed())
def test_divisions_are_exactly_the_brute_force_ones(case: tuple[list[int], int]) -> None:
    counts, need = case
    if max(counts) > 4:
        return  # not a hand (five copies)
    fixed = [Pack(PUNG, 33, True)] * (4 - need)  # declared melds: the same object in every division
    before = counts[:]
    divisions = regular_divisions(counts, fixed)
    assert counts == before  # the input is left as it was
    seen = set()
    for d in divisions:
        assert d[: len(fixed)] == fixed
        own = d[len(fixed) :]
        assert [p.kind for p in own].count(PAIR) == 1 and own[-1].kind == PAIR and len(own) == need + 1
        assert Counter(t for p in own for t in p.tiles()) == Counter(
            {t: c for t, c in enumerate(counts) if c}
        )  # the division rebuilds the tiles
        key = (tuple(sorted((p.kind, p.tile) for p in own[:-1])), own[-1].tile)
        assert key not in seen  # never listed twice
        seen.add(key)
    assert seen == _brute(counts[:], need)
    assert bool(divisions) == is_regular_win(counts[:], need)
