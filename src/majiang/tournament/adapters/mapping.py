"""The database mapping of an event: :class:`~majiang.tournament.model.Event` objects to the rows of
:mod:`majiang.store.tournament_models` and back (:meth:`RepositoryBase._write`, :meth:`RepositoryBase._load`),
and the lookups every use case starts from (an event's row, a group, a table).  The use cases are
:class:`~majiang.tournament.adapters.repository.TournamentRepository`'s (the referee's entries in
:mod:`~majiang.tournament.adapters.entry`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from majiang.store import Database
from majiang.store.models import now
from majiang.store.tournament_models import (
    TTEvent,
    TTGroup,
    TTHand,
    TTPenalty,
    TTPlayer,
    TTSession,
    TTTable,
    TTTeam,
)
from majiang.tournament.errors import TournamentError
from majiang.tournament.model import (
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
from majiang.tournament.scoring import EntryError, TableResult, score_table

RESERVE_SLOT = 4
_ORDER = (TTPenalty, TTHand, TTTable, TTSession, TTPlayer, TTTeam, TTGroup)


class RepositoryError(TournamentError):
    """A request the stored event cannot satisfy; the message says how to fix it."""


class EventNotFound(RepositoryError):
    pass


class RepositoryBase:
    """The database and the mapping: what every use case of the repository builds on."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self.db.session() as s:
            yield s

    def load(self, event_id: str) -> Event:
        with self._session() as s:
            return self._load(s, event_id)

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
            extra=with_names(event.extra, [p for g in event.groups for p in g.players]),
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
        pen_of = _penalties_by_place(pens)
        tables_of = _tables_by_session(tables, _hands_by_table(hands, pen_of), pen_of)
        named = (ev.extra or {}).get(NAMES_KEY) or {}
        out = [_group_of(g, players, teams, sessions, tables_of, named) for g in groups]
        return Event(
            id=ev.id,
            name=ev.name,
            rules=ev.rules,
            scheme=ev.scheme,
            tie_split=ev.tie_split,
            groups=tuple(out),
            extra=dict(ev.extra or {}),
        )


NAMES_KEY = "names"  # tt_events.extra: player → {"family", "given", "romanised"} (no schema change)
NAME_PARTS = ("family", "given", "romanised")


def name_parts(player: Player) -> dict[str, str]:
    """The name parts registered for ``player`` (none: the guess from his name is used)."""
    return {k: getattr(player, k) for k in NAME_PARTS if getattr(player, k)}


def with_names(extra: dict[str, Any], players: Sequence[Player]) -> dict[str, Any]:
    """``extra`` with the players' registered name parts under ``names``."""
    out = dict(extra)
    names = {p.id: name_parts(p) for p in players if name_parts(p)}
    if names:
        out[NAMES_KEY] = {**(out.get(NAMES_KEY) or {}), **names}
    return out


# ---- rows to the model, part by part ------------------------------------------------------------
_Place = tuple[str, int, int, int | None]  # group, session, table, hand (None: a table penalty)


def _penalties_by_place(pens: Sequence[TTPenalty]) -> dict[_Place, list[Penalty]]:
    pen_of: dict[_Place, list[Penalty]] = {}
    for p in pens:
        pen_of.setdefault((p.group_id, p.session_no, p.table_no, p.hand_no), []).append(
            Penalty(seat=p.seat, code=PenaltyCode(p.code), points=p.points, note=p.note)
        )
    return pen_of


def _hands_by_table(
    hands: Sequence[TTHand], pen_of: dict[_Place, list[Penalty]]
) -> dict[tuple[str, int, int], list[HandRecord]]:
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
    return hands_of


def _tables_by_session(
    tables: Sequence[TTTable],
    hands_of: dict[tuple[str, int, int], list[HandRecord]],
    pen_of: dict[_Place, list[Penalty]],
) -> dict[tuple[str, int], list[TableRecord]]:
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
    return tables_of


def _teams_of(group_id: str, teams: Sequence[TTTeam], members: Sequence[TTPlayer]) -> list[Team]:
    team_rows = []
    for tm in teams:
        if tm.group_id != group_id:
            continue
        listed = sorted(
            (p.team_slot, p.player_id)
            for p in members
            if p.team_id == tm.team_id and p.team_slot is not None and p.team_slot < RESERVE_SLOT
        )
        reserve = next((p.player_id for p in members if p.team_id == tm.team_id and p.team_slot == RESERVE_SLOT), None)
        team_rows.append(
            Team(
                id=tm.team_id,
                name=tm.name,
                leader=tm.leader,
                players=tuple(pid for _, pid in listed),
                reserve=reserve,
            )
        )
    return team_rows


def _group_of(
    g: TTGroup,
    players: Sequence[TTPlayer],
    teams: Sequence[TTTeam],
    sessions: Sequence[TTSession],
    tables_of: dict[tuple[str, int], list[TableRecord]],
    named: dict[str, dict[str, str]] | None = None,
) -> Group:
    members = [p for p in players if p.group_id == g.group_id]
    sess = [
        SessionRecord(
            no=x.no,
            tables=tuple(tables_of.get((g.group_id, x.no), ())),
            absent=tuple(str(a) for a in (x.absent or ())),
        )
        for x in sessions
        if x.group_id == g.group_id
    ]
    return Group(
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
                **{k: str(v) for k, v in (named or {}).get(p.player_id, {}).items() if k in NAME_PARTS},
            )
            for p in members
        ),
        teams=tuple(_teams_of(g.group_id, teams, members)),
        sessions=tuple(sess),
    )
