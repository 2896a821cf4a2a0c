"""The observation: one seat's view of the table as feature planes (docs/rl.md has the table).

:func:`encode` turns a :class:`~majiang.engine.view.SeatView` into a ``(ROWS, 34)`` float32 array
— a stack of 34-wide planes in the spirit of the Suphx and IJCAI/Botzone mahjong features: most
rows are indexed by tile kind (``0–33``: 1m…9m 1p…9p 1s…9s E S W N C F P), a few *index rows* are
indexed by position (the i-th discard of a seat, flower f1…f8, a scalar per column).  Every value
lies in ``[0, 1]`` (:data:`OBS_LOW`, :data:`OBS_HIGH`: the space's exact bounds).  It reads
only the view, so it holds nothing the seat could not see and works outside the environment too
(inside a bot's ``choose``).

The discard order across the four ponds and who claimed each discard are public but not in the
view as such.  A :class:`DiscardLog` reads them exactly from the hand's events (through
:func:`~majiang.engine.view.event_view`, as a spectator sees them); without one,
:func:`discard_order` recovers them from what the view shows (each pond in order, which discards
were taken, the melds with the direction their tile came from: after an unclaimed discard the next
seat plays, after a claimed one the claimer) — exact except in the rare hand where two seats' next
claims both fit one discard, where it picks the first consistent order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from majiang.engine.view import SeatView, event_view
from majiang.melds import CHOW, KONG
from majiang.tiles import EAST, NUM_KINDS

#: discards of one seat kept in order (random bots make at most 26 in 400 hands)
MAX_DISCARDS = 34
#: scale of the global discard index (a hand has at most ~110 discards)
ORDER_SCALE = 128.0
SCORE_SCALE = 100.0

# global rows
OWN = 0  # 0–3: own concealed tiles, count ≥ 1 … ≥ 4
DRAWN = 4  # the tile drawn this turn
OFFER = 5  # the tile on offer: a discard waiting for claims, or an added kong that may be robbed
UNSEEN = 6  # 6–9: copies this seat cannot see (wall and others' hands), count ≥ 1 … ≥ 4
PREVALENT = 10  # one-hot at E–N (columns 27–30)
SEAT_WIND = 11  # one-hot at E–N
SCALARS = 12  # index row: 0 wall / 144 · 1 hand number / 15 · 2–5 phase turn/claim/rob/over · 6 discards / 128
JING = 13  # 13–15: Nanchang's jing indicator, 正精, 副精 (zero under MCR)
GLOBAL_ROWS = 16

# rows of each seat's block, seats from oneself counter-clockwise (self, 下家, 对家, 上家)
B_MELDS = 0  # 0–3: tiles of declared sets whose faces this seat knows, count ≥ 1 … ≥ 4
B_POND = 4  # 4–7: the pond (discards not claimed), count ≥ 1 … ≥ 4
B_INFO = 8  # index row, see INFO_*
B_ORDER = 9  # 9 … 9+MAX_DISCARDS-1: the seat's i-th discard, one-hot tile
B_CLAIMED = B_ORDER + MAX_DISCARDS  # 3 index rows: column i = discard i taken by the discarder's 下家 / 对家 / 上家
B_SEQ = B_CLAIMED + 3  # index row: column i = (global index of discard i + 1) / 128, 0 = no such discard
BLOCK_ROWS = B_SEQ + 1

# columns of the info row
INFO_FLOWERS = 0  # 0–7: holds flower f1 … f8
INFO_CONCEALED = 8  # concealed tiles / 14
INFO_CONCEALED_KONGS = 9  # concealed kongs (暗杠, faces hidden from the others) / 4
INFO_MELDS = 10  # declared sets / 4
INFO_SCORE = 11  # (score / 100 clipped to [-1, 1] + 1) / 2: 0.5 is a score of 0
INFO_WIND = 12  # 12–15: seat wind one-hot E S W N
INFO_DEALER = 16
INFO_CURRENT = 17  # the seat whose turn it is
INFO_DISCARDS = 18  # discards made / 34

ROWS = GLOBAL_ROWS + 4 * BLOCK_ROWS
OBS_SHAPE = (ROWS, NUM_KINDS)
OBS_HIGH = np.ones(OBS_SHAPE, dtype=np.float32)
OBS_LOW = np.zeros(OBS_SHAPE, dtype=np.float32)
OBS_LOW.flags.writeable = False
OBS_HIGH.flags.writeable = False

#: the option ``moqie`` (摸切) appends these rows: for each seat from oneself (self, 下家, 对家, 上家) an
#: index row, column i = 1 if the seat's discard i threw the tile just drawn (the log's ``moqie``)
MOQIE_ROWS = 4


def obs_shape(moqie: bool = False) -> tuple[int, int]:
    """The observation's shape: :data:`OBS_SHAPE`, or with the 摸切 rows."""
    return (ROWS + MOQIE_ROWS, NUM_KINDS) if moqie else OBS_SHAPE


def moqie_rows(view: SeatView, out: np.ndarray | None = None) -> np.ndarray:
    """The :data:`MOQIE_ROWS` rows of ``view``'s seat (into ``out`` when given): public, like the
    discards they mark."""
    if out is None:
        out = np.zeros((MOQIE_ROWS, NUM_KINDS), dtype=np.float32)
    else:
        out.fill(0)
    flags = view.moqie
    for k in range(4):
        f = flags[(view.seat + k) % 4][:MAX_DISCARDS]
        out[k, : len(f)] = f
    return out


@dataclass(frozen=True, slots=True)
class Discard:
    """One discard in table order: ``seat``'s ``index``-th, taken by ``claimer`` (a seat) or not."""

    seat: int
    index: int
    tile: int
    claimer: int | None


class DiscardLog:
    """The discards of one hand in table order with their claimers, fed with the hand's events
    (each seen as a spectator sees it: nothing hidden enters)."""

    def __init__(self) -> None:
        self.discards: list[Discard] = []
        self._seen = 0
        self._per_seat = [0, 0, 0, 0]
        self._last_type = ""

    def feed(self, events: Sequence[dict[str, Any]]) -> list[Discard]:
        """Read the events not read yet (``events`` is the hand's growing log) and return the
        discards so far."""
        for e in events[self._seen :]:
            # only a private event differs for a spectator in what is read here (event_view keeps
            # the type, seat and tile of the others, and "from" and "kind")
            v = event_view(e, -1) if "private_to" in e else e
            if v is None:
                continue
            t = v["type"]
            if t == "discard":
                s = v["seat"]
                self.discards.append(Discard(s, self._per_seat[s], v["tile"], None))
                self._per_seat[s] += 1
            elif (
                t in ("chow", "pung")
                or (t == "kong" and v.get("kind") == "exposed")
                or (t == "win" and v.get("from") is not None and self._last_type != "robbed")
            ):
                last = self.discards[-1]  # a claim always takes the latest discard
                self.discards[-1] = Discard(last.seat, last.index, last.tile, v["seat"])
            self._last_type = t
        self._seen = len(events)
        return self.discards


def _claims(meld: Any, claimer: int, discarder: int, tile: int) -> bool:
    """Whether ``meld`` (exposed, of ``claimer``) is made of ``discarder``'s ``tile``."""
    if meld.kind == CHOW:
        return claimer == (discarder + 1) % 4 and meld.claimed is not None and meld.tiles[meld.claimed] == tile
    return meld.source is not None and (claimer - meld.source) % 4 == discarder and meld.tile == tile


def discard_order(view: SeatView) -> list[Discard] | None:
    """Every discard of the hand so far in the order made, with its claimer; None if the view
    admits no consistent order (which a hand played by the engine never gives)."""
    discards, claimed = view.discards, view.claimed
    exposed = [[m for m in view.melds[s] if not m.concealed] for s in range(4)]
    n = [len(d) for d in discards]
    total = sum(n)
    winner: int | None = None
    result = view.result
    if result is not None and result.get("win") and result["win"].get("from") is not None:
        winner = int(result["win"]["seat"])

    def run(c: int, p: list[int], q: list[int], out: list[Discard]) -> list[Discard] | None:
        while p[c] < n[c]:
            i = p[c]
            t = discards[c][i]
            p[c] += 1
            if not claimed[c][i]:
                out.append(Discard(c, i, t, None))
                c = (c + 1) % 4
                continue
            options: list[int | None] = [
                s for s in range(4) if s != c and q[s] < len(exposed[s]) and _claims(exposed[s][q[s]], s, c, t)
            ]
            if len(out) + 1 == total and winner is not None and winner != c:
                options.append(None)  # the last discard, won (和 takes it without a meld)
            if len(options) == 1:
                s = options[0]
                if s is None:
                    out.append(Discard(c, i, t, winner))
                    break
                q[s] += 1
                out.append(Discard(c, i, t, s))
                c = s
                continue
            for s in options:  # rare: two seats' next claims fit; try each
                q2 = list(q)
                if s is not None:
                    q2[s] += 1
                found = run(
                    s if s is not None else c, list(p), q2, [*out, Discard(c, i, t, winner if s is None else s)]
                )
                if found is not None:
                    return found
            return None
        done = p == n and all(q[s] == len(exposed[s]) for s in range(4))
        return out if done else None

    return run(view.dealer, [0] * 4, [0] * 4, [])


_LEVELS = np.arange(1, 5, dtype=np.int64)[:, None]  # threshold planes: count ≥ 1 … ≥ 4


def _counts(tiles: Sequence[int]) -> np.ndarray:
    return np.bincount(np.asarray(tiles, dtype=np.int64), minlength=NUM_KINDS) if tiles else _NONE


_NONE = np.zeros(NUM_KINDS, dtype=np.int64)


#: a seat block as last built, for :func:`encode`'s ``cache``: (seat, is the observer) → (key, rows)
BlockCache = dict[tuple[int, bool], tuple[tuple[Any, ...], np.ndarray]]


def encode(view: SeatView, order: list[Discard] | None = None, cache: BlockCache | None = None) -> np.ndarray:
    """The ``(ROWS, 34)`` float32 feature planes of ``view`` (the layout is in the module).

    ``order``: the discards in table order (a :class:`DiscardLog`'s), else :func:`discard_order`.
    ``cache`` (a dict kept for one hand, shared by the seats): a seat's block is rebuilt only when
    something it shows changed — the environments' fast path; the planes are the same."""
    seat = view.seat
    obs = np.zeros(OBS_SHAPE, dtype=np.float32)
    counts = np.asarray(view.counts, dtype=np.int64)
    obs[OWN : OWN + 4] = counts >= _LEVELS
    if view.drawn is not None:
        obs[DRAWN, view.drawn] = 1
    if view.pending is not None:
        obs[OFFER, view.pending[1]] = 1
    own_melds = view.melds[seat]
    known = counts + np.asarray(view.visible, dtype=np.int64)
    known += _counts([t for m in own_melds if m.concealed for t in m.tiles])
    obs[UNSEEN : UNSEEN + 4] = (4 - known) >= _LEVELS
    obs[PREVALENT, EAST + view.prevalent] = 1
    obs[SEAT_WIND, EAST + view.seat_wind] = 1
    scalars = obs[SCALARS]
    scalars[0] = min(view.wall, 144) / 144.0
    scalars[1] = min(view.hand_no, 15) / 15.0
    scalars[2 + ("turn", "claim", "rob", "over").index(view.phase)] = 1
    discards, claimed = view.discards, view.claimed
    scalars[6] = min(sum(len(d) for d in discards), ORDER_SCALE) / ORDER_SCALE
    jing = view.public.get("jing")
    if jing:
        for r, name in enumerate(("indicator", "zheng", "fu")):
            t = jing.get(name)
            if isinstance(t, int) and 0 <= t < NUM_KINDS:
                obs[JING + r, t] = 1

    scores, flowers, concealed_counts = view.scores, view.flowers, view.concealed_counts
    dealer, current, over = view.dealer, view.current, view.over
    for k in range(4):
        s = (seat + k) % 4
        b = GLOBAL_ROWS + k * BLOCK_ROWS
        melds = view.melds[s]
        key = (
            len(melds),
            sum(m.kind == KONG for m in melds),
            len(discards[s]),
            sum(claimed[s]),
            len(flowers[s]),
            concealed_counts[s],
            scores[s],
            dealer,
            s == current and not over,
        )
        hit = cache.get((s, k == 0)) if cache is not None else None
        if hit is not None and hit[0] == key:
            obs[b : b + BLOCK_ROWS] = hit[1]
            continue
        if order is None:
            order = discard_order(view)
        block = obs[b : b + BLOCK_ROWS]
        # another seat's 暗杠: that it exists is public, its faces are not
        faced = [t for m in melds if not m.concealed or k == 0 for t in m.tiles]
        block[B_MELDS : B_MELDS + 4] = _counts(faced) >= _LEVELS
        pond = [t for t, taken in zip(discards[s], claimed[s], strict=True) if not taken]
        block[B_POND : B_POND + 4] = _counts(pond) >= _LEVELS
        info = block[B_INFO]
        for f in flowers[s]:
            if 34 <= f < 42:
                info[INFO_FLOWERS + f - 34] = 1
        info[INFO_CONCEALED] = min(concealed_counts[s], 14) / 14.0
        info[INFO_CONCEALED_KONGS] = min(sum(m.concealed for m in melds), 4) / 4.0
        info[INFO_MELDS] = min(len(melds), 4) / 4.0
        info[INFO_SCORE] = (max(-1.0, min(1.0, scores[s] / SCORE_SCALE)) + 1) / 2
        info[INFO_WIND + (s - dealer) % 4] = 1
        info[INFO_DEALER] = s == dealer
        info[INFO_CURRENT] = s == current and not over
        info[INFO_DISCARDS] = min(len(discards[s]), MAX_DISCARDS) / MAX_DISCARDS
        _order_rows(block, s, discards[s], order)
        if cache is not None:
            cache[(s, k == 0)] = (key, block.copy())
    return obs


def _order_rows(block: np.ndarray, s: int, pond: list[int], order: list[Discard] | None) -> None:
    """Seat ``s``'s discards in order, their claimers and their places in the table order."""
    if order is None:  # no consistent order: the pond in order, without claimers or table order
        tiles = pond[:MAX_DISCARDS]
        block[B_ORDER + np.arange(len(tiles)), tiles] = 1
        return
    mine = [(g, d) for g, d in enumerate(order, 1) if d.seat == s and d.index < MAX_DISCARDS]
    if not mine:
        return
    i = np.array([d.index for _, d in mine], dtype=np.int64)
    block[B_ORDER + i, [d.tile for _, d in mine]] = 1
    block[B_SEQ, i] = np.minimum(np.array([g for g, _ in mine], dtype=np.float32), ORDER_SCALE) / ORDER_SCALE
    taken = [(B_CLAIMED + (d.claimer - s) % 4 - 1, d.index) for _, d in mine if d.claimer is not None]
    if taken:
        rows, cols = zip(*taken, strict=True)
        block[list(rows), list(cols)] = 1
