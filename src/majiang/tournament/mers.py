"""MERS, the EMA's ranking across events (Mahjong European Ranking System): pure computation.

From each event a player gets a *base rank* from his place: ``1000 · (n − place) / (n − 1)`` (the winner
1000, the last 0; n players).  His ranking is a weighted average of his base ranks, each event's weight
being its MERS weight (given by the EMA when it certifies the event: 1 for a local event, 2 for a
national championship, 5 for a European one; since 2018 the sum of its duration, size, countries and
qualification parts) times an age factor.  The rules implemented (EMA, "Basics for ranking system", the
rules of 12 July 2010; every number is a field of :class:`MersRules`):

- age: results under a year old count in full, from one to two years ⅔, from two to three ⅓, older
  not at all;
- fewer than five results: each missing one counts as a base rank of 0 with weight 1;
- the ranking is the mean of part A, the weighted average of all results (missing ones included), and
  part B, the weighted average of the best three (by base rank);
- a player with fewer than two results in the window is not listed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class EventResult:
    """One player's place in one event."""

    player: str  # the key: an EMA number, or a normalised name
    name: str  # as shown
    event: str
    held: date
    place: int  # 1-based; ties share the better place
    players: int  # the event's field (n)
    weight: float = 1.0  # the event's MERS weight

    @property
    def base_rank(self) -> float:
        return base_rank(self.players, self.place)


def base_rank(players: int, place: int) -> float:
    """``1000 · (n − place) / (n − 1)``: 1000 for the winner, 0 for the last."""
    if players < 2 or not 1 <= place <= players:
        raise ValueError(f"place {place} of {players} players: a MERS result needs 2+ players and a place in 1…n")
    return 1000 * (players - place) / (players - 1)


@dataclass(frozen=True)
class MersRules:
    """The numbers of the ranking (defaults: the EMA's rules of 2010, module docstring)."""

    ages: tuple[tuple[int, float], ...] = ((365, 1.0), (730, 2 / 3), (1095, 1 / 3))  # (days under, factor)
    minimum: int = 5  # results counted at least (missing ones are 0 with weight 1)
    best: int = 3  # part B: the best results
    listed: int = 2  # results needed to be listed

    def age_factor(self, held: date, on: date) -> float:
        days = (on - held).days
        if days < 0:
            return 0.0  # an event after the ranking date does not count yet
        return next((f for limit, f in self.ages if days < limit), 0.0)


@dataclass(frozen=True)
class Counted:
    result: EventResult
    factor: float  # the age factor

    @property
    def weight(self) -> float:
        return self.result.weight * self.factor


@dataclass(frozen=True)
class Ranking:
    player: str
    name: str
    rank: int
    mers: float
    part_a: float
    part_b: float
    counted: tuple[Counted, ...]  # the results in the window, best first
    missing: int  # zero results added to reach the minimum
    best: tuple[Counted, ...] = field(default=())  # part B's results


def _average(items: Sequence[tuple[float, float]]) -> float:
    """Weighted average of (value, weight) pairs."""
    total = sum(w for _, w in items)
    return sum(v * w for v, w in items) / total if total else 0.0


def rank_players(results: Iterable[EventResult], on: date, rules: MersRules | None = None) -> list[Ranking]:
    """The MERS ranking on ``on``: players listed (``rules.listed`` results in the window), best first
    (equal rankings share the better rank)."""
    rules = rules or MersRules()
    by_player: dict[str, list[Counted]] = {}
    names: dict[str, str] = {}
    for r in results:
        factor = rules.age_factor(r.held, on)
        if factor > 0:
            by_player.setdefault(r.player, []).append(Counted(r, factor))
            names.setdefault(r.player, r.name)
    rows = []
    for player, counted in by_player.items():
        if len(counted) < rules.listed:
            continue
        counted.sort(key=lambda c: (-c.result.base_rank, -c.weight, c.result.held))
        missing = max(0, rules.minimum - len(counted))
        pairs = [(c.result.base_rank, c.weight) for c in counted] + [(0.0, 1.0)] * missing
        best = pairs[: rules.best]  # best first: the missing zeros come last
        part_a, part_b = _average(pairs), _average(best)
        mers = (part_a + part_b) / 2
        rows.append((player, names[player], mers, part_a, part_b, tuple(counted), missing))
    rows.sort(key=lambda x: (-round(x[2], 9), x[1].casefold()))
    out: list[Ranking] = []
    for i, (player, name, mers, a, b, counted_t, missing) in enumerate(rows):
        rank = out[-1].rank if out and round(out[-1].mers, 9) == round(mers, 9) else i + 1
        best_counted = counted_t[: min(rules.best, len(counted_t))]
        out.append(Ranking(player, name, rank, mers, a, b, counted_t, missing, best_counted))
    return out
