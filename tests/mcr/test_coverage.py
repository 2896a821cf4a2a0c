"""The per-fan suite itself: every fan has a hand where it counts, and a hand where a rule takes it away
(or a stated reason why nothing can)."""

from collections import Counter

from majiang.mcr import FAN_INFO

from . import (
    test_fans_4_1,
    test_fans_8_6,
    test_fans_16_12,
    test_fans_48_24,
    test_fans_88_64,
    test_principles,
    test_special_shapes,
)

MODULES = (
    test_fans_88_64,
    test_fans_48_24,
    test_fans_16_12,
    test_fans_8_6,
    test_fans_4_1,
    test_special_shapes,
    test_principles,
)
ALL_CASES = [p for m in MODULES for name in dir(m) if name.endswith("CASES") for p in getattr(m, name)]

# Fans that no exclusion (不计) or principle can take away: nothing outranks or implies them, and (where
# the reading matters) no other reading of the same tiles scores higher; the 就高 claims were checked by
# exhaustive search against PyMahjongGB (pattern + any set + any pair, concealed or with melds, either
# win).  Their near misses are tested where noted.
NEVER_REMOVED = {
    # 88/64: the tiles admit no other reading, or every other one is lower
    "Big Four Winds",
    "Big Three Dragons",
    "All Green",
    "Four Kongs",
    "Seven Shifted Pairs",
    "Thirteen Orphans",
    "All Terminals",
    "Little Four Winds",
    "Little Three Dragons",
    "All Honors",
    "Pure Terminal Chows",
    # 48/32/24: a lower reading (一色三同顺/三节高, 七对 …) never beats them
    "Quadruple Chow",
    "Four Pure Shifted Pungs",
    "Four Pure Shifted Chows",
    "Greater Honors and Knitted Tiles",
    "Upper Tiles",
    "Middle Tiles",
    "Lower Tiles",  # a property of the tiles, true in every reading
    "All Even Pungs",  # even pungs cannot be read as chows (their neighbours are odd) nor as 七对
    "Reversible Tiles",  # a property of the tiles, true in every reading
    "Knitted Straight",  # the 9 knitted tiles plus 5 others never make 4 sets and a pair any other way
    # the three chows plus one set and a pair have no higher re-reading (exhaustive search)
    "Pure Straight",
    "Three-Suited Terminal Chows",
    "Mixed Straight",
    "Mixed Triple Chow",
    "Mixed Shifted Chows",
    # situational fans: nothing excludes them and they do not depend on the reading
    "Last Tile Draw",
    "Last Tile Claim",
    "Out with Replacement Tile",
    "Robbing the Kong",
    "Melded Hand",  # not by a rule; 全求人-自摸不成立 shows the self-drawn near miss
    "Flower Tiles",  # test_principles: flowers never count towards the 8-fan minimum
}


def test_every_fan_counts_in_some_hand():
    counted = {name for p in ALL_CASES for name in p.values[2]}
    assert {info.en for info in FAN_INFO.values()} - counted == set()


def test_every_fan_is_removed_in_some_hand_unless_nothing_can_remove_it():
    removed = {name for p in ALL_CASES for name in p.values[5]}
    missing = {info.en for info in FAN_INFO.values()} - removed - NEVER_REMOVED
    assert missing == set()
    assert removed & NEVER_REMOVED == set()  # keep the list honest


def test_case_ids_are_unique_and_numerous():
    ids = Counter(p.id for p in ALL_CASES)
    assert [i for i, n in ids.items() if n > 1] == []
    assert len(ALL_CASES) >= 150
