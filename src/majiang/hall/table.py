"""One table of four: its owner task, its seats, its hands.

Everything that changes a table happens in :meth:`TableRunner.run`, which takes messages from one
queue (player actions, timers, joins, chat …): no locks, one authority.  The engine decides every
rule; each seat receives only :func:`majiang.engine.view.seat_events` of the events and its own
prompts, each prompt carrying a sequence number (stale or duplicate replies are refused).  Timers
are clocked here: on timeout the default (托管) action is taken, and after repeated timeouts or a
disconnect the seat plays in 托管 until its player acts again.
"""

from __future__ import annotations

import logging
from typing import Any

from majiang.engine.session import Session
from majiang.hall import botprocs
from majiang.hall.match import Match
from majiang.hall.rooms import Room, is_private_id
from majiang.hall.seating import Seating
from majiang.hall.settings import Prefs
from majiang.hall.settling import Settling
from majiang.hall.spectators import Spectating
from majiang.hall.states import TableState
from majiang.hall.tablecore import (
    HandEndHook,
    HandOutcome,
    Msg,
    Prompt,
    SeatInfo,
    TableCore,
    TableHost,
    new_code,
    normal_code,
    spectator_view,
)
from majiang.hall.turns import TurnLoop
from majiang.rulesets import make_ruleset

__all__ = [
    "HandEndHook",
    "HandOutcome",
    "Msg",
    "Prompt",
    "SeatInfo",
    "TableCore",
    "TableHost",
    "TableRunner",
    "is_private_id",
    "new_code",
    "normal_code",
    "spectator_view",
]
log = logging.getLogger("majiang.table")


class TableRunner(Seating, Spectating, TurnLoop, Settling):
    """One table: its parts (seating, spectators, the turn loop, the hand's end) on
    :class:`~majiang.hall.tablecore.TableCore`, run by one owner task."""

    # ---- the owner task ------------------------------------------------------------------------
    async def run(self) -> None:
        try:
            while self.state != TableState.ENDED:
                msg = await self.inbox.get()
                try:
                    await self.handle(msg)
                except Exception:
                    log.exception("table %s: error handling %s", self.id, msg.kind)
                    if msg.account:
                        self.send(
                            msg.account,
                            {
                                "type": "error",
                                "code": "internal",
                                "message": "the server could not process that; try again",
                            },
                        )
        finally:
            self._cancel_timers()
            botprocs.close_all([s.bot if s else None for s in self.seats])
            self.host.table_ended(self)

    async def handle(self, m: Msg) -> None:
        handler = getattr(self, f"on_{m.kind}", None)
        if handler is None:
            raise ValueError(f"unknown table message {m.kind}")
        await handler(m)

    # ---- surviving a crashed process -------------------------------------------------------------
    def people(self) -> list[int]:
        seated = [s.account_id for s in self.seats if s is not None and s.human and not s.escaped]
        return seated + sorted(self.spectators)

    def snapshot(self) -> dict[str, Any]:
        """What another process needs to take this table over (with the hand's event log)."""
        ses = self.session
        return {
            "id": self.id,
            "room": self.room.id,
            "code": self.code,
            "private": self.private,
            "creator": self.creator,
            "state": self.state,
            "seats": [
                None
                if s is None
                else {
                    "account": s.account_id,
                    "name": s.name,
                    "bot": s.bot.name if s.bot is not None else None,
                    "auto": s.auto,
                    "escaped": s.escaped,
                    "golden": s.golden,
                    "leave_after": s.leave_after,
                    "missed_ready": s.missed_ready,
                    "prefs": s.prefs.to_dict(),
                }
                for s in self.seats
            ],
            "session": None
            if ses is None
            else {
                "secret": self.session_row,  # the seed's row in table_sessions (PostgreSQL), not the seed
                "scores": ses.scores,
                "round": ses.round,
                "dealer": ses.dealer,
                "passes": ses.passes,
                "hand_no": ses.hand_no,
                "over": ses.over,
                "previous": ses.previous,
            },
            "hand_id": self.hand_id,
            "hands_played": self.hands_played,
            "first_hand": self.first_hand,
            "sealed": self.sealed,
            "seq": self.seq,
            "items": self.items.snapshot(),
            "match": self.match.to_dict() if self.match is not None else None,
        }

    @classmethod
    def restore(
        cls,
        host: TableHost,
        room: Room,
        snap: dict[str, Any],
        events: list[dict[str, Any]],
        seed: bytes | None = None,
    ) -> TableRunner:
        """The table of a snapshot; ``seed``: its session's seed, read from the database by the row
        the snapshot names (``snap["session"]["secret"]``)."""
        from majiang.engine.log import replay
        from majiang.rulesets import from_header

        t = cls(host, room, table_id=snap["id"], private=snap["private"])
        t.code = snap.get("code")
        t.creator = snap.get("creator")
        t.state = TableState(snap["state"])
        t.hands_played = snap.get("hands_played", 0)
        t.first_hand = int(snap.get("first_hand", 0))
        t.sealed = bool(snap.get("sealed"))
        t.seq = snap.get("seq", 0) + 1000  # prompts sent before the crash are stale now
        t.hand_id = snap.get("hand_id")
        if snap.get("match"):
            t.match = Match.from_dict(snap["match"])
        for i, s in enumerate(snap["seats"]):
            if s is not None:
                bot = botprocs.seat_bot(host, room, i, hash((t.id, i)) & 0xFFFF, s["bot"]).bot if s["bot"] else None
                t.seats[i] = SeatInfo(
                    s["account"],
                    s["name"],
                    bot=bot,
                    auto=s["auto"],
                    escaped=s["escaped"],
                    golden=bool(s.get("golden")),
                    leave_after=bool(s.get("leave_after")),
                    missed_ready=int(s.get("missed_ready", 0)),
                    prefs=Prefs.from_dict(s.get("prefs")),
                )
        t.items.restore(snap.get("items"))
        ses = snap.get("session")
        if ses is not None:
            if seed is None:
                raise ValueError(f"table {t.id}: no seed for its session")
            t.session = Session(make_ruleset(room.rules, room.options or None), seed)
            t.session_row = ses.get("secret")
            t.session.scores = ses["scores"]
            t.session.round = ses["round"]
            t.session.dealer = ses["dealer"]
            t.session.passes = ses["passes"]
            t.session.hand_no = ses["hand_no"]
            t.session.over = ses["over"]
            t.session.previous = ses.get("previous", {})
        if t.state == TableState.PLAYING:
            if events:
                t.hand = replay(events, from_header)
                t.shown = len(events)  # what the replay went on to by itself (a draw) is written on resume
            else:
                t.state = TableState.BETWEEN  # the hand never got its first event written: deal again
        return t
