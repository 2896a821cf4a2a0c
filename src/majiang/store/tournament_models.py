"""Competition tables (migration 0002): exactly what the referee writes down, nothing derived.

Ids are the model's own (:mod:`majiang.tournament.model`): players, teams and groups have string ids
unique in their event, so every row is keyed by ``event_id`` plus the model's natural key; a table is
``(event, group, session no, table no)`` and a hand adds its number 1–16.  Scores, places, standard
scores and rankings are never stored; :mod:`majiang.tournament.adapters.repository` rebuilds the
:class:`~majiang.tournament.model.Event` and the pure core derives them.

- ``tt_events``      the event: name, rules profile, standard-score scheme, tie split, ``extra`` JSON
                     (the schedule plan, the draw seed, planned sessions …)
- ``tt_groups``      groups of an event (a CLI event has one, ``A``)
- ``tt_teams``       teams: name and leader; membership is on the player row
- ``tt_players``     players: group, team, ``team_slot`` (0–3 a team player, 4 the reserve, NULL not
                     listed in the team), ranked (False: a substitute), EMA id, country, and an optional
                     hall account (online events)
- ``tt_sessions``    a drawn session: absentees (JSON list) and how it was drawn
- ``tt_tables``      a table of a session: the four players in first-round seats E S W N, quick-entry
                     ``totals`` (JSON, or NULL for hand-by-hand entry), time called, mid-session
                     substitutions (JSON), the hall table playing it (online events)
- ``tt_hands``       a hand: winner/discarder as first-round seat indices (NULL: draw / self-draw), fans
                     (JSON list of names) or points, flowers, where the entry came from
- ``tt_penalties``   a penalty: seat, code, points, note, on a hand (``hand_no``) or on the table (NULL)
- ``tt_entries``     (migration 0004) the audit log: every entry, correction and undo of a table's results
                     with who (``by``) and when (``at``); ``kind`` hand | hands | totals | penalty |
                     time_call | undo, ``data`` JSON what it changed (enough to reverse it), ``undone_by``
                     the undo entry that reversed it.  Not foreign-keyed: the log outlives a re-saved event.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from majiang.store.models import Base, now

ID = 40  # length of the model's string ids
CASCADE = "CASCADE"


class TTEvent(Base):
    __tablename__ = "tt_events"
    id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    rules: Mapped[str] = mapped_column(String(20), default="gb")
    scheme: Mapped[str] = mapped_column(String(10), default="1998")
    tie_split: Mapped[str] = mapped_column(String(10), default="average")
    extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TTGroup(Base):
    __tablename__ = "tt_groups"
    event_id: Mapped[str] = mapped_column(
        ForeignKey("tt_events.id", ondelete=CASCADE, name="fk_tt_groups_event"), primary_key=True
    )
    group_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    position: Mapped[int] = mapped_column(Integer, default=0)


class TTTeam(Base):
    __tablename__ = "tt_teams"
    event_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    team_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    group_id: Mapped[str] = mapped_column(String(ID))
    name: Mapped[str] = mapped_column(String(200), default="")
    leader: Mapped[str] = mapped_column(String(200), default="")
    position: Mapped[int] = mapped_column(Integer, default=0)
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "group_id"],
            ["tt_groups.event_id", "tt_groups.group_id"],
            ondelete=CASCADE,
            name="fk_tt_teams_group",
        ),
    )


class TTPlayer(Base):
    __tablename__ = "tt_players"
    event_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    group_id: Mapped[str] = mapped_column(String(ID))
    name: Mapped[str] = mapped_column(String(200), default="")
    team_id: Mapped[str | None] = mapped_column(String(ID), default=None)
    team_slot: Mapped[int | None] = mapped_column(Integer, default=None)  # 0–3 player, 4 reserve
    ranked: Mapped[bool] = mapped_column(Boolean, default=True)
    ema_id: Mapped[str] = mapped_column(String(40), default="")
    country: Mapped[str] = mapped_column(String(40), default="")
    account_id: Mapped[int | None] = mapped_column(Integer, default=None)  # hall account (online events)
    position: Mapped[int] = mapped_column(Integer, default=0)
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "group_id"],
            ["tt_groups.event_id", "tt_groups.group_id"],
            ondelete=CASCADE,
            name="fk_tt_players_group",
        ),
        Index("ix_tt_players_account", "account_id"),
    )


class TTSession(Base):
    __tablename__ = "tt_sessions"
    event_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    group_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    no: Mapped[int] = mapped_column(Integer, primary_key=True)
    absent: Mapped[list[Any]] = mapped_column(JSON, default=list)
    method: Mapped[str] = mapped_column(String(40), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "group_id"],
            ["tt_groups.event_id", "tt_groups.group_id"],
            ondelete=CASCADE,
            name="fk_tt_sessions_group",
        ),
    )


class TTTable(Base):
    __tablename__ = "tt_tables"
    event_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    group_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    session_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    east: Mapped[str] = mapped_column(String(ID))
    south: Mapped[str] = mapped_column(String(ID))
    west: Mapped[str] = mapped_column(String(ID))
    north: Mapped[str] = mapped_column(String(ID))
    totals: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    time_called: Mapped[bool] = mapped_column(Boolean, default=False)
    substitutions: Mapped[list[Any]] = mapped_column(JSON, default=list)
    hall_table: Mapped[str | None] = mapped_column(String(40), default=None)
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "group_id", "session_no"],
            ["tt_sessions.event_id", "tt_sessions.group_id", "tt_sessions.no"],
            ondelete=CASCADE,
            name="fk_tt_tables_session",
        ),
    )

    @property
    def players(self) -> tuple[str, str, str, str]:
        return (self.east, self.south, self.west, self.north)


class TTHand(Base):
    __tablename__ = "tt_hands"
    event_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    group_id: Mapped[str] = mapped_column(String(ID), primary_key=True)
    session_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    no: Mapped[int] = mapped_column(Integer, primary_key=True)
    winner: Mapped[int | None] = mapped_column(Integer, default=None)
    discarder: Mapped[int | None] = mapped_column(Integer, default=None)
    fans: Mapped[list[Any]] = mapped_column(JSON, default=list)
    points: Mapped[int | None] = mapped_column(Integer, default=None)
    flowers: Mapped[int] = mapped_column(Integer, default=0)
    source: Mapped[str] = mapped_column(String(20), default="referee")  # referee engine hall
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "group_id", "session_no", "table_no"],
            ["tt_tables.event_id", "tt_tables.group_id", "tt_tables.session_no", "tt_tables.table_no"],
            ondelete=CASCADE,
            name="fk_tt_hands_table",
        ),
    )


class TTPenalty(Base):
    __tablename__ = "tt_penalties"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(String(ID))
    group_id: Mapped[str] = mapped_column(String(ID))
    session_no: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    hand_no: Mapped[int | None] = mapped_column(Integer, default=None)  # None: a table-level penalty
    position: Mapped[int] = mapped_column(Integer, default=0)
    seat: Mapped[int] = mapped_column(Integer)
    code: Mapped[str] = mapped_column(String(30))
    points: Mapped[int] = mapped_column(Integer, default=0)
    note: Mapped[str] = mapped_column(Text, default="")
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "group_id", "session_no", "table_no"],
            ["tt_tables.event_id", "tt_tables.group_id", "tt_tables.session_no", "tt_tables.table_no"],
            ondelete=CASCADE,
            name="fk_tt_penalties_table",
        ),
        Index("ix_tt_penalties_table", "event_id", "group_id", "session_no", "table_no"),
    )


class TTEntry(Base):
    __tablename__ = "tt_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(String(ID))
    group_id: Mapped[str] = mapped_column(String(ID))
    session_no: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    hand_no: Mapped[int | None] = mapped_column(Integer, default=None)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    by: Mapped[str] = mapped_column(String(100), default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    undone_by: Mapped[int | None] = mapped_column(Integer, default=None)
    __table_args__ = (Index("ix_tt_entries_table", "event_id", "group_id", "session_no", "table_no"),)


__all__ = ["TTEntry", "TTEvent", "TTGroup", "TTHand", "TTPenalty", "TTPlayer", "TTSession", "TTTable", "TTTeam"]
