"""复式 (duplicate walls): what is sealed while a session's tables still play.

Every table of a duplicate session deals from one secret session seed, so whatever one table shows
tells the others what their walls hold: its hands, its seeds, watching — and its scores.  After eight
hands the same seats at two tables read identical running scores, so a table behind would learn each
wall's outcome from the public standings.  So until every table of the session is finished, the public
sees the event as it stood before that session (:func:`public_view`): standings, CSV, plot and projector.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from majiang.tournament.model import HANDS_PER_SESSION, Event

DUPLICATE_KEY = "duplicate_walls"  # event.extra: session → {"seed": hex (secret), "tables": [hall ids], "revealed"}


def duplicate_info(event: Event, session_no: int) -> dict[str, Any] | None:
    """The session's duplicate-walls record, or None when its tables deal their own walls."""
    got = (event.extra.get(DUPLICATE_KEY) or {}).get(str(session_no))
    return dict(got) if isinstance(got, dict) else None


def table_finished(table: Any) -> bool:
    """An event table is finished: its 16 hands, its totals, or time called (第六条)."""
    return table.totals is not None or table.time_called or len(table.hands) >= HANDS_PER_SESSION


def session_finished(event: Event, session_no: int) -> bool:
    """Every table of session k, in every group that drew it, is finished."""
    tables = [t for g in event.groups if len(g.sessions) >= session_no for t in g.sessions[session_no - 1].tables]
    return bool(tables) and all(table_finished(t) for t in tables)


def sealed_sessions(event: Event) -> list[int]:
    """The duplicate sessions whose tables are not all finished."""
    drawn = max((len(g.sessions) for g in event.groups), default=0)
    return [k for k in range(1, drawn + 1) if duplicate_info(event, k) is not None and not session_finished(event, k)]


def public_view(event: Event) -> Event:
    """The event as the public may see it: the sessions from the first sealed one on left out."""
    sealed = sealed_sessions(event)
    if not sealed:
        return event
    keep = sealed[0] - 1
    return replace(event, groups=tuple(replace(g, sessions=g.sessions[:keep]) for g in event.groups))
