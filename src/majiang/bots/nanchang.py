"""A jing-aware bot for Nanchang mahjong (南昌麻将).

Jing (精) are wild in the concealed hand: the bot never throws one away unless it must, and
measures its hand as if each jing could complete one partial set — the shanten of the natural
tiles (with isolated stand-ins where the jing were) less one step per jing.  It wins whenever the
engine offers a win, claims only when the claim brings it nearer, and otherwise plays for tile
efficiency.
"""

from __future__ import annotations

from collections.abc import Sequence

from majiang.bots.base import TurnOrClaim
from majiang.bots.efficiency import seen_counts
from majiang.engine.protocol import ADDED_KONG, CHOW, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, Action
from majiang.engine.view import SeatView
from majiang.shanten import shanten_of_counts

# isolated stand-ins (far apart in every suit and different winds) for the jing removed from a hand
_STAND_INS = (0, 4, 8, 9, 13, 17, 18, 22, 26, 27, 28, 29, 30, 31)


def jing_kinds(view: SeatView) -> tuple[int, ...]:
    j = view.public.get("jing") or {}
    return tuple(t for t in (j.get("zheng"), j.get("fu")) if isinstance(t, int))


def wild_shanten(counts: Sequence[int], melds: int, jing: tuple[int, ...]) -> float:
    """Shanten of the natural tiles, each jing taken as one step nearer (a wild tile)."""
    wilds = sum(counts[t] for t in jing)
    if not wilds:
        return float(shanten_of_counts(counts, melds))
    c = list(counts)
    for t in jing:
        c[t] = 0
    placed = 0
    for t in _STAND_INS:
        if placed == wilds:
            break
        if c[t] == 0 and t not in jing:
            c[t] = 1
            placed += 1
    if placed < wilds:
        return float(shanten_of_counts(counts, melds))
    return max(-1.0, shanten_of_counts(c, melds) - wilds)


class NanchangBot(TurnOrClaim):
    name = "eff"

    def turn(self, view: SeatView, legal: list[Action]) -> Action:
        jing = jing_kinds(view)
        melds = len(view.melds[view.seat])
        for a in legal:
            if a.type in (CONCEALED_KONG, ADDED_KONG) and a.tile not in jing:
                return a  # kong bonuses are paid at once in Nanchang
        seen = seen_counts(view)
        best: tuple[float, int, int] | None = None
        for a in legal:
            if a.type != DISCARD:
                continue
            c = list(view.counts)
            c[a.tile] -= 1
            keep_jing = 1 if a.tile in jing else 0  # throwing a wild away is the last resort
            score = (wild_shanten(c, melds, jing) + 10 * keep_jing, -self._unseen(c, seen), a.tile)
            if best is None or score < best:
                best = score
        assert best is not None
        return Action(DISCARD, best[2])

    def claim(self, view: SeatView, legal: list[Action]) -> Action:
        jing = jing_kinds(view)
        melds = len(view.melds[view.seat])
        counts = view.counts
        now = wild_shanten(counts, melds, jing)
        for a in legal:
            if a.type in (PUNG, KONG, CHOW):
                c = list(counts)
                for t in a.tiles if a.type == CHOW else (a.tile,) * (2 if a.type == PUNG else 3):
                    if a.type != CHOW or t != a.tile:
                        c[t] -= 1
                if a.type == KONG:
                    after = wild_shanten(c, melds + 1, jing)
                else:
                    after = min(
                        wild_shanten(_minus(c, t), melds + 1, jing) for t in range(34) if c[t] and t not in jing
                    )
                if after < now:
                    return a
        return next(a for a in legal if a.type == PASS)

    @staticmethod
    def _unseen(c: Sequence[int], seen: Sequence[int]) -> int:
        return sum(4 - a - b for a, b in zip(c, seen, strict=True) if a)


def _minus(c: Sequence[int], t: int) -> list[int]:
    out = list(c)
    out[t] -= 1
    return out


def make(seed: int | None, depth: int = 2) -> NanchangBot:
    """The jing-aware bot; ``depth`` (``ev@DEPTH``: the MCR ev bot's search depth) does not apply to it."""
    return NanchangBot(seed)
