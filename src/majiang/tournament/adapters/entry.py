"""The referee's entries, one transaction each, each validated with the pure core first: a drawn
session, one hand or several, quick totals, a table penalty, time called; and the entries log with
its undo.  Part of :class:`~majiang.tournament.adapters.repository.TournamentRepository`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from majiang.store.tournament_models import (
    TTEntry,
    TTHand,
    TTPenalty,
    TTPlayer,
    TTSession,
    TTTable,
)
from majiang.tournament.adapters.mapping import RepositoryBase, RepositoryError, name_parts, with_names
from majiang.tournament.adapters.standings_json import entry_dict
from majiang.tournament.model import (
    HANDS_PER_SESSION,
    Group,
    HandRecord,
    ModelError,
    Player,
    SessionRecord,
    TableRecord,
)
from majiang.tournament.penalties import Penalty
from majiang.tournament.scoring import TableResult


def time_called_error(session_no: int, table_no: int, entered: int) -> str:
    """第六条: once time is called only the hand in play finishes, and it is entered with the call."""
    return (
        f"time was called at session {session_no} table {table_no} after hand {entered}: no later hand may be "
        "entered (enter the hand in play in the same command as --time-called)"
    )


class EntryDesk(RepositoryBase):
    """The referee's writes and their undo."""

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
            if name_parts(player):
                ev = self._event_row(s, event_id)
                ev.extra = with_names(dict(ev.extra or {}), [player])
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
            if hand.no > n and table.time_called and hand.no != self._in_play(event.extra, session_no, table_no):
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

    @staticmethod
    def _in_play(extra: dict[str, Any], session_no: int, table_no: int) -> int | None:
        """The hand in play when the session's time was called (``call_time``): it may still be entered."""
        from majiang.tournament.clock import hand_in_play

        return hand_in_play((extra.get("time_calls") or {}).get(str(session_no)), table_no)

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
            return [entry_dict(e) for e in s.scalars(q.order_by(TTEntry.id)).all()]

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
            return entry_dict(e)

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
