"""Tiles and notation: the one module every layer of majiang imports.

A tile is a plain ``int`` (fast to count, hash and index):

* ``0–8``   1m–9m 万 (characters)
* ``9–17``  1p–9p 饼/筒 (dots)
* ``18–26`` 1s–9s 条 (bamboo)
* ``27–30`` winds E S W N 东南西北
* ``31–33`` dragons C F P 中发白 (red, green, white)
* ``34–41`` flowers f1–f8 春夏秋冬梅兰竹菊

Notation (``docs/hand-json.md``): tokens ``1m``… ``E S W N C F P`` ``f1``…; the compact suit
form ``123m456p``; the riichi honour form ``1z``–``7z`` (= E S W N P F C).  Every malformed input
raises :class:`NotationError`, whose message names the offending token.

>>> parse_tiles("123m 4p E")
[0, 1, 2, 12, 27]
>>> format_tiles([0, 1, 2, 12, 27])
'1m 2m 3m 4p E'
>>> format_compact([0, 1, 2, 12, 27])
'123m4pE'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

Tile = int

SUITS = "mps"
HONOR_LETTERS = "ESWNCFP"
NUM_KINDS = 34
NUM_FLOWERS = 8

MAN, PIN, SOU = 0, 9, 18
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33  # 中 发 白
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONORS = WINDS + DRAGONS
FLOWERS = tuple(range(34, 42))
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS = TERMINALS + HONORS
ALL_KINDS = tuple(range(NUM_KINDS))
GREEN_TILES = frozenset((19, 20, 21, 23, 25, GREEN))  # 23468s 发
REVERSIBLE_TILES = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, WHITE))  # 1234589p 245689s 白

_RIICHI_HONORS = {1: EAST, 2: SOUTH, 3: WEST, 4: NORTH, 5: WHITE, 6: GREEN, 7: RED}
_SUIT_ZH = {"m": "万", "p": "饼", "s": "条"}
_NUM_ZH = "一二三四五六七八九"
_HONOR_ZH = "东南西北中发白"
_HONOR_EN = ("East", "South", "West", "North", "Red", "Green", "White")
_FLOWER_ZH = "春夏秋冬梅兰竹菊"
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
# U+1F000 block: winds 1F000–1F003, 中 1F004, 发 1F005, 白 1F006, 万 1F007–, 条 1F010–, 饼 1F019–,
# plum orchid bamboo chrysanthemum 1F022–1F025, spring … winter 1F026–1F029.
_GLYPH_BASE = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
_FLOWER_GLYPHS = (0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F024, 0x1F025)


class NotationError(ValueError):
    """Malformed input (a tile, a hand string, a hand object); the message names the offending
    token.  The one exception type for bad input: :class:`majiang.mcr.InvalidHandError` (a hand
    that is well written but cannot be scored) derives from it."""


def suit_of(tile: Tile) -> int:
    """0 万, 1 饼, 2 条, 3 honours, 4 flowers."""
    return 4 if tile >= NUM_KINDS else tile // 9


def rank_of(tile: Tile) -> int:
    """1–9 for suited tiles, 0 otherwise."""
    return tile % 9 + 1 if tile < 27 else 0


def is_suited(tile: Tile) -> bool:
    return 0 <= tile < 27


def is_honor(tile: Tile) -> bool:
    return 27 <= tile < NUM_KINDS


def is_wind(tile: Tile) -> bool:
    return 27 <= tile <= 30


def is_dragon(tile: Tile) -> bool:
    return 31 <= tile <= 33


def is_terminal(tile: Tile) -> bool:
    return tile < 27 and tile % 9 in (0, 8)


def is_terminal_or_honor(tile: Tile) -> bool:
    return tile >= 27 or tile % 9 in (0, 8)


def is_flower(tile: Tile) -> bool:
    return NUM_KINDS <= tile < NUM_KINDS + NUM_FLOWERS


def make_tile(suit: str, rank: int) -> Tile:
    """``make_tile("p", 5)`` → the tile 5p."""
    return SUITS.index(suit) * 9 + rank - 1


def tile_str(tile: Tile) -> str:
    """The canonical token: ``1m``, ``E``, ``C``, ``f3``."""
    if 0 <= tile < 27:
        return f"{tile % 9 + 1}{SUITS[tile // 9]}"
    if 27 <= tile < NUM_KINDS:
        return HONOR_LETTERS[tile - 27]
    if is_flower(tile):
        return f"f{tile - NUM_KINDS + 1}"
    raise NotationError(f"not a tile code: {tile!r}")


_TOKEN_RE = re.compile(r"\s*(?:(\d+)([mpsz])|([ESWNCFP])|f([1-8])|(\S))")


def _tokens(text: str) -> Iterable[tuple[str, list[Tile]]]:
    pos = 0
    while pos < len(text):
        if text[pos].isspace() or text[pos] == ",":
            pos += 1
            continue
        m = _TOKEN_RE.match(text, pos)
        assert m is not None
        token = m.group(0).strip()
        digits, suit, honor, flower, junk = m.groups()
        if junk is not None:
            # name the whole unreadable word, not just its first character
            word = re.match(r"[^\s,]+", text[pos:])
            w = word.group(0) if word else junk
            bad = re.match(r"\d*(.?)", w).group(1)  # type: ignore[union-attr]  # always matches
            why = (
                "flowers are f1–f8"
                if re.fullmatch(r"f\d+", w)
                else f"{bad!r} is not a suit (m p s z), an honour (E S W N C F P) or a flower (f1–f8)"
                if bad
                else "digits need a suit letter after them (m p s z)"
            )
            raise NotationError(f"unknown tile {w!r} in {text!r}: {why}")
        if honor is not None:
            yield token, [HONOR_LETTERS.index(honor) + 27]
        elif flower is not None:
            yield token, [NUM_KINDS + int(flower) - 1]
        else:
            tiles: list[Tile] = []
            for d in digits:
                r = int(d)
                if suit == "z":
                    if r not in _RIICHI_HONORS:
                        raise NotationError(f"unknown tile {d + 'z'!r} in {text!r}: honours are 1z–7z")
                    tiles.append(_RIICHI_HONORS[r])
                else:
                    if not 1 <= r <= 9:
                        raise NotationError(f"unknown tile {d + suit!r} in {text!r}: ranks are 1–9")
                    tiles.append(make_tile(suit, r))
            yield token, tiles
        pos = m.end()


def parse_tiles(text: str) -> list[Tile]:
    """Parse tokens in any accepted form (``1m 2m``, ``12m``, ``1z``, ``E``, ``f1``)."""
    out: list[Tile] = []
    for _, tiles in _tokens(text):
        out.extend(tiles)
    return out


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile."""
    if not isinstance(text, str):
        raise NotationError(f"a tile must be a string like '5p', got {text!r}")
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected one tile, got {text!r}")
    return tiles[0]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Space-separated canonical tokens."""
    return " ".join(tile_str(t) for t in tiles)


def format_compact(tiles: Iterable[Tile]) -> str:
    """Compact suit form, suit letters once per run: ``123m45p``; honours and flowers as tokens."""
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for t in tiles:
        if is_suited(t):
            s = SUITS[t // 9]
            if run and s != run_suit:
                out.append("".join(run) + run_suit)
                run = []
            run_suit = s
            run.append(str(t % 9 + 1))
        else:
            if run:
                out.append("".join(run) + run_suit)
                run = []
            out.append(tile_str(t))
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def tile_zh(tile: Tile) -> str:
    """Chinese name: 五饼, 东, 中, 春."""
    if 0 <= tile < 27:
        return _NUM_ZH[tile % 9] + _SUIT_ZH[SUITS[tile // 9]]
    if 27 <= tile < NUM_KINDS:
        return _HONOR_ZH[tile - 27]
    if is_flower(tile):
        return _FLOWER_ZH[tile - NUM_KINDS]
    raise NotationError(f"not a tile code: {tile!r}")


def tile_en(tile: Tile) -> str:
    """English name: 5 Dots, East Wind, Red Dragon, Spring."""
    if 0 <= tile < 27:
        return f"{tile % 9 + 1} {_SUIT_EN[SUITS[tile // 9]]}"
    if 27 <= tile <= 30:
        return f"{_HONOR_EN[tile - 27]} Wind"
    if 31 <= tile <= 33:
        return f"{_HONOR_EN[tile - 27]} Dragon"
    if is_flower(tile):
        return _FLOWER_EN[tile - NUM_KINDS]
    raise NotationError(f"not a tile code: {tile!r}")


def tile_glyph(tile: Tile) -> str:
    """The Unicode mahjong glyph (U+1F000 block)."""
    if 0 <= tile < 27:
        return chr(_GLYPH_BASE[SUITS[tile // 9]] + tile % 9)
    if 27 <= tile <= 30:
        return chr(0x1F000 + tile - 27)
    if 31 <= tile <= 33:
        return chr(0x1F004 + tile - 31)
    if is_flower(tile):
        return chr(_FLOWER_GLYPHS[tile - NUM_KINDS])
    raise NotationError(f"not a tile code: {tile!r}")


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """A 34-slot count vector (flowers ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            c[t] += 1
    return c


def tiles_of(counts: Sequence[int]) -> list[Tile]:
    """The sorted tiles of a count vector."""
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def wind_index(text: str | int) -> int:
    """A wind given as ``E``/``S``/``W``/``N``, 东南西北 or 0–3 → 0–3."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text <= 3:
        return text
    if isinstance(text, str):
        if text in ("E", "S", "W", "N"):
            return "ESWN".index(text)
        if text in ("东", "南", "西", "北"):
            return "东南西北".index(text)
    raise NotationError(f"unknown wind {text!r}: use E, S, W or N")


def full_set(flowers: bool = True) -> list[Tile]:
    """The 144 tiles of an MCR set (136 without flowers)."""
    tiles = [t for t in ALL_KINDS for _ in range(4)]
    if flowers:
        tiles.extend(FLOWERS)
    return tiles
