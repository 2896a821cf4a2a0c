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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from majiang.store import Database
from majiang.store.models import now
from majiang.store.tournament_models import (
    TTEntry,
    TTEvent,
    TTGroup,
    TTHand,
    TTPenalty,
    TTPlayer,
    TTSession,
    TTTable,
    TTTeam,
)
from majiang.tournament.checkin import records as checkin_records
from majiang.tournament.checkin import required as checkin_required
from majiang.tournament.draw import has_entries
from majiang.tournament.history import HistoryError, arrows, standings_as_of, team_arrows
from majiang.tournament.model import (
    HANDS_PER_SESSION,
    Event,
    Group,
    HandRecord,
    ModelError,
    Player,
    SessionRecord,
    Substitution,
    TableRecord,
    Team,
)
from majiang.tournament.penalties import Penalty, PenaltyCode, PenaltyError
from majiang.tournament.phases import Phase, PhaseError, bounds, check_phases, overall, phases_of
from majiang.tournament.phases import fields as phase_fields
from majiang.tournament.ranking import GroupResult, evaluate, evaluate_event, tie_breaks
from majiang.tournament.roster import withdrawals
from majiang.tournament.scoring import EntryError, TableResult, score_table
from majiang.tournament.standard import TieSplit

RESERVE_SLOT = 4
MAX_SESSION = 100  # check-in ahead: no session past this
_ORDER = (TTPenalty, TTHand, TTTable, TTSession, TTPlayer, TTTeam, TTGroup)


class RepositoryError(ValueError):
    """A request the stored event cannot satisfy; the message says how to fix it."""


class EventNotFound(RepositoryError):
    pass


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


def time_called_error(session_no: int, table_no: int, entered: int) -> str:
    """第六条: once time is called only the hand in play finishes, and it is entered with the call."""
    return (
        f"time was called at session {session_no} table {table_no} after hand {entered}: no later hand may be "
        "entered (enter the hand in play in the same command as --time-called)"
    )


def scored_group(group: Group) -> Group:
    """The group without its trailing sessions that are drawn but have nothing entered yet (they would
    rank everyone equal)."""
    sessions = list(group.sessions)
    while sessions and not has_entries(sessions[-1]):
        sessions.pop()
    return replace(group, sessions=tuple(sessions)) if len(sessions) != len(group.sessions) else group


def scored_event(event: Event) -> Event:
    return replace(event, groups=tuple(scored_group(g) for g in event.groups))


class TournamentRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self.db.session() as s:
            yield s

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

    def load(self, event_id: str) -> Event:
        with self._session() as s:
            return self._load(s, event_id)

    def set_extra(self, event_id: str, **values: Any) -> None:
        with self._session() as s:
            ev = self._event_row(s, event_id)
            ev.extra = {**(ev.extra or {}), **values}
            ev.updated_at = now()

    # ---- entry -----------------------------------------------------------------------------------
    def put_session(self, event_id: str, group_id: str, session: SessionRecord, method: str = "") -> None:
        """Store a drawn session (its tables and whatever they hold), replacing a stored one of that number."""
        with self._session() as s:
            event = self._load(s, event_id)
            group = self._group(event, group_id)
            if session.no > len(group.sessions) + 1:
                raise RepositoryError(f"session {session.no} cannot be stored before session {len(group.sessions) + 1}")
            sessions = list(group.sessions)
            if session.no <= len(sessions):
                sessions[session.no - 1] = session
            else:
                sessions.append(session)
            try:
                Group(id=group.id, name=group.name, players=group.players, teams=group.teams, sessions=tuple(sessions))
            except ModelError as e:
                raise RepositoryError(str(e)) from None
            key = (TTTable.event_id == event_id, TTTable.group_id == group_id, TTTable.session_no == session.no)
            for model in (TTPenalty, TTHand):
                s.execute(
                    delete(model).where(
                        model.event_id == event_id, model.group_id == group_id, model.session_no == session.no
                    )
                )
            s.execute(delete(TTTable).where(*key))
            s.execute(
                delete(TTSession).where(
                    TTSession.event_id == event_id, TTSession.group_id == group_id, TTSession.no == session.no
                )
            )
            s.flush()
            self._write_session(s, event_id, group_id, session, method)
            self._touch(s, event_id)

    def add_player(self, event_id: str, group_id: str, player: Player) -> None:
        """Register one more player (a substitute) in a group; his id must be free in the event."""
        with self._session() as s:
            self._group(self._load(s, event_id), group_id)
            if s.get(TTPlayer, (event_id, player.id)) is not None:
                raise RepositoryError(f"event {event_id!r} has a player {player.id!r} already")
            position = s.scalar(select(func.count()).select_from(TTPlayer).where(TTPlayer.event_id == event_id))
            s.add(
                TTPlayer(
                    event_id=event_id,
                    player_id=player.id,
                    group_id=group_id,
                    name=player.name,
                    team_id=player.team,
                    team_slot=None,
                    ranked=player.ranked,
                    ema_id=player.ema_id,
                    country=player.country,
                    position=int(position or 0),
                )
            )
            self._touch(s, event_id)

    def set_seats(self, event_id: str, group_id: str, session: SessionRecord) -> None:
        """Store who sits where in a drawn session — each table's players and substitutions, and the
        session's absentees — keeping every hand, total and penalty entered (and the hall links)."""
        with self._session() as s:
            event = self._load(s, event_id)
            group = self._group(event, group_id)
            if not 1 <= session.no <= len(group.sessions):
                raise RepositoryError(f"session {session.no} is not drawn; draw it first")
            old = group.sessions[session.no - 1]
            if [t.no for t in old.tables] != [t.no for t in session.tables]:
                raise RepositoryError(f"session {session.no}: the tables changed; store a re-draw with put_session")
            sessions = tuple(session if x.no == session.no else x for x in group.sessions)
            try:
                replace(group, sessions=sessions)
            except ModelError as e:
                raise RepositoryError(str(e)) from None
            for t in session.tables:
                row = self._table_row(s, event_id, group_id, session.no, t.no)
                row.east, row.south, row.west, row.north = t.players
                row.substitutions = [x.to_dict() for x in t.substitutions]
            srow = s.get(TTSession, (event_id, group_id, session.no))
            if srow is not None:
                srow.absent = list(session.absent)
            self._touch(s, event_id)

    def table(self, event_id: str, session_no: int, table_no: int, group_id: str | None = None) -> TableRecord:
        event = self.load(event_id)
        return self._table(event, self._group_id(event, group_id), session_no, table_no)

    def enter_hand(
        self,
        event_id: str,
        session_no: int,
        table_no: int,
        hand: HandRecord,
        *,
        group_id: str | None = None,
        replace_existing: bool = False,
        source: str = "referee",
        by: str | None = None,
    ) -> TableResult:
        """Record one hand.  Hands are entered in order (1, 2, 3 …); ``replace_existing`` corrects an
        entered hand.  Logged (:meth:`entries`) as by ``by`` (default ``source``).  Returns the table's
        scores so far."""
        with self._session() as s:
            event = self._load(s, event_id)
            gid = self._group_id(event, group_id)
            table = self._table(event, gid, session_no, table_no)
            if table.totals is not None:
                raise RepositoryError(
                    f"session {session_no} table {table_no} was entered as quick totals; hands cannot be added to it"
                )
            n = len(table.hands)
            if hand.no > n + 1:
                raise RepositoryError(
                    f"session {session_no} table {table_no} has {n} hand(s); enter hand {n + 1} before hand {hand.no}"
                )
            if hand.no > n and table.time_called:
                raise RepositoryError(time_called_error(session_no, table_no, n))
            if hand.no <= n and not replace_existing:
                raise RepositoryError(
                    f"hand {hand.no} of session {session_no} table {table_no} is entered "
                    "already; use --replace to correct it"
                )
            if n >= HANDS_PER_SESSION and hand.no > HANDS_PER_SESSION:
                raise RepositoryError("a session has 16 hands")
            hands = list(table.hands)
            replaced = hands[hand.no - 1] if hand.no <= n else None
            if hand.no <= n:
                hands[hand.no - 1] = hand
            else:
                hands.append(hand)
            result = self._check(event, gid, session_no, replace(table, hands=tuple(hands)))
            key = dict(event_id=event_id, group_id=gid, session_no=session_no, table_no=table_no)
            s.execute(
                delete(TTPenalty).where(
                    *(getattr(TTPenalty, k) == v for k, v in key.items()), TTPenalty.hand_no == hand.no
                )
            )
            s.execute(delete(TTHand).where(*(getattr(TTHand, k) == v for k, v in key.items()), TTHand.no == hand.no))
            s.flush()
            self._write_hand(s, key, hand, source)
            self._log(
                s,
                key,
                "hand",
                by or source,
                {"hand": hand.to_dict(), "replaced": None if replaced is None else replaced.to_dict()},
                hand.no,
            )
            self._touch(s, event_id)
            return result

    def enter_hands(
        self,
        event_id: str,
        session_no: int,
        table_no: int,
        hands: Sequence[HandRecord],
        *,
        group_id: str | None = None,
        source: str = "referee",
        by: str | None = None,
    ) -> TableResult:
        """Record the next hands of a table in one transaction (a table played on the engine)."""
        with self._session() as s:
            event = self._load(s, event_id)
            gid = self._group_id(event, group_id)
            table = self._table(event, gid, session_no, table_no)
            if table.totals is not None:
                raise RepositoryError(f"session {session_no} table {table_no} was entered as quick totals")
            if hands and table.time_called:
                raise RepositoryError(time_called_error(session_no, table_no, len(table.hands)))
            try:
                new = replace(table, hands=(*table.hands, *hands))
            except ModelError as e:
                raise RepositoryError(f"{e} ({len(table.hands)} hand(s) entered before)") from None
            result = self._check(event, gid, session_no, new)
            key = dict(event_id=event_id, group_id=gid, session_no=session_no, table_no=table_no)
            for h in hands:
                self._write_hand(s, key, h, source)
            if hands:
                self._log(s, key, "hands", by or source, {"hands": [h.to_dict() for h in hands]}, hands[0].no)
            self._touch(s, event_id)
            return result

    def enter_totals(
        self,
        event_id: str,
        session_no: int,
        table_no: int,
        totals: Sequence[int],
        *,
        group_id: str | None = None,
        by: str = "referee",
    ) -> TableResult:
        """Quick entry: each seat's sum of hand scores (zero-sum) for the whole session."""
        with self._session() as s:
            event = self._load(s, event_id)
            gid = self._group_id(event, group_id)
            table = self._table(event, gid, session_no, table_no)
            if table.hands:
                raise RepositoryError(
                    f"session {session_no} table {table_no} already has {len(table.hands)} hand(s) "
                    "entered; quick totals replace hand-by-hand entry only on an empty table"
                )
            try:
                new = replace(table, totals=tuple(int(t) for t in totals))
            except ModelError as e:
                raise RepositoryError(str(e)) from None
            result = self._check(event, gid, session_no, new)
            row = self._table_row(s, event_id, gid, session_no, table_no)
            row.totals = list(new.totals or ())
            key = dict(event_id=event_id, group_id=gid, session_no=session_no, table_no=table_no)
            self._log(
                s,
                key,
                "totals",
                by,
                {"totals": list(new.totals or ()), "replaced": None if table.totals is None else list(table.totals)},
            )
            self._touch(s, event_id)
            return result

    def add_table_penalty(
        self,
        event_id: str,
        session_no: int,
        table_no: int,
        penalty: Penalty,
        *,
        group_id: str | None = None,
        by: str = "referee",
    ) -> TableResult:
        """A penalty not tied to a hand (late arrival, misconduct between hands …)."""
        with self._session() as s:
            event = self._load(s, event_id)
            gid = self._group_id(event, group_id)
            table = self._table(event, gid, session_no, table_no)
            result = self._check(event, gid, session_no, replace(table, penalties=(*table.penalties, penalty)))
            key = dict(event_id=event_id, group_id=gid, session_no=session_no, table_no=table_no)
            self._write_penalty(s, key, None, len(table.penalties), penalty)
            self._log(s, key, "penalty", by, {"penalty": penalty.to_dict()})
            self._touch(s, event_id)
            return result

    def set_time_called(
        self,
        event_id: str,
        session_no: int,
        table_no: int,
        called: bool = True,
        *,
        group_id: str | None = None,
        by: str = "referee",
    ) -> None:
        with self._session() as s:
            event = self._load(s, event_id)
            gid = self._group_id(event, group_id)
            row = self._table_row(s, event_id, gid, session_no, table_no)
            before = bool(row.time_called)
            row.time_called = called
            if before != called:
                key = dict(event_id=event_id, group_id=gid, session_no=session_no, table_no=table_no)
                self._log(s, key, "time_call", by, {"called": called, "before": before})
            self._touch(s, event_id)

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
        return {**state, "session": k, "called": called}

    def call_time(self, event_id: str, session_no: int, *, by: str = "clock") -> list[int]:
        """Time is up: call it at every table of the session still playing (fewer than 16 hands, no
        totals); returns their numbers.  Each call is logged like ``enter --time-called``."""
        event = self.load(event_id)
        group = event.groups[0]
        if not 1 <= session_no <= len(group.sessions):
            raise RepositoryError(f"session {session_no} is not drawn ({len(group.sessions)} drawn)")
        playing = [
            t.no
            for t in group.sessions[session_no - 1].tables
            if not t.time_called and t.totals is None and len(t.hands) < HANDS_PER_SESSION
        ]
        for no in playing:
            self.set_time_called(event_id, session_no, no, group_id=group.id, by=by)
        return playing

    # ---- the entries log and undo ------------------------------------------------------------------
    def entries(
        self, event_id: str, session_no: int | None = None, table_no: int | None = None, *, group_id: str | None = None
    ) -> list[dict[str, Any]]:
        """The log of a table's (or a session's, or the event's) entries, oldest first: ``{"id", "group",
        "session", "table", "kind", "hand", "data", "by", "at" (ISO 8601), "undone_by", "summary"}``."""
        with self._session() as s:
            event = self._load(s, event_id)
            q = select(TTEntry).where(TTEntry.event_id == event_id)
            if group_id is not None:
                q = q.where(TTEntry.group_id == self._group_id(event, group_id))
            if session_no is not None:
                q = q.where(TTEntry.session_no == session_no)
            if table_no is not None:
                q = q.where(TTEntry.table_no == table_no)
            return [_entry_dict(e) for e in s.scalars(q.order_by(TTEntry.id)).all()]

    def undo(
        self,
        event_id: str,
        session_no: int | None = None,
        table_no: int | None = None,
        *,
        entry_id: int | None = None,
        group_id: str | None = None,
        by: str = "referee",
    ) -> dict[str, Any]:
        """Reverse one entry: ``entry_id``, or the last entry of the table not undone yet.  A hand is taken
        back (a correction puts the hand it replaced back), totals cleared (or the earlier totals put
        back), a table penalty removed (one of two equal ones: the later), a time call withdrawn.  A hand
        with later hands after it cannot be taken back before them (correct it with --replace instead).
        The reversal is checked like any entry and logged as an ``undo`` entry; returns the undone entry."""
        with self._session() as s:
            event = self._load(s, event_id)
            if entry_id is not None:
                e = s.get(TTEntry, entry_id)
                if e is None or e.event_id != event_id:
                    raise RepositoryError(
                        f"event {event_id} has no entry {entry_id}: see majiang tournament log {event_id}"
                    )
            else:
                if session_no is None or table_no is None:
                    raise RepositoryError("undo needs --session K --table T, or --entry ID")
                gid = self._group_id(event, group_id)
                e = s.scalars(
                    select(TTEntry)
                    .where(
                        TTEntry.event_id == event_id,
                        TTEntry.group_id == gid,
                        TTEntry.session_no == session_no,
                        TTEntry.table_no == table_no,
                        TTEntry.kind != "undo",
                        TTEntry.undone_by.is_(None),
                    )
                    .order_by(TTEntry.id.desc())
                    .limit(1)
                ).first()
                if e is None:
                    self._table(event, gid, session_no, table_no)  # no such table: say so
                    raise RepositoryError(f"session {session_no} table {table_no} has nothing to undo")
            if e.kind == "undo":
                raise RepositoryError(f"entry {e.id} is an undo: enter the result again instead")
            if e.undone_by is not None:
                raise RepositoryError(f"entry {e.id} was undone already (by entry {e.undone_by})")
            table = self._table(event, e.group_id, e.session_no, e.table_no)
            key = dict(event_id=event_id, group_id=e.group_id, session_no=e.session_no, table_no=e.table_no)
            new = self._reversed(table, e)
            self._check(event, e.group_id, e.session_no, new)
            self._store_table(s, key, table, new)
            undo = self._log(s, key, "undo", by, {"entry": e.id, "kind": e.kind}, e.hand_no)
            e.undone_by = undo.id
            self._touch(s, event_id)
            return _entry_dict(e)

    def _reversed(self, table: TableRecord, e: TTEntry) -> TableRecord:
        """The table with entry ``e`` taken back."""
        d = e.data
        where = f"entry {e.id} (session {e.session_no} table {e.table_no})"
        if e.kind in ("hand", "hands"):
            entered = [HandRecord.from_dict(h) for h in (d["hands"] if e.kind == "hands" else [d["hand"]])]
            first, last = entered[0].no, entered[-1].no
            current = table.hands[first - 1 : last]
            if tuple(current) != tuple(entered):
                raise RepositoryError(f"{where}: hand {first} was changed since; undo the later entry first")
            if e.kind == "hand" and d.get("replaced") is not None:
                hands = list(table.hands)
                hands[first - 1] = HandRecord.from_dict(d["replaced"])
                return replace(table, hands=tuple(hands))
            if len(table.hands) > last:
                raise RepositoryError(
                    f"{where}: hands {last + 1}–{len(table.hands)} come after it; undo them "
                    f"first, or correct hand {first} with --replace"
                )
            return replace(table, hands=table.hands[: first - 1])
        if e.kind == "totals":
            return replace(table, totals=None if d.get("replaced") is None else tuple(d["replaced"]))
        if e.kind == "penalty":
            p = Penalty.from_dict(d["penalty"])
            at = [i for i, x in enumerate(table.penalties) if x == p]
            if not at:
                raise RepositoryError(f"{where}: the table has no such penalty any more")
            return replace(table, penalties=tuple(x for i, x in enumerate(table.penalties) if i != at[-1]))
        if e.kind == "time_call":
            return replace(table, time_called=bool(d["before"]))
        raise RepositoryError(f"{where}: cannot undo a {e.kind!r} entry")

    def _store_table(self, s: Session, key: dict[str, Any], old: TableRecord, new: TableRecord) -> None:
        """Write what differs between ``old`` and ``new`` (hands, totals, table penalties, time call)."""
        row = self._table_row(s, **key)
        where = [getattr(TTPenalty, k) == v for k, v in key.items()]
        if new.hands != old.hands:
            s.execute(delete(TTPenalty).where(*where, TTPenalty.hand_no.is_not(None)))
            s.execute(delete(TTHand).where(*(getattr(TTHand, k) == v for k, v in key.items())))
            s.flush()
            for h in new.hands:
                self._write_hand(s, key, h, "referee")
        if new.penalties != old.penalties:
            s.execute(delete(TTPenalty).where(*where, TTPenalty.hand_no.is_(None)))
            s.flush()
            for i, p in enumerate(new.penalties):
                self._write_penalty(s, key, None, i, p)
        row.totals = None if new.totals is None else list(new.totals)
        row.time_called = new.time_called

    def _log(
        self, s: Session, key: dict[str, Any], kind: str, by: str, data: dict[str, Any], hand_no: int | None = None
    ) -> TTEntry:
        e = TTEntry(**key, kind=kind, hand_no=hand_no, data=data, by=by[:100])
        s.add(e)
        s.flush()
        return e

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

    # ---- internals -------------------------------------------------------------------------------
    def _missing(self, s: Session, event_id: str) -> str:
        known = list(s.scalars(select(TTEvent.id).order_by(TTEvent.id).limit(20)))
        hint = f"events: {', '.join(known)}" if known else "no events yet; create one with 'majiang tournament new'"
        return f"no event {event_id!r} ({hint})"

    def _event_row(self, s: Session, event_id: str) -> TTEvent:
        row = s.get(TTEvent, event_id)
        if row is None:
            raise EventNotFound(self._missing(s, event_id))
        return row

    def _touch(self, s: Session, event_id: str) -> None:
        self._event_row(s, event_id).updated_at = now()

    def _group_id(self, event: Event, group_id: str | None) -> str:
        if group_id is None:
            if not event.groups:
                raise RepositoryError(f"event {event.id!r} has no groups")
            return event.groups[0].id
        self._group(event, group_id)
        return group_id

    def _group(self, event: Event, group_id: str) -> Group:
        try:
            return event.group(group_id)
        except KeyError:
            raise RepositoryError(
                f"event {event.id!r} has no group {group_id!r}; groups: {', '.join(g.id for g in event.groups)}"
            ) from None

    def _table(self, event: Event, group_id: str, session_no: int, table_no: int) -> TableRecord:
        group = self._group(event, group_id)
        if not 1 <= session_no <= len(group.sessions):
            raise RepositoryError(
                f"session {session_no} is not drawn ({len(group.sessions)} drawn); draw it with "
                f"'majiang tournament draw {event.id} --session {session_no}'"
            )
        tables = group.sessions[session_no - 1].tables
        if not 1 <= table_no <= len(tables):
            raise RepositoryError(f"session {session_no} has tables 1–{len(tables)}, not {table_no}")
        return tables[table_no - 1]

    def _table_row(self, s: Session, event_id: str, group_id: str, session_no: int, table_no: int) -> TTTable:
        row = s.get(TTTable, (event_id, group_id, session_no, table_no))
        if row is None:
            raise RepositoryError(f"session {session_no} has no table {table_no}")
        return row

    def _check(self, event: Event, group_id: str, session_no: int, table: TableRecord) -> TableResult:
        group = self._group(event, group_id)
        try:
            return score_table(
                table, session=session_no, rules=event.rules, ranked=frozenset(p.id for p in group.ranked_players)
            )
        except (EntryError, ModelError, PenaltyError) as e:
            raise RepositoryError(str(e)) from None

    def _delete(self, s: Session, event_id: str) -> None:
        for model in _ORDER:
            s.execute(delete(model).where(model.event_id == event_id))
        s.execute(delete(TTEvent).where(TTEvent.id == event_id))
        s.flush()

    def _write(self, s: Session, event: Event, created: Any = None) -> None:
        row = TTEvent(
            id=event.id,
            name=event.name,
            rules=event.rules,
            scheme=event.scheme,
            tie_split=event.tie_split,
            extra=dict(event.extra),
        )
        if created is not None:
            row.created_at = created
        s.add(row)
        s.flush()
        for gi, g in enumerate(event.groups):
            s.add(TTGroup(event_id=event.id, group_id=g.id, name=g.name, position=gi))
            s.flush()
            slots: dict[str, int] = {}
            for t in g.teams:
                for k, pid in enumerate(t.players):
                    slots[pid] = k
                if t.reserve:
                    slots[t.reserve] = RESERVE_SLOT
            for ti, t in enumerate(g.teams):
                s.add(TTTeam(event_id=event.id, team_id=t.id, group_id=g.id, name=t.name, leader=t.leader, position=ti))
            for pi, p in enumerate(g.players):
                s.add(
                    TTPlayer(
                        event_id=event.id,
                        player_id=p.id,
                        group_id=g.id,
                        name=p.name,
                        team_id=p.team,
                        team_slot=slots.get(p.id),
                        ranked=p.ranked,
                        ema_id=p.ema_id,
                        country=p.country,
                        position=pi,
                    )
                )
            s.flush()
            for sess in g.sessions:
                self._write_session(s, event.id, g.id, sess, "")

    def _write_session(self, s: Session, event_id: str, group_id: str, sess: SessionRecord, method: str) -> None:
        s.add(TTSession(event_id=event_id, group_id=group_id, no=sess.no, absent=list(sess.absent), method=method))
        s.flush()
        for t in sess.tables:
            e, so, w, n = t.players
            s.add(
                TTTable(
                    event_id=event_id,
                    group_id=group_id,
                    session_no=sess.no,
                    table_no=t.no,
                    east=e,
                    south=so,
                    west=w,
                    north=n,
                    totals=None if t.totals is None else list(t.totals),
                    time_called=t.time_called,
                    substitutions=[x.to_dict() for x in t.substitutions],
                )
            )
        s.flush()
        for t in sess.tables:
            key = dict(event_id=event_id, group_id=group_id, session_no=sess.no, table_no=t.no)
            for h in t.hands:
                self._write_hand(s, key, h, "referee")
            for i, p in enumerate(t.penalties):
                self._write_penalty(s, key, None, i, p)

    def _write_hand(self, s: Session, key: dict[str, Any], h: HandRecord, source: str) -> None:
        s.add(
            TTHand(
                **key,
                no=h.no,
                winner=h.winner,
                discarder=h.discarder,
                fans=list(h.fans),
                points=h.points,
                flowers=h.flowers,
                source=source,
            )
        )
        for i, p in enumerate(h.penalties):
            self._write_penalty(s, key, h.no, i, p)

    def _write_penalty(self, s: Session, key: dict[str, Any], hand_no: int | None, position: int, p: Penalty) -> None:
        s.add(
            TTPenalty(
                **key, hand_no=hand_no, position=position, seat=p.seat, code=p.code.value, points=p.points, note=p.note
            )
        )

    def _load(self, s: Session, event_id: str) -> Event:
        ev = self._event_row(s, event_id)
        groups = s.scalars(select(TTGroup).where(TTGroup.event_id == event_id).order_by(TTGroup.position)).all()
        teams = s.scalars(select(TTTeam).where(TTTeam.event_id == event_id).order_by(TTTeam.position)).all()
        players = s.scalars(select(TTPlayer).where(TTPlayer.event_id == event_id).order_by(TTPlayer.position)).all()
        sessions = s.scalars(select(TTSession).where(TTSession.event_id == event_id).order_by(TTSession.no)).all()
        tables = s.scalars(
            select(TTTable).where(TTTable.event_id == event_id).order_by(TTTable.session_no, TTTable.table_no)
        ).all()
        hands = s.scalars(select(TTHand).where(TTHand.event_id == event_id).order_by(TTHand.no)).all()
        pens = s.scalars(
            select(TTPenalty).where(TTPenalty.event_id == event_id).order_by(TTPenalty.position, TTPenalty.id)
        ).all()
        pen_of: dict[tuple[str, int, int, int | None], list[Penalty]] = {}
        for p in pens:
            pen_of.setdefault((p.group_id, p.session_no, p.table_no, p.hand_no), []).append(
                Penalty(seat=p.seat, code=PenaltyCode(p.code), points=p.points, note=p.note)
            )
        hands_of: dict[tuple[str, int, int], list[HandRecord]] = {}
        for h in hands:
            hands_of.setdefault((h.group_id, h.session_no, h.table_no), []).append(
                HandRecord(
                    no=h.no,
                    winner=h.winner,
                    discarder=h.discarder,
                    fans=tuple(h.fans or ()),
                    points=h.points,
                    flowers=h.flowers,
                    penalties=tuple(pen_of.get((h.group_id, h.session_no, h.table_no, h.no), ())),
                )
            )
        tables_of: dict[tuple[str, int], list[TableRecord]] = {}
        for t in tables:
            tables_of.setdefault((t.group_id, t.session_no), []).append(
                TableRecord(
                    no=t.table_no,
                    players=t.players,
                    hands=tuple(hands_of.get((t.group_id, t.session_no, t.table_no), ())),
                    totals=None if t.totals is None else tuple(int(x) for x in t.totals),
                    penalties=tuple(pen_of.get((t.group_id, t.session_no, t.table_no, None), ())),
                    time_called=t.time_called,
                    substitutions=tuple(Substitution.from_dict(x) for x in (t.substitutions or ())),
                )
            )
        out: list[Group] = []
        for g in groups:
            members = [p for p in players if p.group_id == g.group_id]
            team_rows = []
            for tm in teams:
                if tm.group_id != g.group_id:
                    continue
                listed = sorted(
                    (p.team_slot, p.player_id)
                    for p in members
                    if p.team_id == tm.team_id and p.team_slot is not None and p.team_slot < RESERVE_SLOT
                )
                reserve = next(
                    (p.player_id for p in members if p.team_id == tm.team_id and p.team_slot == RESERVE_SLOT), None
                )
                team_rows.append(
                    Team(
                        id=tm.team_id,
                        name=tm.name,
                        leader=tm.leader,
                        players=tuple(pid for _, pid in listed),
                        reserve=reserve,
                    )
                )
            sess = [
                SessionRecord(
                    no=x.no,
                    tables=tuple(tables_of.get((g.group_id, x.no), ())),
                    absent=tuple(str(a) for a in (x.absent or ())),
                )
                for x in sessions
                if x.group_id == g.group_id
            ]
            out.append(
                Group(
                    id=g.group_id,
                    name=g.name,
                    players=tuple(
                        Player(
                            id=p.player_id,
                            name=p.name,
                            team=p.team_id,
                            ranked=p.ranked,
                            ema_id=p.ema_id,
                            country=p.country,
                        )
                        for p in members
                    ),
                    teams=tuple(team_rows),
                    sessions=tuple(sess),
                )
            )
        return Event(
            id=ev.id,
            name=ev.name,
            rules=ev.rules,
            scheme=ev.scheme,
            tie_split=ev.tie_split,
            groups=tuple(out),
            extra=dict(ev.extra or {}),
        )


def _entry_dict(e: TTEntry) -> dict[str, Any]:
    return {
        "id": e.id,
        "group": e.group_id,
        "session": e.session_no,
        "table": e.table_no,
        "kind": e.kind,
        "hand": e.hand_no,
        "data": e.data,
        "by": e.by,
        "at": e.at.isoformat() if e.at else None,
        "undone_by": e.undone_by,
        "summary": entry_summary(e.kind, e.hand_no, e.data),
    }


def entry_summary(kind: str, hand_no: int | None, data: dict[str, Any]) -> str:
    """One line for the log: ``hand 3 (corrected)``, ``totals 40,-8,-16,-16``, ``penalty S late_arrival -10``."""
    if kind == "hand":
        return f"hand {hand_no}" + (" (corrected)" if data.get("replaced") is not None else "")
    if kind == "hands":
        n = len(data.get("hands", ()))
        return f"hands {hand_no}–{(hand_no or 1) + n - 1}" if n > 1 else f"hand {hand_no}"
    if kind == "totals":
        return "totals " + ",".join(str(x) for x in data.get("totals", ()))
    if kind == "penalty":
        p = data.get("penalty", {})
        pts = f" -{p['points']}" if p.get("points") else ""
        return f"penalty {'ESWN'[int(p.get('seat', 0))]} {p.get('code', '')}{pts}"
    if kind == "time_call":
        return "time called" if data.get("called") else "time call withdrawn"
    if kind == "undo":
        return f"undo of entry {data.get('entry')} ({data.get('kind')})"
    return kind


def _num(x: Fraction | int) -> int | float:
    f = Fraction(x)
    return int(f) if f.denominator == 1 else float(f)


def standings_json(
    event: Event,
    results: dict[str, GroupResult],
    *,
    previous: dict[str, GroupResult | None] | None = None,
    after: int | None = None,
    phase: str | None = None,
    available: dict[str, int] | None = None,
) -> dict[str, Any]:
    """``{"event", "name", "scheme", "rules", "after", "phase", "phases", "checkin", "groups": [{"group",
    "name", "sessions_drawn", "sessions_scored", "sessions", "sessions_available", "pending", "standings":
    [...], "teams": [...]}]}`` — ``after``: the session the standings are taken after (None: the last with
    results); ``sessions``: the numbers of the sessions in the columns; ``sessions_available``: how many
    sessions have results (what ``after`` may be); ``pending``: session → the tables with
    nothing entered yet; each standing with rank, ``previous_rank`` and ``movement`` (▲2 ▼1 – 新 new, empty
    after session 1; with ``previous``), player, name, team, standard_total, match_total, per-session
    standard scores and session scores; each team likewise with rank, ``previous_rank``, ``movement``,
    team, name, standard_total, match_total and members."""
    groups = []
    for g in event.groups:
        r = results[g.id]
        before = (previous or {}).get(g.id)
        prev_rank = {s.player: s.rank for s in before.standings} if before is not None else {}
        moved = arrows(r, before) if previous is not None else {}
        prev_team = {t.team: t.rank for t in before.teams} if before is not None else {}
        team_moved = team_arrows(r, before) if previous is not None else {}
        names = {p.id: p.name for p in g.players}
        team_names = {t.id: t.name for t in g.teams}
        ties = tie_breaks(r.standings)
        gone = withdrawals(event)
        groups.append(
            {
                "group": g.id,
                "name": g.name,
                "sessions_drawn": len(g.sessions),
                "sessions_scored": len(r.sessions),
                "sessions": [x.no for x in r.sessions],
                "sessions_available": (available or {}).get(g.id, len(r.sessions)),
                "pending": {str(k): list(v) for k, v in r.pending.items()},
                "standings": [
                    {
                        "rank": s.rank,
                        "previous_rank": prev_rank.get(s.player),
                        "movement": moved.get(s.player, ""),
                        "player": s.player,
                        "name": names.get(s.player, s.player),
                        "team": s.team,
                        "standard_total": _num(s.standard_total),
                        "match_total": s.match_total,
                        "session_standards": [_num(v) for v in s.session_standards],
                        "session_scores": list(s.session_scores),
                        "disqualified": s.disqualified,
                        # level on standard total with a neighbour: the tie-break that placed him
                        "tie_break": ties.get(s.player),
                        "withdrawn": s.player in gone,  # 退赛: out of every draw from then on
                    }
                    for s in r.standings
                ],
                "teams": [
                    {
                        "rank": t.rank,
                        "previous_rank": prev_team.get(t.team),
                        "movement": team_moved.get(t.team, ""),
                        "team": t.team,
                        "name": team_names.get(t.team, t.team),
                        "standard_total": _num(t.standard_total),
                        "match_total": t.match_total,
                        "members": list(t.members),
                    }
                    for t in r.teams
                ],
            }
        )
    return {
        "event": event.id,
        "name": event.name,
        "scheme": event.scheme,
        "rules": event.rules,
        "after": after,
        "phase": phase,
        "phases": [p.to_dict() for p in phases_of(event)],
        "checkin": checkin_required(event),
        "groups": groups,
    }
