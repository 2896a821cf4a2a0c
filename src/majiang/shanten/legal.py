"""合法听: which waits of a ready hand score the 8-fan minimum (起和), and how far a hand is from such a wait.

In MCR a hand is only truly ready (听牌) if one of its waits wins with at least ``min_fan`` fans,
flowers not counted (mcr.md §1); claiming a discard for a win below the minimum is a false win
(错和).  Every fan total here comes from the project's own calculator (:func:`majiang.mcr.score`,
compiled fast path when built), scoring the hand once per wait.

* A **wait** is a tile that completes the 13-tile hand and of which the hand and its melds do not
  already hold four (the fifth copy does not exist).  Tiles merely *seen* elsewhere (``visible``)
  still count as waits, with 0 unseen copies.
* :attr:`WaitFan.discard` / :attr:`WaitFan.self_drawn` are the fan totals of winning on it by a
  discard (点和) and by drawing it (自摸); 和绝张 is counted when the other three copies are on the
  table (``visible`` plus this hand's own melds, never its concealed tiles, as the scorer rules).
* **Legal waits** are the waits whose *discard* win reaches ``min_fan``: the ones a player may claim.
  A wait that reaches the minimum only when self-drawn (自摸 and 不求人 add fans) is a
  **self-drawn-only wait**: reported apart, not legal, because the hand cannot call a win on it when
  another player discards it.  ``fan_shanten`` is measured to legal waits.

Fan-aware shanten (``fan_shanten``): the fewest tile exchanges (draw one, discard one) that turn a
13-tile hand into a ready hand with at least one legal wait; 0 = it already has one.  It is never
below the plain shanten.  The search is exact but bounded: it tries k = shanten, shanten + 1, … up
to ``shanten + MAX_EXTRA`` and never beyond ``MAX_DEPTH`` exchanges; draws are limited to tiles with
an unseen copy (not four among the hand, its melds and ``visible``), and an exchange that cannot
keep within k is cut by the plain shanten (which falls by at most one per exchange).  When the
search does not reach an answer (the hand is more than ``MAX_DEPTH`` from ready, or no legal wait
within the bound), ``exact`` is False and the value is a lower bound: the plain shanten for a hand
not searched, else the first k not searched.

>>> from majiang.tiles import counts_of, parse_tiles, tile_str
>>> ctx = FanContext()
>>> hand = counts_of(parse_tiles("23m123p456p789s11s"))  # 1m makes a 花龙 (Mixed Straight, 8 fans), 4m does not
>>> [(tile_str(w.tile), w.discard, w.self_drawn) for w in wait_fans(hand, ctx)]
[('1m', 13, 15), ('4m', 5, 7)]
>>> fan_shanten(hand, ctx), fan_shanten(counts_of(parse_tiles("456p789s11s78mEEE")), ctx)
((0, True), (1, True))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from majiang.mcr import InvalidHandError, Meld, WinningHand, score
from majiang.shanten.efficiency import shanten_of_counts, tiles_of_mask, useful_mask_of_counts
from majiang.tiles import NUM_KINDS, Tile, tile_str

#: exchanges searched beyond the plain shanten
MAX_EXTRA = 2
#: exchanges searched at most
MAX_DEPTH = 3

Counts = Sequence[int]


@dataclass(frozen=True, slots=True)
class WaitFan:
    """One wait and its fan totals (flowers not counted)."""

    tile: Tile
    discard: int  # winning on another player's discard (点和)
    self_drawn: int  # winning by drawing it (自摸)


@dataclass(slots=True)
class FanContext:
    """What the scorer needs beyond the concealed tiles, and the memo of one query."""

    melds: tuple[Meld, ...] = ()
    seat_wind: int = 0
    prevalent_wind: int = 0
    min_fan: int = 8
    rules: str = "gb"
    #: copies seen elsewhere (discards, other players' melds), 34 counts
    visible: tuple[int, ...] = (0,) * NUM_KINDS
    #: copies in this hand's own melds, 34 counts (derived)
    in_melds: tuple[int, ...] = field(init=False)
    _waits: dict[bytes, tuple[WaitFan, ...]] = field(init=False, default_factory=dict)
    _reach: dict[tuple[bytes, int], bool] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        counts = [0] * NUM_KINDS
        for m in self.melds:
            for t in m.tiles:
                counts[t] += 1
        self.in_melds = tuple(counts)

    def legal(self, waits: Sequence[WaitFan]) -> list[Tile]:
        """The waits whose discard win reaches the minimum."""
        return [w.tile for w in waits if w.discard >= self.min_fan]

    def self_drawn_only(self, waits: Sequence[WaitFan]) -> list[Tile]:
        """The waits that reach the minimum only when self-drawn."""
        return [w.tile for w in waits if w.discard < self.min_fan <= w.self_drawn]


def _hand_tiles(counts: Counts) -> tuple[Tile, ...]:
    return tuple(t for t in range(NUM_KINDS) for _ in range(counts[t]))


def wait_fans(counts: Counts, ctx: FanContext) -> tuple[WaitFan, ...]:
    """Every wait of a 13-tile hand (13 − 3·melds concealed tiles) with its fan totals; empty when the
    hand is not ready.  Remembered per hand in ``ctx``."""
    key = bytes(counts)
    got = ctx._waits.get(key)
    if got is not None:
        return got
    n_melds = len(ctx.melds)
    out: list[WaitFan] = []
    if shanten_of_counts(counts, n_melds) == 0:
        hand = _hand_tiles(counts)
        for w in tiles_of_mask(useful_mask_of_counts(counts, n_melds)):
            if counts[w] + ctx.in_melds[w] >= 4:
                continue  # the fifth copy does not exist
            fourth = counts[w] == 0 and ctx.visible[w] + ctx.in_melds[w] == 3
            fans = []
            for self_drawn in (False, True):
                try:
                    r = score(
                        WinningHand(
                            melds=ctx.melds,
                            hand=hand,
                            win_tile=w,
                            self_drawn=self_drawn,
                            fourth_tile=fourth,
                            seat_wind=ctx.seat_wind,
                            prevalent_wind=ctx.prevalent_wind,
                            rules=ctx.rules,
                        )
                    )
                except InvalidHandError:  # a shape the shanten counts but the scorer does not: no win
                    break
                fans.append(r.fan_points)
            else:
                out.append(WaitFan(w, fans[0], fans[1]))
    got = tuple(out)
    ctx._waits[key] = got
    return got


def _legally_ready(counts: Counts, ctx: FanContext) -> bool:
    return any(w.discard >= ctx.min_fan for w in wait_fans(counts, ctx))


def _reach(c: list[int], k: int, ctx: FanContext) -> bool:
    """Can 13-tile ``c`` reach a hand with a legal wait within ``k`` exchanges?"""
    key = (bytes(c), k)
    got = ctx._reach.get(key)
    if got is not None:
        return got
    n_melds = len(ctx.melds)
    s = shanten_of_counts(c, n_melds)
    found = False
    if s > k:
        found = False
    elif s == 0 and _legally_ready(c, ctx):
        found = True
    elif k > 0:
        # with no exchange to spare every one must lower the shanten, so only useful tiles are drawn
        draws = range(NUM_KINDS) if s < k else tiles_of_mask(useful_mask_of_counts(c, n_melds))
        held = [t for t in range(NUM_KINDS) if c[t]]
        for t in draws:
            if c[t] + ctx.in_melds[t] + ctx.visible[t] >= 4:
                continue  # no copy left to draw
            c[t] += 1
            for d in held:
                if d == t:
                    continue
                c[d] -= 1
                ok = shanten_of_counts(c, n_melds) <= k - 1 and _reach(c, k - 1, ctx)
                c[d] += 1
                if ok:
                    found = True
                    break
            c[t] -= 1
            if found:
                break
    ctx._reach[key] = found
    return found


def fan_shanten(counts: Counts, ctx: FanContext, limit: int | None = None) -> tuple[int, bool]:
    """``(value, exact)``: the fan-aware shanten of a 13-tile hand (see the module docstring); when
    ``exact`` is False the value is a lower bound.  ``limit`` stops the search after k = ``limit``
    (a caller that already knows a hand at ``limit`` needs no more)."""
    s = shanten_of_counts(counts, len(ctx.melds))
    if s > MAX_DEPTH:
        return s, False
    c = list(counts)
    top = min(s + MAX_EXTRA, MAX_DEPTH)
    if limit is not None:
        top = min(top, limit)
    for k in range(s, top + 1):
        if _reach(c, k, ctx):
            return k, True
    return max(top + 1, s), False


# ---- the report of one query ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FanDiscard:
    """One row of the fan-aware discard table: discarding ``discard`` leaves a hand of ``fan_shanten``
    (a lower bound when not ``exact``), plain ``shanten``, and — when that hand is ready — its waits
    with their fans and the unseen copies of its legal waits.  A row is searched no further than the
    best exact row found so far (rows are searched in order of plain shanten), so a row that cannot
    beat the best has a lower bound; the best row's value is always exact when any is."""

    discard: Tile
    fan_shanten: int
    exact: bool
    shanten: int
    unseen: int  # unseen copies of the plain useful tiles (as in the plain discard table)
    waits: tuple[WaitFan, ...]
    legal_unseen: int


@dataclass(frozen=True, slots=True)
class FanReport:
    """合法听 of one hand: the fan-aware shanten, and the waits with their fans (13-tile ready hand) or
    the fan-aware discard table (a hand with one tile more)."""

    min_fan: int
    fan_shanten: int
    exact: bool
    waits: tuple[WaitFan, ...] | None  # a 13-tile ready hand
    legal_waits: tuple[Tile, ...]
    self_drawn_waits: tuple[Tile, ...]  # reach min_fan only when self-drawn: not legal
    discards: tuple[FanDiscard, ...] | None  # a hand with one tile more

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"min_fan": self.min_fan, "fan_shanten": self.fan_shanten, "fan_shanten_exact": self.exact}
        if self.waits is not None:
            d["wait_fans"] = _wait_dicts(self.waits)
            d["legal_waits"] = [tile_str(t) for t in self.legal_waits]
            d["self_drawn_waits"] = [tile_str(t) for t in self.self_drawn_waits]
        if self.discards is not None:
            d["fan_discards"] = [
                {
                    "discard": tile_str(r.discard),
                    "fan_shanten": r.fan_shanten,
                    "exact": r.exact,
                    "shanten": r.shanten,
                    "unseen": r.unseen,
                    "legal_unseen": r.legal_unseen,
                    **(
                        {
                            "wait_fans": _wait_dicts(r.waits),
                            "legal_waits": [tile_str(w.tile) for w in r.waits if w.discard >= self.min_fan],
                        }
                        if r.shanten == 0
                        else {}
                    ),
                }
                for r in self.discards
            ]
        return d


def _wait_dicts(waits: Sequence[WaitFan]) -> list[dict[str, Any]]:
    return [{"tile": tile_str(w.tile), "discard": w.discard, "self_drawn": w.self_drawn} for w in waits]


def unseen_copies(tile: Tile, counts: Counts, ctx: FanContext) -> int:
    """Copies of ``tile`` not in the hand, its melds or the visible tiles."""
    return max(0, 4 - counts[tile] - ctx.in_melds[tile] - ctx.visible[tile])


def report(counts: Counts, ctx: FanContext, plain_unseen: dict[Tile, int] | None = None) -> FanReport:
    """The :class:`FanReport` of concealed ``counts`` (13 − 3·melds tiles, or one more).  For a hand with
    one tile more, ``plain_unseen`` gives each discard's unseen useful copies (the plain table's)."""
    n = sum(counts) + 3 * len(ctx.melds)
    if n == 13:
        value, exact = fan_shanten(counts, ctx)
        waits = wait_fans(counts, ctx) if shanten_of_counts(counts, len(ctx.melds)) == 0 else None
        legal = tuple(ctx.legal(waits or ()))
        return FanReport(ctx.min_fan, value, exact, waits, legal, tuple(ctx.self_drawn_only(waits or ())), None)
    if n != 14:
        raise ValueError(f"a hand of 13 or 14 tiles (kongs as three), got {n}")
    rows = []
    c = list(counts)
    plain = []
    for d in range(NUM_KINDS):
        if c[d]:
            c[d] -= 1
            plain.append((shanten_of_counts(c, len(ctx.melds)), d))
            c[d] += 1
    # branch and bound: once a discard is known to reach a legal wait in ``best`` exchanges, the
    # others are searched no further than ``best`` (their value, if higher, is then a lower bound)
    bound: int | None = None
    for s, d in sorted(plain):
        c[d] -= 1
        value, exact = fan_shanten(c, ctx, bound)
        if exact and (bound is None or value < bound):
            bound = value
        waits = wait_fans(c, ctx) if s == 0 else ()
        c[d] += 1
        legal_unseen = sum(unseen_copies(t, c, ctx) for t in ctx.legal(waits))  # the discard is seen
        rows.append(FanDiscard(d, value, exact, s, (plain_unseen or {}).get(d, 0), waits, legal_unseen))
    rows.sort(key=lambda r: (r.fan_shanten, not r.exact, r.shanten, -r.legal_unseen, -r.unseen, r.discard))
    best = rows[0]
    return FanReport(ctx.min_fan, best.fan_shanten, best.exact, None, (), (), tuple(rows))
