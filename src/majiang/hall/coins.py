"""Game coins per hand (lobby.md §2, seed 001): each player's change = (score change)·N − A.

Losers pay X·N (+A); the winner receives X·P·N (−A); the house keeps A from every player.  A payer
with too few coins pays what it has; the shortfall is recorded, never invented: receivers get the
coins actually collected, shared in proportion to what they were owed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class CoinSettlement:
    changes: list[int]  # per seat, fees included
    house: int  # what the house takes (fees)
    shortfall: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # owed to a seat but not collected
    fee_shortfall: int = 0


def settle_coins(score_deltas: Sequence[int], balances: Sequence[int], coefficient: int, fee: int) -> CoinSettlement:
    """Coin changes for one finished hand.  Zero-sum: ``sum(changes) + house == 0``."""
    owed = [d * coefficient for d in score_deltas]
    paid = [min(-o, b) if o < 0 else 0 for o, b in zip(owed, balances, strict=True)]
    collected = sum(paid)
    want = [o if o > 0 else 0 for o in owed]
    total_want = sum(want)
    received = [0, 0, 0, 0]
    if total_want:
        received = [collected * w // total_want for w in want]
        rest = collected - sum(received)
        if rest:  # integer rounding: the largest receiver takes the remainder
            received[max(range(4), key=lambda i: want[i])] += rest
    changes = [received[i] - paid[i] for i in range(4)]
    shortfall = [want[i] - received[i] for i in range(4)]
    house = 0
    fee_short = 0
    for i in range(4):
        can = min(fee, balances[i] + changes[i])
        changes[i] -= can
        house += can
        fee_short += fee - can
    return CoinSettlement(changes=changes, house=house, shortfall=shortfall, fee_shortfall=fee_short)
