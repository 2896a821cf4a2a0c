"""One table of four: its owner task, its seats, its hands.

Everything that changes a table happens in :meth:`TableRunner.run`, which takes messages from one
queue (player actions, timers, joins, chat …): no locks, one authority.  The engine decides every
rule; each seat receives only :func:`majiang.engine.view.seat_events` of the events and its own
prompts, each prompt carrying a sequence number (stale or duplicate replies are refused).  Timers
are clocked here: on timeout the default (托管) action is taken, and after repeated timeouts or a
disconnect the seat plays in 托管 until its player acts again.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, TypeVar

from majiang.bots.base import Bot
from majiang.engine.hand import Hand, IllegalAction
from majiang.engine.protocol import WIN, Action
from majiang.engine.session import Session
from majiang.engine.view import SeatView, action_from_json, action_json, public_view, seat_events
from majiang.hall import botprocs
from majiang.hall.between import BetweenHands
from majiang.hall.items import ItemStore, TableItems
from majiang.hall.metrics import Metrics
from majiang.hall.persist import EventWriter, HandStore
from majiang.hall.rooms import Room
from majiang.hall.settings import Prefs, autoplay_bot, preset_action
from majiang.hall.states import TableState
from majiang.rulesets import make_ruleset

T = TypeVar("T")
log = logging.getLogger("majiang.table")


class HandOutcome(Protocol):
    """What a hand-end hook reports: ``complete`` — the table has played its part (an event table
    its session): it closes after this hand."""

    @property
    def complete(self) -> bool: ...


class HandEndHook(Protocol):
    """Called off the event loop after each hand of a competition table with the table id, the
    0-based hand number, the engine result (``SeatView(hand, 0).result``) and the hand's event log
    (the tournament's :class:`~majiang.tournament.adapters.online.ResultHook`); None for a table it
    does not know."""

    def __call__(
        self, table_id: str, hand_no: int, result: Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]]
    ) -> HandOutcome | None: ...


class TableHost(Protocol):
    """What a table needs from the hall it runs in (:class:`majiang.hall.service.Hall`): seat
    bookkeeping, the database off the event loop, sending, metrics and the hand-end hooks."""

    # ---- seats and where people are
    async def may_enter(self, account: int, room: Room, playing: bool = False) -> tuple[bool, str]: ...
    def joined(self, account: int, table: TableRunner, spectator: bool = False) -> None: ...
    def left(self, account: int, table: TableRunner) -> None: ...
    async def seat_here(self, account: int, table: TableRunner) -> bool: ...
    def sit_refused(self, account: int, table: TableRunner) -> None: ...
    def table_changed(self, table: TableRunner) -> None: ...
    def table_ended(self, table: TableRunner) -> None: ...
    def route(self, table_id: str, kind: str, account: int = 0, **data: Any) -> None: ...
    async def bot_account(self, kind: str) -> int: ...
    async def prefs_of(self, account: int) -> Prefs: ...
    def bot_delay(self) -> float: ...
    @property
    def auto_delay_s(self) -> float: ...
    def name_of(self, account: int) -> str: ...
    def muted(self, listener: int, speaker: int) -> bool: ...

    # ---- the database
    async def run_db(self, fn: Callable[..., T], *args: Any) -> T: ...
    @property
    def store(self) -> HandStore: ...
    @property
    def events(self) -> EventWriter: ...
    @property
    def items(self) -> ItemStore: ...

    # ---- sending, metrics, hooks
    def send(self, account: int, msg: dict[str, Any]) -> None: ...
    @property
    def metrics(self) -> Metrics: ...
    @property
    def hand_end_hooks(self) -> Sequence[HandEndHook]: ...


CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no look-alikes: no 0/O, 1/I/L
CODE_LENGTH = 8  # 32⁸ ≈ 1.1·10¹² codes


def new_code() -> str:
    """A private table's code for friends: 8 characters from ``secrets`` (40 bits)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str:
    """A code as typed: case, spaces and dashes do not matter."""
    return "".join(c for c in code.upper() if c not in " -")


def is_private_id(table_id: str) -> bool:
    return table_id.startswith("p")


@dataclass
class SeatInfo:
    account_id: int
    name: str
    bot: Bot | None = None  # a server bot plays this seat
    auto: bool = False  # 托管
    timeouts: int = 0
    escaped: bool = False
    golden: bool = False  # 金手指: the discard marker is a golden finger while at this table
    online: bool = True  # the player's connection (on any process) is open
    gone: int = 0  # counts disconnects: a reconnect-grace timer acts only on the disconnect it was set for
    leave_after: bool = False  # 本局后离座: stand up, at no cost, when this hand ends (between.py)
    missed_ready: int = 0  # ready steps missed in a row (between.py)
    prefs: Prefs = field(default_factory=Prefs)  # the player's toggles: 自动和, 不吃碰杠, 摸切 (hall/settings.py)
    autobot: Bot | None = None  # 托管's player (the room's fan-aware bot), made when first needed

    @property
    def human(self) -> bool:
        return self.bot is None

    def public(self, online: bool) -> dict[str, Any]:
        return {
            "name": self.name,
            "bot": not self.human,
            "auto": self.auto,
            "online": online or not self.human,
            "account": self.account_id,
            "golden_finger": self.golden,
        }


@dataclass
class Prompt:
    seq: int
    legal: list[Action]
    deadline: float
    timer: asyncio.TimerHandle | None = None
    false_won: bool = False  # this turn's false win is spent (the prompt asked again keeps the flag)
    sent: bool = False  # asked of the player (its own clock runs), not played by 托管 or a bot
    preset: bool = False  # a toggle of the player answers it (never sent)


@dataclass
class Msg:
    kind: str
    account: int = 0
    data: dict[str, Any] = field(default_factory=dict)


def spectator_view(hand: Hand, shown: int) -> tuple[int, dict[str, Any] | None]:
    """The hand as spectators have been shown it (its first ``shown`` events): the hand replayed to
    that point, and how many events that replay holds (what follows a decision by itself — the next
    draw — comes with it), with its public view; ``(shown, None)`` before the first event or when the
    replay fails (the events alone still draw the table)."""
    if shown <= 0:
        return 0, None
    from majiang.engine.log import replay
    from majiang.rulesets import from_header

    try:
        at = replay(hand.events[:shown], from_header)
    except Exception:
        log.exception("spectator snapshot: replaying %d events failed", shown)
        return shown, None
    return min(len(at.events), len(hand.events)), public_view(at)


class TableRunner:
    def __init__(self, host: TableHost, room: Room, table_id: str | None = None, private: bool = False) -> None:
        self.host = host
        self.room = room
        # a private table's id says so ("p…", never hex): its hands stay unlisted after the table is gone
        self.id = table_id or (f"p{secrets.token_hex(6)}" if private else secrets.token_hex(4))
        self.code = new_code() if private else None
        self.private = private
        self.seats: list[SeatInfo | None] = [None, None, None, None]
        self.spectators: set[int] = set()
        self.inbox: asyncio.Queue[Msg] = asyncio.Queue()
        self.state = TableState.WAITING  # waiting → playing ⇄ between → ended (majiang.hall.states)
        self.session: Session | None = None
        self.hand: Hand | None = None
        self.hand_id: int | None = None
        self.session_row: int | None = None  # the session seed's row in table_sessions (the database)
        self.sent = 0  # events of the current hand already persisted
        self.shown = 0  # … and sent to the seats (what follows a discard waits for its claim window)
        self.release_at = 0.0  # the open claim window ends (monotonic)
        self.release_timer: asyncio.TimerHandle | None = None
        self.seq = 0
        self.prompts: dict[int, Prompt] = {}
        self.chat_log: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None
        self.fill_timer: asyncio.TimerHandle | None = None
        self.created = time.time()
        self.hands_played = 0
        self.actions = 0
        self.pending_sits = 0  # sits routed here but not yet processed (so quick-join does not overfill)
        self.fenced = False  # another process took this table over: stop without writing anything
        self.spectator_sent = 0  # events of the current hand already released to spectators
        self.items = TableItems(self)  # 道具 (majiang.hall.items): only in rooms that allow them
        self.keep_deadline: dict[int, float] = {}  # a prompt asked again after an item keeps its deadline
        self.keep_false_won: set[int] = set()  # … and after a false win, that the turn had one
        self.false_wins: dict[int, int] = {}  # false wins of this hand, by seat
        # a spectator's snapshot reached this event of this hand: its delayed events start there
        self.spectator_from: dict[int, tuple[int | None, int]] = {}
        self.creator: int | None = None  # who opened the table (its owner while seated: between.py)
        self.between = BetweenHands(self)  # the ready step, leave-after-hand, a private table's bots
        # an event table (the tournament's online sessions, docs/tournament.md) may be given its session seed
        # (复式: every table of the session deals the same walls), a first hand (a session resumed on a new
        # table) and ``sealed``: no seed is revealed to anyone and nobody may watch until the event says so
        self.deal_seed: bytes | None = None
        self.first_hand = 0
        self.sealed = False

    # ---- public, called from the connection handlers ------------------------------------------
    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")
        # a table nobody sits at closes: empty tables would pile up in the lobby
        asyncio.get_running_loop().call_later(self.room.empty_close_s, self.put, "empty_check")

    def put(self, kind: str, account: int = 0, **data: Any) -> None:
        self.inbox.put_nowait(Msg(kind, account, data))

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "room": self.room.id,
            "private": self.private,
            "state": self.state,
            "seats": [s.public(s.online) if s else None for s in self.seats],
            "hands": self.hands_played,
            "spectators": len(self.spectators),
            **self.between.info(),
        }

    @property
    def owner(self) -> int | None:
        """A private table's owner: its creator while seated there, else the first seated human."""
        if not self.private:
            return None
        if self.creator is not None and self.seat_of(self.creator) is not None:
            return self.creator
        return next((s.account_id for s in self.seats if s is not None and s.human), None)

    def seat_of(self, account: int) -> int | None:
        """The account's seat here; a seat its player escaped from (托管 plays it out) is no longer
        the account's: it hears nothing more of this table and may sit elsewhere (no message of the old table
        reaches the new one)."""
        for i, s in enumerate(self.seats):
            if s is not None and s.account_id == account and s.human and not s.escaped:
                return i
        return None

    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s is None)

    def open_seats(self) -> int:
        """Free seats not yet promised to someone on the way in."""
        return self.free_seats() - self.pending_sits

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.human and not s.escaped]

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

    # ---- seating -----------------------------------------------------------------------------
    async def on_sit(self, m: Msg) -> None:
        if not m.data.get("queued"):
            self.pending_sits = max(0, self.pending_sits - 1)
        acc = m.account
        if (seat_now := self.seat_of(acc)) is not None:
            if self.room.competition and not m.data.get("away"):
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
        away = bool(self.room.competition and m.data.get("away"))  # seated by the event, not connected: 托管
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
        if self.room.competition and (self.private or self.state != TableState.WAITING):
            # an event table (private, opened by the event) or a competition hand under way keeps the
            # chair: 托管 until he is back; a public competition table not yet started just frees it
            await self.away(seat, "away")
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

    async def on_connected(self, m: Msg) -> None:
        seat = self.seat_of(m.account)
        if seat is not None and self.room.competition:
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
        if self.room.competition:  # an event table: the chair stays his, 托管 plays it until he is back
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

    # ---- playing -------------------------------------------------------------------------------
    async def maybe_start(self) -> None:
        ready = self.between.all_ready()  # the ready step: every seated human (bots always are)
        if (
            self.state in (TableState.WAITING, TableState.BETWEEN)
            and self.free_seats() == 0
            and self.humans()
            and ready
        ):
            self.disarm_fill()
            self.between.close()
            await self.start_hand()

    async def start_hand(self) -> None:
        for i in self.humans():
            info = self.seats[i]
            assert info is not None
            ok, why = await self.host.may_enter(info.account_id, self.room, playing=True)
            if not ok:
                self.send(info.account_id, {"type": "stood_up", "reason": why})
                self.seats[i] = None
                self.host.left(info.account_id, self)
        if self.free_seats():
            self.state = TableState.WAITING
            if self.humans():
                self.arm_fill()
            self.broadcast_table()
            if not self.humans():
                self.state = TableState.ENDED
            return
        if self.session is None or self.session.over:
            self.session = self.new_session()
            # the seed is kept here and in the database, never in the (Redis) snapshot: Redis is untrusted
            self.session_row = await self.host.run_db(self.host.store.save_session, self.id, self.session.seed.hex())
        # seats at this table are fixed; the session's seat changes are not applied to real chairs
        self.session.seat_of = [0, 1, 2, 3]
        hand = self.session.new_hand()
        assert hand is not None
        hand = await self.items.before_hand(hand)  # 乾坤大挪移: the same hand, dealt with the item's swaps
        self.hand = hand
        self.sent = 0
        self.shown = 0
        self.release_at = 0.0
        self.spectator_sent = 0
        self.spectator_from = {}
        self.false_wins = {}
        self.state = TableState.PLAYING
        players = [s.account_id if s else None for s in self.seats]
        self.hand_id = await self.host.run_db(
            self.host.store.start_hand,
            self.id,
            self.room.id,
            self.hands_played,
            self.room.rules,
            hand.events[0]["seed_hash"],
            players,
        )
        self.broadcast_table()
        self.items.notify()
        await self.flush()

    def new_session(self) -> Session:
        """The table's next session: a fresh secret seed, or the event's (复式) starting at ``first_hand``
        (dealer and round as after that many hands: the deal passes every hand)."""
        ses = Session(
            make_ruleset(self.room.rules, self.room.options or None), self.deal_seed or secrets.token_bytes(32)
        )
        for _ in range(self.first_hand if self.hands_played == self.first_hand else 0):
            ses.hand_no += 1
            ses.dealer = (ses.dealer + 1) % 4
            ses.passes += 1
            if ses.passes == 4:
                ses.passes, ses.round = 0, ses.round + 1
        return ses

    async def flush(self) -> None:
        """Persist the new events, send each seat its view of them, then prompt whoever must act."""
        hand = self.hand
        assert hand is not None and self.hand_id is not None
        new = hand.events[self.sent :]
        first = self.sent
        self.sent = len(hand.events)
        await self.host.events.write(self.hand_id, first, new)
        await self.deliver()

    async def deliver(self) -> None:
        """Send the events not yet shown, the same way whether or not anyone could claim (a pause only
        when someone could would tell the others that someone can): each discard ends a message and
        opens a claim window of ``room.claim_window()`` for everyone; what follows it (a claim, the
        next draw) is sent when the window ends, and only then is the next seat asked.  Claimers are
        asked at once (their prompts are their own)."""
        hand = self.hand
        assert hand is not None and self.hand_id is not None
        if self.release_timer is not None:
            return  # a window is open: its end delivers
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        if now < self.release_at and self.shown < self.sent:
            self.release_timer = loop.call_later(self.release_at - now, self.put, "release")
            return
        first, upto = self.shown, self.sent
        window = False
        for i in range(first, upto):
            if hand.events[i].get("type") == "discard":
                upto, window = i + 1, True
                break
        new = hand.events[first:upto]
        self.shown = upto
        for seat, info in enumerate(self.seats):
            if info is None or not info.human or info.escaped:
                continue
            out = seat_events(new, seat, self.sealed)
            if out:
                self.send(info.account_id, {"type": "events", "hand": self.hand_id, "from": first, "events": out})
        # spectators see the same public events, delayed
        public = seat_events(new, -1, self.sealed)
        msg = {"type": "events", "hand": self.hand_id, "from": first, "events": public, "delayed": True}
        loop.call_later(self.room.spectate_delay_s, self._to_spectators, msg, upto)
        if window:
            self.release_at = now + self.room.claim_window()
            if self.shown < self.sent:  # nobody may claim: the engine went on; what came next waits
                self.release_timer = loop.call_later(self.room.claim_window(), self.put, "release")
                return
        if self.shown < self.sent:
            await self.deliver()
            return
        if hand.over:
            await self.end_hand()
            return
        await self.prompt_all()
        self.items.changed()

    async def on_release(self, m: Msg) -> None:
        self.release_timer = None
        if self.hand is not None and self.state == TableState.PLAYING:
            await self.deliver()

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

    async def prompt_all(self) -> None:
        hand = self.hand
        assert hand is not None
        for seat in hand.prompted():
            if seat in self.prompts:
                continue
            info = self.seats[seat]
            assert info is not None
            self.seq += 1
            legal = hand.legal(seat)
            timeout = self._timeout_for(seat)
            kept = self.keep_deadline.pop(seat, None)
            if kept is not None:
                timeout = max(0.5, kept - time.monotonic())
            prompt = Prompt(self.seq, legal, time.monotonic() + timeout, false_won=seat in self.keep_false_won)
            self.keep_false_won.discard(seat)
            self.prompts[seat] = prompt
            loop = asyncio.get_running_loop()
            if info.bot is not None:
                delay = self.host.bot_delay()
                if delay <= 0:
                    self.put("bot", seat=seat, seq=prompt.seq)
                else:
                    prompt.timer = loop.call_later(delay, partial(self.put, "bot", seat=seat, seq=prompt.seq))
            elif info.auto or not info.online or self.false_wins.get(seat, 0) >= self.room.auto_after_false_wins:
                prompt.timer = loop.call_later(
                    self.host.auto_delay_s, partial(self.put, "timeout", seat=seat, seq=prompt.seq, auto=True)
                )
            elif preset_action(SeatView(hand, seat), legal, info.prefs) is not None:
                prompt.preset = True  # a toggle answers at once (on_preset): no timer, nothing sent
                self.put("preset", seat=seat, seq=prompt.seq)
            else:
                prompt.timer = loop.call_later(timeout, partial(self.put, "timeout", seat=seat, seq=prompt.seq))
                prompt.sent = True
                msg = {
                    "type": "prompt",
                    "seq": prompt.seq,
                    "hand": self.hand_id,
                    "legal": [action_json(a) for a in legal],
                    "timeout_ms": int(timeout * 1000),
                    "view": SeatView(hand, seat).to_dict(),
                }
                if self.items.enabled:
                    msg["items"] = self.items.told[seat] = self.items.usable(seat)
                self.send(info.account_id, msg)
                self.host.metrics.prompt_sent(self.id, seat)

    def reprompt(self, seat: int) -> None:
        """Withdraw ``seat``'s prompt so that the next flush asks again (with the legal actions of the
        changed hand) under a new seq, keeping the old deadline."""
        p = self.prompts.pop(seat, None)
        if p is not None:
            if p.timer is not None:
                p.timer.cancel()
            self.keep_deadline[seat] = p.deadline
            if p.false_won:
                self.keep_false_won.add(seat)

    def _timeout_for(self, seat: int) -> float:
        hand = self.hand
        assert hand is not None
        if hand.phase.value in ("claim", "rob"):
            return self.room.timer("claim")
        if hand.first_turn and seat == hand.dealer:
            return self.room.timer("first_discard")
        return self.room.timer("action")

    async def on_bot(self, m: Msg) -> None:
        seat, seq = m.data["seat"], m.data["seq"]
        p = self.prompts.get(seat)
        info = self.seats[seat]
        if p is None or p.seq != seq or info is None or info.bot is None or self.hand is None:
            return
        if isinstance(info.bot, botprocs.ProcessBot):  # its program is asked on a thread: other tables play on
            hand = self.hand
            action = await info.bot.decide(hand, seat, p.legal, lambda: self.prompts.get(seat) is p)
            if action is None or self.prompts.get(seat) is not p or self.hand is not hand:
                return
        else:
            action = info.bot.choose(SeatView(self.hand, seat), p.legal)
        await self.apply(seat, action)

    async def on_timeout(self, m: Msg) -> None:
        seat, seq = m.data["seat"], m.data["seq"]
        p = self.prompts.get(seat)
        if p is None or p.seq != seq:
            return
        info = self.seats[seat]
        assert info is not None
        if not m.data.get("auto"):
            info.timeouts += 1
            if info.timeouts >= self.room.auto_after_timeouts and not info.auto:
                info.auto = True
                self.send(info.account_id, {"type": "auto", "on": True, "reason": "timeouts"})
                self.broadcast_table()
        await self.act_for(seat, default=True)

    async def act_for(self, seat: int, default: bool) -> None:
        """托管 (and a single timeout): the room's fan-aware bot decides for the player."""
        hand = self.hand
        info = self.seats[seat]
        assert hand is not None and info is not None
        action = hand.default_action(seat)
        try:
            if info.autobot is None:
                info.autobot = autoplay_bot(
                    self.room.bots, self.room.rules, seed=hash((self.id, seat, "auto")) & 0xFFFF
                )
            chosen = info.autobot.choose(SeatView(hand, seat), hand.legal(seat))
            if chosen in hand.legal(seat):
                action = chosen
        except Exception:  # the engine's default (discard the drawn tile, pass) is always legal
            log.exception("table %s: 托管 bot failed for seat %d", self.id, seat)
        await self.apply(seat, action)

    async def on_preset(self, m: Msg) -> None:
        """A toggle (自动和, 不吃碰杠, 摸切) answers the seat's prompt: not a timeout, never toward 托管."""
        seat, seq = m.data["seat"], m.data["seq"]
        p = self.prompts.get(seat)
        info = self.seats[seat]
        if p is None or p.seq != seq or info is None or self.hand is None or self.state != TableState.PLAYING:
            return
        decided = preset_action(SeatView(self.hand, seat), p.legal, info.prefs)
        if decided is None or info.auto or not info.online:  # changed meanwhile: ask as usual
            self.prompts.pop(seat, None)
            await self.prompt_all()
            return
        toggle, action = decided
        self.send(
            info.account_id,
            {"type": "preset", "hand": self.hand_id, "seq": seq, "toggle": toggle, "action": action_json(action)},
        )
        await self.apply(seat, action)

    async def on_prefs(self, m: Msg) -> None:
        """The player changed its toggles: they apply from the prompt open now on."""
        seat = self.seat_of(m.account)
        if seat is None:
            return
        info = self.seats[seat]
        assert info is not None
        info.prefs = Prefs.from_dict(m.data)
        p = self.prompts.get(seat)
        if (
            p is None
            or p.preset
            or info.auto
            or not info.online
            or self.hand is None
            or self.state != TableState.PLAYING
        ):
            return
        if preset_action(SeatView(self.hand, seat), p.legal, info.prefs) is not None:
            p.preset = True
            if p.timer is not None:
                p.timer.cancel()
                p.timer = None
            self.put("preset", seat=seat, seq=p.seq)

    async def on_action(self, m: Msg) -> None:
        acc = m.account
        seat = self.seat_of(acc)
        if seat is None or self.hand is None or self.state != TableState.PLAYING:
            self.error(acc, "not_playing", "you are not playing at this table now")
            return
        p = self.prompts.get(seat)
        seq = m.data.get("seq")
        if self.false_wins.get(seat, 0) >= self.room.auto_after_false_wins:
            self.error(acc, "not_playing", "after repeated false wins your seat plays in 托管 to the end of the hand")
            return
        if p is None or seq != p.seq:
            self.error(acc, "stale", f"no decision pending with seq {seq!r}; this reply was ignored", seq=seq)
            return
        try:
            action = action_from_json(m.data.get("action"))
        except ValueError as e:
            self.error(acc, "bad_action", str(e), seq=seq)
            return
        info = self.seats[seat]
        assert info is not None
        false_win = action not in p.legal and action.type == WIN
        if action not in p.legal:
            if false_win:  # the engine rules on a false win (错和/诈和): one a turn, the turn's clock runs on
                if p.false_won:
                    self.error(
                        acc,
                        "illegal",
                        "one false win a turn: this one was ignored",
                        seq=seq,
                        legal=[action_json(a) for a in p.legal],
                    )
                    return
                self.keep_deadline[seat] = p.deadline
                self.keep_false_won.add(seat)
            else:
                self.error(
                    acc,
                    "illegal",
                    f"{action.type} is not a legal choice now",
                    seq=seq,
                    legal=[action_json(a) for a in p.legal],
                )
                return
        info.timeouts = 0
        if info.auto and not false_win:
            info.auto = False
            self.send(acc, {"type": "auto", "on": False})
            self.broadcast_table()
        before = len(self.hand.events)
        await self.apply(seat, action)
        if false_win:
            if seat not in self.prompts:  # not asked again: what was kept for it goes
                self.keep_deadline.pop(seat, None)
                self.keep_false_won.discard(seat)
            if len(self.hand.events) > before and self.state == TableState.PLAYING:
                await self.false_won(seat)

    async def false_won(self, seat: int) -> None:
        """After a false win: the seat's count for this hand; at the room's threshold, 托管."""
        self.false_wins[seat] = n = self.false_wins.get(seat, 0) + 1
        info = self.seats[seat]
        assert info is not None
        if n >= self.room.auto_after_false_wins and not info.auto:
            info.auto = True
            self.send(info.account_id, {"type": "auto", "on": True, "reason": "false_wins"})
            self.broadcast_table()
            if seat in self.prompts:
                p = self.prompts.pop(seat)
                if p.timer is not None:
                    p.timer.cancel()
                await self.prompt_all()  # asked again in 托管: the default after the auto delay

    async def apply(self, seat: int, action: Action) -> None:
        hand = self.hand
        assert hand is not None
        p = self.prompts.get(seat)
        self.host.metrics.action_received(self.id)
        try:
            hand.act(seat, action)
        except IllegalAction as e:
            info = self.seats[seat]
            if info is not None and info.human and p is not None:
                self.error(info.account_id, "illegal", str(e), seq=p.seq)
                return
            hand.act(seat, hand.default_action(seat))  # a bot's mistake: play the default
        self.actions += 1
        if p is not None and p.timer is not None:
            p.timer.cancel()
        self.prompts.pop(seat, None)
        # prompts of seats whose options vanished (a claim window that resolved) are withdrawn
        still = set(hand.prompted())
        for s in list(self.prompts):
            if s not in still or hand.legal(s) != self.prompts[s].legal:
                old = self.prompts.pop(s)
                if old.timer is not None:
                    old.timer.cancel()
        await self.flush()

    async def end_hand(self) -> None:
        hand = self.hand
        session = self.session
        assert hand is not None and session is not None and self.hand_id is not None
        self._cancel_prompts()
        session.finish_hand(hand)
        accounts = [s.account_id for s in self.seats]  # type: ignore[union-attr]
        win = hand.win
        stats = [
            {
                "account_id": accounts[i],
                "seat": i,
                "score": hand.deltas[i],
                "won": bool(win and win.seat == i),
                "dealt_in": bool(win and win.discarder == i),
                "fan": win.points if win and win.seat == i else 0,
            }
            for i in range(4)
            if (info := self.seats[i]) is not None and info.human
        ]
        view = SeatView(hand, 0).result or {}
        competition = self.room.competition  # competition tables play for the event, not for coins
        coins = await self.host.run_db(
            self.host.store.finish_hand,
            self.hand_id,
            self.id,
            None if self.sealed else hand.seed.hex(),  # sealed: revealed by the event when its session ends
            view,
            accounts,
            list(hand.deltas),
            0 if competition else self.room.coefficient,
            0 if competition else self.room.fee,
            stats,
        )
        self.hands_played += 1
        session_done = False
        if competition:
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
        self.broadcast(msg)
        self.host.metrics.hand_settled(self)
        for i, s in enumerate(self.seats):
            if s is not None and isinstance(s.bot, botprocs.ProcessBot):
                await s.bot.hand_over(SeatView(hand, i))  # a kept Botzone process ends with the match
        for i, s in enumerate(self.seats):
            if s is not None and (s.escaped or (s.human and not s.online and not self.room.competition)):
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
        text = str(m.data.get("text", ""))[:200].strip()
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
            if self.hand.over:
                await self.end_hand()
            else:
                await self.prompt_all()
        elif self.state == TableState.BETWEEN:
            self.between.after_hand()
            self.broadcast_table()
        elif self.state == TableState.WAITING and self.humans():
            self.arm_fill()

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
                t.sent = t.shown = len(t.hand.events)
            else:
                t.state = TableState.BETWEEN  # the hand never got its first event written: deal again
        return t

    # ---- messages --------------------------------------------------------------------------------
    def _audience(self) -> list[int]:
        people = [s.account_id for s in self.seats if s is not None and s.human and not s.escaped]
        return people + [a for a in self.spectators if a not in people]

    def send(self, account: int, msg: dict[str, Any]) -> None:
        """Every message of a table names it and its hand (``table_id``, ``hand``: the hand record
        id, null before the first): a client shows only its current table's (a table left mid-hand stays
        away from the next one)."""
        self.host.send(account, {**msg, "table_id": self.id, "hand": msg.get("hand", self.hand_id)})

    def publish(self) -> None:
        """Publish the table's seats, state and takeover snapshot (after a change outside a seat move)."""
        self.host.table_changed(self)

    async def run_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.host.run_db(fn, *args)

    @property
    def item_store(self) -> ItemStore:
        return self.host.items

    def error(self, account: int, code: str, message: str, **extra: Any) -> None:
        self.send(account, {"type": "error", "code": code, "message": message, **extra})

    def broadcast(self, msg: dict[str, Any]) -> None:
        for a in self._audience():
            self.send(a, msg)

    def broadcast_table(self) -> None:
        self.broadcast({"type": "table_info", "table": self.info()})
        self.publish()

    def send_snapshot(self, account: int) -> None:
        """Everything a (re)connecting player needs: the table, its own view, this hand's events as
        it may see them, and the pending prompt again."""
        seat = self.seat_of(account)
        msg: dict[str, Any] = {
            "type": "table",
            "table": self.info(),
            "seat": seat,
            "room": self.room.to_dict(),
            "chat": self.chat_log[-30:],
        }
        if seat is not None and self.code:
            msg["code"] = self.code  # for friends: only the players at the table learn it
        if seat is not None:
            msg["leave_after"] = bool(self.seats[seat].leave_after)  # type: ignore[union-attr]
        if self.hand is not None and seat is not None:
            msg["hand"] = self.hand_id
            msg["view"] = SeatView(self.hand, seat).to_dict(self.sealed)
            msg["events"] = seat_events(self.hand.events[: self.shown], seat, self.sealed)
        if seat is not None and self.items.enabled:
            msg["items"] = self.items.status(seat)
        self.send(account, msg)
        if seat is not None and seat in self.prompts and self.hand is not None and not self.prompts[seat].preset:
            p = self.prompts[seat]
            again = {
                "type": "prompt",
                "seq": p.seq,
                "hand": self.hand_id,
                "legal": [action_json(a) for a in p.legal],
                "timeout_ms": max(0, int((p.deadline - time.monotonic()) * 1000)),
                "view": SeatView(self.hand, seat).to_dict(),
                "resent": True,
            }
            if self.items.enabled:
                again["items"] = self.items.told[seat] = self.items.usable(seat)
            self.send(account, again)

    def _cancel_prompts(self) -> None:
        for p in self.prompts.values():
            if p.timer is not None:
                p.timer.cancel()
        self.prompts.clear()
        self.keep_deadline.clear()
        self.keep_false_won.clear()

    def _cancel_timers(self) -> None:
        self._cancel_prompts()
        if self.release_timer is not None:
            self.release_timer.cancel()
            self.release_timer = None
        self.between.close()
        if self.fill_timer is not None:
            self.fill_timer.cancel()
