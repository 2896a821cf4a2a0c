"""The table rules (majiang.nanchang.table): tiles, deal, jing flip, dead wall, claims, kongs, can_win."""

from __future__ import annotations

import random

import pytest

from majiang.nanchang import (
    ClaimKind,
    JingPair,
    Options,
    WinMethod,
    can_win,
    deal,
    flip_jing,
    is_exhaustive_draw,
    legal_claims,
    may_declare_kong,
    meld_from_tiles,
    pass_hu_blocks,
    replacement_index,
    self_kongs,
    tile_set,
)
from majiang.tiles import counts_of, parse_tile, parse_tiles

JING = JingPair.from_indicator(parse_tile("5p"))


def test_tile_set() -> None:
    tiles = tile_set()
    assert len(tiles) == 136
    assert counts_of(tiles) == [4] * 34


def test_deal_and_flip() -> None:
    wall = tile_set()
    random.Random(7).shuffle(wall)
    hands, rest = deal(wall, dealer=2)
    assert [len(h) for h in hands] == [13, 13, 14, 13]
    assert len(rest) == 136 - 53
    assert sorted([t for h in hands for t in h] + rest) == tile_set()
    flip = flip_jing(rest, dice_sum=7)
    assert flip.position == len(rest) - 14
    assert flip.indicator == rest[-14] and flip.under == rest[-13]
    assert flip.pair == JingPair.from_indicator(rest[-14])
    with pytest.raises(ValueError):
        flip_jing(rest, 13)


def test_replacement_skips_the_indicator() -> None:
    assert replacement_index(40, 20) == 39
    assert replacement_index(21, 20) == 19
    assert replacement_index(21, 20, Options(indicator_drawable=True)) == 20


def test_dead_wall() -> None:
    assert is_exhaustive_draw(34) and not is_exhaustive_draw(35)
    assert may_declare_kong(35) and not may_declare_kong(34)
    assert is_exhaustive_draw(36, Options(dead_wall_tiles=36))
    assert not is_exhaustive_draw(1, Options(dead_wall_tiles=0))


def kinds(claims: list) -> list[ClaimKind]:  # type: ignore[type-arg]
    return [c.kind for c in claims]


def test_chi_only_from_the_left_and_honour_chows() -> None:
    hand = parse_tiles("E S N 3m4m 7p7p7p 1s1s 9s C F")
    w = parse_tile("W")
    claims = legal_claims(hand, [], w, seat=1, discarder=0, jing=JING, tiles_left=80)
    chows = sorted(c.meld.tiles for c in claims if c.kind is ClaimKind.CHI)  # type: ignore[union-attr]
    assert chows == [(27, 28, 29), (27, 29, 30), (28, 29, 30)]  # 东南西 东西北 南西北
    assert legal_claims(hand, [], w, seat=2, discarder=0, jing=JING, tiles_left=80) == []
    p = parse_tile("P")
    assert [
        c.meld.tiles
        for c in legal_claims(
            hand,
            [],
            p,
            seat=1,
            discarder=0,
            jing=JING,  # type: ignore[union-attr]
            tiles_left=80,
        )
    ] == [(31, 32, 33)]


def test_jing_are_not_wild_for_claims() -> None:
    hand = parse_tiles("3m 5p 6p 1s1s 9s9s E S W N C")  # 5p/6p are jing, no 5m
    assert legal_claims(hand, [], parse_tile("4m"), seat=1, discarder=0, jing=JING, tiles_left=80) == []
    # a jing at face value is fine: 5p 6p + 7p
    claims = legal_claims(hand, [], parse_tile("7p"), seat=1, discarder=0, jing=JING, tiles_left=80)
    assert kinds(claims) == [ClaimKind.CHI]


def test_peng_and_kong() -> None:
    hand = parse_tiles("7p7p7p 1s1s 2m3m 9s E S W N C")
    claims = legal_claims(hand, [], parse_tile("7p"), seat=3, discarder=1, jing=JING, tiles_left=80)
    assert kinds(claims) == [ClaimKind.KONG, ClaimKind.PENG]
    assert claims[0].meld is not None and claims[0].meld.source == 2  # 对家
    claims = legal_claims(hand, [], parse_tile("7p"), seat=3, discarder=1, jing=JING, tiles_left=34)
    assert kinds(claims) == [ClaimKind.PENG]  # no kong into the dead wall


def test_hu_claim_and_furiten() -> None:
    melds = [meld_from_tiles(parse_tiles(m)) for m in ("123m", "777s", "EEE", "789p")]
    lone = [parse_tile("5p")]
    assert ClaimKind.HU not in kinds(
        legal_claims(lone, melds, parse_tile("7m"), seat=1, discarder=3, jing=JING, tiles_left=60)
    )
    claims = legal_claims(lone, melds, parse_tile("5p"), seat=1, discarder=3, jing=JING, tiles_left=60)
    assert kinds(claims)[0] is ClaimKind.HU
    assert ClaimKind.HU not in kinds(
        legal_claims(lone, melds, parse_tile("5p"), seat=1, discarder=3, jing=JING, tiles_left=60, furiten=True)
    )


def test_self_kongs() -> None:
    hand = parse_tiles("7p7p7p7p 1s 2m3m 9s E S")
    melds = [meld_from_tiles(parse_tiles("1s1s1s"), source=1)]
    ks = self_kongs(hand, melds, tiles_left=50)
    assert [(k.tile, k.concealed) for k in ks] == [(parse_tile("7p"), True), (parse_tile("1s"), False)]
    assert self_kongs(hand, melds, tiles_left=34) == []


@pytest.mark.parametrize(
    ("hand", "win", "method", "expected"),
    [
        ("123m 456m 789m 123s 5p", "7s", WinMethod.SELF_DRAWN, True),
        ("123m 456m 789m 123s 5p", "7s", WinMethod.DISCARD, False),  # 精钓不接炮
        ("123m 456m 789m 123s 5p", "5p", WinMethod.DISCARD, True),  # 德国 on the jing itself
        ("123m 456m 789m 123s 5p", "7s", WinMethod.EARTHLY, True),
        ("123m 456m 789m 12s 5p 6p", "9s", WinMethod.DISCARD, False),  # 12s+5p* and a lone 6p: 精钓 shape
        ("123m 456m 789m 12s 5p 9s", "9s", WinMethod.DISCARD, True),
        ("1m 4m 7m 2p 8p 3s 6s 9s E S W N C", "5p", WinMethod.SELF_DRAWN, True),  # 十三烂 with a wild
        ("1m 4m 7m 2p 8p 3s 6s 9s E S W N C", "2m", WinMethod.SELF_DRAWN, False),
        ("ESW SWN CFP 111m 9p", "9p", WinMethod.DISCARD, True),
    ],
)
def test_can_win(hand: str, win: str, method: WinMethod, expected: bool) -> None:
    assert can_win(parse_tiles(hand), [], JING, win_tile=parse_tile(win), method=method) is expected


def test_can_win_discard_restriction_option() -> None:
    hand = parse_tiles("123m 456m 789m 12s 5p 9s")
    assert can_win(hand, [], JING, win_tile=parse_tile("9s"), method=WinMethod.DISCARD)
    assert not can_win(
        hand,
        [],
        JING,
        win_tile=parse_tile("9s"),
        method=WinMethod.DISCARD,
        options=Options(discard_win_wild_allowed=False),
    )


def test_pass_hu() -> None:
    assert not pass_hu_blocks(None, 5)
    assert pass_hu_blocks(5, 9)
    assert not pass_hu_blocks(5, 9, Options(pass_hu_furiten=False))
    assert not pass_hu_blocks(5, 9, Options(pass_hu_allows_bigger=True))
    assert pass_hu_blocks(5, 5, Options(pass_hu_allows_bigger=True))
