"""Shanten and tile efficiency (牌效) on count vectors: the fast functions the game engine's bots call.

A hand is given as ``counts`` (34 slots, copies of each tile among the concealed tiles, 0–4) and
``melds``, the number of declared sets (副露; a kong is one set): 13 − 3·melds concealed tiles, or
one more when the hand is about to discard.  These functions use the compiled fast path when it is
built (``majiang._speedups.shanten``), else the pure-Python tables; both equal ``forms.py``.

>>> from majiang.tiles import counts_of, parse_tiles, format_tiles
>>> c = counts_of(parse_tiles("123m 456p 789s 11s 5m 6m"))
>>> shanten_of_counts(c)
0
>>> format_tiles(waits_of_counts(c))
'4m 7m'
>>> best = discard_table(counts_of(parse_tiles("123m 456p 789s 11s 5m 6m E")))[0]
>>> format_tiles([best.discard]), best.shanten, best.unseen
('E', 0, 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol, cast

import majiang.shanten._tables as _tables
from majiang._speedups import load
from majiang.shanten.forms import FORMS
from majiang.tiles import NUM_KINDS, Tile

Counts = Sequence[int]
FormValues = tuple[int | None, int | None, int | None, int | None, int | None]


class _Backend(Protocol):
    """What ``_tables`` and the compiled module both provide."""

    def shanten(self, counts: Counts, melds: int = 0, /) -> int: ...
    def forms(self, counts: Counts, melds: int = 0, /) -> FormValues: ...
    def useful(self, counts: Counts, melds: int = 0, form: int = -1, /) -> int: ...
    def discards(self, counts: Counts, melds: int = 0, /) -> list[tuple[int, int, int]]: ...


_compiled = load("shanten")
#: which fast path is in use: "c" (compiled) or "python" (pure-Python tables)
BACKEND = "c" if _compiled is not None else "python"
_fast = cast(_Backend, _compiled if _compiled is not None else _tables)
_shanten = _fast.shanten  # the bots' hot path: spare them an attribute lookup


class FormShanten(NamedTuple):
    """Shanten of each winning form; ``None`` where the form cannot be made with these melds."""

    regular: int | None
    seven_pairs: int | None
    thirteen_orphans: int | None
    knitted: int | None
    honors_knitted: int | None

    def best(self) -> int:
        return min(s for s in self if s is not None)


class DiscardOption(NamedTuple):
    """One row of the discard table: discarding ``discard`` leaves a hand of ``shanten`` whose
    ``useful`` tiles have ``unseen`` copies left (4 − own copies − visible copies, summed)."""

    discard: Tile
    shanten: int
    useful: tuple[Tile, ...]
    unseen: int


def tiles_of_mask(mask: int) -> list[Tile]:
    """The tiles whose bits are set."""
    return [t for t in range(NUM_KINDS) if mask >> t & 1]


def _form_index(form: str | None) -> int:
    if form is None:
        return -1
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}: use one of {', '.join(FORMS)}")
    return FORMS.index(form)


def shanten_of_counts(counts: Counts, melds: int = 0) -> int:
    """The hand's shanten, lowest over the five forms: 0 = ready (听牌), -1 = complete (14 tiles)."""
    return _shanten(counts, melds)


def forms_of_counts(counts: Counts, melds: int = 0) -> FormShanten:
    """Shanten of each form."""
    return FormShanten(*_fast.forms(counts, melds))


def useful_of_counts(counts: Counts, melds: int = 0, form: str | None = None) -> list[Tile]:
    """有效牌 of a 13-tile hand: the tiles whose draw lowers its shanten (overall, or of one form
    named as in :data:`FORMS`).  A fifth copy of a tile held four times counts only as a wait."""
    return tiles_of_mask(_fast.useful(counts, melds, _form_index(form)))


def waits_of_counts(counts: Counts, melds: int = 0, form: str | None = None) -> list[Tile]:
    """听牌: the tiles that complete a ready 13-tile hand (empty when it is not ready)."""
    index = _form_index(form)
    mask = _fast.useful(counts, melds, index)  # checks the hand is 13 tiles
    now = _fast.shanten(counts, melds) if index < 0 else _fast.forms(counts, melds)[index]
    return tiles_of_mask(mask) if now == 0 else []


def unseen_of(tiles: Sequence[Tile], counts: Counts, visible: Counts | None = None) -> int:
    """Copies of ``tiles`` the player has not seen: 4 − copies in ``counts`` − copies in ``visible``."""
    if visible is None:
        return sum(max(0, 4 - counts[t]) for t in tiles)
    return sum(max(0, 4 - counts[t] - visible[t]) for t in tiles)


def discard_table(counts: Counts, melds: int = 0, visible: Counts | None = None) -> list[DiscardOption]:
    """The tile-efficiency table of a 14-tile hand, best discard first.

    One row per distinct tile held: the shanten after discarding it, the useful tiles of what is
    left and how many of them are unseen.  ``visible`` (34 counts) holds the copies seen outside the
    concealed hand — the player's own melds, every discard, the other players' melds; copies in the
    hand itself (the discard included, as it goes to the river) are never unseen.  Rows are sorted by
    shanten, then most unseen useful tiles, then most kinds of useful tiles, then tile order."""
    rows = []
    for tile, after, mask in _fast.discards(counts, melds):
        useful = tiles_of_mask(mask)
        rows.append(DiscardOption(tile, after, tuple(useful), unseen_of(useful, counts, visible)))
    rows.sort(key=lambda r: (r.shanten, -r.unseen, -len(r.useful), r.discard))
    return rows


def useful_mask_of_counts(counts: Counts, melds: int = 0) -> int:
    """The useful tiles of a 13-tile hand as a bitmask (bit t = tile t) — the bots' cheap form."""
    return _fast.useful(counts, melds, -1)


def best_discards(counts: Counts, melds: int, unseen: Sequence[int]) -> list[tuple[int, int, int]]:
    """Tile efficiency for bots, cheaply: ``(shanten after, unseen useful copies, tile)`` for the
    discards that keep the lowest shanten, best first.  ``unseen[t]`` is how many copies of t the
    player has not seen."""
    fast = getattr(_fast, "best_discards", None)
    if fast is not None:
        rows: list[tuple[int, int, int]] = fast(counts, melds, unseen)
        rows.sort(key=lambda r: (-r[1], r[2]))
        return rows
    c = list(counts)
    after: list[tuple[int, int]] = []
    for t in range(NUM_KINDS):
        if c[t]:
            c[t] -= 1
            after.append((_shanten(c, melds), t))
            c[t] += 1
    low = min(s for s, _ in after)
    out = []
    for s, t in after:
        if s != low:
            continue
        c[t] -= 1
        mask = _fast.useful(c, melds, -1)
        c[t] += 1
        n = 0
        while mask:
            bit = mask & -mask
            n += unseen[bit.bit_length() - 1]
            mask ^= bit
        out.append((s, -n, t))
    out.sort()
    return [(s, -n, t) for s, n, t in out]


def shanten_after_best_discard(counts: Counts, melds: int) -> int:
    """The lowest shanten reachable by one discard from a 3n+2-tile hand."""
    c = list(counts)
    best = 99
    for t in range(NUM_KINDS):
        if c[t]:
            c[t] -= 1
            s = _shanten(c, melds)
            c[t] += 1
            if s < best:
                best = s
    return best
