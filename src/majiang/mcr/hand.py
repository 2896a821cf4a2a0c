"""The MCR hand model: declared melds (副露), the concealed hand and a finished winning hand.

Formats (``docs/hand-json.md``): the JSON object and the compact string
``[123m1][EEE2]{9999s}456pC C`` — bracketed exposed melds (a digit after the tiles is
``claimed``+1 for a chow, ``from`` for a pung/kong), ``{…}`` a concealed kong, then the concealed
tiles, then the winning tile last after a space.  Flowers ``f1``–``f8`` may appear anywhere outside
the brackets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from majiang.melds import FROM_LEFT as FROM_LEFT
from majiang.melds import FROM_OPPOSITE as FROM_OPPOSITE
from majiang.melds import FROM_RIGHT as FROM_RIGHT
from majiang.melds import Meld as Meld
from majiang.melds import MeldKind as MeldKind
from majiang.tiles import (
    NUM_KINDS,
    NotationError,
    Tile,
    format_compact,
    is_flower,
    parse_tile,
    parse_tiles,
    rank_of,
    tile_str,
    wind_index,
)


class InvalidHandError(NotationError):
    """A hand that cannot be scored: wrong tile count, five copies, not a win, contradictory flags.
    A :class:`~majiang.tiles.NotationError`, so that ``except NotationError`` catches every
    malformed input, from a bad tile token to an impossible hand."""


def meld(
    kind: MeldKind,
    tile: Tile,
    concealed: bool = False,
    claimed: int | None = None,
    source: int | None = None,
    added: bool = False,
) -> Meld:
    """An MCR meld by its lowest tile, checked: a chow starts at 1–7 of a suit, only a kong is
    concealed, a chow's ``claimed`` is 0–2 and a pung's or kong's ``source`` 1–3."""
    if kind is MeldKind.CHOW:
        if not (0 <= tile < 27 and rank_of(tile) <= 7):
            raise InvalidHandError(f"a chow starts at 1–7 of a suit, not {tile_str(tile)}")
        if concealed:
            raise InvalidHandError("only a kong can be declared concealed; leave concealed chows in the hand")
        if claimed is not None and claimed not in (0, 1, 2):
            raise InvalidHandError(f"chow 'claimed' must be 0, 1 or 2, got {claimed!r}")
    else:
        if not 0 <= tile < NUM_KINDS:
            raise InvalidHandError(f"not a meld tile: {tile!r}")
        if kind is MeldKind.PUNG and concealed:
            raise InvalidHandError("only a kong can be declared concealed; leave concealed pungs in the hand")
        if source is not None and source not in (1, 2, 3):
            raise InvalidHandError(f"'from' must be 1 (上家), 2 (对家) or 3 (下家), got {source!r}")
    return Meld.of(kind, tile, concealed=concealed, claimed=claimed, source=source, added=added)


def meld_from_dict(d: Mapping[str, Any]) -> Meld:
    """The hand-json meld object: ``{"kind": "chow", "tiles": ["1m","2m","3m"], "claimed": 0}``."""
    if not isinstance(d, Mapping):
        raise InvalidHandError(f"a meld must be an object with 'kind' and 'tiles', got {d!r}")
    try:
        kind = MeldKind(str(d.get("kind")))
    except ValueError:
        raise InvalidHandError(f"unknown meld kind {d.get('kind')!r}: use chow, pung or kong") from None
    raw = d.get("tiles")
    if not isinstance(raw, list | tuple) or not all(isinstance(t, str) for t in raw):
        raise InvalidHandError(f"meld 'tiles' must be a list of tile strings, got {raw!r}")
    tiles = [parse_tile(t) for t in raw]
    concealed = _bool(d, "concealed", False)
    claimed = d.get("claimed")
    source = d.get("from")
    for key, val in (("claimed", claimed), ("from", source)):
        if val is not None and (not isinstance(val, int) or isinstance(val, bool)):
            raise InvalidHandError(f"meld '{key}' must be an integer, got {val!r}")
    return meld_from_tiles(tiles, kind=kind, concealed=concealed, claimed=claimed, source=source)


def meld_from_tiles(
    tiles: Sequence[Tile],
    kind: MeldKind | None = None,
    concealed: bool = False,
    claimed: int | None = None,
    source: int | None = None,
) -> Meld:
    """Build a meld from its tiles, inferring or checking its kind."""
    ts = sorted(tiles)
    text = format_compact(ts)
    if len(ts) == 4 and len(set(ts)) == 1:
        found = MeldKind.KONG
    elif len(ts) == 3 and len(set(ts)) == 1:
        found = MeldKind.PUNG
    elif len(ts) == 3 and ts[0] < 27 and ts[1] == ts[0] + 1 and ts[2] == ts[0] + 2 and rank_of(ts[0]) <= 7:
        found = MeldKind.CHOW
    else:
        raise InvalidHandError(f"meld {text!r} is not a chow, pung or kong")
    if kind is not None and kind is not found:
        raise InvalidHandError(f"meld {text!r} is a {found.value}, not a {kind.value}")
    if concealed and found is not MeldKind.KONG:
        raise InvalidHandError(f"meld {text!r}: only a kong can be concealed")
    return meld(
        found,
        ts[0],
        concealed=concealed,
        claimed=claimed if found is MeldKind.CHOW else None,
        source=None if found is MeldKind.CHOW or concealed else source,
    )


def _bool(d: Mapping[str, Any], key: str, default: bool) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise InvalidHandError(f"'{key}' must be true or false, got {v!r}")
    return v


_MELD_RE = re.compile(r"\[([^\]\[{}]*)\]|\{([^\]\[{}]*)\}")


def parse_melds_and_rest(text: str) -> tuple[list[Meld], str, list[Tile]]:
    """Split a compact hand string into its melds, the text outside brackets and the flowers found."""
    melds: list[Meld] = []
    rest: list[str] = []
    pos = 0
    for m in _MELD_RE.finditer(text):
        rest.append(text[pos : m.start()])
        pos = m.end()
        body = m.group(1) if m.group(1) is not None else m.group(2)
        concealed = m.group(2) is not None
        info = None
        mm = re.fullmatch(r"(.*[mpszESWNCFP])([0-9])", body.strip())
        if mm:
            body, info = mm.group(1), int(mm.group(2))
        try:
            tiles = parse_tiles(body)
        except NotationError as e:
            raise NotationError(f"in meld {m.group(0)!r}: {e}") from None
        if concealed and info is not None:
            raise NotationError(f"meld {m.group(0)!r}: a concealed kong takes no source digit")
        meld = meld_from_tiles(tiles, concealed=concealed)
        if info is not None:
            if meld.kind is MeldKind.CHOW:
                if info not in (1, 2, 3):
                    raise NotationError(f"meld {m.group(0)!r}: the digit after a chow is the claimed tile 1–3")
                meld = Meld.of(meld.kind, meld.tile, claimed=info - 1)
            else:
                if info not in (1, 2, 3):
                    raise NotationError(f"meld {m.group(0)!r}: the digit after a pung/kong is its source 1–3")
                meld = Meld.of(meld.kind, meld.tile, source=info)
        melds.append(meld)
    rest.append(text[pos:])
    outside = "".join(rest)
    for bad in "[]{}":
        if bad in outside:
            raise NotationError(f"unbalanced {bad!r} in {text!r}")
    flowers = [t for t in parse_tiles(outside) if is_flower(t)]
    return melds, outside, flowers


@dataclass(frozen=True, slots=True)
class WinningHand:
    """A finished MCR hand as the scorer sees it (``docs/hand-json.md``)."""

    melds: tuple[Meld, ...]
    hand: tuple[Tile, ...]  # concealed tiles without the winning tile
    win_tile: Tile
    self_drawn: bool = False  # 自摸
    fourth_tile: bool = False  # 和绝张
    kong: bool = False  # 杠上开花 when self-drawn, 抢杠和 otherwise
    last_tile: bool = False  # 妙手回春 when self-drawn, 海底捞月 otherwise
    seat_wind: int = 0  # 0 E … 3 N
    prevalent_wind: int = 0
    flowers: int = 0
    rules: str = "gb"
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> WinningHand:
        if not isinstance(d, Mapping):
            raise InvalidHandError("a hand must be a JSON object (see docs/hand-json.md)")
        melds_raw = d.get("melds", [])
        if not isinstance(melds_raw, list):
            raise InvalidHandError("'melds' must be a list")
        melds = tuple(meld_from_dict(m) for m in melds_raw)
        hand_raw = d.get("hand")
        if not isinstance(hand_raw, list) or not all(isinstance(t, str) for t in hand_raw):
            raise InvalidHandError('\'hand\' must be a list of tile strings such as ["1m", "E"]')
        hand = tuple(parse_tile(t) for t in hand_raw)
        if any(is_flower(t) for t in hand):
            raise InvalidHandError("flowers do not belong in 'hand': give their number in 'flowers'")
        if d.get("win_tile") is None:  # absent or null: the calculator's form with no tile picked as the winner
            raise InvalidHandError("'win_tile' is missing: pick the winning tile (和张)")
        win_tile = parse_tile(d["win_tile"])
        flowers_raw = d.get("flowers", 0)
        if isinstance(flowers_raw, list):
            flowers = len([parse_tile(f) for f in flowers_raw])
        elif isinstance(flowers_raw, int) and not isinstance(flowers_raw, bool):
            flowers = flowers_raw
        else:
            raise InvalidHandError(f"'flowers' must be a count 0–8 or a list of flower tiles, got {flowers_raw!r}")
        rules = d.get("rules", "gb")
        if not isinstance(rules, str):
            raise InvalidHandError(f"'rules' must be a profile name, got {rules!r}")
        return cls(
            melds=melds,
            hand=hand,
            win_tile=win_tile,
            self_drawn=_bool(d, "self_drawn", False),
            fourth_tile=_bool(d, "fourth_tile", False),
            kong=_bool(d, "kong", False),
            last_tile=_bool(d, "last_tile", False),
            seat_wind=wind_index(d.get("seat_wind", "E")),
            prevalent_wind=wind_index(d.get("prevalent_wind", "E")),
            flowers=flowers,
            rules=rules,
        )

    @classmethod
    def from_string(cls, text: str, **flags: Any) -> WinningHand:
        """Parse the compact form ``[123m1][EEE2]{9999s}456pC C``; flags as keyword arguments."""
        melds, outside, flowers = parse_melds_and_rest(text)
        groups = [g for g in outside.split() if g]
        tile_groups = [[t for t in parse_tiles(g) if not is_flower(t)] for g in groups]
        tile_groups = [g for g in tile_groups if g]
        if len(tile_groups) < 1 or len(tile_groups[-1]) != 1:
            raise NotationError(f"put the winning tile last, after a space (e.g. '456pC C'), in {text!r}")
        win = tile_groups[-1][0]
        hand = [t for g in tile_groups[:-1] for t in g]
        if "flowers" not in flags:
            flags["flowers"] = len(flowers)
        for key in ("seat_wind", "prevalent_wind"):
            if key in flags:
                flags[key] = wind_index(flags[key])
        return cls(melds=tuple(melds), hand=tuple(hand), win_tile=win, **flags)

    # ---- output ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [m.hand_json() for m in self.melds],
            "hand": [tile_str(t) for t in self.hand],
            "win_tile": tile_str(self.win_tile),
            "self_drawn": self.self_drawn,
            "fourth_tile": self.fourth_tile,
            "kong": self.kong,
            "last_tile": self.last_tile,
            "seat_wind": "ESWN"[self.seat_wind],
            "prevalent_wind": "ESWN"[self.prevalent_wind],
            "flowers": self.flowers,
            "rules": self.rules,
        }

    def to_string(self) -> str:
        """The compact form; flowers (only their number is kept) are written as f1, f2, …"""
        flowers = " " + "".join(f"f{i + 1}" for i in range(min(self.flowers, 8))) if self.flowers else ""
        return (
            "".join(m.compact(with_source=True) for m in self.melds)
            + format_compact(sorted(self.hand))
            + " "
            + tile_str(self.win_tile)
            + flowers
        )

    # ---- derived --------------------------------------------------------------------------
    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand (kongs as four), the winning tile included."""
        out = [t for m in self.melds for t in m.tiles]
        out.extend(self.hand)
        out.append(self.win_tile)
        return out

    def check_structure(self) -> None:
        """Tile count, copies, flowers and winds; raises :class:`InvalidHandError`."""
        if len(self.melds) > 4:
            raise InvalidHandError(f"at most 4 melds, got {len(self.melds)}")
        need = 13 - 3 * len(self.melds)
        if len(self.hand) != need:
            raise InvalidHandError(
                f"wrong tile count: with {len(self.melds)} meld(s) the hand holds {need} concealed tiles "
                f"plus the winning tile, got {len(self.hand)} (kongs count as 3)"
            )
        if self.win_tile >= NUM_KINDS or any(t >= NUM_KINDS for t in self.hand):
            raise InvalidHandError("flowers cannot be in the hand or be the winning tile")
        counts = [0] * NUM_KINDS
        for t in self.all_tiles():
            counts[t] += 1
        for t, c in enumerate(counts):
            if c > 4:
                raise InvalidHandError(f"{c} copies of {tile_str(t)}: a set has only 4")
        if not 0 <= self.flowers <= 8:
            raise InvalidHandError(f"flowers must be 0–8, got {self.flowers}")
        if self.seat_wind not in range(4) or self.prevalent_wind not in range(4):
            raise InvalidHandError("winds must be 0–3 (E S W N)")
