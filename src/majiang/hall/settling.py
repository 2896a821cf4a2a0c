"""The end of a hand at a hall table (settlement, coins, the hooks, the result) and what comes
between hands, with the table's small requests (ready, leave after the hand, 托管, chat, items).
A part of :class:`~majiang.hall.table.TableRunner`."""

from __future__ import annotations

import logging
import time
from typing import Any

from majiang.engine.view import SeatView
from majiang.hall import botprocs
from majiang.hall.match import Match
from majiang.hall.states import TableState
from majiang.hall.tablecore import Msg, TableCore
from majiang.hall.text import clean_chat

log = logging.getLogger("majiang.table")


class Settling(TableCore):
    # ---- the hand's end and between hands ------------------------------------------------------
    async def end_hand(self) -> None:
        hand = self.hand
        session = self.session
        assert hand is not None and session is not None and self.hand_id is not None
        self._cancel_prompts()
        session.finish_hand(hand)
        accounts = [s.account_id for s in self.seats]  # type: ignore[union-attr]
        stats = self._stats(hand, accounts)
        escaped = [i for i, info in enumerate(self.seats) if info is not None and info.escaped]
        view = self._result(hand)
        coins = await self.host.run_db(
            self.host.store.finish_hand,
            self.hand_id,
            self.id,
            None if self.sealed else hand.seed.hex(),  # sealed: revealed by the event when its session ends
            view,
            accounts,
            list(hand.deltas),
            self.room.policy.stakes(self.room.coefficient),
            self.room.policy.fee(self.room.fee),
            stats,
            escaped,
        )
        self.hands_played += 1
        session_done = False
        if self.room.policy.reports_to_event:
            for hook in self.host.hand_end_hooks:
                try:
                    done = await self.host.run_db(hook, self.id, self.hands_played - 1, view, hand.events)
                    session_done = session_done or bool(done is not None and done.complete)
                except Exception:  # the organiser can still enter or sync the hand by hand
                    log.exception("table %s: recording the event hand failed", self.id)
        msg = {
            "type": "hand_end",
            "hand": self.hand_id,
            "result": view,
            "scores": list(hand.deltas),
            "coins": coins.changes,
            "seed": None if self.sealed else hand.seed.hex(),
            "seed_hash": hand.events[0]["seed_hash"],
        }
        if self.sealed:
            msg["sealed"] = True  # 复式: the seed is revealed (GET /api/hands/{id}) when the event session ends
        match_end = await self.match_step(msg, hand.deltas)
        self.broadcast(msg)
        if match_end is not None:
            self.broadcast(match_end)
        self.host.metrics.hand_settled(self.id)
        for i, s in enumerate(self.seats):
            if s is not None and isinstance(s.bot, botprocs.ProcessBot):
                await s.bot.hand_over(SeatView(hand, i))  # a kept Botzone process ends with the match
        for i, s in enumerate(self.seats):
            if s is not None and (
                s.escaped or (s.human and not s.online and not self.room.policy.keeps_chair_when_gone)
            ):
                # those who left, and those whose connection is gone, give up their seats between hands
                if s.human and not s.escaped:
                    self.host.left(s.account_id, self)
                self.items.left(i)
                self.seats[i] = None
        self.between.leaving()  # 本局后离座: stood up now, at no cost
        self.between.seat_the_queue()  # friends who watched for a bot's seat (a private table)
        self.state = TableState.BETWEEN
        if self.humans() and not session_done:
            self.between.after_hand()  # the ready step (or the pause before the next hand)
        self.broadcast_table()
        self.items.notify()
        if not self.humans() or session_done:
            self.state = TableState.ENDED
            return

    def _stats(self, hand: Any, accounts: list[int]) -> list[dict[str, Any]]:
        """Each person's line of the hand's statistics (an escape is no hand played)."""
        win = hand.win
        return [
            {
                "account_id": accounts[i],
                "seat": i,
                "score": hand.deltas[i],
                "won": bool(win and win.seat == i),
                "dealt_in": bool(win and win.discarder == i),
                "fan": win.points if win and win.seat == i else 0,
            }
            for i in range(4)
            if (info := self.seats[i]) is not None and info.human and not info.escaped
        ]

    def _result(self, hand: Any) -> dict[str, Any]:
        """The hand's public result, with the bots' names as the table showed them (fan-bot-1 …: the
        replay names them the same way) and where 托管 decided (the review and the replay mark them)."""
        view = SeatView(hand, 0).result or {}
        view = {**view, "seat_names": [s.name if s is not None and not s.human else None for s in self.seats]}
        if self.auto_events:
            view = {**view, "auto": {str(s): sorted(set(ev)) for s, ev in self.auto_events.items()}}
        return view

    async def match_step(self, msg: dict[str, Any], deltas: list[int]) -> dict[str, Any] | None:
        """东风战 / 全庄: the hand counted in the match (its progress in ``msg``); at the match's last hand
        its places and 段位 points stored and the ``match_end`` message returned — the next match starts
        with a fresh session (East round, seat 0 deals)."""
        if self.match is None or self.hand_id is None:
            return None
        self.match.add(self.hand_id, deltas)
        msg["match"] = self.match.progress()
        if not self.match.over:
            return None
        body = await self.host.run_db(
            self.host.store.finish_match,
            self.match,
            self.id,
            self.room.id,
            self.room.rules,
            [s.account_id if s else None for s in self.seats],
            list(self.room.place_points),
        )
        self.match = Match(self.room.match_hands)
        self.session = None
        return {"type": "match_end", "table_id": self.id, **body}

    async def on_next(self, m: Msg) -> None:
        await self.next_hand()

    async def next_hand(self) -> None:
        """Start the next hand if the table is full, else wait for players (and bots)."""
        if self.state == TableState.BETWEEN:
            await self.maybe_start()
            if self.state == TableState.BETWEEN:
                self.between.close()
                self.state = TableState.WAITING if self.humans() else TableState.ENDED
                if self.humans():
                    self.arm_fill()
                self.broadcast_table()

    async def on_ready(self, m: Msg) -> None:
        await self.between.on_ready(m.account)

    async def on_ready_end(self, m: Msg) -> None:
        await self.between.on_ready_end(m.data["step"])

    async def on_leave_after(self, m: Msg) -> None:
        await self.between.on_leave_after(m.account, bool(m.data.get("on")))

    async def on_auto(self, m: Msg) -> None:
        seat = self.seat_of(m.account)
        if seat is None:
            return
        info = self.seats[seat]
        assert info is not None
        info.auto = bool(m.data.get("on"))
        info.timeouts = 0
        self.send(m.account, {"type": "auto", "on": info.auto})
        self.broadcast_table()
        if info.auto and seat in self.prompts:
            await self.act_for(seat, default=True)
        elif not info.auto and seat in self.prompts and self.hand is not None and not self.prompts[seat].sent:
            # the auto-play timer was running: give the decision back to the player, with a full timer
            # (a prompt the player was asked keeps its own clock: back after a reload, it is answered)
            old = self.prompts.pop(seat)
            if old.timer is not None:
                old.timer.cancel()
            await self.prompt_all()

    async def on_chat(self, m: Msg) -> None:
        text = clean_chat(str(m.data.get("text", "")))  # also for messages relayed from another process
        if not text:
            return
        who = self.host.name_of(m.account)
        entry = {"type": "chat", "scope": "table", "from": who, "account": m.account, "text": text, "at": time.time()}
        self.chat_log.append(entry)
        del self.chat_log[:-100]
        for a in self._audience():
            if not self.host.muted(a, m.account):
                self.send(a, entry)

    async def on_close(self, m: Msg) -> None:
        self.state = TableState.ENDED

    async def on_use_item(self, m: Msg) -> None:
        await self.items.on_use(m.account, m.data)

    async def on_items_changed(self, m: Msg) -> None:
        """The player bought items (elsewhere): refresh what it may use here."""
        if self.seat_of(m.account) is not None:
            await self.items.seated(m.account)

    async def on_resume(self, m: Msg) -> None:
        """After a takeover: finish a hand that ended in the dead process (the settlement is
        idempotent), or ask again whoever must act; send everyone the table as it stands."""
        for a in self.people():
            self.send_snapshot(a)
        if self.state == TableState.PLAYING and self.hand is not None:
            await self.flush()  # what follows the last written event, then the hand's end or whoever must act
        elif self.state == TableState.BETWEEN:
            self.between.after_hand()
            self.broadcast_table()
        elif self.state == TableState.WAITING and self.humans():
            self.arm_fill()
