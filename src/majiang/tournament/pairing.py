"""Seating a later session from the standings, or again after absences.

* :func:`swiss_tables` — 高高碰 (Swiss): the top four at table 1, the next four at table 2 …
* :func:`snake_tables` — snake (蛇形): each table gets one player from each quarter of the standings.
* :func:`redraw` — 重新编排: a fresh session for the players present, avoiding earlier meetings.

>>> snake_tables([f"P{i}" for i in range(1, 9)])
(('P1', 'P4', 'P5', 'P8'), ('P2', 'P3', 'P6', 'P7'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from majiang.tournament.schedule import meetings
from majiang.tournament.search import ScheduleError, search_schedule

Tables = tuple[tuple[str, ...], ...]


def snake_tables(order: Sequence[str]) -> Tables:
    """Deal the standings ``order`` (best first) in a snake: ranks 1…T to tables 1…T, T+1…2T back from T."""
    if len(order) % 4:
        raise ScheduleError(f"{len(order)} players do not fill tables of four")
    n_tables = len(order) // 4
    tables: list[list[str]] = [[] for _ in range(n_tables)]
    for i, p in enumerate(order):
        row, col = divmod(i, n_tables)
        tables[col if row % 2 == 0 else n_tables - 1 - col].append(p)
    return tuple(tuple(t) for t in tables)


def swiss_tables(order: Sequence[str], *, team_of: Mapping[str, str] | None = None,
                 played: Sequence[Sequence[Sequence[str]]] = (), avoid_repeats: bool = True) -> Tables:
    """高高碰: fill each table from the top of the remaining standings, passing over a player who is a
    team-mate of someone already at the table, or (``avoid_repeats``) has met one of them in ``played``
    sessions.  When nobody fits, the repeat rule gives way first, then the team rule."""
    if len(order) % 4:
        raise ScheduleError(f"{len(order)} players do not fill tables of four")
    teams = dict(team_of or {})
    met = meetings(played)
    remaining = list(order)
    tables: list[tuple[str, ...]] = []

    def clash(p: str, table: list[str], strict: bool) -> bool:
        for q in table:
            if p in teams and teams.get(q) == teams[p]:
                return True
            if strict and avoid_repeats and met[frozenset((p, q))]:
                return True
        return False

    while remaining:
        table = [remaining.pop(0)]
        for strict_repeats, strict_teams in ((True, True), (False, True), (False, False)):
            i = 0
            while len(table) < 4 and i < len(remaining):
                p = remaining[i]
                if strict_teams and clash(p, table, strict_repeats):
                    i += 1
                    continue
                table.append(remaining.pop(i))
            if len(table) == 4:
                break
        tables.append(tuple(table))
    return tuple(tables)


def redraw(present: Sequence[str], *, seed: int, team_of: Mapping[str, str] | None = None,
           played: Sequence[Sequence[Sequence[str]]] = (), iterations: int = 50_000) -> tuple[Tables, int]:
    """A new session for the ``present`` players (a multiple of four; fill with substitutes first):
    team-mates apart, as few repeats of ``played`` meetings as the search finds.  Returns the tables
    and the repeat meetings they add."""
    ids = list(present)
    index = {p: i for i, p in enumerate(ids)}
    teams = dict(team_of or {})
    names = sorted({teams[p] for p in ids if p in teams})
    per_player: list[int | None] = [names.index(teams[p]) if p in teams else None for p in ids]
    prior = [[[index[p] for p in t if p in index] for t in s] for s in played]
    prior_tables = [[t for t in s if len(t) > 1] for s in prior]
    found = search_schedule(len(ids), 1, per_player, seed=seed, iterations=iterations, prior=prior_tables)
    return tuple(tuple(ids[x] for x in t) for t in found.schedule[0]), found.repeats - _prior_repeats(prior_tables)


def _prior_repeats(prior: Sequence[Sequence[Sequence[int]]]) -> int:
    seen: dict[tuple[int, int], int] = {}
    for s in prior:
        for t in s:
            for a, b in combinations(sorted(t), 2):
                seen[(a, b)] = seen.get((a, b), 0) + 1
    return sum(n - 1 for n in seen.values() if n > 1)
