"""Between hands at one table: the ready step, leaving after the hand, and a private
table that waits for the owner's friends.

* **The ready step.**  After a hand is settled (and the seats of those who left are freed) the table
  waits ``room.ready_s`` seconds for each seated human to press 准备 / 再来一局 (``ready``); bots are
  always ready, and so is whoever sits down during the step.  The next hand starts as soon as every
  seated human is ready.  When the countdown ends, whoever is not ready plays the next hand in 托管
  (``auto`` with reason ``not_ready``; pressing ready at the next step gives the seat back); a player
  who misses a second step in a row is stood up — between hands, so at no cost (not at a competition
  table, which keeps its four players: 托管 plays on).  ``ready_s`` 0: no
  ready step, the next hand after ``room.next_hand_s`` (as before).
* **Leave after this hand** (``leave_after``): a toggle stored on the seat during a hand; when the hand
  ends the player is stood up with no penalty (``stood_up`` with code ``leave_after``).  Standing up
  between hands (in the ready step) costs nothing; standing up mid-hand is still an escape (逃跑).
* **A private table waits for friends.**  Its empty seats get bots only when its owner asks
  (``add_bots``, one seat or all) or after ``room.private_bot_wait_s`` seconds from the first sit (0:
  never), a countdown every seat sees (``bots_in_ms``).  The owner is the account that opened the table
  while it sits there, else the first seated human.  A friend who comes with the code to a table whose
  seats bots hold takes a bot's seat between hands (at once in the ready step; arriving mid-hand, the
  friend watches the hand and sits when it ends).  Public tables fill with bots after ``bot_fill_s``.

The table (:class:`majiang.hall.table.TableRunner`) keeps its one owner task: this object holds the
between-hands state and decides; the table's inbox delivers its timers (``ready_end``, ``fill``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from functools import partial
from typing import Any, Protocol

from majiang.hall.rooms import Room
from majiang.hall.states import TableState

READY_MISSES_TO_STAND = 2  # ready steps missed in a row before the seat is given up (between hands: no cost)
SEAT_QUEUE_LIMIT = 3  # friends waiting mid-hand for a bot's seat at one private table


class BetweenSeat(Protocol):
    @property
    def account_id(self) -> int: ...
    @property
    def human(self) -> bool: ...

    auto: bool
    leave_after: bool
    missed_ready: int


class BetweenTable(Protocol):
    """What this module needs of its table."""

    @property
    def room(self) -> Room: ...
    @property
    def private(self) -> bool: ...
    @property
    def state(self) -> TableState: ...
    @property
    def seats(self) -> Sequence[BetweenSeat | None]: ...
    @property
    def owner(self) -> int | None: ...
    @property
    def spectators(self) -> set[int]: ...

    def put(self, kind: str, account: int = 0, **data: Any) -> None: ...
    def send(self, account: int, msg: dict[str, Any]) -> None: ...
    def error(self, account: int, code: str, message: str, **extra: Any) -> None: ...
    def seat_of(self, account: int) -> int | None: ...
    def humans(self) -> list[int]: ...
    def broadcast_table(self) -> None: ...
    def free_seat(self, seat: int, code: str, reason: str) -> None: ...
    async def next_hand(self) -> None: ...
    async def stand_now(self, account: int) -> None: ...


class BetweenHands:
    def __init__(self, table: BetweenTable) -> None:
        self.t = table
        self.ready: set[int] | None = None  # seats ready in the open ready step; None: no step open
        self.ready_at = 0.0  # the step's end (monotonic)
        self.ready_timer: asyncio.TimerHandle | None = None
        self.step = 0  # counts ready steps: a timer acts only on the step it was set for
        self.fill_at: float | None = None  # bots take the empty seats then (monotonic); None: no timer
        self.queue: dict[int, str] = {}  # a private table: friends watching a hand until a bot's seat is theirs

    # ---- what every seat sees (in table_info) ------------------------------------------------------
    def info(self) -> dict[str, Any]:
        now = time.monotonic()
        seats = self.t.seats
        return {
            "owner": self.t.owner,
            "ready": None
            if self.ready is None
            else [None if s is None else (not s.human or i in self.ready) for i, s in enumerate(seats)],
            "ready_ms": None if self.ready is None else max(0, int((self.ready_at - now) * 1000)),
            "bots_in_ms": None if self.fill_at is None else max(0, int((self.fill_at - now) * 1000)),
        }

    # ---- the ready step ------------------------------------------------------------------------------
    def after_hand(self) -> None:
        """The hand is settled and the seats of those who left are free: open the ready step (or, in a
        room without one, the old pause before the next hand)."""
        loop = asyncio.get_running_loop()
        wait = self.t.room.ready_s
        if wait <= 0:
            loop.call_later(self.t.room.next_hand_s, self.t.put, "next")
            return
        self.close()
        self.step += 1
        self.ready = set()
        self.ready_at = time.monotonic() + wait
        self.ready_timer = loop.call_later(wait, partial(self.t.put, "ready_end", step=self.step))

    def all_ready(self) -> bool:
        """May the next hand start (as far as readiness goes)?"""
        return self.ready is None or all(i in self.ready for i in self.t.humans())

    def close(self) -> None:
        """The step is over (the hand starts, or the table waits for players)."""
        if self.ready_timer is not None:
            self.ready_timer.cancel()
        self.ready_timer = None
        self.ready = None

    def seated(self, seat: int) -> None:
        """Sitting down during the step is being ready."""
        if self.ready is not None:
            self.ready.add(seat)

    async def on_ready(self, account: int) -> None:
        seat = self.t.seat_of(account)
        if seat is None:
            self.t.error(account, "not_seated", "sit down first")
            return
        if self.ready is None:
            self.t.error(
                account,
                "not_between",
                {
                    TableState.WAITING: "there is no ready step now: the next hand starts when the table is full",
                    TableState.BETWEEN: "this room has no ready step: the next hand starts by itself",
                }.get(self.t.state, "a hand is in play: the ready step comes after it"),
            )
            return
        info = self.t.seats[seat]
        assert info is not None
        self.ready.add(seat)
        if info.missed_ready and info.auto:  # 托管 only because the last step was missed: the seat is back
            info.auto = False
            self.t.send(account, {"type": "auto", "on": False})
        info.missed_ready = 0
        self.t.broadcast_table()
        await self.check()

    async def check(self) -> None:
        """Everyone seated is ready: end the step now (the next hand starts if the table is full)."""
        if self.ready is not None and self.t.state == TableState.BETWEEN and self.all_ready():
            self.close()
            await self.t.next_hand()

    async def on_ready_end(self, step: int) -> None:
        if self.ready is None or step != self.step or self.t.state != TableState.BETWEEN:
            return
        for i in self.t.humans():
            info = self.t.seats[i]
            assert info is not None
            if i in self.ready:
                continue
            info.missed_ready += 1
            if info.missed_ready >= READY_MISSES_TO_STAND and self.t.room.policy.stands_up_after_missed_ready:
                self.t.free_seat(i, "not_ready", "you missed two ready steps in a row: your seat was given up")
            elif not info.auto:
                info.auto = True
                self.t.send(info.account_id, {"type": "auto", "on": True, "reason": "not_ready"})
        self.close()
        self.t.broadcast_table()
        await self.t.next_hand()

    # ---- leave after this hand --------------------------------------------------------------------
    async def on_leave_after(self, account: int, on: bool) -> None:
        seat = self.t.seat_of(account)
        if seat is None:
            self.t.error(account, "not_seated", "you are not seated here")
            return
        info = self.t.seats[seat]
        assert info is not None
        if self.t.state != TableState.PLAYING:
            if on:  # no hand in play: leaving costs nothing, so leave now
                await self.t.stand_now(account)
            return
        info.leave_after = on
        self.t.send(account, {"type": "leave_after", "on": on})

    def leaving(self) -> None:
        """At the hand's end: those who asked to leave after it are stood up, without a penalty."""
        for i, s in enumerate(self.t.seats):
            if s is not None and s.human and s.leave_after:
                self.t.free_seat(i, "leave_after", "the hand is over: you left the table as you asked (no penalty)")

    # ---- bots at a private table -------------------------------------------------------------------
    def fill_wait(self) -> float:
        """Seconds before bots take the empty seats (0: never on their own)."""
        return self.t.room.private_bot_wait_s if self.t.private else self.t.room.bot_fill_s

    def may_add_bots(self, account: int) -> tuple[bool, str]:
        if self.t.seat_of(account) is None:
            return False, "sit down first"
        if self.t.private and account != self.t.owner:
            return False, "at a private table only its owner (who opened it) adds bots"
        return True, ""

    def bot_seat(self, want: int | None = None) -> int | None:
        """A private table: the seat a bot gives up to a friend who came with the code (``want``, if a
        bot holds it; else the last seat a bot holds)."""
        if not self.t.private:
            return None
        seats = self.t.seats
        if want is not None:
            s = seats[want]
            return want if s is not None and not s.human else None
        bots = [i for i, s in enumerate(seats) if s is not None and not s.human]
        return bots[-1] if bots else None

    def wait_for_seat(self, account: int, name: str) -> bool:
        """A friend arriving mid-hand at a private table where a bot sits: watch the hand, sit when it
        ends.  False when there is no such seat (or too many wait already)."""
        if self.bot_seat() is None or (account not in self.queue and len(self.queue) >= SEAT_QUEUE_LIMIT):
            return False
        self.queue[account] = name
        return True

    def seat_the_queue(self) -> None:
        """At the hand's end: each friend still watching asks again for a seat (a bot's, or a free one)."""
        queue, self.queue = self.queue, {}
        for account, name in queue.items():
            if account in self.t.spectators:
                self.t.put("sit", account, name=name, queued=True)
