"""The MCR fans as data, read from ``fans.tsv``: rows 1–81 are the project's spec table
(``mcr-fans.tsv``) verbatim, row 82 the Botzone / PyMahjongGB extra.

``Fan`` numbers follow the 1998 rulebook order (1 大四喜 … 81 花牌).  Number 82 is 明暗杠 (one
concealed + one melded kong, 5 points), counted only under the ``concealed_and_melded_kong`` switch
(the ``botzone`` profile).  What each fan excludes is :mod:`majiang.mcr.exclusions`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from importlib import resources


class Fan(IntEnum):
    BIG_FOUR_WINDS = 1
    BIG_THREE_DRAGONS = 2
    ALL_GREEN = 3
    NINE_GATES = 4
    FOUR_KONGS = 5
    SEVEN_SHIFTED_PAIRS = 6
    THIRTEEN_ORPHANS = 7
    ALL_TERMINALS = 8
    LITTLE_FOUR_WINDS = 9
    LITTLE_THREE_DRAGONS = 10
    ALL_HONORS = 11
    FOUR_CONCEALED_PUNGS = 12
    PURE_TERMINAL_CHOWS = 13
    QUADRUPLE_CHOW = 14
    FOUR_PURE_SHIFTED_PUNGS = 15
    FOUR_PURE_SHIFTED_CHOWS = 16
    THREE_KONGS = 17
    ALL_TERMINALS_AND_HONORS = 18
    SEVEN_PAIRS = 19
    GREATER_HONORS_AND_KNITTED_TILES = 20
    ALL_EVEN_PUNGS = 21
    FULL_FLUSH = 22
    PURE_TRIPLE_CHOW = 23
    PURE_SHIFTED_PUNGS = 24
    UPPER_TILES = 25
    MIDDLE_TILES = 26
    LOWER_TILES = 27
    PURE_STRAIGHT = 28
    THREE_SUITED_TERMINAL_CHOWS = 29
    PURE_SHIFTED_CHOWS = 30
    ALL_FIVE = 31
    TRIPLE_PUNG = 32
    THREE_CONCEALED_PUNGS = 33
    LESSER_HONORS_AND_KNITTED_TILES = 34
    KNITTED_STRAIGHT = 35
    UPPER_FOUR = 36
    LOWER_FOUR = 37
    BIG_THREE_WINDS = 38
    MIXED_STRAIGHT = 39
    REVERSIBLE_TILES = 40
    MIXED_TRIPLE_CHOW = 41
    MIXED_SHIFTED_PUNGS = 42
    CHICKEN_HAND = 43
    LAST_TILE_DRAW = 44
    LAST_TILE_CLAIM = 45
    OUT_WITH_REPLACEMENT_TILE = 46
    ROBBING_THE_KONG = 47
    ALL_PUNGS = 48
    HALF_FLUSH = 49
    MIXED_SHIFTED_CHOWS = 50
    ALL_TYPES = 51
    MELDED_HAND = 52
    TWO_CONCEALED_KONGS = 53
    TWO_DRAGON_PUNGS = 54
    OUTSIDE_HAND = 55
    FULLY_CONCEALED_HAND = 56
    TWO_MELDED_KONGS = 57
    LAST_TILE = 58
    DRAGON_PUNG = 59
    PREVALENT_WIND = 60
    SEAT_WIND = 61
    CONCEALED_HAND = 62
    ALL_CHOWS = 63
    TILE_HOG = 64
    DOUBLE_PUNG = 65
    TWO_CONCEALED_PUNGS = 66
    CONCEALED_KONG = 67
    ALL_SIMPLES = 68
    PURE_DOUBLE_CHOW = 69
    MIXED_DOUBLE_CHOW = 70
    SHORT_STRAIGHT = 71
    TWO_TERMINAL_CHOWS = 72
    PUNG_OF_TERMINALS_OR_HONORS = 73
    MELDED_KONG = 74
    ONE_VOIDED_SUIT = 75
    NO_HONORS = 76
    EDGE_WAIT = 77
    CLOSED_WAIT = 78
    SINGLE_WAIT = 79
    SELF_DRAWN = 80
    FLOWER_TILES = 81
    CONCEALED_KONG_AND_MELDED_KONG = 82


@dataclass(frozen=True, slots=True)
class FanInfo:
    fan: Fan
    zh: str
    en: str
    points: int
    seed_not_counted: str  # the seed's "不计" note, verbatim


def _load() -> dict[Fan, FanInfo]:
    text = resources.files(__package__).joinpath("fans.tsv").read_text(encoding="utf-8")
    table: dict[Fan, FanInfo] = {}
    for line in text.splitlines()[1:]:
        if not line.strip():
            continue
        no, zh, en, points, *note = line.split("\t")
        fan = Fan(int(no))
        table[fan] = FanInfo(fan, zh, en, int(points), note[0] if note else "")
    missing = set(Fan) - set(table)
    if missing:
        raise RuntimeError(f"fans.tsv has no row for {sorted(missing)}")
    return table


FAN_INFO: dict[Fan, FanInfo] = _load()
POINTS: list[int] = [0] * (max(Fan) + 1)
for _fan, _info in FAN_INFO.items():
    POINTS[_fan] = _info.points
# Report order: by points, then rulebook number (so 明暗杠 sits between the 6s and the 4s).
REPORT_ORDER: list[Fan] = sorted(Fan, key=lambda f: (-FAN_INFO[f].points, int(f)))
FAN_BY_NAME: dict[str, Fan] = {}
for _fan, _info in FAN_INFO.items():
    FAN_BY_NAME[_info.en.lower()] = _fan
    FAN_BY_NAME[_info.zh] = _fan
    FAN_BY_NAME[_fan.name.lower()] = _fan


def fan_by_name(name: str) -> Fan:
    """Look a fan up by its English or Chinese name (case-insensitive) or enum name."""
    try:
        return FAN_BY_NAME[name.strip().lower() if name.isascii() else name.strip()]
    except KeyError:
        raise ValueError(f"unknown fan {name!r}: use a name from mcr-fans.tsv (English or Chinese)") from None
