"""A hall table's seats: sitting down, bots filling seats, standing up, escapes, and players who
connect, disconnect and come back (托管 while away).  A part of :class:`~majiang.hall.table.TableRunner`."""

from __future__ import annotations

import asyncio
import time
from functools import partial

from majiang.hall import botprocs
from majiang.hall.states import TableState
from majiang.hall.tablecore import Msg, SeatInfo, TableCore


class Seating(TableCore):
    # ---- seating -----------------------------------------------------------------------------
    async def on_sit(self, m: Msg) -> None:
        if not m.data.get("queued"):
            self.pending_sits = max(0, self.pending_sits - 1)
        acc = m.account
        if (seat_now := self.seat_of(acc)) is not None:
            if self.room.policy.returns_to_chair(m.data):
                await self.back(seat_now)  # the player came back (the join code, quick join): 托管 ends
                return
            self.send_snapshot(acc)
            await self.items.seated(acc)
            return
        if self.state not in (TableState.WAITING, TableState.BETWEEN):
            if self.between.wait_for_seat(acc, m.data.get("name", f"#{acc}")):  # a bot's seat, at the hand's end
                await self.on_spectate(m)
                self.send(acc, {"type": "seat_queued", "message": "a bot gives you its seat when this hand ends"})
                return
            self.refuse_sit(acc, "busy", "this table is playing a hand; wait for the next one or pick another table")
            return
        seat = m.data.get("seat")
        free = [i for i, s in enumerate(self.seats) if s is None]
        if seat is None:
            seat = free[0] if free else self.between.bot_seat()  # a private table's bot yields between hands
            if seat is None:
                self.refuse_sit(acc, "full", "the table is full")
                return
        if (
            not isinstance(seat, int)
            or seat not in range(4)
            or (self.seats[seat] is not None and self.between.bot_seat(seat) is None)
        ):
            self.refuse_sit(acc, "seat_taken", f"seat {seat} is not free; free seats: {free}")
            return
        ok, why = await self.host.may_enter(acc, self.room)
        if not ok:
            self.refuse_sit(acc, "balance", why)
            return
        if not await self.host.seat_here(acc, self):  # one seat per account, across the hall
            self.error(acc, "seated", "you have a seat at another table: leave it first (stand)")
            return
        if self.seats[seat] is not None:
            self.items.left(seat)  # the bot's, which yields its seat
        away = self.room.policy.seated_away(m.data)  # seated by the event, not connected: 托管
        prefs = await self.host.prefs_of(acc)
        self.seats[seat] = SeatInfo(acc, m.data.get("name", f"#{acc}"), auto=away, online=not away, prefs=prefs)
        self.between.seated(seat)
        self.spectators.discard(acc)
        self.host.joined(acc, self)
        if self.free_seats():
            self.arm_fill()  # before the broadcast: every seat sees the countdown
        self.broadcast_table()
        self.send_snapshot(acc)
        await self.items.seated(acc)
        await self.maybe_start()

    def arm_fill(self) -> None:
        """Bots take the empty seats after the room's wait (a private table's own, maybe never)."""
        wait = self.between.fill_wait()
        if self.fill_timer is None and wait > 0:
            self.fill_timer = asyncio.get_running_loop().call_later(wait, self.put, "fill")
            self.between.fill_at = time.monotonic() + wait

    def disarm_fill(self) -> None:
        if self.fill_timer is not None:
            self.fill_timer.cancel()
        self.fill_timer = None
        self.between.fill_at = None

    def refuse_sit(self, account: int, code: str, message: str) -> None:
        self.host.sit_refused(account, self)
        self.error(account, code, message)

    async def on_empty_check(self, m: Msg) -> None:
        if self.state == TableState.WAITING and not self.humans() and not self.spectators and self.pending_sits <= 0:
            self.state = TableState.ENDED

    async def on_fill(self, m: Msg) -> None:
        self.fill_timer = None
        self.between.fill_at = None
        if self.state == TableState.WAITING and self.humans():
            await self.fill_bots()

    async def on_add_bots(self, m: Msg) -> None:
        ok, why = self.between.may_add_bots(m.account)
        if not ok:
            self.error(m.account, "not_seated" if self.seat_of(m.account) is None else "not_owner", why)
            return
        seat = m.data.get("seat")
        if seat is not None and (not isinstance(seat, int) or seat not in range(4) or self.seats[seat] is not None):
            self.error(m.account, "seat_taken", f"seat {seat} is not free")
            return
        await self.fill_bots(seat)

    async def fill_bots(self, only: int | None = None) -> None:
        for i in range(4):
            if self.seats[i] is None and only in (None, i):
                # an outside program runs off the loop, under the room's cap (botprocs)
                made = botprocs.seat_bot(self.host, self.room, i, seed=hash((self.id, i)) & 0xFFFF)
                self.seats[i] = SeatInfo(await self.host.bot_account(made.account), made.name, bot=made.bot)
                self.between.seated(i)
        if not self.free_seats():
            self.disarm_fill()
        self.broadcast_table()
        await self.maybe_start()

    async def on_stand(self, m: Msg) -> None:
        acc = m.account
        seat = self.seat_of(acc)
        if seat is None:
            self.between.queue.pop(acc, None)
            self.spectators.discard(acc)
            self.spectator_from.pop(acc, None)
            self.host.left(acc, self)
            return
        info = self.seats[seat]
        assert info is not None
        if self.room.policy.keeps_chair_on_stand(self.private, self.state):
            await self.away(seat, "away")  # 托管 until he is back
            return
        self.items.left(seat)
        if self.state == TableState.PLAYING and self.hand is not None and not self.hand.over:
            await self.escape(seat)
        else:
            self.seats[seat] = None
        self.host.left(acc, self)
        self.broadcast_table()
        if not self.humans() and self.state in (TableState.WAITING, TableState.BETWEEN):
            self.state = TableState.ENDED
        await self.between.check()  # the others are ready: no need to wait for the step's end

    async def stand_now(self, account: int) -> None:
        await self.on_stand(Msg("stand", account))

    def free_seat(self, seat: int, code: str, reason: str) -> None:
        """Between hands: the seat's player is stood up, at no cost (leave-after-hand, missed ready steps)."""
        info = self.seats[seat]
        assert info is not None
        self.send(info.account_id, {"type": "stood_up", "code": code, "reason": reason})
        self.host.left(info.account_id, self)
        self.items.left(seat)
        self.seats[seat] = None

    async def escape(self, seat: int) -> None:
        """逃跑: pay the penalty, the seat plays on in 托管 to the end of the hand."""
        info = self.seats[seat]
        assert info is not None
        info.escaped = True
        info.auto = True
        others = [self.seats[i].account_id for i in self.humans() if i != seat]  # type: ignore[union-attr]
        paid, each = await self.host.run_db(
            self.host.store.escape,
            self.id,
            self.hand_id or 0,
            info.account_id,
            self.room.penalty(),
            others,
            self.room.compensation(),
        )
        msg = {"type": "escape", "seat": seat, "penalty": paid, "compensation": each}
        self.send(info.account_id, msg)  # the last it hears of this table (it is no longer in the audience)
        self.broadcast(msg)
        if seat in self.prompts:
            await self.act_for(seat, default=True)

    async def on_connected(self, m: Msg) -> None:
        seat = self.seat_of(m.account)
        if seat is not None and self.room.policy.keeps_chair_when_gone:
            await self.back(seat)
        elif seat is not None:
            info = self.seats[seat]
            assert info is not None
            info.online = True
            self.send_snapshot(m.account)
            self.broadcast_table()
            await self.items.seated(m.account)

    async def on_disconnected(self, m: Msg) -> None:
        seat = self.seat_of(m.account)
        if seat is None:
            if m.account in self.spectators:
                self.spectators.discard(m.account)
                self.spectator_from.pop(m.account, None)
                self.host.left(m.account, self)
            return
        info = self.seats[seat]
        assert info is not None
        if self.room.policy.keeps_chair_when_gone:  # the chair stays his, 托管 plays it until he is back
            info.online = False
            await self.away(seat, "disconnected")
            return
        info.online = False
        info.gone += 1
        if self.state == TableState.PLAYING:
            info.auto = True  # 托管 until the player acts again
            # not back within the grace: an escape, as if it had stood up (a disconnect must not dodge a loss)
            asyncio.get_running_loop().call_later(
                self.room.reconnect_grace_s, partial(self.put, "grace", m.account, gone=info.gone)
            )
            # an open prompt keeps its clock: a player who reloads the page finds it again with the time
            # left, so a reload or a short network loss costs no decision; the prompts that follow are
            # played by 托管 until it is back
        elif self.state in (TableState.WAITING, TableState.BETWEEN):  # no hand running: the seat is simply freed
            self.items.left(seat)
            self.seats[seat] = None
            self.host.left(m.account, self)
            if not self.humans():
                self.state = TableState.ENDED
            await self.between.check()  # the others are ready: no need to wait for the step's end
        self.broadcast_table()

    async def away(self, seat: int, reason: str) -> None:
        """An event table's player went away (closed the page, stood up): his chair is kept for the session
        and plays 托管; no escape, no freed seat, the table plays on (docs/tournament.md)."""
        info = self.seats[seat]
        assert info is not None
        info.auto = True
        info.timeouts = 0
        if info.online:
            self.send(info.account_id, {"type": "auto", "on": True, "reason": reason})
        self.broadcast_table()
        # a closed page keeps the open prompt's clock (a reload finds it, with its time left); standing
        # up plays it now
        if reason != "disconnected" and seat in self.prompts and self.hand is not None:
            await self.act_for(seat, default=True)

    async def back(self, seat: int) -> None:
        """An event table's player is back (reconnected, or came in with the code): the table as it
        stands, 托管 off, and his decision if one is pending."""
        info = self.seats[seat]
        assert info is not None
        info.online = True
        info.timeouts = 0
        asked = None
        if info.auto:
            info.auto = False
            if seat in self.prompts and not self.prompts[seat].sent:  # 托管's, not one he still has open
                asked = self.prompts.pop(seat)
                if asked.timer is not None:
                    asked.timer.cancel()
            self.send(info.account_id, {"type": "auto", "on": False, "reason": "back"})
        self.send_snapshot(info.account_id)
        self.broadcast_table()
        await self.items.seated(info.account_id)
        if asked is not None and self.hand is not None and self.state == TableState.PLAYING:
            await self.prompt_all()

    async def on_grace(self, m: Msg) -> None:
        """The reconnect grace of a disconnect has passed: a player still away from a running hand
        escapes (the room's penalty); its seat plays on in 托管 and is freed when the hand ends."""
        seat = self.seat_of(m.account)
        if seat is None:
            return
        info = self.seats[seat]
        assert info is not None
        if info.online or info.escaped or info.gone != m.data.get("gone"):
            return
        if self.state == TableState.PLAYING and self.hand is not None and not self.hand.over:
            self.items.left(seat)
            await self.escape(seat)
            self.host.left(m.account, self)
            self.broadcast_table()
