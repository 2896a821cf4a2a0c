"""Standings as of any session, and each player's and team's rank movement since the session before
(pure).

``standings_as_of(event, group, after=K)`` ranks the group on sessions 1…K as the event ranks it (its
phases included, :func:`.phases.overall`; or one phase's standings with ``phase``) and, beside it, on
sessions 1…K−1; :func:`movement` compares the two for the players, :func:`team_movement` for the
teams: ``▲2`` two places up, ``▼1`` one down, ``–`` the same place, ``新 new`` not ranked before, and
nothing after session 1 (no standings before it).

>>> arrow(2), arrow(-1), arrow(0), arrow(None), arrow(None, first=True)
('▲2', '▼1', '–', '新 new', '')
"""

from __future__ import annotations

from dataclasses import replace

from majiang.tournament.errors import TournamentError
from majiang.tournament.model import Event, Group
from majiang.tournament.phases import PhaseError, evaluate_phase, find_phase, overall, phases_of
from majiang.tournament.ranking import GroupResult


class HistoryError(TournamentError):
    """A session the standings cannot be taken after; the message says which can."""


def _ranked(event: Event, group: Group, phase: str | None) -> GroupResult:
    if phase is None:
        return overall(event, group)
    return evaluate_phase(event, group, find_phase(phases_of(event), phase))


def standings_as_of(
    event: Event, group: Group, after: int | None = None, *, phase: str | None = None
) -> tuple[GroupResult, GroupResult | None]:
    """The standings after session ``after`` (default: every session of ``group``) and after the session
    before it (None after session 1, or when the group has no session).  ``group`` holds the sessions
    with results (trailing empty sessions left out)."""
    n = len(group.sessions)
    k = n if after is None else after
    if after is not None and not 1 <= after <= n:
        raise HistoryError(
            f"no standings after session {after}: "
            + (f"sessions 1–{n} have results" if n else "no session has results yet")
        )
    now = _ranked(event, replace(group, sessions=group.sessions[:k]), phase)
    try:
        before = _ranked(event, replace(group, sessions=group.sessions[: k - 1]), phase) if k >= 2 else None
    except PhaseError:  # the phase had no players yet after session k − 1 (its cut was still open)
        before = None
    return now, before


def _moved(now: dict[str, int], before: dict[str, int] | None) -> dict[str, int | None]:
    prev = before or {}
    return {k: (prev[k] - rank) if k in prev else None for k, rank in now.items()}


def movement(now: GroupResult, before: GroupResult | None) -> dict[str, int | None]:
    """Player → places moved up since ``before`` (negative: down; None: not ranked before)."""
    prev = {s.player: s.rank for s in before.standings} if before is not None else None
    return _moved({s.player: s.rank for s in now.standings}, prev)


def team_movement(now: GroupResult, before: GroupResult | None) -> dict[str, int | None]:
    """Team → places moved up since ``before`` in the team standings (as :func:`movement`)."""
    prev = {t.team: t.rank for t in before.teams} if before is not None else None
    return _moved({t.team: t.rank for t in now.teams}, prev)


def arrow(delta: int | None, *, first: bool = False) -> str:
    """``▲n`` / ``▼n`` / ``–`` / ``新 new``; ``first`` (no standings before): empty."""
    if first:
        return ""
    if delta is None:
        return "新 new"
    if delta > 0:
        return f"▲{delta}"
    if delta < 0:
        return f"▼{-delta}"
    return "–"


def arrows(now: GroupResult, before: GroupResult | None) -> dict[str, str]:
    """Player → :func:`arrow` of his movement."""
    return {p: arrow(d, first=before is None) for p, d in movement(now, before).items()}


def team_arrows(now: GroupResult, before: GroupResult | None) -> dict[str, str]:
    """Team → :func:`arrow` of its movement in the team standings."""
    return {t: arrow(d, first=before is None) for t, d in team_movement(now, before).items()}
