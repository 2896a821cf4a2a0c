"""What every part of a hall table shares: the host it runs in (:class:`TableHost`), its seats
(:class:`SeatInfo`), prompts and inbox messages, and :class:`TableCore` — the table's state, what the
connection handlers may ask of it, and how it sends.  The parts of
:class:`~majiang.hall.table.TableRunner` build on it: seating (:mod:`majiang.hall.seating`), spectators
(:mod:`majiang.hall.spectators`), the turn loop and its timers (:mod:`majiang.hall.turns`), the hand's
end and the table's small requests (:mod:`majiang.hall.settling`)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from majiang.bots.base import Bot
from majiang.engine.hand import Hand
from majiang.engine.protocol import Action
from majiang.engine.session import Session
from majiang.engine.view import SeatView, action_json, public_view, seat_events
from majiang.hall.between import BetweenHands
from majiang.hall.items import ItemStore, TableItems
from majiang.hall.match import Match
from majiang.hall.metrics import Metrics
from majiang.hall.persist import EventWriter, HandStore
from majiang.hall.rooms import PRIVATE_PREFIX, Room
from majiang.hall.settings import Prefs
from majiang.hall.states import TableState

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
    def joined(self, account: int, table: TableCore, spectator: bool = False) -> None: ...
    def left(self, account: int, table: TableCore) -> None: ...
    async def seat_here(self, account: int, table: TableCore) -> bool: ...
    def sit_refused(self, account: int, table: TableCore) -> None: ...
    def table_changed(self, table: TableCore) -> None: ...
    def table_ended(self, table: TableCore) -> None: ...
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


def hand_as_shown(hand: Hand, shown: int) -> Hand | None:
    """The hand as the table has shown it (its first ``shown`` events), replayed: after a discard its claim
    window is open even when nobody may claim (what the engine did next waits for the window's end, and a
    snapshot must not show it early: that would tell whether anyone could claim).  None before the first
    event or when the replay fails (logged)."""
    if shown <= 0:
        return None
    from majiang.engine.log import replay_shown
    from majiang.rulesets import from_header

    try:
        return replay_shown(hand.events[:shown], from_header)
    except Exception:
        log.exception("snapshot: replaying %d events failed", shown)
        return None


def spectator_view(hand: Hand, shown: int) -> tuple[int, dict[str, Any] | None]:
    """The hand as spectators have been shown it (its first ``shown`` events): how many events the
    replay holds (what follows a decision by itself — a flower's replacement — comes with it) and its
    public view; ``(shown, None)`` before the first event or when the replay fails (the events alone
    still draw the table)."""
    at = hand_as_shown(hand, shown)
    if at is None:
        return max(shown, 0), None
    return min(len(at.events), len(hand.events)), public_view(at)


class TableCore:
    """The table's state, its public questions and its sending; the parts add what the table does."""

    def __init__(self, host: TableHost, room: Room, table_id: str | None = None, private: bool = False) -> None:
        self.host = host
        self.room = room
        # a private table's id says so ("p…", never hex): its hands stay unlisted after the table is gone
        self.id = table_id or (f"{PRIVATE_PREFIX}{secrets.token_hex(6)}" if private else secrets.token_hex(4))
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
        self.shown = 0  # events of the current hand written and sent (what follows a discard waits for its window)
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
        # the decisions 托管 took for a seat in this hand (a timeout, 托管 on, an escaped seat): the index
        # of the event each was taken at, so the review and the replay do not credit them to the player
        self.auto_events: dict[int, list[int]] = {}
        # 东风战 / 全庄 (hall/match.py): the match being played, none where every hand stands alone
        self.match: Match | None = Match(room.match_hands) if room.match_hands and not room.competition else None
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

    def hand_shown(self) -> Hand | None:
        """The hand as the seats have been shown it: while a claim window is open or events wait for its
        end, the replay to the window's discard (the engine may have gone on: the next seat's draw),
        else the live hand.  Replayed in every window, so an answer takes as long whoever could claim."""
        hand = self.hand
        if hand is None or (self.shown >= len(hand.events) and time.monotonic() >= self.release_at):
            return hand
        return hand_as_shown(hand, self.shown) or hand

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
            msg["view"] = SeatView(self.hand_shown() or self.hand, seat).to_dict(self.sealed)
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

    # ---- what the parts ask of one another: each is defined by one part (TableRunner's bases), and
    # declared here so that every part, and the items and between-hands helpers, may call it
    async def run(self) -> None:
        raise NotImplementedError  # TableRunner

    def people(self) -> list[int]:
        raise NotImplementedError  # TableRunner

    def snapshot(self) -> dict[str, Any]:
        raise NotImplementedError  # TableRunner

    def arm_fill(self) -> None:
        raise NotImplementedError  # seating

    def disarm_fill(self) -> None:
        raise NotImplementedError  # seating

    def free_seat(self, seat: int, code: str, reason: str) -> None:
        raise NotImplementedError  # seating

    async def stand_now(self, account: int) -> None:
        raise NotImplementedError  # seating

    async def on_spectate(self, m: Msg) -> None:
        raise NotImplementedError  # spectators

    def _to_spectators(self, msg: dict[str, Any], upto: int) -> None:
        raise NotImplementedError  # spectators

    async def maybe_start(self) -> None:
        raise NotImplementedError  # turns

    async def flush(self) -> None:
        raise NotImplementedError  # turns

    async def prompt_all(self) -> None:
        raise NotImplementedError  # turns

    def reprompt(self, seat: int) -> None:
        raise NotImplementedError  # turns

    async def act_for(self, seat: int, default: bool) -> None:
        raise NotImplementedError  # turns

    async def end_hand(self) -> None:
        raise NotImplementedError  # settling

    async def next_hand(self) -> None:
        raise NotImplementedError  # settling
