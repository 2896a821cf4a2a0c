"""The efficiency bot (牌效): wins when it can, otherwise keeps the lowest shanten with the most
unseen useful tiles; claims and kongs only when they lower its shanten."""

from __future__ import annotations

from majiang.bots.base import TurnOrClaim
from majiang.engine.protocol import ADDED_KONG, CHOW, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, Action
from majiang.engine.view import SeatView
from majiang.shanten import shanten_of_counts
from majiang.shanten.efficiency import best_discards, shanten_after_best_discard


def _melds(view: SeatView) -> int:
    return len(view.melds[view.seat])


def seen_counts(view: SeatView) -> list[int]:
    """Copies seen outside the concealed hand: ponds, every exposed meld, own concealed kongs."""
    seen = list(view.visible)
    for m in view.melds[view.seat]:
        if m.concealed:
            for t in m.tiles:
                seen[t] += 1
    return seen


def best_after_claim(view: SeatView, a: Action) -> int:
    """Shanten after making the claimed set and discarding the best tile."""
    c = list(view.counts)
    if a.type == CHOW:
        for t in a.tiles:
            if t != a.tile:
                c[t] -= 1
    elif a.type == PUNG:
        c[a.tile] -= 2
    elif a.type == KONG:
        c[a.tile] -= 3
        return shanten_of_counts(c, _melds(view) + 1) if sum(c) % 3 == 1 else 99
    return shanten_after_best_discard(c, _melds(view) + 1)


class EfficiencyBot(TurnOrClaim):
    name = "eff"

    def turn(self, view: SeatView, legal: list[Action]) -> Action:
        melds = _melds(view)
        now = shanten_of_counts(view.counts, melds)
        for a in legal:
            if a.type in (CONCEALED_KONG, ADDED_KONG):
                c = list(view.counts)
                c[a.tile] -= 4 if a.type == CONCEALED_KONG else 1
                if shanten_of_counts(c, melds + (a.type == CONCEALED_KONG)) <= now:
                    return a
        counts = view.counts
        seen = seen_counts(view)
        unseen = [4 - a - b for a, b in zip(counts, seen, strict=True)]
        return Action(DISCARD, best_discards(counts, melds, unseen)[0][2])

    def claim(self, view: SeatView, legal: list[Action]) -> Action:
        melds = _melds(view)
        now = shanten_of_counts(view.counts, melds)
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.type in (PUNG, CHOW, KONG):
                after = best_after_claim(view, a)
                if after < now and (best is None or after < best[0]):
                    best = (after, a)
        if best is not None:
            return best[1]
        return next(a for a in legal if a.type == PASS)


def make(seed: int | None) -> EfficiencyBot:
    return EfficiencyBot(seed)
