"""Check-in before each session (pure): an event that asks for it (``event.extra["checkin"]`` True, set
with ``majiang tournament checkin EVENT --require``) seats only the players checked in for the session;
every other player the session would seat gets a bye (缺席: standard score 0, no session score, mcr.md §7).
An event without it draws everybody, as before.

Check-ins are kept in ``event.extra["checkins"]``: session no (a string) → player id → ``{"at", "by"}``.

>>> from majiang.tournament.demo import demo_group
>>> from majiang.tournament.model import Event
>>> ev = Event(id="e", groups=(demo_group(8, 0),), extra={"checkin": True, "checkins": {"1": {"P01": {}}}})
>>> required(ev), sorted(checked_in(ev, 1)), absentees(ev, ev.groups[0], 1)[:2]
(True, ['P01'], ['P02', 'P03'])
"""

from __future__ import annotations

from typing import Any

from majiang.tournament.draw import has_entries, seatable
from majiang.tournament.model import Event, Group
from majiang.tournament.phases import phase_index, phase_players, phases_of


def next_session(group: Group) -> int:
    """The session to play next: the last drawn while it has no results, else the one after it."""
    last = group.sessions[-1] if group.sessions else None
    return last.no if last is not None and not has_entries(last) else len(group.sessions) + 1


def required(event: Event) -> bool:
    """Whether the event seats only checked-in players."""
    return bool(event.extra.get("checkin"))


def records(event: Event, session_no: int) -> dict[str, dict[str, Any]]:
    """Player id → ``{"at", "by"}`` of the players checked in for the session."""
    got = (event.extra.get("checkins") or {}).get(str(session_no)) or {}
    return {str(k): dict(v or {}) for k, v in got.items()} if isinstance(got, dict) else {}


def checked_in(event: Event, session_no: int) -> set[str]:
    return set(records(event, session_no))


def expected(event: Event, group: Group, session_no: int) -> list[str]:
    """The players session ``session_no`` would seat: its phase's players (everybody a draw seats, or
    those through the phase's cut), in registration order."""
    i = phase_index(phases_of(event), session_no)
    players = phase_players(event, group, i) if i is not None else None
    everyone = seatable(group)
    if players is None:
        return everyone
    chosen = set(players)
    return [p for p in everyone if p in chosen]


def absentees(event: Event, group: Group, session_no: int) -> list[str]:
    """The players the session would seat who are not checked in (none when check-in is not required)."""
    if not required(event):
        return []
    here = checked_in(event, session_no)
    return [p for p in expected(event, group, session_no) if p not in here]
