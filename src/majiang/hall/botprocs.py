"""Bots that run outside programs at hall tables: ``botzone:COMMAND``, ``botzone-simple:COMMAND``
(docs/botzone.md) and ``ext:COMMAND`` (docs/bot-protocol.md) as a room's ``bots``.

Such a bot waits for its program (up to its time limit, twice that for a Botzone bot's first run in
a hand).  The hall runs every table on one event loop, so the wait happens on a thread of
:data:`EXECUTOR`: the table's own task reads the hand (:meth:`prepare`, quick and pure), then awaits
the program's answer (:meth:`answer`, on the thread); the other tables play on meanwhile.  The
program is started, fed and ended on that thread only; the event loop never waits for a process.

Three things a room sets (docs/hardening.md):

- ``bot_processes`` — the most such bots (each runs at most one process at a time) the room's tables
  hold at once, across the room; a seat past the cap gets the room's ``bot_fallback`` (a built-in
  bot, ``fan`` by default), and the hall logs a warning;
- ``bot_name`` — the name players see (default: ``Botzone bot NAME``, NAME being the program's file
  name without its folder or suffix); the command line never leaves the server;
- ``bots`` itself: only the hall operator's rooms file names a command; no client message can.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shlex
import shutil
import threading
import weakref
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from majiang.bots.base import BOT_KINDS, FAULT_KINDS, Bot, make_bot, take_fault
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView

if TYPE_CHECKING:
    from majiang.engine.hand import Hand


class Room(Protocol):
    """What this module reads of a :class:`majiang.hall.rooms.Room` (which imports this module)."""

    @property
    def id(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def bots(self) -> str: ...
    @property
    def bot_name(self) -> str | None: ...
    @property
    def bot_processes(self) -> int: ...
    @property
    def bot_fallback(self) -> str: ...


log = logging.getLogger("majiang.hall.bots")

EXTERNAL = ("botzone:", "botzone@", "botzone-simple:", "botzone-simple@", "ext:")
#: the threads that wait for bot programs (a thread waits in select(), it costs no CPU); a room's cap
#: bounds how many bots it has, this bounds the threads of the whole process
EXECUTOR = ThreadPoolExecutor(max_workers=32, thread_name_prefix="hall-bot")
_INTERPRETERS = {"python", "python3", "pypy", "pypy3", "node", "java", "sh", "bash", "ruby", "perl", "env", "mono"}


def is_external(spec: str) -> bool:
    """Whether the bot kind runs an outside program."""
    return spec.startswith(EXTERNAL)


def check_spec(spec: str, what: str = "bots") -> None:
    """A room's bot kind, checked when the rooms file is read: a built-in kind, or an outside program
    that exists (ValueError otherwise)."""
    if spec in BOT_KINDS:
        return
    if not is_external(spec):
        raise ValueError(
            f"{what} = {spec!r}: use one of {', '.join(BOT_KINDS)}, "
            "botzone:COMMAND, botzone-simple:COMMAND or ext:COMMAND"
        )
    if spec.startswith("ext:"):
        argv = shlex.split(spec[4:])
        if not argv or (shutil.which(argv[0]) is None and not os.access(argv[0], os.X_OK)):
            raise ValueError(f"{what}: cannot run {spec[4:]!r}: no such program")
        return
    import majiang.bots.botzone as botzone

    botzone.make(spec)  # checks the time limit and that the program exists


def label(spec: str, configured: str | None = None) -> str:
    """The name players see for a bot of kind ``spec``: the room's ``bot_name``, else ``Botzone bot``
    (or ``Bot``) and the program's file name — never the command line, its arguments or folders.

    >>> label("botzone:python3 /srv/bots/my_bot.py --fast")
    'Botzone bot my_bot'
    >>> label("botzone-simple@2:/opt/x/sample", "示例 Sample")
    '示例 Sample'
    """
    if configured:
        return configured
    if not is_external(spec):
        return spec
    kind, _, command = spec.partition(":")
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    prog = argv[0] if argv else ""
    if os.path.basename(prog) in _INTERPRETERS:
        prog = next((a for a in argv[1:] if not a.startswith("-")), prog)
    stem = re.sub(r"[^\w.-]", "", os.path.splitext(os.path.basename(prog))[0])[:24] or "program"
    return f"{'Botzone bot' if kind.startswith('botzone') else 'Bot'} {stem}"


class _Cap:
    """External bots alive per room, per hall (a weak map: a hall that is gone takes its counts)."""

    def __init__(self) -> None:
        self._held: weakref.WeakKeyDictionary[Any, Counter[str]] = weakref.WeakKeyDictionary()

    def take(self, host: Any, room: Room) -> bool:
        held = self._held.setdefault(host, Counter())
        if held[room.id] >= room.bot_processes:
            return False
        held[room.id] += 1
        return True

    def give_back(self, host: Any, room: Room) -> None:
        held = self._held.get(host)
        if held is not None and held[room.id] > 0:
            held[room.id] -= 1

    def held(self, host: Any, room: Room) -> int:
        held = self._held.get(host)
        return held[room.id] if held is not None else 0


CAP = _Cap()


class ProcessBot:
    """An outside program's bot at a hall table.  ``name`` is its kind (kept in the table's takeover
    snapshot, server side); ``label`` is what players see."""

    def __init__(self, inner: Any, label: str, release: Callable[[], None]) -> None:
        self.inner = inner  # a BotzoneBot or an ExternalBot: prepare(view, legal) / answer(turn)
        self.name: str = inner.name
        self.label = label
        self.closed = False
        self._release = release
        self._lock = asyncio.Lock()  # one decision (or hand end) at a time, in order
        self._thread_lock = threading.Lock()  # the program is only touched by one thread at a time
        self.fault_kinds: dict[str, int] = {}  # by Botzone's verdict (TLE, WA, RE), for the log

    @property
    def faults(self) -> int:
        return int(getattr(self.inner, "faults", 0))

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """The plain Bot interface (blocking), for runners other than the hall."""
        action: Action = self._locked(self.inner.choose, view, legal)
        return action

    def _locked(self, fn: Callable[..., Any], *args: Any) -> Any:
        with self._thread_lock:
            return fn(*args)

    async def decide(self, hand: Hand, seat: int, legal: list[Action], still: Callable[[], bool]) -> Action | None:
        """The bot's choice, its program asked on a thread; None when ``still()`` says the decision
        is no longer wanted, or the bot was closed."""
        async with self._lock:
            if self.closed or not still():
                return None
            turn = self.inner.prepare(SeatView(hand, seat), legal)  # reads the hand here, on the loop
            loop = asyncio.get_running_loop()
            action: Action = await loop.run_in_executor(EXECUTOR, self._locked, self.inner.answer, turn)
            kind = take_fault(self.inner)
            if kind is not None:  # the hall plays the bot's replacement; the log says who faulted and how
                self.fault_kinds[kind] = self.fault_kinds.get(kind, 0) + 1
                log.warning(
                    "bot %s at seat %d: %s fault (%s), its replacement %s played; faults so far %s",
                    self.label,
                    seat,
                    FAULT_KINDS.get(kind, kind),
                    kind,
                    action,
                    ", ".join(f"{FAULT_KINDS.get(k, k)} {n}" for k, n in sorted(self.fault_kinds.items())),
                )
            return action

    async def hand_over(self, view: SeatView) -> None:
        """The hand is over: a kept Botzone process ends, an ``ext:`` program hears of it (off the
        loop).  ``view`` is of the finished hand, which nothing changes any more."""
        async with self._lock:
            fn = getattr(self.inner, "hand_over", None)
            if fn is not None and not self.closed:
                await asyncio.get_running_loop().run_in_executor(EXECUTOR, self._locked, fn, view)

    def close(self) -> None:
        """The seat is gone: its place under the room's cap is free now, its program is ended on a
        thread (once any answer it is still giving has come or timed out)."""
        if self.closed:
            return
        self.closed = True
        self._release()
        close = getattr(self.inner, "close", None)
        if close is not None:
            EXECUTOR.submit(self._locked, close)


@dataclass(frozen=True)
class SeatBot:
    bot: Bot
    account: str  # the bot's coin account key (``bot:KEY``): a kind or a label, never a command line
    name: str  # the seat's name, shown to players


def seat_bot(host: Any, room: Room, seat: int, seed: int, spec: str | None = None) -> SeatBot:
    """The bot for an empty seat of a ``room`` table (``spec``: the room's ``bots`` unless given, e.g.
    from a takeover snapshot).  An outside program counts against the room's ``bot_processes``;
    past the cap, or if it cannot be made, the seat gets the room's ``bot_fallback``."""
    spec = spec or room.bots
    if is_external(spec):
        if not CAP.take(host, room):
            log.warning(
                "room %s: %d outside-program bots already run (bot_processes); seat %d gets %s",
                room.id,
                room.bot_processes,
                seat,
                room.bot_fallback,
            )
        else:
            try:
                inner = make_bot(spec, seed=seed, rules=room.rules)
            except (ValueError, OSError):
                CAP.give_back(host, room)
                log.exception("room %s: cannot start its bot; seat %d gets %s", room.id, seat, room.bot_fallback)
            else:
                name = label(spec, room.bot_name)
                return SeatBot(ProcessBot(inner, name, lambda: CAP.give_back(host, room)), name, f"{name} {seat}")
        spec = room.bot_fallback
    return SeatBot(make_bot(spec, seed=seed, rules=room.rules), spec, f"{spec}-bot-{seat}")


def close_all(bots: list[Bot | None]) -> None:
    """End the outside programs of a table's bots (the table is over)."""
    for bot in bots:
        if isinstance(bot, ProcessBot):
            bot.close()
