"""Seating a later session from the standings, or again after absences.

* :func:`swiss_tables` — 高高碰 (Swiss): the top four at table 1, the next four at table 2 …
* :func:`snake_tables` — snake (蛇形): each table gets one player from each quarter of the standings.
* :func:`redraw` — 重新编排: a fresh session for the players present, avoiding earlier meetings.

>>> snake_tables([f"P{i}" for i in range(1, 9)])
(('P1', 'P4', 'P5', 'P8'), ('P2', 'P3', 'P6', 'P7'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
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


def swiss_tables(
    order: Sequence[str],
    *,
    team_of: Mapping[str, str] | None = None,
    played: Sequence[Sequence[Sequence[str]]] = (),
    avoid_repeats: bool = True,
    limit: int = 20_000,
) -> Tables:
    """高高碰: fill each table from the top of the remaining standings, passing over a player who is a
    team-mate of someone already at the table, or (``avoid_repeats``) has met one of them in ``played``
    sessions.  A seating without either exists whenever the search finds one (it backtracks: the top
    remaining player heads each table with the best-placed three who fit, trying ``limit`` tables at
    most); otherwise the greedy fill gives way on repeats first, then on team-mates, and swaps between
    nearby tables then remove every repeat they can."""
    if len(order) % 4:
        raise ScheduleError(f"{len(order)} players do not fill tables of four")
    teams = dict(team_of or {})
    met = meetings(played) if avoid_repeats else Counter[frozenset[str]]()

    def mates(p: str, q: str) -> bool:
        return p in teams and teams.get(q) == teams[p]

    def clash(p: str, table: Sequence[str], strict: bool) -> bool:
        return any(mates(p, q) or (strict and met[frozenset((p, q))] > 0) for q in table)

    exact = _backtrack(list(order), lambda p, t: clash(p, t, True), limit)
    if exact is not None:
        return exact
    remaining = list(order)
    tables: list[list[str]] = []
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
        tables.append(table)
    return _swap_out_repeats(tables, met, mates)


def _backtrack(order: list[str], clash: Callable[[str, Sequence[str]], bool], limit: int) -> Tables | None:
    """The first clash-free seating in standings order (each table headed by the best remaining
    player), or None when there is none or ``limit`` candidate tables were tried."""
    tried = 0

    def seat(remaining: list[str]) -> list[tuple[str, ...]] | None:
        nonlocal tried
        if not remaining:
            return []
        head, rest = remaining[0], remaining[1:]
        for trio in combinations(range(len(rest)), 3):
            tried += 1
            if tried > limit:
                return None
            table = [head]
            for k in trio:
                if clash(rest[k], table):
                    break
                table.append(rest[k])
            else:
                later = seat([p for k, p in enumerate(rest) if k not in trio])
                if later is not None:
                    return [tuple(table), *later]
                if tried > limit:
                    return None
        return None

    found = seat(order)
    return tuple(found) if found is not None else None


def _swap_out_repeats(
    tables: list[list[str]], met: Counter[frozenset[str]], mates: Callable[[str, str], bool], reach: int = 2
) -> Tables:
    """Swap single players between tables at most ``reach`` apart while that removes repeat meetings
    without adding team-mate clashes (each swap removes at least one, so this ends)."""

    def cost(t: Sequence[str]) -> tuple[int, int]:
        pairs = list(combinations(t, 2))
        return sum(1 for a, b in pairs if met[frozenset((a, b))] > 0), sum(1 for a, b in pairs if mates(a, b))

    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            if cost(tables[i])[0] == 0:
                continue
            best: tuple[int, int, int, int, int] | None = None  # gain, -distance, j, a, b
            for j in range(max(0, i - reach), min(len(tables), i + reach + 1)):
                if j == i:
                    continue
                (r0, c0), (r1, c1) = cost(tables[i]), cost(tables[j])
                for a in range(4):
                    for b in range(4):
                        ti, tj = list(tables[i]), list(tables[j])
                        ti[a], tj[b] = tj[b], ti[a]
                        (s0, d0), (s1, d1) = cost(ti), cost(tj)
                        gain = r0 + r1 - s0 - s1
                        if gain > 0 and d0 + d1 <= c0 + c1 and (best is None or (gain, -abs(j - i)) > best[:2]):
                            best = (gain, -abs(j - i), j, a, b)
            if best is not None:
                _, _, j, a, b = best
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                improved = True
    return tuple(tuple(t) for t in tables)


def redraw(
    present: Sequence[str],
    *,
    seed: int,
    team_of: Mapping[str, str] | None = None,
    played: Sequence[Sequence[Sequence[str]]] = (),
    iterations: int = 50_000,
) -> tuple[Tables, int]:
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
