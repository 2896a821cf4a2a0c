"""Schedules where no perfect design is known: seeded simulated annealing over table assignments.

Team-mates never share a table (a hard constraint: every session starts team-respecting and a move
that would break it is refused); the cost is the number of repeat meetings — for each pair of
players, the meetings beyond their first, counting any ``prior`` sessions.  The search is bounded by
``iterations`` and stops early at zero; it is deterministic for a seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from majiang.tournament.designs import AbstractSchedule
from majiang.tournament.errors import TournamentError


class ScheduleError(TournamentError):
    """No schedule can satisfy the hard constraints (a team larger than the number of tables…)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    schedule: AbstractSchedule
    repeats: int
    iterations: int


def _initial_session(rng: random.Random, n: int, team_of: Sequence[int | None], tables: int) -> list[list[int]]:
    groups: dict[object, list[int]] = {}
    for p in range(n):
        key: object = team_of[p] if team_of[p] is not None else ("solo", p)
        groups.setdefault(key, []).append(p)
    blocks = list(groups.values())
    for b in blocks:
        if len(b) > tables:
            raise ScheduleError(f"a team of {len(b)} cannot sit at {tables} different tables")
        rng.shuffle(b)
    rng.shuffle(blocks)
    blocks.sort(key=len, reverse=True)  # big teams first, so dealing round-robin splits every team
    order = [p for b in blocks for p in b]
    out: list[list[int]] = [[] for _ in range(tables)]
    for i, p in enumerate(order):
        out[i % tables].append(p)
    return out


def count_repeats(meet: list[list[int]]) -> int:
    n = len(meet)
    return sum(max(0, meet[a][b] - 1) for a in range(n) for b in range(a + 1, n))


def _meetings(n: int, sessions: Sequence[Sequence[Sequence[int]]]) -> list[list[int]]:
    """How many times each two of the ``n`` players meet at a table in ``sessions``."""
    meet = [[0] * n for _ in range(n)]
    for session in sessions:
        for t in session:
            for i in range(len(t)):
                for j in range(i + 1, len(t)):
                    meet[t[i]][t[j]] += 1
                    meet[t[j]][t[i]] += 1
    return meet


def _swap(meet: list[list[int]], A: list[int], B: list[int], i: int, j: int) -> None:
    """Exchange ``A[i]`` and ``B[j]`` between their tables, and their meetings with it."""
    a, b = A[i], B[j]
    for x in A:
        if x != a:
            meet[a][x] -= 1
            meet[x][a] -= 1
            meet[b][x] += 1
            meet[x][b] += 1
    for y in B:
        if y != b:
            meet[b][y] -= 1
            meet[y][b] -= 1
            meet[a][y] += 1
            meet[y][a] += 1
    A[i], B[j] = b, a


def search_schedule(
    n: int,
    sessions: int,
    team_of: Sequence[int | None] | None = None,
    *,
    seed: int = 0,
    iterations: int = 200_000,
    prior: Sequence[Sequence[Sequence[int]]] = (),
) -> SearchResult:
    """Find ``sessions`` sessions for players ``0…n−1`` (``n`` a multiple of 4) minimising repeat meetings.

    ``team_of[p]`` is p's team (None: an individual).  ``prior`` sessions count as already played
    (for scheduling later rounds or a re-draw) but are not returned."""
    if n % 4 or n == 0:
        raise ScheduleError(f"{n} players do not fill tables of four")
    teams: Sequence[int | None] = team_of if team_of is not None else [None] * n
    if len(teams) != n:
        raise ScheduleError("team_of must give one entry per player")
    tables = n // 4
    rng = random.Random(seed)
    sched = [_initial_session(rng, n, teams, tables) for _ in range(sessions)]
    meet = _meetings(n, (*prior, *sched))
    cost = count_repeats(meet)
    best_cost, best = cost, [[list(t) for t in s] for s in sched]
    if tables < 2 or sessions == 0:
        return SearchResult(best, best_cost, 0)
    temp0, temp1 = 1.0, 0.02
    done = 0
    for it in range(iterations):
        if cost == 0:
            break
        done = it + 1
        temp = temp0 * (temp1 / temp0) ** (it / iterations)
        # Mostly move a player caught in a repeat: random moves waste most of their time on calm tables.
        for _ in range(8):
            s = rng.randrange(sessions)
            ta = rng.randrange(tables)
            i = rng.randrange(4)
            A = sched[s][ta]
            if any(meet[A[i]][x] >= 2 for x in A if x != A[i]):
                break
        tb = rng.randrange(tables - 1)
        tb += tb >= ta
        B = sched[s][tb]
        j = rng.randrange(4)
        a, b = A[i], B[j]
        ta_team, tb_team = teams[a], teams[b]
        if tb_team is not None and any(teams[x] == tb_team for x in A if x != a):
            continue
        if ta_team is not None and any(teams[y] == ta_team for y in B if y != b):
            continue
        delta = 0
        for x in A:
            if x != a:
                delta += (meet[b][x] >= 1) - (meet[a][x] >= 2)
        for y in B:
            if y != b:
                delta += (meet[a][y] >= 1) - (meet[b][y] >= 2)
        if delta > 0 and rng.random() >= math.exp(-delta / temp):
            continue
        _swap(meet, A, B, i, j)
        cost += delta
        if cost < best_cost:
            best_cost, best = cost, [[list(t) for t in ss] for ss in sched]
    return SearchResult(best, best_cost, done)
