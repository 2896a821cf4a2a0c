"""Wild-aware win detection against a brute force over wild assignments, and its properties."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nc_helpers import (
    assignments,
    natural_lan,
    natural_qidui,
    natural_qixing_lan,
    natural_sets_only,
    natural_standard,
)
from nc_strategies import complete_tiles, jing_swapped

from majiang.nanchang import (
    Interpretation,
    JingPair,
    Shape,
    WinMethod,
    WinSituation,
    can_win,
    interpretations,
    jingdiao_shape,
)
from majiang.nanchang.shapes import sets_need
from majiang.tiles import NUM_KINDS, counts_of, parse_tiles


def _natural_shapes(c: list[int], honour_ok: bool, skip: set[Shape] | frozenset[Shape] = frozenset()) -> set[Shape]:
    out = set()
    if Shape.PINGHU not in skip and natural_standard(list(c), 4):
        out.add(Shape.PINGHU)
    if Shape.PENGPENG not in skip and natural_standard(list(c), 4, chows=False):
        out.add(Shape.PENGPENG)
    if natural_qidui(c):
        out.add(Shape.QIDUI)
    if natural_lan(c):
        out.add(Shape.SHISANLAN)
        if honour_ok and natural_qixing_lan(c):
            out.add(Shape.QIXING_SHISANLAN)
    return out


def _fill(naturals: list[int], wilds: int) -> list[list[int]]:
    """Every multiset of kinds the wilds may stand for, added to the naturals."""
    out = []
    for choice in combinations_with_replacement(range(NUM_KINDS), wilds):
        c = list(naturals)
        for k in choice:
            c[k] += 1
        out.append(c)
    return out


def brute_force(tiles: list[int], win_tile: int, jing: JingPair) -> set[Interpretation]:
    """Every (shape, German, 精钓) reading of a self-drawn 14-tile hand, by trying every assignment."""
    full = counts_of(tiles)
    wild_kinds = [t for t in tiles if t in jing]
    naturals = counts_of([t for t in tiles if t not in jing])
    found: set[Interpretation] = set()
    for shape in _natural_shapes(full, True):
        found.add(Interpretation(shape, german=True))
    if wild_kinds:
        shapes: set[Shape] = set()
        for c, honour_ok in assignments(naturals, wild_kinds):
            shapes |= _natural_shapes(c, honour_ok, shapes)
        found |= {Interpretation(s) for s in shapes}
    # 精钓: the winning tile pairs with one lone jing, the rest complete
    rest_wilds = list(wild_kinds)
    rest_nat = list(naturals)
    if win_tile in jing:
        rest_wilds.remove(win_tile)
    else:
        rest_nat[win_tile] -= 1
    if rest_wilds:
        for c in _fill(rest_nat, len(rest_wilds) - 1):
            if natural_sets_only(c, 4):
                found.add(Interpretation(Shape.PINGHU, jingdiao=True))
            if natural_sets_only(c, 4, chows=False):
                found.add(Interpretation(Shape.PENGPENG, jingdiao=True))
            if all(x % 2 == 0 for x in c):
                found.add(Interpretation(Shape.QIDUI, jingdiao=True))
    if win_tile in jing and full[win_tile] >= 2:
        c = list(full)
        c[win_tile] -= 2
        if natural_sets_only(c, 4):
            found.add(Interpretation(Shape.PINGHU, german=True, jingdiao=True))
        if natural_sets_only(c, 4, chows=False):
            found.add(Interpretation(Shape.PENGPENG, german=True, jingdiao=True))
        if all(x % 2 == 0 for x in c):
            found.add(Interpretation(Shape.QIDUI, german=True, jingdiao=True))
    return found


@st.composite
def small_hands(draw: Any, max_wilds: int) -> tuple[list[int], int, JingPair]:
    indicator = draw(st.integers(0, NUM_KINDS - 1))
    jing = JingPair.from_indicator(indicator)
    tiles = draw(complete_tiles())
    tiles = draw(jing_swapped(tiles, jing.kinds, max_wilds))
    if draw(st.booleans()):  # break it half the time
        i = draw(st.integers(0, 13))
        tiles[i] = draw(st.integers(0, NUM_KINDS - 1))
    wilds = sum(t in jing for t in tiles)
    if wilds > max_wilds or any(tiles.count(t) > 4 for t in tiles):
        from hypothesis import assume

        assume(False)
    win_pos = draw(st.integers(0, 13))
    return tiles, tiles[win_pos], jing


def _lib(tiles: list[int], win_tile: int, jing: JingPair) -> set[Interpretation]:
    rest = list(tiles)
    rest.remove(win_tile)
    sit = WinSituation(tuple(rest), (), win_tile, jing, WinMethod.SELF_DRAWN)
    return set(interpretations(sit))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_hands(max_wilds=2))
def test_agrees_with_brute_force_up_to_two_wilds(case: tuple[list[int], int, JingPair]) -> None:
    tiles, win_tile, jing = case
    assert _lib(tiles, win_tile, jing) == brute_force(tiles, win_tile, jing)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_hands(max_wilds=3))
def test_agrees_with_brute_force_three_wilds(case: tuple[list[int], int, JingPair]) -> None:
    tiles, win_tile, jing = case
    assert _lib(tiles, win_tile, jing) == brute_force(tiles, win_tile, jing)


def test_brute_force_known_cases() -> None:
    jing = JingPair.from_indicator(parse_tiles("4s")[0])
    tiles = parse_tiles("E S W N C F P 1m 4m 7m 2p 5p 3s 4s")
    assert _lib(tiles, tiles[-1], jing) == brute_force(tiles, tiles[-1], jing)
    assert Interpretation(Shape.QIXING_SHISANLAN) in _lib(tiles, tiles[-1], jing)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.data())
def test_a_wild_never_spoils_a_win(data: st.DataObject) -> None:
    jing = JingPair.from_indicator(data.draw(st.integers(0, NUM_KINDS - 1)))
    tiles = data.draw(complete_tiles())
    tiles = data.draw(jing_swapped(tiles, jing.kinds, 4))
    assert can_win(tiles, [], jing)
    naturals = [i for i, t in enumerate(tiles) if t not in jing]
    if naturals:
        i = data.draw(st.sampled_from(naturals))
        tiles[i] = data.draw(st.sampled_from(jing.kinds))
        assert can_win(tiles, [], jing)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_jingdiao_shape_waits_on_everything(data: st.DataObject) -> None:
    jing = JingPair.from_indicator(data.draw(st.integers(0, NUM_KINDS - 1)))
    tiles = data.draw(complete_tiles(shapes=("std", "qidui")))
    tiles = data.draw(jing_swapped(tiles, jing.kinds, 3))
    pre = tiles[:-1]
    if jingdiao_shape(pre, [], jing):
        for t in range(NUM_KINDS):
            assert can_win(pre, [], jing, win_tile=t)


def test_sets_need_counts_wilds() -> None:
    assert sets_need(counts_of(parse_tiles("123m 456m 789m 123p 5p")), pair=True) == 1
    assert sets_need(counts_of(parse_tiles("1m 9m E C")), pair=True) == 2 + 2 + 2 + 1
    assert sets_need(counts_of(parse_tiles("E S N")), pair=False) == 0  # 东南北 is a chow
    assert sets_need(counts_of(parse_tiles("C F")), pair=False) == 1  # 中发 + a wild 白
    assert sets_need(counts_of(parse_tiles("E S N")), pair=False, chows=False) == 6
