"""Tile-efficiency planes (牌效: shanten and useful tiles) read from the observation itself — an
optional extra input (docs/rl.md, "Observation extras").

:func:`planes` takes the 204 × 34 planes :func:`majiang.rl.encode` makes and returns
:data:`EXTRA_ROWS` more rows computed with the shanten tables from what those planes show — the
seat's concealed tiles (rows 0–3), its declared sets (its info row), the copies it cannot see
(rows 6–9) and the tile on offer (row 5) — so a dataset needs no new columns and a policy computes
them the same way at play time.  They are what the efficiency bot decides by, given to a network
instead of left for it to discover:

====  ==========================================================================================
row   content
====  ==========================================================================================
0     on a turn (3n+2 tiles): discarding tile *t* keeps the lowest shanten reachable
1     on a turn: (shanten after discarding *t* + 1) / 8, for the tiles held
2     on a turn: unseen copies of the useful tiles after discarding *t*, / 40
3     with 3n+1 tiles (a claim offer): tile *t* is useful (drawing it lowers the shanten)
4     every column: (the hand's shanten + 1) / 8 (with 3n+2 tiles, the best after one discard)
5     index row, on a claim offer: col 0 pung lowers the shanten, 1–3 chow with the offered tile
      lowest / middle / highest lowers it, 4 an exposed kong keeps it
6     on a turn: a kong (concealed or added) of *t* keeps the shanten
7     with 3n+1 tiles at shanten 0: tile *t* completes the hand (a wait)
====  ==========================================================================================
"""

from __future__ import annotations

import numpy as np

from majiang.rl import features as F
from majiang.shanten.efficiency import _fast, shanten_after_best_discard, shanten_of_counts
from majiang.tiles import NUM_KINDS

EXTRA_ROWS = 8
_MELDS = (F.GLOBAL_ROWS + F.B_INFO, F.INFO_MELDS)  # the seat's own block comes first


def planes(obs: np.ndarray) -> np.ndarray:
    """``(N, 204, 34)`` (or one ``(204, 34)``) → ``(N, EXTRA_ROWS, 34)`` float32 (see the module)."""
    x = np.asarray(obs).reshape(-1, *F.OBS_SHAPE)
    out = np.zeros((len(x), EXTRA_ROWS, NUM_KINDS), dtype=np.float32)
    counts = x[:, F.OWN : F.OWN + 4].sum(axis=1).round().astype(np.int64)
    unseen = x[:, F.UNSEEN : F.UNSEEN + 4].sum(axis=1).round().astype(np.int64)
    melds = (x[:, _MELDS[0], _MELDS[1]] * 4).round().astype(np.int64)
    offers = x[:, F.OFFER].argmax(axis=1)
    has_offer = x[:, F.OFFER].max(axis=1) > 0
    pungs = x[:, F.GLOBAL_ROWS + F.B_MELDS + 2] > 0  # 3 copies of t in its sets: a pung it may add to
    for i in range(len(x)):
        offer = int(offers[i]) if has_offer[i] else -1
        _one(out[i], counts[i].tolist(), int(melds[i]), unseen[i].tolist(), offer, pungs[i].tolist())
    return out


def _one(out: np.ndarray, c: list[int], melds: int, unseen: list[int], offer: int, pung: list[bool]) -> None:
    n = sum(c)
    if n % 3 == 2:
        rows = _fast.discards(c, melds)
        if not rows:
            return
        low = min(s for _, s, _ in rows)
        for tile, after, mask in rows:
            out[0, tile] = after == low
            out[1, tile] = (after + 1) / 8
            out[2, tile] = sum(unseen[t] for t in range(NUM_KINDS) if mask >> t & 1) / 40
        out[4] = (low + 1) / 8
        now = shanten_of_counts(c, melds)
        for t in range(NUM_KINDS):
            take = 4 if c[t] == 4 else 1 if c[t] and pung[t] else 0  # a concealed kong, an added one
            if take:
                c[t] -= take
                out[6, t] = shanten_of_counts(c, melds + (take == 4)) <= now
                c[t] += take
        return
    if n % 3 != 1:
        return
    now = shanten_of_counts(c, melds)
    out[4] = (now + 1) / 8
    useful = _fast.useful(c, melds, -1)
    for t in range(NUM_KINDS):
        if useful >> t & 1:
            out[3, t] = 1
            if now == 0:
                out[7, t] = 1
    if offer < 0:
        return
    if c[offer] >= 2:
        c[offer] -= 2
        out[5, 0] = shanten_after_best_discard(c, melds + 1) < now
        c[offer] += 2
    if c[offer] >= 3:
        c[offer] -= 3
        out[5, 4] = shanten_of_counts(c, melds + 1) <= now
        c[offer] += 3
    if offer < 27:
        pos = offer % 9
        for k, (a, b) in enumerate(((1, 2), (-1, 1), (-2, -1))):
            if 0 <= pos + a <= 8 and 0 <= pos + b <= 8 and c[offer + a] and c[offer + b]:
                c[offer + a] -= 1
                c[offer + b] -= 1
                out[5, 1 + k] = shanten_after_best_discard(c, melds + 1) < now
                c[offer + a] += 1
                c[offer + b] += 1
