"""The hall: rooms, the tables in them, accounts, coins, and who sits where."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import select

from majiang.hall.accounts import Accounts
from majiang.hall.hub import Hub
from majiang.hall.metrics import Metrics
from majiang.hall.persist import EventWriter, HandStore, fresh_executor
from majiang.hall.rooms import Room, load_rooms
from majiang.hall.table import TableRunner
from majiang.rulesets import names as ruleset_names
from majiang.store import Database
from majiang.store.models import Account

T = TypeVar("T")


class HallError(ValueError):
    pass


class Hall:
    def __init__(self, db: Database, rooms: list[Room] | None = None, bot_delay: tuple[float, float] = (0.6, 1.6),
                 auto_delay_s: float = 0.5, signup_grant: int = 10_000) -> None:
        self.db = db
        available = set(ruleset_names())
        self.rooms = {r.id: r for r in (rooms if rooms is not None else load_rooms()) if r.rules in available}
        self.hub = Hub()
        self.accounts = Accounts(db, signup_grant=signup_grant)
        self.store = HandStore(db)
        self.executor = fresh_executor(db)
        self.events = EventWriter(db, self.executor)
        self.metrics = Metrics()
        self.tables: dict[str, TableRunner] = {}
        self.where: dict[int, str] = {}  # account → table id (playing or watching)
        self.mutes: dict[int, set[int]] = {}
        self.names: dict[int, str] = {}
        self._bot_accounts: dict[str, int] = {}
        self._bot_delay = bot_delay
        self.auto_delay_s = auto_delay_s
        self.lobby_chat: list[dict[str, Any]] = []
        self._lobby_dirty = False

    # ---- plumbing ----------------------------------------------------------------------------
    async def run_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args))

    def bot_delay(self) -> float:
        lo, hi = self._bot_delay
        return random.uniform(lo, hi) if hi > 0 else 0.0

    def bot_account(self, kind: str) -> int:
        if kind not in self._bot_accounts:
            self._bot_accounts[kind] = self.accounts.bot_account(kind)
        return self._bot_accounts[kind]

    def name_of(self, account: int) -> str:
        if account not in self.names:
            acc = self.accounts.get(account)
            self.names[account] = acc.username if acc else f"#{account}"
        return self.names[account]

    def muted(self, listener: int, speaker: int) -> bool:
        return speaker in self.mutes.get(listener, set())

    async def may_enter(self, account: int, room: Room, playing: bool = False) -> tuple[bool, str]:
        bal = (await self.run_db(self.store.balances, [account]))[0]
        if bal < room.min_balance:
            return False, f"{room.name} needs at least {room.min_balance} coins; you have {bal}"
        if room.max_balance is not None and bal > room.max_balance:
            return False, f"{room.name} is for players with at most {room.max_balance} coins; you have {bal}"
        return True, ""

    # ---- lobby -------------------------------------------------------------------------------
    def room_list(self) -> list[dict[str, Any]]:
        out = []
        for r in self.rooms.values():
            tables = [t for t in self.tables.values() if t.room.id == r.id and t.state != "ended"]
            d = r.to_dict()
            d["tables"] = len(tables)
            d["playing"] = sum(1 for t in tables if t.state == "playing")
            d["players"] = sum(len(t.humans()) for t in tables)
            out.append(d)
        return out

    def table_list(self, room_id: str) -> list[dict[str, Any]]:
        return [t.info() for t in self.tables.values() if t.room.id == room_id and not t.private
                and t.state != "ended"]

    def room(self, room_id: str) -> Room:
        try:
            return self.rooms[room_id]
        except KeyError:
            raise HallError(f"no room {room_id!r}; rooms: {', '.join(self.rooms)}") from None

    def create_table(self, room_id: str, private: bool = False) -> TableRunner:
        t = TableRunner(self, self.room(room_id), private=private)
        self.tables[t.id] = t
        t.start()
        self.lobby_changed()
        return t

    def quick_join_table(self, room_id: str) -> TableRunner:
        room = self.room(room_id)
        waiting = [t for t in self.tables.values() if t.room.id == room.id and not t.private
                   and t.state == "waiting" and t.open_seats() > 0]
        table = min(waiting, key=lambda t: t.open_seats()) if waiting else self.create_table(room.id)
        table.pending_sits += 1
        return table

    def table(self, table_id: str | None = None, code: str | None = None) -> TableRunner:
        if code:
            for t in self.tables.values():
                if t.code == code and t.state != "ended":
                    return t
            raise HallError(f"no private table with code {code!r}")
        if table_id and table_id in self.tables and self.tables[table_id].state != "ended":
            return self.tables[table_id]
        raise HallError(f"no table {table_id!r}")

    def joined(self, account: int, table: TableRunner, spectator: bool = False) -> None:
        self.where[account] = table.id

    def left(self, account: int, table: TableRunner) -> None:
        if self.where.get(account) == table.id:
            del self.where[account]

    def table_ended(self, table: TableRunner) -> None:
        self.tables.pop(table.id, None)
        for a, t in list(self.where.items()):
            if t == table.id:
                del self.where[a]
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
        self.hub.broadcast_lobby({"type": "lobby", "rooms": self.room_list()})

    def lobby_say(self, account: int, text: str) -> None:
        text = text[:200].strip()
        if not text:
            return
        entry = {"type": "chat", "scope": "lobby", "from": self.name_of(account), "account": account,
                 "text": text, "at": time.time()}
        self.lobby_chat.append(entry)
        del self.lobby_chat[:-100]
        for a in list(self.hub.lobby_listeners):
            if not self.muted(a, account):
                self.hub.send(a, entry)

    # ---- players -----------------------------------------------------------------------------
    def profile(self, account: int) -> dict[str, Any]:
        from sqlalchemy import case, func

        from majiang.store.models import PlayerHand

        with self.db.session() as s:
            acc = s.get(Account, account)
            if acc is None:
                raise HallError(f"no player {account}")
            row = s.execute(select(func.count(), func.sum(PlayerHand.score), func.sum(PlayerHand.coins),
                                   func.sum(case((PlayerHand.won, 1), else_=0)),
                                   func.sum(case((PlayerHand.dealt_in, 1), else_=0)),
                                   func.sum(PlayerHand.fan))
                            .where(PlayerHand.account_id == account)).one()
            hands, score, coins, wins, deal_ins, fan = (int(x or 0) for x in row)
            return {"id": acc.id, "name": acc.username, "kind": acc.kind, "balance": acc.balance,
                    "hands": hands, "wins": wins, "deal_ins": deal_ins,
                    "win_rate": wins / hands if hands else 0.0, "deal_in_rate": deal_ins / hands if hands else 0.0,
                    "avg_fan_on_win": fan / wins if wins else 0.0, "score": score, "coins_won": coins,
                    "since": acc.created_at.isoformat()}

    async def close(self) -> None:
        for t in list(self.tables.values()):
            t.put("close")
        self.executor.shutdown(wait=False, cancel_futures=True)
