"""Watching a hall table: a spectator's snapshot, moving between tables, and the public events
sent after the spectating delay.  A part of :class:`~majiang.hall.table.TableRunner`."""

from __future__ import annotations

from typing import Any

from majiang.engine.view import seat_events
from majiang.hall.tablecore import Msg, TableCore, spectator_view


class Spectating(TableCore):
    # ---- spectators ---------------------------------------------------------------------------
    async def on_spectate(self, m: Msg) -> None:
        if self.seat_of(m.account) is not None:
            self.error(m.account, "seated", "you are seated here; stand up to watch a table")
            return
        if self.sealed:
            self.host.left(m.account, self)
            self.error(
                m.account,
                "sealed",
                "复式 duplicate walls: the tables of this event session cannot be watched until the session ends",
            )
            return
        self.spectators.add(m.account)
        self.host.joined(m.account, self, spectator=True)
        msg: dict[str, Any] = {
            "type": "table",
            "table": self.info(),
            "seat": None,
            "spectator": True,
            "room": self.room.to_dict(),
            "delay_s": self.room.spectate_delay_s,
            "chat": self.chat_log[-30:],
        }
        if self.hand is not None:
            # what spectators have been shown so far (the events older than the spectating delay) and
            # the table at that point, public (never the live table: the delay protects the players)
            upto, view = spectator_view(self.hand, self.spectator_sent)
            msg["hand"] = self.hand_id
            msg["events"] = seat_events(self.hand.events[:upto], -1)
            msg["upto"] = upto
            if view is not None:
                msg["view"] = view
            self.spectator_from[m.account] = (self.hand_id, upto)
        self.send(m.account, msg)

    async def on_spectate_elsewhere(self, m: Msg) -> None:
        """The account is mapped to this table and asked to watch another: only a spectator may go."""
        if self.seat_of(m.account) is not None:
            self.error(m.account, "seated", "leave your table first (stand) to watch another")
            return
        self.spectators.discard(m.account)
        self.spectator_from.pop(m.account, None)
        self.host.left(m.account, self)
        self.host.route(m.data["table"], "spectate", m.account)

    def _to_spectators(self, msg: dict[str, Any], upto: int) -> None:
        if msg["hand"] == self.hand_id:
            self.spectator_sent = max(self.spectator_sent, upto)
        for a in list(self.spectators):
            out = msg
            start = self.spectator_from.get(a)
            if start is not None and start[0] == msg["hand"] == self.hand_id and start[1] > msg["from"]:
                # its snapshot already showed the start of these events
                if upto <= start[1] or self.hand is None:
                    continue
                out = {**msg, "from": start[1], "events": seat_events(self.hand.events[start[1] : upto], -1)}
            if out["events"]:
                self.send(a, out)
