"""The environments' fast path to the observation planes: :func:`majiang.rl.features.encode`
kept up to date as a hand goes on instead of rebuilt at every decision.

A :class:`HandEncoder` follows one hand.  The four seat blocks are kept as the other seats see
them (a concealed kong face down, no "current" mark); a seat's block is rebuilt only when what
it shows changed (its melds, pond, flowers, concealed count or score), and the discard-order rows
only gain the discards made since the last call.  An observation is then a copy of the four
blocks in the seat's order, the seat's own rows (its tiles, the unseen counts, the phase …) and
two marks.  It reads the hand only where the seat's :class:`~majiang.engine.view.SeatView` would
(its own tiles, public tables), and the tests hold it equal to ``encode(SeatView(hand, seat))``
at every decision of many hands of both rulesets: ``encode`` stays the readable reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from majiang._speedups import load
from majiang.engine.hand import Hand
from majiang.melds import KONG
from majiang.rl.features import (
    B_CLAIMED,
    B_INFO,
    B_MELDS,
    B_ORDER,
    B_POND,
    B_SEQ,
    BLOCK_ROWS,
    DRAWN,
    GLOBAL_ROWS,
    INFO_CONCEALED,
    INFO_CONCEALED_KONGS,
    INFO_CURRENT,
    INFO_DEALER,
    INFO_DISCARDS,
    INFO_FLOWERS,
    INFO_MELDS,
    INFO_SCORE,
    INFO_WIND,
    JING,
    MAX_DISCARDS,
    OBS_SHAPE,
    OFFER,
    ORDER_SCALE,
    OWN,
    PREVALENT,
    ROWS,
    SCALARS,
    SCORE_SCALE,
    SEAT_WIND,
    UNSEEN,
    DiscardLog,
)
from majiang.tiles import EAST, NUM_KINDS

_LEVELS = np.arange(1, 5, dtype=np.int64)[:, None]
_ROLL = [np.array([(s + k) % 4 for k in range(4)], dtype=np.intp) for s in range(4)]
_PHASES = {"turn": 2, "claim": 3, "rob": 4, "over": 5}
_NO_JING = (-1, -1, -1)
_ALL_SEATS = (0, 1, 2, 3)
_OWN_EVENTS = frozenset(("draw", "discard", "flower"))
_JING_NAMES = ("indicator", "zheng", "fu")


def _compiled() -> Any:
    """``majiang._speedups.obsenc`` when built, not disabled (MAJIANG_PURE=1) and compiled for
    this layout; else None (numpy fills the planes)."""
    mod = load("obsenc")
    layout: tuple[int, ...] = (
        OWN,
        DRAWN,
        OFFER,
        UNSEEN,
        PREVALENT,
        SEAT_WIND,
        SCALARS,
        JING,
        GLOBAL_ROWS,
        B_MELDS,
        B_INFO,
    )
    layout += (BLOCK_ROWS, ROWS, INFO_CURRENT, EAST, NUM_KINDS)  # fmt: skip
    return mod if mod is not None and tuple(mod.LAYOUT) == layout else None


#: the compiled planes (see :func:`_compiled`), read once at import
FAST = _compiled()


def _levels(tiles: list[int], out: np.ndarray) -> None:
    """``out`` (4 × 34) = the count of each kind in ``tiles`` ≥ 1 … ≥ 4."""
    if FAST is not None:
        FAST.levels(out, tiles)
        return
    counts = np.bincount(np.asarray(tiles, dtype=np.intp), minlength=NUM_KINDS) if tiles else np.zeros(NUM_KINDS)
    np.greater_equal(counts, _LEVELS, out=out)


class HandEncoder:
    """The planes of every seat of one hand, kept in step with it (see the module)."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.log = DiscardLog()
        self.blocks = np.zeros((4, BLOCK_ROWS, NUM_KINDS), dtype=np.float32)
        self._keys: list[tuple[Any, ...] | None] = [None] * 12  # per seat: melds, pond, info
        self._tops: list[tuple[int, ...] | None] = [None] * 4
        self._events = 0  # events of the hand read so far
        self._applied = 0  # discards of the log already in the order rows

    def encode(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``seat``'s observation now (into ``out``, a C-contiguous float32 ``OBS_SHAPE`` array,
        when given)."""
        h = self.hand
        self._sync()
        obs = np.empty(OBS_SHAPE, dtype=np.float32) if out is None else out
        if FAST is not None:
            self._fill(seat, obs)
            return obs
        np.take(self.blocks, _ROLL[seat], axis=0, out=obs[GLOBAL_ROWS:].reshape(4, BLOCK_ROWS, NUM_KINDS))
        g = obs[:GLOBAL_ROWS]
        g.fill(0)
        st = h.seats[seat]
        counts = np.array(st.counts, dtype=np.intp)
        np.greater_equal(counts, _LEVELS, out=g[OWN : OWN + 4])
        phase = h.phase.value
        if h.current == seat and st.drawn is not None:
            g[DRAWN, st.drawn] = 1
        if h.pending is not None and phase in ("claim", "rob"):
            g[OFFER, h.pending[1]] = 1
        known = counts + np.array(h.visible, dtype=np.intp)
        hidden = [t for m in st.melds if m.concealed for t in m.tiles]
        if hidden:
            known += np.bincount(np.asarray(hidden, dtype=np.intp), minlength=NUM_KINDS)
            _levels([t for m in st.melds for t in m.tiles], obs[GLOBAL_ROWS + B_MELDS : GLOBAL_ROWS + B_MELDS + 4])
        np.greater_equal(4 - known, _LEVELS, out=g[UNSEEN : UNSEEN + 4])
        g[PREVALENT, EAST + h.prevalent] = 1
        g[SEAT_WIND, EAST + h.seat_wind(seat)] = 1
        scalars = g[SCALARS]
        scalars[0] = min(h.wall.live, 144) / 144.0
        scalars[1] = min(h.hand_no, 15) / 15.0
        scalars[_PHASES[phase]] = 1
        scalars[6] = min(len(self.log.discards), ORDER_SCALE) / ORDER_SCALE
        jing = h.rules.public(h).get("jing")
        if jing:
            for r, name in enumerate(("indicator", "zheng", "fu")):
                t = jing.get(name)
                if isinstance(t, int) and 0 <= t < NUM_KINDS:
                    g[JING + r, t] = 1
        if phase != "over":
            obs[GLOBAL_ROWS + ((h.current - seat) % 4) * BLOCK_ROWS + B_INFO, INFO_CURRENT] = 1
        return obs

    def _fill(self, seat: int, obs: np.ndarray) -> None:
        """What :meth:`encode` does after the sync, in compiled code (the same planes)."""
        h = self.hand
        st = h.seats[seat]
        phase = h.phase.value
        hidden = [t for m in st.melds if m.concealed for t in m.tiles] if st.melds else []
        faced = [t for m in st.melds for t in m.tiles] if hidden else None
        jing = h.rules.public(h).get("jing")
        jt: tuple[int, ...] = _NO_JING
        if jing:
            jt = tuple(t if isinstance(t, int) and 0 <= t < NUM_KINDS else -1 for t in map(jing.get, _JING_NAMES))
        FAST.fill(
            obs,
            self.blocks,
            seat,
            st.counts,
            h.visible,
            hidden,
            faced,
            st.drawn if h.current == seat and st.drawn is not None else -1,
            h.pending[1] if h.pending is not None and phase in ("claim", "rob") else -1,
            h.prevalent,
            h.seat_wind(seat),
            h.wall.live,
            h.hand_no,
            _PHASES[phase],
            len(self.log.discards),
            jt,
            (h.current - seat) % 4 if phase != "over" else -1,
        )

    def _sync(self) -> None:
        h = self.hand
        if len(h.events) == self._events:
            return  # every change to a block comes with an event (a claim window's passes change none)
        events = h.events
        seen, self._events = self._events, len(events)
        order = self.log.feed(events)
        keys, tops = self._keys, self._tops
        seats: Sequence[int] = _ALL_SEATS
        if seen:  # a draw, discard or flower changes its own seat's block only
            new = events[seen:]
            if all(e["type"] in _OWN_EVENTS for e in new):
                seats = sorted({e["seat"] for e in new})
        for s in seats:
            st = h.seats[s]
            melds, discards = st.melds, st.discards
            kongs = sum(m.kind == KONG for m in melds) if melds else 0
            # whatever changes in a block changes one of these (an added kong: the kong count)
            top = (
                len(melds),
                kongs,
                len(discards),
                st.claimed.count(True),
                len(st.flowers),
                st.n_concealed,
                h.deltas[s],
            )
            if top == tops[s]:
                continue
            tops[s] = top
            k = 3 * s
            mkey: tuple[int, ...] = (len(melds), kongs)
            if mkey != keys[k]:
                keys[k] = mkey
                _levels([t for m in melds if not m.concealed for t in m.tiles], self.blocks[s, B_MELDS : B_MELDS + 4])
            pkey = (len(discards), st.claimed.count(True))
            if pkey != keys[k + 1]:
                keys[k + 1] = pkey
                _levels(
                    [t for t, taken in zip(discards, st.claimed, strict=True) if not taken],
                    self.blocks[s, B_POND : B_POND + 4],
                )
            ikey = (len(melds), len(discards), len(st.flowers), st.n_concealed, h.deltas[s])
            if ikey != keys[k + 2]:
                keys[k + 2] = ikey
                self._info(s)
        start = max(self._applied - 1, 0)  # the last discard again: a claim may have taken it since
        for g in range(start, len(order)):
            d = order[g]
            if d.index >= MAX_DISCARDS:
                continue
            block = self.blocks[d.seat]
            block[B_ORDER + d.index, d.tile] = 1
            block[B_SEQ, d.index] = min(g + 1, ORDER_SCALE) / ORDER_SCALE
            if d.claimer is not None:
                block[B_CLAIMED + (d.claimer - d.seat) % 4 - 1, d.index] = 1
        self._applied = len(order)

    def _info(self, s: int) -> None:
        """Seat ``s``'s info row (the current-seat mark aside)."""
        h = self.hand
        st = h.seats[s]
        melds = st.melds
        info = self.blocks[s, B_INFO]
        info.fill(0)
        for f in st.flowers:
            if 34 <= f < 42:
                info[INFO_FLOWERS + f - 34] = 1
        info[INFO_CONCEALED] = min(st.n_concealed, 14) / 14.0
        info[INFO_CONCEALED_KONGS] = min(sum(m.concealed for m in melds), 4) / 4.0
        info[INFO_MELDS] = min(len(melds), 4) / 4.0
        score = h.scores_before[s] + h.deltas[s]
        info[INFO_SCORE] = (max(-1.0, min(1.0, score / SCORE_SCALE)) + 1) / 2
        info[INFO_WIND + (s - h.dealer) % 4] = 1
        info[INFO_DEALER] = s == h.dealer
        info[INFO_DISCARDS] = min(len(st.discards), MAX_DISCARDS) / MAX_DISCARDS
