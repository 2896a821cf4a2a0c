"""Random winning hands with consistent flags — for property tests, oracle comparisons and benchmarks.

The distribution leans towards interesting hands (one or two suits, shifted and repeated sets,
honours, kongs, every special shape) so that every fan family is exercised, not just 无番和.
"""

from __future__ import annotations

import random

from majiang.mcr.hand import FROM_LEFT, Meld, MeldKind, WinningHand
from majiang.mcr.shapes import KNITTED_STRAIGHTS, THIRTEEN_ORPHANS
from majiang.tiles import NUM_KINDS, Tile

Set = tuple[str, Tile]  # ("chow", first tile) | ("pung", tile)


def _random_set(rng: random.Random, suits: list[int], honor_p: float) -> Set:
    if rng.random() < honor_p:
        return ("pung", rng.randrange(27, 34))
    s = rng.choice(suits)
    if rng.random() < 0.55:
        return ("chow", s * 9 + rng.randrange(0, 7))
    return ("pung", s * 9 + rng.randrange(0, 9))


def _related_set(rng: random.Random, prev: Set, suits: list[int]) -> Set:
    """A set shifted, repeated or mirrored from ``prev`` — makes combination fans common."""
    kind, t = prev
    if t >= 27:
        return ("pung", rng.randrange(27, 34))
    s, r = divmod(t, 9)
    choice = rng.random()
    if choice < 0.3:
        s = rng.choice(suits)  # same rank, maybe another suit
    elif choice < 0.8:
        r += rng.choice((1, 2, 3, -1, -2, -3))
    else:
        kind = "pung" if kind == "chow" else "chow"
    top = 6 if kind == "chow" else 8
    if not 0 <= r <= top:
        r = rng.randrange(0, top + 1)
    return (kind, s * 9 + r)


def _set_tiles(st: Set) -> list[Tile]:
    kind, t = st
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


def _regular(rng: random.Random) -> tuple[list[Set], Tile] | None:
    n_suits = rng.choice((1, 1, 2, 2, 2, 3, 3))
    suits = rng.sample(range(3), n_suits)
    honor_p = rng.choice((0.0, 0.0, 0.15, 0.3, 0.6))
    sets: list[Set] = []
    for i in range(4):
        if i and rng.random() < 0.6:
            sets.append(_related_set(rng, rng.choice(sets), suits))
        else:
            sets.append(_random_set(rng, suits, honor_p))
    if rng.random() < honor_p:
        pair = rng.randrange(27, 34)
    else:
        pair = rng.choice(suits) * 9 + rng.randrange(9)
    counts = [0] * NUM_KINDS
    for st in sets:
        for x in _set_tiles(st):
            counts[x] += 1
    counts[pair] += 2
    if max(counts) > 4:
        return None
    return sets, pair


def random_winning_hand(rng: random.Random, rules: str = "gb") -> WinningHand:
    """One random legal winning hand (its fan total may be below 8)."""
    while True:
        hand = _try(rng, rules)
        if hand is not None:
            return hand


def _try(rng: random.Random, rules: str) -> WinningHand | None:
    shape = rng.random()
    melds: list[Meld] = []
    concealed: list[Tile]
    if shape < 0.82:
        got = _regular(rng)
        if got is None:
            return None
        sets, pair = got
        n_melds = rng.choice((0, 0, 1, 1, 2, 2, 3, 4))
        concealed = [pair, pair]
        counts = [0] * NUM_KINDS
        for st in sets:
            for x in _set_tiles(st):
                counts[x] += 1
        counts[pair] += 2
        for i, st in enumerate(sets):
            kind, t = st
            make_kong = kind == "pung" and counts[t] == 3 and rng.random() < 0.25
            if make_kong:
                counts[t] += 1
                if rng.random() < 0.4:
                    melds.append(Meld.of(MeldKind.KONG, t, concealed=True))
                else:
                    melds.append(Meld.of(MeldKind.KONG, t, source=rng.randint(1, 3)))
            elif i < n_melds:
                if kind == "chow":
                    melds.append(Meld.of(MeldKind.CHOW, t, claimed=rng.randint(0, 2)))
                else:
                    melds.append(Meld.of(MeldKind.PUNG, t, source=rng.randint(1, 3)))
            else:
                concealed.extend(_set_tiles(st))
    elif shape < 0.88:
        base = rng.randrange(3) * 9
        kinds = rng.sample(range(NUM_KINDS) if rng.random() < 0.5 else range(base, base + 9), 7)
        if rng.random() < 0.3:
            s = rng.randrange(3) * 9 + rng.randrange(3)
            kinds = list(range(s, s + 7))
        elif rng.random() < 0.15:  # four of a kind as two pairs
            kinds[1] = kinds[0]
        concealed = [k for k in kinds for _ in range(2)]
    elif shape < 0.91:
        concealed = list(THIRTEEN_ORPHANS) + [rng.choice(THIRTEEN_ORPHANS)]
    elif shape < 0.95:
        ks = list(rng.choice(KNITTED_STRAIGHTS))
        n_num = rng.choice((7, 8, 9))
        concealed = rng.sample(ks, n_num) + rng.sample(range(27, 34), 14 - n_num)
    elif shape < 0.985:
        ks = list(rng.choice(KNITTED_STRAIGHTS))
        got = _regular(rng)
        if got is None:
            return None
        sets, pair = got
        st = sets[0]
        if rng.random() < 0.3:
            kind, t = st
            melds.append(
                Meld.of(MeldKind.CHOW, t, claimed=0) if kind == "chow" else Meld.of(MeldKind.PUNG, t, source=2)
            )
            concealed = ks + [pair, pair]
        else:
            concealed = ks + _set_tiles(st) + [pair, pair]
    else:
        s = rng.randrange(3) * 9
        concealed = [s] * 3 + list(range(s + 1, s + 8)) + [s + 8] * 3 + [s + rng.randrange(9)]
    counts = [0] * NUM_KINDS
    for x in concealed:
        counts[x] += 1
    for m in melds:
        for x in m.tiles:
            counts[x] += 1
    if max(counts) > 4:
        return None
    win = rng.choice(concealed)
    concealed.remove(win)
    self_drawn = rng.random() < 0.4
    has_kong = any(m.kind is MeldKind.KONG for m in melds)
    in_melds = sum(m.tiles.count(win) for m in melds)
    kong = False
    last_tile = rng.random() < 0.04
    if self_drawn and has_kong and rng.random() < 0.2:
        kong = True
    elif not self_drawn and in_melds == 0 and win not in concealed and rng.random() < 0.08:
        kong, last_tile = True, False
    fourth = win not in concealed and rng.random() < 0.1
    return WinningHand(
        melds=tuple(melds),
        hand=tuple(sorted(concealed)),
        win_tile=win,
        self_drawn=self_drawn,
        fourth_tile=fourth,
        kong=kong,
        last_tile=last_tile,
        seat_wind=rng.randrange(4),
        prevalent_wind=rng.randrange(4),
        flowers=rng.choice((0, 0, 0, 1, 2, 3)),
        rules=rules,
    )


__all__ = ["FROM_LEFT", "random_winning_hand"]
