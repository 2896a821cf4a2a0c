"""The hall: rooms, the tables in them, accounts, coins, and who sits where.

A hall is one process.  Its tables run here as :class:`~majiang.hall.table.TableRunner` tasks; with
a :class:`~majiang.hall.cluster.RedisCluster` several halls share one registry, and a message for a
table owned by another process is relayed to it (see docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine, Iterable
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import select

from majiang.engine.log import events_from_json
from majiang.hall.accounts import Accounts
from majiang.hall.cluster import Cluster, LocalCluster
from majiang.hall.heavy import HeavyWork
from majiang.hall.hub import Hub
from majiang.hall.items import ItemError, ItemStore
from majiang.hall.limits import Buckets
from majiang.hall.metrics import Metrics
from majiang.hall.persist import EventWriter, HandStore, fresh_executor
from majiang.hall.quota import Window
from majiang.hall.rooms import Room, is_private_id, load_rooms
from majiang.hall.settings import Prefs, SettingsStore
from majiang.hall.states import TableState
from majiang.hall.table import HandEndHook, Msg, TableCore, TableRunner, new_code, normal_code
from majiang.hall.text import clean_chat
from majiang.rulesets import names as ruleset_names
from majiang.store import Database
from majiang.store.models import Account, HandEvent

T = TypeVar("T")
log = logging.getLogger("majiang.hall")


CREATE_RATE = 5  # tables an account may open a minute (and one open at a time)
CODE_ATTEMPTS = 10  # private codes an account may try a minute
PENDING = "?"  # a seat reserved, its table not yet picked (the marker holds the time)
PENDING_S = 30.0  # a reservation left pending this long was abandoned (its process died)
LOBBY_LINES_PER_S = 10.0  # lobby chat lines a second for the whole hall, all senders together
LOBBY_LINES_BURST = 20.0
CLOSE_GRACE_S = 10.0  # how long a closing hall waits for a table owner to finish the message in hand


class HallError(ValueError):
    pass


class TableLimit(HallError):
    """An account opening tables past its limits (one open table, ``CREATE_RATE`` a minute)."""


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class Hall:
    def __init__(
        self,
        db: Database,
        rooms: list[Room] | None = None,
        bot_delay: tuple[float, float] = (0.6, 1.6),
        auto_delay_s: float = 0.5,
        signup_grant: int = 10_000,
        cluster: Cluster | None = None,
        hand_end_hooks: Iterable[HandEndHook] = (),
    ) -> None:
        self.db = db
        available = set(ruleset_names())
        self.rooms = {r.id: r for r in (rooms if rooms is not None else load_rooms()) if r.rules in available}
        self.cluster: Cluster = cluster or LocalCluster()
        self.hub = Hub(remote=self._send_remote if self.cluster.multi else None)
        self.accounts = Accounts(db, signup_grant=signup_grant)
        self.store = HandStore(db)
        self.items = ItemStore(db)  # 道具: the shop, inventories, the audit log
        self.settings = SettingsStore(db)  # the auto toggles remembered per account (hall/settings.py)
        self.executor = fresh_executor(db)
        self.events = EventWriter(db, self.executor)
        self.metrics = Metrics()
        self.tables: dict[str, TableRunner] = {}  # the tables this process owns
        self.where: dict[int, str] = {}  # cache: account → table id, for tables seen here
        self.mutes: dict[int, set[int]] = {}
        self.account_limits: dict[int, Any] = {}  # per-account rate limits (across connections)
        self.opened: dict[int, str] = {}  # account → the last table it opened
        # tables opened and private codes tried, per account and minute: one count for the whole cluster
        self.table_opens = Window(CREATE_RATE, 60.0, "create")
        self.code_tries = Window(CODE_ATTEMPTS, 60.0, "code")
        shared = getattr(self.cluster, "take_window", None)
        if self.cluster.multi and shared is not None:
            self.table_opens.share(shared)
            self.code_tries.share(shared)
        self.names: dict[int, str] = {}
        self._bot_accounts: dict[str, int] = {}
        self._bot_delay = bot_delay
        self.auto_delay_s = auto_delay_s
        self.lobby_chat: list[dict[str, Any]] = []
        self.heavy = HeavyWork()  # reviews and shanten searches, in worker processes (create_app(heavy=…))
        self.lobby_lines = Buckets(LOBBY_LINES_PER_S, LOBBY_LINES_BURST, name="lobby-lines")
        self.lobby_delivered = Buckets(2 * LOBBY_LINES_PER_S, 2 * LOBBY_LINES_BURST, name="lobby-delivered")
        self._lobby_dirty = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._restoring: dict[str, list[Msg]] = {}
        self.takeovers = 0
        self.closing = False
        # called after each hand of a competition table (the tournament records its hands: cli/serve_cmd.py)
        self.hand_end_hooks: list[HandEndHook] = list(hand_end_hooks)

    # ---- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        self.cluster.on_lobby(self._lobby_message)  # type: ignore[attr-defined]
        if hasattr(self.cluster, "on_lost"):
            self.cluster.on_lost(self._lost)
        await self.cluster.start(self._table_message, self._account_message, self.take_over)
        live = {t["id"] for t in await self.cluster.all_tables()}
        voided = await self.run_db(self.store.void_orphans, live)
        if voided:
            log.warning("voided %d hand(s) left unfinished by a stopped server: %s", len(voided), voided)

    async def close(self) -> None:
        """Stop every table, then the cluster, then the database worker.  A table's owner may be in
        the middle of a message that writes (a grace expiring, a bot's move): it finishes that message
        and sees 'close' next, so the executor is shut only once no owner can still submit to it."""
        self.closing = True
        owners = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        for t in list(self.tables.values()):
            t.put("close")
        if owners:
            _done, stuck = await asyncio.wait(owners, timeout=CLOSE_GRACE_S)
            for task in stuck:  # an owner waiting on something that never answers: stop it
                task.cancel()
            if stuck:
                await asyncio.wait(stuck)
        await asyncio.sleep(0)
        self.heavy.close()
        await self.cluster.stop()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (e := task.exception()) is not None:
            log.error("background task %s failed", task.get_name(), exc_info=e)

    # ---- plumbing ----------------------------------------------------------------------------
    async def run_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args))

    def bot_delay(self) -> float:
        lo, hi = self._bot_delay
        return random.uniform(lo, hi) if hi > 0 else 0.0

    async def bot_account(self, kind: str) -> int:
        """The coin account of this kind of bot (created on first use, off the event loop)."""
        if kind not in self._bot_accounts:
            self._bot_accounts[kind] = await self.run_db(self.accounts.bot_account, kind)
        return self._bot_accounts[kind]

    def name_of(self, account: int) -> str:
        if account not in self.names:
            acc = self.accounts.get(account)
            self.names[account] = acc.username if acc else f"#{account}"
        return self.names[account]

    def send(self, account: int, msg: dict[str, Any]) -> None:
        """To the account's connection on this process (if it has one here)."""
        self.hub.send(account, msg)

    def tell(self, account: int, msg: dict[str, Any]) -> None:
        """To the account's connection, on this process or (in a cluster) another."""
        if account in self.hub.conns or not self.cluster.multi:
            self.send(account, msg)
        else:
            self._send_remote(account, msg)

    def muted(self, listener: int, speaker: int) -> bool:
        return speaker in self.mutes.get(listener, set())

    async def in_hand(self, account: int) -> bool:
        """Whether the account has a seat at a table playing a hand now (on any process)."""
        table_id = await self.where_of(account)
        if table_id is None:
            return False
        local = self.tables.get(table_id)
        if local is not None:
            return local.state == TableState.PLAYING and any(
                s is not None and s.human and s.account_id == account for s in local.seats
            )
        info = await self.cluster.table_info(table_id)
        return bool(
            info
            and info.get("state") == TableState.PLAYING
            and any(s and not s.get("bot") and s.get("account") == account for s in info["seats"])
        )

    async def buy(self, account: int, item: str, count: int = 1, request_id: str | None = None) -> dict[str, Any]:
        """A purchase, refused while the buyer plays a hand: the stakes are fixed for the hand — the
        coins a loser pays and the escape penalty are capped by the balance, which a purchase lowers
        (spending mid-hand would shrink what the others could win)."""
        if await self.in_hand(account):
            raise ItemError("stakes", "the shop waits for the end of your hand: the stakes are fixed while it runs")
        return await self.run_db(self.items.buy, account, item, count, request_id)

    async def may_enter(self, account: int, room: Room, playing: bool = False) -> tuple[bool, str]:
        if not room.guests and (acc := await self.run_db(self.accounts.get, account)) and acc.kind == "guest":
            return False, f"{room.name} is for registered players: sign up to play here (guests: the free room)"
        bal = (await self.run_db(self.store.balances, [account]))[0]
        if bal < room.min_balance:
            return False, f"{room.name} needs at least {room.min_balance} coins; you have {bal}"
        if room.max_balance is not None and bal > room.max_balance:
            return False, f"{room.name} is for players with at most {room.max_balance} coins; you have {bal}"
        return True, ""

    async def prefs_of(self, account: int) -> Prefs:
        """The account's remembered toggles (自动和, 不吃碰杠, 摸切)."""
        return await self.run_db(self.settings.get, account)

    async def set_prefs(self, account: int, changes: dict[str, bool]) -> Prefs:
        """Remember changed toggles; tell the account's connection and the table it sits at."""
        prefs = await self.run_db(self.settings.update, account, changes)
        self.send(account, {"type": "settings", "settings": prefs.to_dict()})
        table = await self.where_of(account)
        if table is not None:
            self.route(table, "prefs", account, **prefs.to_dict())
        return prefs

    # ---- messages between processes -------------------------------------------------------------
    def _send_remote(self, account: int, msg: dict[str, Any]) -> None:
        self.spawn(self.cluster.to_account(account, msg))

    def route(self, table_id: str, kind: str, account: int = 0, **data: Any) -> None:
        """Deliver a message to a table, wherever it runs."""
        local = self.tables.get(table_id)
        if local is not None:
            local.put(kind, account, **data)
        elif table_id in self._restoring:
            self._restoring[table_id].append(Msg(kind, account, data))
        else:
            self.spawn(self.cluster.to_table(table_id, {"kind": kind, "account": account, "data": data}))

    def _table_message(self, d: dict[str, Any]) -> None:
        table_id = d.pop("to")
        msg = Msg(d["kind"], d.get("account", 0), d.get("data", {}))
        local = self.tables.get(table_id)
        if local is not None:
            local.inbox.put_nowait(msg)
        elif table_id in self._restoring:
            self._restoring[table_id].append(msg)

    async def _account_message(self, d: dict[str, Any]) -> None:
        account = d.pop("_account")
        conn = self.hub.conns.get(account)
        if conn is None:
            return
        if d.get("type") == "_kick":
            if d.get("logout"):
                await self.sign_out(account, everywhere=False)
            elif d.get("node") != self.cluster.node:
                conn.send({"type": "kicked", "reason": "you logged in somewhere else"})
                await conn.close(4000, "logged in elsewhere")
                self.hub.detach(conn)
            return
        conn.send(d)

    async def sign_out(self, account: int, everywhere: bool = True) -> None:
        """After a logout: the account's open connection (on any process) is told and closed."""
        if everywhere and self.cluster.multi:
            await self.cluster.to_account(account, {"type": "_kick", "node": self.cluster.node, "logout": True})
            return
        conn = self.hub.conns.get(account)
        if conn is not None:
            conn.send({"type": "kicked", "reason": "you logged out"})
            await conn.close(4401, "logged out")

    def _lobby_message(self, msg: dict[str, Any]) -> None:
        if self.lobby_delivered.take("hall") > 0:  # the readers' bound, should senders get past theirs
            return
        self.lobby_chat.append(msg)
        del self.lobby_chat[:-100]
        for a in list(self.hub.lobby_listeners):
            if not self.muted(a, msg.get("account", 0)):
                self.hub.send(a, msg)

    # ---- taking tables over -----------------------------------------------------------------------
    async def take_over(self, table_id: str) -> None:
        """Become the owner of an orphaned table (its process died) and restore it."""
        if table_id in self.tables or table_id in self._restoring:
            return
        if not await self.cluster.claim(table_id):
            return
        self._restoring[table_id] = []
        t0 = time.perf_counter()
        try:
            state = await self.cluster.table_state(table_id)
            if state is None or state.get("room") not in self.rooms:
                await self.cluster.drop_table(table_id, None)
                return
            events: list[dict[str, Any]] = []
            if state.get("hand_id") is not None and state.get("state") == TableState.PLAYING:
                events = await self.run_db(self._hand_events, state["hand_id"])
            seed = None
            ses = state.get("session")
            if ses is not None:  # the seed is in the database, not in Redis: Redis is outside the trust boundary
                found = await self.run_db(self.store.session_seed, int(ses.get("secret") or 0), table_id)
                if found is None:
                    log.error("table %s: its session seed is not in the database; the table is dropped", table_id)
                    await self.cluster.drop_table(table_id, state.get("code"))
                    return
                seed = bytes.fromhex(found)
            runner = TableRunner.restore(self, self.rooms[state["room"]], state, events, seed=seed)
            self.tables[table_id] = runner
            for a in runner.people():
                self.where[a] = table_id
            runner.start()
            for m in self._restoring.pop(table_id, []):
                runner.inbox.put_nowait(m)
            runner.put("resume")
            self.takeovers += 1
            log.info("took over table %s in %.3f s", table_id, time.perf_counter() - t0)
        finally:
            self._restoring.pop(table_id, None)

    def _hand_events(self, hand_id: int) -> list[dict[str, Any]]:
        with self.db.session() as s:
            rows = s.scalars(select(HandEvent).where(HandEvent.hand_id == hand_id).order_by(HandEvent.seq))
            return events_from_json([r.event for r in rows])

    def _lost(self, table_id: str) -> None:
        """Another process owns this table now: stop it here without touching anything."""
        runner = self.tables.pop(table_id, None)
        if runner is not None and runner.task is not None:
            runner.fenced = True
            runner.task.cancel()

    # ---- lobby -------------------------------------------------------------------------------
    async def tables_info(self) -> list[dict[str, Any]]:
        infos = {t["id"]: t for t in await self.cluster.all_tables()}
        for t in self.tables.values():  # local tables: always the freshest
            infos[t.id] = t.info()
        return [t for t in infos.values() if t.get("state") != TableState.ENDED]

    async def room_list(self) -> list[dict[str, Any]]:
        tables = await self.tables_info()
        out = []
        for r in self.rooms.values():
            mine = [t for t in tables if t["room"] == r.id and not t.get("private")]  # private: unlisted
            d = r.to_dict()
            d["tables"] = len(mine)
            d["playing"] = sum(1 for t in mine if t["state"] == TableState.PLAYING)
            d["players"] = sum(1 for t in mine for s in t["seats"] if s and not s["bot"])
            out.append(d)
        return out

    async def table_list(self, room_id: str) -> list[dict[str, Any]]:
        return [t for t in await self.tables_info() if t["room"] == room_id and not t["private"]]

    def add_room(self, room: Room) -> Room:
        """Register a room made at run time (an event's competition room: the tournament's online
        sessions); a room with that id already here is kept.  Returns the hall's room with that id."""
        return self.rooms.setdefault(room.id, room)

    def room(self, room_id: str) -> Room:
        try:
            return self.rooms[room_id]
        except KeyError:
            raise HallError(f"no room {room_id!r}; rooms: {', '.join(self.rooms)}") from None

    async def create_table(self, room_id: str, private: bool = False, by: int | None = None) -> TableRunner:
        """Open a table; ``by`` the account asking (None: the hall itself, an event), which has one
        open table at a time and opens at most ``CREATE_RATE`` a minute (an account could otherwise fill the
        hall with empty tables)."""
        room = self.room(room_id)
        if by is not None:
            await self._no_open_table(by)  # before counting: a refused opening is not counted
            if not await self.table_opens.take(str(by)):
                raise TableLimit("too many tables opened: wait a minute")
        t = TableRunner(self, room, private=private)
        t.creator = by  # a private table's owner (between.py)
        if by is not None:
            await self._no_open_table(by, t.id)  # again, and t recorded: another opening may have run meanwhile
            self.opened[by] = t.id
        if t.code is not None:
            while not await self.cluster.set_code(t.code, t.id):  # unique among live tables
                t.code = new_code()
        await self.cluster.claim(t.id)
        self.tables[t.id] = t
        t.start()
        self.table_changed(t)
        return t

    async def _no_open_table(self, account: int, record: str = "") -> None:
        """Refuse while ``account`` has a table open here or, with Redis, in any process of the hall;
        ``record``: the table about to open, recorded as the account's open one when none is."""
        mine = self.opened.get(account, "")
        open_one = self.tables.get(mine)
        if open_one is None or open_one.state == TableState.ENDED:
            # the last table it opened here has ended, whatever the registry still says
            other = await self.cluster.open_table(account, record, ended=mine)
            if other is None:
                return
            mine = other
        raise TableLimit(f"you have an open table ({mine}): sit there or leave it first")

    async def quick_join_table(self, room_id: str) -> str:
        room = self.room(room_id)
        local = [
            t
            for t in self.tables.values()
            if t.room.id == room.id and not t.private and t.state == TableState.WAITING and t.open_seats() > 0
        ]
        if local:
            table = min(local, key=lambda t: t.open_seats())
            table.pending_sits += 1
            return table.id
        remote = [
            t
            for t in await self.cluster.all_tables()
            if t["room"] == room.id
            and not t["private"]
            and t["state"] == TableState.WAITING
            and t["id"] not in self.tables
            and sum(1 for s in t["seats"] if s is None) > 0
        ]
        if remote:
            return str(remote[0]["id"])
        return (await self.create_table(room.id)).id

    async def find_table(self, table_id: str | None = None, code: str | None = None, by: int | None = None) -> str:
        """The table to join or watch: a private one only by its code (tried at most
        ``CODE_ATTEMPTS`` times a minute per account); by id, only a public one."""
        if code:
            if by is not None and not await self.code_tries.take(str(by)):
                raise HallError("too many private codes tried: wait a minute")
            found = await self.cluster.find_code(normal_code(code))
            if found is None:
                raise HallError("no private table with that code")
            return found
        if table_id and not is_private_id(table_id):
            local = self.tables.get(table_id)
            info = local.info() if local is not None else await self.cluster.table_info(table_id)
            if info is not None and not info.get("private"):
                return table_id
        raise HallError(f"no table {table_id!r}")

    async def where_of(self, account: int) -> str | None:
        if account in self.where and self.where[account] in self.tables:
            return self.where[account]
        found = await self.cluster.where(account)
        if found is None:  # a seat on its way (the sit not yet taken): its table hears of a disconnect
            held = await self.cluster.seat(account)
            found = held if held and not held.startswith(PENDING) else None
        return found

    # ---- one seat per account: nobody plays two seats of one table, or two tables at once ------------
    async def take_seat(self, account: int) -> str | None:
        """Reserve the account's one seat (across the hall: an atomic compare-and-set in the cluster)
        before a table is picked for it.  None when reserved; otherwise the seat it holds (a table id,
        or a pending marker).  A seat whose table is gone, or a reservation abandoned half-way, is freed."""
        expect: str | None = None
        held: str | None = None
        for _ in range(3):
            held = await self.cluster.hold_seat(account, f"{PENDING}{time.time():.3f}", expect)
            if held is None:
                return None
            if not await self._seat_stale(held):
                return held
            expect = held
        return held

    async def _seat_stale(self, held: str) -> bool:
        if held.startswith(PENDING):
            return time.time() - float(held[len(PENDING) :] or 0) > PENDING_S
        return held not in self.tables and held not in self._restoring and await self.cluster.table_info(held) is None

    async def seat_at(self, account: int, table_id: str) -> None:
        """The reserved seat is at ``table_id`` (its sit is on the way)."""
        held = await self.cluster.seat(account)
        if held is not None and held.startswith(PENDING):
            await self.cluster.hold_seat(account, table_id, held)

    async def sit_down(self, account: int, name: str, kind: str, msg: Any) -> tuple[str, str] | None:
        """``quick_join``, ``create`` or ``join`` from a connection not at any table: one seat per
        account — a second join while the first is on its way is refused.  Returns (code, message) of
        a refusal, or None when the sit was sent to the table."""
        held = await self.take_seat(account)
        if held is not None:
            if held.startswith(PENDING) or (kind == "join" and (msg.table not in (None, held) or msg.code)):
                return "seated", "you have a seat already (or one on its way): leave it first (stand)"
            self.route(held, "sit", account, name=name)
            return None
        try:
            if kind != "join":  # no table is opened for a player the room would refuse
                ok, why = await self.may_enter(account, self.room(msg.room))
                if not ok:
                    raise _Refused("balance", why)
            if kind == "quick_join":
                table_id = await self.quick_join_table(msg.room)
            elif kind == "create":
                table_id = (await self.create_table(msg.room, private=msg.private, by=account)).id
            else:
                table_id = await self.find_table(msg.table, msg.code, by=account)
        except _Refused as e:
            await self._free_pending(account)
            return e.code, e.message
        except TableLimit as e:
            await self._free_pending(account)
            return "rate_limited", str(e)
        except BaseException:
            await self._free_pending(account)
            raise
        await self.seat_at(account, table_id)
        self.route(table_id, "sit", account, name=name, seat=getattr(msg, "seat", None))
        return None

    async def _free_pending(self, account: int) -> None:
        held = await self.cluster.seat(account)
        if held is not None and held.startswith(PENDING):
            await self.cluster.free_seat(account, held)

    async def seat_here(self, account: int, table: TableCore) -> bool:
        """At the table, before it seats the account: its one seat is this one (atomically)."""
        for _ in range(3):
            held = await self.cluster.hold_seat(account, table.id, None)
            if held is None or held == table.id:
                return True
            if not await self._seat_stale(held):
                return False
            await self.cluster.hold_seat(account, table.id, held)
        return await self.cluster.seat(account) == table.id

    def sit_refused(self, account: int, table: TableCore) -> None:
        """The table did not seat the account (full, playing, its balance): its reservation goes."""
        self.spawn(self.cluster.free_seat(account, table.id))

    def joined(self, account: int, table: TableCore, spectator: bool = False) -> None:
        self.where[account] = table.id
        self.spawn(self.cluster.set_where(account, table.id))

    def left(self, account: int, table: TableCore) -> None:
        if self.where.get(account) == table.id:
            del self.where[account]
        self.spawn(self.cluster.set_where(account, None))
        self.spawn(self.cluster.free_seat(account, table.id))

    def table_changed(self, table: TableCore) -> None:
        """Publish the table's seats and state (for every lobby) and its snapshot (for a takeover)."""
        if getattr(table, "fenced", False):
            return
        self.spawn(self.cluster.save_table(table.id, table.info(), table.snapshot()))
        self.lobby_changed()

    def table_ended(self, table: TableCore) -> None:
        if getattr(table, "fenced", False):
            return
        self.tables.pop(table.id, None)
        for a, t in list(self.where.items()):
            if t == table.id:
                del self.where[a]
        for s in table.seats:
            if s is not None and s.human:
                self.spawn(self.cluster.free_seat(s.account_id, table.id))
        if table.creator is not None:
            self.spawn(self.cluster.table_closed(table.creator, table.id))
        self.spawn(self.cluster.drop_table(table.id, table.code))
        if table.session_row is not None and not self.closing:  # closing: the next start clears them
            self.spawn(self.run_db(self.store.drop_sessions, table.id))
        self.lobby_changed()

    def lobby_changed(self) -> None:
        if self._lobby_dirty:
            return
        self._lobby_dirty = True
        try:
            asyncio.get_running_loop().call_later(0.5, self._push_lobby)
        except RuntimeError:
            self._lobby_dirty = False

    def _push_lobby(self) -> None:
        self._lobby_dirty = False

        async def push() -> None:
            self.hub.broadcast_lobby({"type": "lobby", "rooms": await self.room_list()})

        if self.hub.lobby_listeners:
            self.spawn(push())

    async def lobby_say(self, account: int, text: str) -> float:
        """Say a line in the lobby: 0.0 when said, else the seconds until the lobby takes another line.
        One budget for the whole hall (every process of a cluster), whatever the number of senders:
        a lobby reader gets at most LOBBY_LINES_PER_S lines a second, bursts of LOBBY_LINES_BURST."""
        text = clean_chat(text)
        if not text:
            return 0.0
        wait = await self._take_lobby_line()
        if wait == 0.0:
            self.spawn(
                self.cluster.lobby_publish(
                    {
                        "type": "chat",
                        "scope": "lobby",
                        "from": self.name_of(account),
                        "account": account,
                        "text": text,
                        "at": time.time(),
                    }
                )
            )
        return wait

    async def _take_lobby_line(self) -> float:
        b = self.lobby_lines
        take = getattr(self.cluster, "take_token", None) if self.cluster.multi else None
        if take is not None:
            try:
                return float(await take(b.name, "hall", b.per_s, b.burst))
            except Exception:
                log.warning("the shared lobby chat budget is unavailable: counting in this process", exc_info=True)
        return b.take("hall")

    # ---- players -----------------------------------------------------------------------------
    def profile(self, account: int) -> dict[str, Any]:
        from sqlalchemy import case, func

        from majiang.hall.match import level
        from majiang.store.models import LedgerEntry, LedgerTxn, PlayerHand, PlayerRank

        with self.db.session() as s:
            acc = s.get(Account, account)
            if acc is None:
                raise HallError(f"no player {account}")
            row = s.execute(
                select(
                    func.count(),
                    func.sum(PlayerHand.score),
                    func.sum(PlayerHand.coins),
                    func.sum(case((PlayerHand.won, 1), else_=0)),
                    func.sum(case((PlayerHand.dealt_in, 1), else_=0)),
                    func.sum(PlayerHand.fan),
                ).where(PlayerHand.account_id == account)
            ).one()
            hands, score, coins, wins, deal_ins, fan = (int(x or 0) for x in row)
            escapes = s.scalar(  # an escape is not a hand played: counted apart (the ledger's escape payments)
                select(func.count(LedgerEntry.id))
                .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
                .where(LedgerEntry.account_id == account, LedgerTxn.kind == "escape")
            )
            ranks = {  # 段位 per ruleset, from matches (docs/ratings.md)
                r.rules: {**level(r.points), "matches": r.matches}
                for r in s.scalars(select(PlayerRank).where(PlayerRank.account_id == account))
            }
            return {
                "id": acc.id,
                "name": acc.username,
                "kind": acc.kind,
                "balance": acc.balance,
                "hands": hands,
                "wins": wins,
                "deal_ins": deal_ins,
                "escapes": int(escapes or 0),
                "win_rate": wins / hands if hands else 0.0,
                "deal_in_rate": deal_ins / hands if hands else 0.0,
                "avg_fan_on_win": fan / wins if wins else 0.0,
                "score": score,
                "coins_won": coins,
                "since": acc.created_at.isoformat(),
                "ranks": ranks,
            }
