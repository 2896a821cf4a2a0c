"""Schedules between sessions (轮转): a perfect design where one exists, a seeded search otherwise;
always checked for repeat meetings and team-mates at one table, then starting winds balanced.

>>> plan = make_schedule([f"P{i:02}" for i in range(1, 17)], 5, seed=3)
>>> plan.method, plan.repeats, len(plan.sessions), len(plan.sessions[0])
('affine-plane-4', 0, 5, 4)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from majiang.tournament.designs import AbstractSchedule, perfect_schedule
from majiang.tournament.search import ScheduleError, search_schedule
from majiang.tournament.seating import Schedule, balance_winds

__all__ = ["ScheduleError", "SchedulePlan", "make_schedule", "meetings", "repeat_meetings", "teammate_clashes"]


@dataclass(frozen=True, slots=True)
class SchedulePlan:
    """Sessions → tables → four player ids in first-round seats; how it was made; repeats left."""

    sessions: Schedule
    repeats: int
    method: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "repeats": self.repeats,
            "sessions": [[list(t) for t in s] for s in self.sessions],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SchedulePlan:
        sessions = tuple(tuple(tuple(str(p) for p in t) for t in s) for s in d["sessions"])
        return cls(
            sessions=sessions, repeats=int(d.get("repeats", repeat_meetings(sessions))), method=str(d.get("method", ""))
        )


def meetings(schedule: Sequence[Sequence[Sequence[str]]]) -> Counter[frozenset[str]]:
    """How often each pair of players shares a table."""
    c: Counter[frozenset[str]] = Counter()
    for session in schedule:
        for table in session:
            for a, b in combinations(table, 2):
                c[frozenset((a, b))] += 1
    return c


def repeat_meetings(schedule: Sequence[Sequence[Sequence[str]]], prior: Sequence[Sequence[Sequence[str]]] = ()) -> int:
    """Meetings beyond each pair's first (``prior`` sessions count as played)."""
    return sum(n - 1 for n in meetings([*prior, *schedule]).values() if n > 1)


def teammate_clashes(schedule: Sequence[Sequence[Sequence[str]]], team_of: Mapping[str, str]) -> int:
    """Pairs of team-mates seated at one table (should be 0)."""
    return sum(
        1
        for session in schedule
        for table in session
        for a, b in combinations(table, 2)
        if a in team_of and team_of.get(a) == team_of.get(b)
    )


def _teams(player_ids: Sequence[str], team_of: Mapping[str, str]) -> dict[str, list[str]]:
    teams: dict[str, list[str]] = {}
    for p in player_ids:
        if p in team_of:
            teams.setdefault(team_of[p], []).append(p)
    return teams


def make_schedule(
    player_ids: Sequence[str],
    sessions: int,
    *,
    team_of: Mapping[str, str] | None = None,
    seed: int = 0,
    iterations: int = 200_000,
    balance: bool = True,
) -> SchedulePlan:
    """Schedule ``sessions`` sessions for the players (a multiple of four).

    With ``team_of`` (player → team), team-mates never meet; when every team has four players and
    there are 4 teams (≤ 4 sessions) or a prime number ≥ 5 of teams (≤ teams − 1 sessions) the
    schedule is perfect.  Individuals: 16 players up to 5 sessions, 4p players (p prime ≥ 5) up to
    p − 1.  Otherwise :func:`majiang.tournament.search.search_schedule` runs and ``repeats`` says
    how many repeat meetings remain.  The seed draws who takes which abstract place (定位)."""
    ids = list(player_ids)
    if len(set(ids)) != len(ids):
        raise ScheduleError("duplicate player ids")
    if len(ids) % 4 or not ids:
        raise ScheduleError(f"{len(ids)} players do not fill tables of four")
    rng = random.Random(seed)
    team_of = dict(team_of or {})
    teams = _teams(ids, team_of)
    perfect: AbstractSchedule | None = None
    abstract: list[str] = []
    method = "search"
    all_in_fours = bool(teams) and all(len(m) == 4 for m in teams.values()) and len(teams) * 4 == len(ids)
    if all_in_fours:
        perfect = perfect_schedule(len(ids), sessions, teams=True)
        if perfect is not None:
            names = sorted(teams)
            rng.shuffle(names)
            for name in names:
                members = list(teams[name])
                rng.shuffle(members)
                abstract.extend(members)
    elif not teams:
        perfect = perfect_schedule(len(ids), sessions, teams=False)
        if perfect is not None:
            abstract = list(ids)
            rng.shuffle(abstract)
    if perfect is not None:
        method = "affine-plane-4" if len(ids) == 16 else f"cyclic-Z{len(ids) // 4}"
        tables = [[[abstract[x] for x in t] for t in s] for s in perfect]
        for s in tables:
            rng.shuffle(s)  # table numbers by draw
    else:
        team_index = {name: k for k, name in enumerate(sorted(teams))}
        per_player: list[int | None] = [team_index[team_of[p]] if p in team_of else None for p in ids]
        found = search_schedule(len(ids), sessions, per_player, seed=rng.randrange(2**32), iterations=iterations)
        tables = [[[ids[x] for x in t] for t in s] for s in found.schedule]
    sched: Schedule = tuple(tuple(tuple(t) for t in s) for s in tables)
    if balance:
        sched = balance_winds(sched)
    return SchedulePlan(sessions=sched, repeats=repeat_meetings(sched), method=method)
