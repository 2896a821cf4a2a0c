"""Events in the database (tables of :mod:`majiang.store.tournament_models`, migration 0002).

:class:`TournamentRepository` loads and saves whole :class:`~majiang.tournament.model.Event` objects
and makes the referee's small writes (a drawn session, one hand, quick totals, a table penalty) in
one transaction each, validating every entry with the pure core first.  Nothing derived is stored:
:meth:`TournamentRepository.results` evaluates the loaded event.

>>> from majiang.store import Database
>>> from majiang.tournament.demo import demo_group
>>> db = Database("sqlite://"); db.migrate()
>>> repo = TournamentRepository(db)
>>> repo.create(Event(id="cup", name="Cup", groups=(demo_group(8, 0),)))
'cup'
>>> repo.load("cup").groups[0].players[0].id
'P01'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select

from majiang.store.models import now
from majiang.store.tournament_models import (
    TTEntry,
    TTEvent,
    TTPlayer,
    TTSession,
    TTTable,
)
from majiang.tournament.adapters.entry import EntryDesk
from majiang.tournament.adapters.mapping import EventNotFound, RepositoryError
from majiang.tournament.adapters.standings_json import entry_summary, standings_json

#: what callers import from here (the repository's errors and JSON, wherever they are defined)
__all__ = [
    "EventNotFound",
    "EventSummary",
    "RepositoryError",
    "TournamentRepository",
    "entry_summary",
    "scored_event",
    "scored_group",
    "slug",
    "standings_json",
]
from majiang.tournament.checkin import records as checkin_records
from majiang.tournament.checkin import required as checkin_required
from majiang.tournament.draw import has_entries
from majiang.tournament.history import HistoryError, standings_as_of
from majiang.tournament.model import (
    HANDS_PER_SESSION,
    Event,
    Group,
)
from majiang.tournament.phases import Phase, PhaseError, bounds, check_phases, overall, phases_of
from majiang.tournament.phases import fields as phase_fields
from majiang.tournament.ranking import GroupResult, evaluate, evaluate_event
from majiang.tournament.scoring import TableResult
from majiang.tournament.standard import TieSplit

MAX_SESSION = 100  # check-in ahead: no session past this


@dataclass(frozen=True, slots=True)
class EventSummary:
    id: str
    name: str
    scheme: str
    rules: str
    players: int
    sessions: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "scheme": self.scheme,
            "rules": self.rules,
            "players": self.players,
            "sessions": self.sessions,
        }


def slug(name: str) -> str:
    """An event id from a name: lower-case ASCII letters, digits and dashes (``event`` if none)."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32].strip("-")
    return s or "event"


def scored_group(group: Group) -> Group:
    """The group without its trailing sessions that are drawn but have nothing entered yet (they would
    rank everyone equal)."""
    sessions = list(group.sessions)
    while sessions and not has_entries(sessions[-1]):
        sessions.pop()
    return replace(group, sessions=tuple(sessions)) if len(sessions) != len(group.sessions) else group


def scored_event(event: Event) -> Event:
    return replace(event, groups=tuple(scored_group(g) for g in event.groups))


class TournamentRepository(EntryDesk):
    """The use cases of an event in the database: events whole, the referee's entries
    (:class:`~majiang.tournament.adapters.entry.EntryDesk`), the session clock, hall links, the
    results derived from the loaded event, phases and check-in; on the mapping of
    :mod:`~majiang.tournament.adapters.mapping`."""

    # ---- events ----------------------------------------------------------------------------------
    def list_events(self) -> list[EventSummary]:
        with self._session() as s:
            players = dict(s.execute(select(TTPlayer.event_id, func.count()).group_by(TTPlayer.event_id)).all())
            sessions = dict(
                s.execute(select(TTSession.event_id, func.max(TTSession.no)).group_by(TTSession.event_id)).all()
            )
            rows = s.scalars(select(TTEvent).order_by(TTEvent.created_at, TTEvent.id)).all()
            return [
                EventSummary(r.id, r.name, r.scheme, r.rules, int(players.get(r.id, 0)), int(sessions.get(r.id) or 0))
                for r in rows
            ]

    def exists(self, event_id: str) -> bool:
        with self._session() as s:
            return s.get(TTEvent, event_id) is not None

    def new_id(self, name: str) -> str:
        """A free event id derived from the name (``spring-cup``, ``spring-cup-2`` …)."""
        base = slug(name)
        with self._session() as s:
            taken = set(s.scalars(select(TTEvent.id).where(TTEvent.id.like(f"{base}%"))))
        if base not in taken:
            return base
        k = 2
        while f"{base}-{k}" in taken:
            k += 1
        return f"{base}-{k}"

    def create(self, event: Event) -> str:
        """Store a new event; its id must be free."""
        with self._session() as s:
            if s.get(TTEvent, event.id) is not None:
                raise RepositoryError(f"event {event.id!r} exists already: pick another id, or delete it first")
            self._write(s, event)
        return event.id

    def save(self, event: Event) -> None:
        """Store the event, replacing whatever was stored under its id."""
        with self._session() as s:
            row = s.get(TTEvent, event.id)
            created = row.created_at if row is not None else None
            self._delete(s, event.id)
            self._write(s, event, created)

    def delete(self, event_id: str) -> None:
        with self._session() as s:
            if s.get(TTEvent, event_id) is None:
                raise EventNotFound(self._missing(s, event_id))
            self._delete(s, event_id)
            s.execute(delete(TTEntry).where(TTEntry.event_id == event_id))

    def set_extra(self, event_id: str, **values: Any) -> None:
        with self._session() as s:
            ev = self._event_row(s, event_id)
            ev.extra = {**(ev.extra or {}), **values}
            ev.updated_at = now()

    # ---- the session clock (第六条) ------------------------------------------------------------------
    def start_clock(
        self, event_id: str, session_no: int, *, minutes: int = 180, warn: int = 15, start: datetime | None = None
    ) -> dict[str, Any]:
        """Start (or restart) session ``session_no``'s clock; returns :func:`.clock_state` now."""
        from majiang.tournament.clock import clock_state, new_clock

        event = self.load(event_id)
        sessions = event.groups[0].sessions if event.groups else ()
        if not 1 <= session_no <= len(sessions):
            raise RepositoryError(f"session {session_no} is not drawn ({len(sessions)} drawn)")
        if checkin_required(event) and not has_entries(sessions[session_no - 1]):
            here = checkin_records(event, session_no)
            missing = [p for t in sessions[session_no - 1].tables for p in t.players if p not in here]
            if missing:
                raise RepositoryError(
                    f"session {session_no}: {', '.join(missing)} not checked in; check them in "
                    f"('majiang tournament checkin {event_id} --session {session_no} …'), or give them byes "
                    f"('majiang tournament draw {event_id} --session {session_no} --method redraw') or "
                    "substitutes ('absent … --substitute') before the clock starts"
                )
        clocks = dict(event.extra.get("clocks") or {})
        clocks[str(session_no)] = new_clock(start or datetime.now(UTC), minutes, warn)
        self.set_extra(event_id, clocks=clocks)
        return clock_state(clocks[str(session_no)], datetime.now(UTC))

    def clock(self, event_id: str, session_no: int | None = None) -> dict[str, Any]:
        """The clock of ``session_no`` (default the last drawn) with ``session`` and ``called``: the
        tables where time was called."""
        from majiang.tournament.clock import clock_state

        event = self.load(event_id)
        sessions = event.groups[0].sessions if event.groups else ()
        k = session_no or len(sessions)
        state = clock_state((event.extra.get("clocks") or {}).get(str(k)), datetime.now(UTC))
        called = [t.no for t in sessions[k - 1].tables if t.time_called] if 1 <= k <= len(sessions) else []
        call = (event.extra.get("time_calls") or {}).get(str(k))
        return {**state, "session": k, "called": called, "time_call": call or None}

    def call_time(self, event_id: str, session_no: int, *, by: str = "clock") -> list[int]:
        """Time is up: call it at every table of the session still playing (fewer than 16 hands, no
        totals); returns their numbers.  Each call is logged like ``enter --time-called``.  第六条: the
        hand in play at each of them is finished and may still be entered (``extra["time_calls"]``,
        :func:`.new_time_call`); no hand after it."""
        from majiang.tournament.clock import new_time_call

        event = self.load(event_id)
        group = event.groups[0]
        if not 1 <= session_no <= len(group.sessions):
            raise RepositoryError(f"session {session_no} is not drawn ({len(group.sessions)} drawn)")
        tables = [
            t
            for t in group.sessions[session_no - 1].tables
            if not t.time_called and t.totals is None and len(t.hands) < HANDS_PER_SESSION
        ]
        playing = [t.no for t in tables]
        if tables:
            calls = dict(event.extra.get("time_calls") or {})
            earlier = dict((calls.get(str(session_no)) or {}).get("in_play") or {})
            call = new_time_call(datetime.now(UTC), by, {t.no: len(t.hands) for t in tables})
            calls[str(session_no)] = {**call, "in_play": {**earlier, **call["in_play"]}}
            self.set_extra(event_id, time_calls=calls)
        for no in playing:
            self.set_time_called(event_id, session_no, no, group_id=group.id, by=by)
        return playing

    def link_hall_table(
        self, event_id: str, session_no: int, table_no: int, hall_table: str | None, *, group_id: str | None = None
    ) -> None:
        """Remember which hall table plays an event table (online events)."""
        with self._session() as s:
            event = self._load(s, event_id)
            row = self._table_row(s, event_id, self._group_id(event, group_id), session_no, table_no)
            row.hall_table = hall_table

    def hall_tables(self, event_id: str | None = None) -> dict[str, tuple[str, str, int, int]]:
        """Hall table id → (event, group, session, table) for the linked tables."""
        with self._session() as s:
            q = select(TTTable).where(TTTable.hall_table.is_not(None))
            if event_id is not None:
                q = q.where(TTTable.event_id == event_id)
            return {
                r.hall_table: (r.event_id, r.group_id, r.session_no, r.table_no) for r in s.scalars(q) if r.hall_table
            }

    def set_account(self, event_id: str, player_id: str, account_id: int | None) -> None:
        """Link a player to a hall account (online events)."""
        with self._session() as s:
            row = s.get(TTPlayer, (event_id, player_id))
            if row is None:
                raise RepositoryError(f"event {event_id!r} has no player {player_id!r}")
            row.account_id = account_id

    def accounts(self, event_id: str) -> dict[str, int]:
        """Player id → hall account for the linked players."""
        with self._session() as s:
            rows = s.execute(
                select(TTPlayer.player_id, TTPlayer.account_id).where(
                    TTPlayer.event_id == event_id, TTPlayer.account_id.is_not(None)
                )
            ).all()
            return {p: int(a) for p, a in rows if a is not None}

    # ---- derived ---------------------------------------------------------------------------------
    def results(self, event_id: str) -> tuple[Event, dict[str, GroupResult]]:
        """The stored event and every group evaluated (sessions drawn but still empty are left out); an
        event in phases with a cut is ranked as :func:`.phases.overall` ranks it."""
        event = self.load(event_id)
        scored = scored_event(event)
        if not phases_of(event):
            return event, evaluate_event(scored)
        return event, {g.id: overall(scored, g) for g in scored.groups}

    def history(
        self, event_id: str, after: int | None = None, *, phase: str | None = None
    ) -> tuple[Event, dict[str, tuple[GroupResult, GroupResult | None]]]:
        """Every group's standings after session ``after`` (default the last with results; or one
        phase's) with the standings after the session before (:func:`.history.standings_as_of`)."""
        event = self.load(event_id)
        scored = scored_event(event)
        try:
            return event, {g.id: standings_as_of(scored, g, after, phase=phase) for g in scored.groups}
        except (HistoryError, PhaseError) as e:
            raise RepositoryError(str(e)) from None

    def full_result(self, event_id: str, group_id: str | None = None) -> GroupResult:
        """One group evaluated with every drawn session (for score sheets of tables still empty)."""
        event = self.load(event_id)
        group = self._group(event, self._group_id(event, group_id))
        tie: TieSplit = "top" if event.tie_split == "top" else "average"
        n = phase_fields(group, phases_of(event))  # a final's sessions: N is its cut
        return evaluate(group, rules=event.rules, scheme=event.scheme, tie_split=tie, fields=n)

    def table_result(self, event_id: str, session_no: int, table_no: int, group_id: str | None = None) -> TableResult:
        """A stored table's scores so far."""
        event = self.load(event_id)
        gid = self._group_id(event, group_id)
        return self._check(event, gid, session_no, self._table(event, gid, session_no, table_no))

    def standings(self, event_id: str, after: int | None = None, *, phase: str | None = None) -> dict[str, Any]:
        """:func:`standings_json` after session ``after`` (default: the last with results) or of one
        phase, each row with its rank movement since the session before."""
        event, got = self.history(event_id, after, phase=phase)
        available = {g.id: len(scored_group(g).sessions) for g in event.groups}
        return standings_json(
            event,
            {k: v[0] for k, v in got.items()},
            previous={k: v[1] for k, v in got.items()},
            available=available,
            after=after,
            phase=phase,
        )

    # ---- phases and check-in ---------------------------------------------------------------------
    def set_phases(self, event_id: str, phases: Sequence[Phase]) -> None:
        """Store the event's phases.  A phase with a drawn session stays as it is (add or change the later ones)."""
        with self._session() as s:
            ev = self._event_row(s, event_id)
            event = self._load(s, event_id)
            try:
                new = check_phases(phases)
                old = phases_of(event)
            except PhaseError as e:
                raise RepositoryError(str(e)) from None
            drawn = max((len(g.sessions) for g in event.groups), default=0)
            for i, p in enumerate(old):
                first, _ = bounds(old, i)
                if first <= drawn and (i >= len(new) or new[i] != p):
                    raise RepositoryError(
                        f"phase {p.name} has session {first} drawn already: it cannot be changed or removed "
                        "(change the phases after it)"
                    )
            ev.extra = {**(ev.extra or {}), "phases": [p.to_dict() for p in new]}
            ev.updated_at = now()

    def set_checkin_required(self, event_id: str, required: bool) -> None:
        self.set_extra(event_id, checkin=bool(required))

    def checkins(self, event_id: str, session_no: int) -> dict[str, dict[str, Any]]:
        """Player id → ``{"at", "by"}`` of those checked in for the session."""
        return checkin_records(self.load(event_id), session_no)

    def check_in(
        self, event_id: str, session_no: int, players: Sequence[str], *, by: str = "referee", undo: bool = False
    ) -> list[str]:
        """Check players in for session ``session_no`` (``undo``: take their check-in back); returns the
        ids whose state changed.  Each id must be a player of the event; a session with results is closed."""
        with self._session() as s:
            ev = s.get(TTEvent, event_id, with_for_update=True)  # two desks at once: one after the other
            if ev is None:
                raise EventNotFound(self._missing(s, event_id))
            event = self._load(s, event_id)
            group = event.groups[0] if event.groups else None
            if group is None:
                raise RepositoryError(f"event {event_id!r} has no players")
            if not 1 <= session_no <= MAX_SESSION:
                raise RepositoryError(f"sessions are numbered 1–{MAX_SESSION}")
            if session_no <= len(group.sessions) and has_entries(group.sessions[session_no - 1]):
                raise RepositoryError(f"session {session_no} has results already: its check-in is closed")
            known = {p.id for p in group.players}
            unknown = [p for p in players if p not in known]
            if unknown:
                raise RepositoryError(f"no player {', '.join(unknown)} in event {event_id!r}")
            all_in = dict(ev.extra.get("checkins") or {}) if ev.extra else {}
            here = dict(all_in.get(str(session_no)) or {})
            changed = []
            for p in dict.fromkeys(players):
                if undo and p in here:
                    del here[p]
                    changed.append(p)
                elif not undo and p not in here:
                    here[p] = {"at": datetime.now(UTC).isoformat(timespec="seconds"), "by": by[:100]}
                    changed.append(p)
            all_in[str(session_no)] = here
            ev.extra = {**(ev.extra or {}), "checkins": all_in}
            ev.updated_at = now()
            return changed
