"""Items (道具) in the hall (lobby.md §3): the shop, inventories, and using items at a table.

* **The shop** sells the six items of :data:`majiang.engine.items.ITEMS` for game coins at
  :data:`PRICES`.  A purchase is one database transaction: a ledger transaction of kind
  ``purchase`` (the buyer pays the house; its key makes a retried purchase a no-op), the inventory
  increment and an audit row (:class:`~majiang.store.item_models.ItemLog`).
* **A use** consumes one item in one database transaction (the inventory decrement and an audit
  row whose unique key names the table, the hand and the use), then acts: the hand items through
  :func:`majiang.engine.items.use` (an event in the hand log), 乾坤大挪移 when the next hand is
  dealt, 金手指 on the seat at this table.
* **Where**: only at tables of rooms with ``items = true`` — never in a room without items and never
  at a competition table (``competition = true``); both refuse with the error code ``items_off``.

Protocol: docs/protocol.md (Items) and docs/items.md.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from sqlalchemy import desc, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from majiang.engine import items as engine_items
from majiang.engine.hand import Hand
from majiang.engine.items import (
    HAND_ITEMS,
    ITEMS,
    JINSHOUZHI,
    PATTERNS,
    PATTERNS_EN,
    QIANKUN,
    ItemRefused,
)
from majiang.engine.view import tiles_to_json
from majiang.hall.ledger import HOUSE, LedgerError, post, system_account
from majiang.hall.rooms import Room
from majiang.hall.states import TableState
from majiang.store import Database
from majiang.store.item_models import ItemLog, ItemStock
from majiang.store.models import Account
from majiang.tiles import NotationError, parse_tile

T = TypeVar("T")

#: prices in game coins (for a room with N = 10 a hand moves a few hundred coins)
PRICES: dict[str, int] = {
    "qiankun": 2000,
    "toutian": 800,
    "yihua": 300,
    "qianliyan": 400,
    "shunfenger": 200,
    "jinshouzhi": 1000,
}
MAX_BUY = 99
BUYERS = ("player", "guest")


class ItemError(ValueError):
    """A refused purchase or use; ``code`` is the protocol's error code.  Nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def shop_list(prices: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """The shop: every item with its price, when it is used and what it needs."""
    prices = prices or PRICES
    out = []
    for spec in ITEMS.values():
        d: dict[str, Any] = {
            "item": spec.id,
            "zh": spec.zh,
            "en": spec.en,
            "price": prices[spec.id],
            "when": spec.when,
            "kind": spec.kind,
            "needs": list(spec.needs),
            "optional": list(spec.optional),
            "effect": spec.effect,
            "effect_zh": spec.effect_zh,
        }
        if spec.id == QIANKUN:
            d["patterns"] = [{"id": k, "zh": v, "en": PATTERNS_EN[k]} for k, v in PATTERNS.items()]
        out.append(d)
    return out


class ItemStore:
    """The synchronous database work for items (run in the hall's executor)."""

    def __init__(self, db: Database, prices: dict[str, int] | None = None) -> None:
        self.db = db
        self.prices = dict(prices or PRICES)

    # ---- reading -------------------------------------------------------------------------------
    def inventory(self, account: int) -> dict[str, int]:
        """Every item with the count held (0 included)."""
        with self.db.session() as s:
            return self._inventory(s, account)

    @staticmethod
    def _inventory(s: Session, account: int) -> dict[str, int]:
        got = dict(s.execute(select(ItemStock.item, ItemStock.quantity).where(ItemStock.account_id == account)).all())
        return {item: int(got.get(item, 0)) for item in ITEMS}

    def summary(self, account: int, recent: int = 20) -> dict[str, Any]:
        """The inventory, the coin balance and the latest purchases and uses."""
        with self.db.session() as s:
            acc = s.get(Account, account)
            rows = s.scalars(
                select(ItemLog).where(ItemLog.account_id == account).order_by(desc(ItemLog.id)).limit(recent)
            ).all()
            return {
                "inventory": self._inventory(s, account),
                "balance": acc.balance if acc else 0,
                "log": [
                    {
                        "at": r.created_at.isoformat(),
                        "action": r.action,
                        "item": r.item,
                        "quantity": r.quantity,
                        "coins": r.coins,
                        "table": r.table_id,
                        "hand": r.hand_id,
                    }
                    for r in rows
                ],
            }

    # ---- buying --------------------------------------------------------------------------------
    def buy(self, account: int, item: str, count: int = 1, request_id: str | None = None) -> dict[str, Any]:
        """Buy ``count`` of ``item``: the coins go to the house through the ledger.  With a
        ``request_id`` a repeated request (a retry) buys nothing more (``repeated: true``)."""
        if item not in ITEMS:
            raise ItemError("bad_item", f"no item {item!r}; the shop sells {', '.join(ITEMS)}")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_BUY:
            raise ItemError("bad_item", f"buy 1 to {MAX_BUY} at a time")
        unit = self.prices[item]
        cost = unit * count
        key = f"buy:{account}:{request_id or secrets.token_hex(12)}"
        zh = ITEMS[item].zh
        with self.db.session() as s:
            _lock(s, account)
            acc = s.get(Account, account)
            if acc is None or acc.kind not in BUYERS:
                raise ItemError("bad_item", "only players buy items")
            repeated = s.scalar(select(ItemLog.id).where(ItemLog.key == key)) is not None
            if not repeated:
                if acc.balance < cost:
                    raise ItemError("funds", f"{count} × {zh} cost {cost} coins; you have {acc.balance}")
                house = system_account(s, HOUSE)
                try:
                    posted = post(
                        s,
                        key,
                        "purchase",
                        {account: -cost, house.id: cost},
                        {"item": item, "count": count, "price": unit},
                    )
                except (LedgerError, IntegrityError):  # the balance fell meanwhile (the CHECK refuses)
                    raise ItemError("funds", f"{count} × {zh} cost {cost} coins; you have too few") from None
                if posted:
                    self._add(s, account, item, count)
                    s.add(
                        ItemLog(
                            key=key,
                            account_id=account,
                            item=item,
                            action="buy",
                            quantity=count,
                            coins=cost,
                            memo={"price": unit},
                        )
                    )
                else:
                    repeated = True
            s.flush()
            s.refresh(acc)
            return {
                "item": item,
                "count": count,
                "cost": 0 if repeated else cost,
                "repeated": repeated,
                "balance": acc.balance,
                "inventory": self._inventory(s, account),
            }

    @staticmethod
    def _add(s: Session, account: int, item: str, n: int) -> None:
        if s.get(ItemStock, (account, item)) is None:
            try:
                with s.begin_nested():
                    s.add(ItemStock(account_id=account, item=item, quantity=0))
            except IntegrityError:
                pass  # created meanwhile by a concurrent purchase
        s.execute(
            update(ItemStock)
            .where(ItemStock.account_id == account, ItemStock.item == item)
            .values(quantity=ItemStock.quantity + n)
        )

    def grant(self, account: int, item: str, count: int, key: str) -> None:
        """Give items without coins (admin, tests); recorded in the audit log, once per ``key``."""
        with self.db.session() as s:
            _lock(s, account)
            try:
                with s.begin_nested():
                    s.add(
                        ItemLog(
                            key=key, account_id=account, item=item, action="grant", quantity=count, coins=0, memo={}
                        )
                    )
            except IntegrityError:
                return
            self._add(s, account, item, count)

    # ---- using ---------------------------------------------------------------------------------
    def consume(
        self, account: int, item: str, key: str, table_id: str | None, hand_id: int | None, memo: dict[str, Any]
    ) -> bool:
        """Use up one ``item``: False when none is held (nothing changes).  ``key`` names the use;
        consuming the same key again changes nothing and returns True."""

        class _Undo(Exception):  # roll the whole transaction back, answering ``done``
            def __init__(self, done: bool) -> None:
                self.done = done

        try:
            with self.db.session() as s:
                _lock(s, account)
                r = s.execute(
                    update(ItemStock)
                    .where(ItemStock.account_id == account, ItemStock.item == item, ItemStock.quantity >= 1)
                    .values(quantity=ItemStock.quantity - 1)
                )
                if getattr(r, "rowcount", 0) != 1:  # none left — unless this very use was recorded before
                    raise _Undo(s.scalar(select(ItemLog.id).where(ItemLog.key == key)) is not None)
                try:
                    with s.begin_nested():
                        s.add(
                            ItemLog(
                                key=key,
                                account_id=account,
                                item=item,
                                action="use",
                                quantity=-1,
                                coins=0,
                                table_id=table_id,
                                hand_id=hand_id,
                                memo=memo,
                            )
                        )
                except IntegrityError:
                    raise _Undo(True) from None  # recorded (and consumed) before: consume nothing now
        except _Undo as u:
            return u.done
        return True


def _lock(s: Session, account: int) -> None:
    """Open the write transaction at once with a no-op update of the account row: it serializes
    this account's purchases and uses (a row lock on PostgreSQL), and on SQLite it makes the
    savepoints that follow real nested transactions (pysqlite begins a transaction only at the
    first data change, and a savepoint released outside a transaction would commit on its own)."""
    s.execute(update(Account).where(Account.id == account).values(balance=Account.balance))


def refusal(room: Any) -> str | None:
    """Why items cannot be used in ``room`` (None: they can)."""
    if room.competition:
        return "items are never used at competition tables"
    if not room.items:
        return f"{room.name} is a room without items; use them in a room that allows items"
    return None


class ItemSeat(Protocol):
    """A chair as items see it (:class:`majiang.hall.table.SeatInfo`)."""

    account_id: int
    golden: bool  # 金手指 is on for this seat at this table
    escaped: bool

    @property
    def human(self) -> bool: ...


class ItemTable(Protocol):
    """What items need of the table they are used at (:class:`majiang.hall.table.TableRunner`):
    its state and seats, sending, the hand's next step, and the item store off the event loop."""

    @property
    def id(self) -> str: ...
    @property
    def room(self) -> Room: ...
    @property
    def state(self) -> TableState: ...
    @property
    def hand(self) -> Hand | None: ...
    def hand_shown(self) -> Hand | None: ...
    @property
    def hand_id(self) -> int | None: ...
    @property
    def seats(self) -> Sequence[ItemSeat | None]: ...
    @property
    def item_store(self) -> ItemStore: ...

    def seat_of(self, account: int) -> int | None: ...
    def send(self, account: int, msg: dict[str, Any]) -> None: ...
    def error(self, account: int, code: str, message: str, **extra: Any) -> None: ...
    def broadcast_table(self) -> None: ...
    def publish(self) -> None: ...
    def reprompt(self, seat: int) -> None: ...
    async def flush(self) -> None: ...
    async def run_db(self, fn: Callable[..., T], *args: Any) -> T: ...


class TableItems:
    """Items at one table: the seated players' inventories (a cache; the database decides), the
    queued 乾坤大挪移 for the next hand, and the 金手指 seats (on :class:`SeatInfo.golden`)."""

    def __init__(self, table: ItemTable) -> None:
        self.t = table
        self.inv: dict[int, dict[str, int]] = {}
        self.queued: dict[str, Any] | None = None  # {"seat", "account", "pattern"}: 乾坤大挪移 next hand
        self.told: dict[int, list[dict[str, Any]]] = {}  # the usable list each seat was last sent

    @property
    def enabled(self) -> bool:
        return refusal(self.t.room) is None

    # ---- what a seat may use now ---------------------------------------------------------------
    def usable(self, seat: int) -> list[dict[str, Any]]:
        """Owned items whose moment it is for ``seat`` now: ``[{item, count, needs, optional}]``."""
        t = self.t
        info = t.seats[seat]
        if not self.enabled or info is None or not info.human:
            return []
        inv = self.inv.get(info.account_id, {})
        hand = t.hand_shown()  # in a claim window, never the hand the engine went on to
        playing = t.state == TableState.PLAYING and hand is not None and not hand.over
        in_hand = set(engine_items.usable(hand, seat)) if playing and hand is not None else set()
        out = []
        for item, spec in ITEMS.items():
            n = inv.get(item, 0)
            if n <= 0:
                continue
            if item == QIANKUN:
                ok = not playing and self.queued is None
            elif item == JINSHOUZHI:
                ok = not info.golden
            else:
                ok = item in in_hand
            if ok:
                out.append({"item": item, "count": n, "needs": list(spec.needs), "optional": list(spec.optional)})
        return out

    def status(self, seat: int) -> dict[str, Any]:
        info = self.t.seats[seat]
        acc = info.account_id if info is not None else 0
        q = self.queued
        return {
            "type": "items",
            "usable": self.usable(seat),
            "inventory": dict(self.inv.get(acc, {})),
            "golden_finger": bool(info is not None and info.golden),
            "queued": {"item": QIANKUN, "pattern": q["pattern"]} if q is not None and q["seat"] == seat else None,
        }

    def notify(self, seat: int | None = None) -> None:
        """Send ``items`` (what is usable now) to one seated human, or to all (item rooms only)."""
        if not self.enabled:
            return
        seats = range(4) if seat is None else (seat,)
        for s in seats:
            info = self.t.seats[s]
            if info is not None and info.human and not info.escaped:
                msg = self.status(s)
                self.told[s] = msg["usable"]
                self.t.send(info.account_id, msg)

    def changed(self) -> None:
        """After a step of the hand: tell each seat whose usable items changed (a turn's items end
        with the turn)."""
        if not self.enabled:
            return
        for s in range(4):
            info = self.t.seats[s]
            if info is not None and info.human and not info.escaped and self.usable(s) != self.told.get(s, []):
                self.notify(s)

    async def load(self, account: int) -> dict[str, int]:
        inv = await self.t.run_db(self.t.item_store.inventory, account)
        self.inv[account] = inv
        return inv

    async def seated(self, account: int) -> None:
        """A player sat down (or reconnected, or bought something): refresh and tell them."""
        if not self.enabled:
            return
        await self.load(account)
        seat = self.t.seat_of(account)
        if seat is not None:
            self.notify(seat)

    def left(self, seat: int) -> None:
        if self.queued is not None and self.queued["seat"] == seat:
            self.queued = None

    # ---- using ---------------------------------------------------------------------------------
    async def on_use(self, acc: int, data: dict[str, Any]) -> None:
        t = self.t
        seat = t.seat_of(acc)
        item = data.get("item")
        if seat is None:
            t.error(acc, "not_seated", "sit at a table to use items")
            return
        why = refusal(t.room)
        if why is not None:
            t.error(acc, "items_off", why, item=item)
            return
        if item not in ITEMS:
            t.error(acc, "bad_item", f"no item {item!r}", item=item)
            return
        try:
            if item == JINSHOUZHI:
                await self._golden(acc, seat)
            elif item == QIANKUN:
                await self._queue_qiankun(acc, seat, data.get("target"))
            else:
                await self._in_hand(acc, seat, item, data.get("tile"), data.get("target"))
        except ItemError as e:
            t.error(acc, e.code, str(e), item=item)
            return
        except ItemRefused as e:
            t.error(acc, e.code, str(e), item=item)
            return
        self.notify()

    async def _consume(self, acc: int, item: str, key: str, memo: dict[str, Any]) -> None:
        t = self.t
        ok = await t.run_db(t.item_store.consume, acc, item, key, t.id, t.hand_id, memo)
        inv = self.inv.setdefault(acc, {})
        if not ok:
            inv[item] = 0
            raise ItemError("not_owned", f"you have no {ITEMS[item].zh}; buy one in the shop")
        inv[item] = max(0, inv.get(item, 1) - 1)

    async def _golden(self, acc: int, seat: int) -> None:
        t = self.t
        info = t.seats[seat]
        assert info is not None
        if info.golden:
            raise ItemError("item_moment", "金手指 is already on at this table")
        await self._consume(
            acc, JINSHOUZHI, f"use:{t.id}:{acc}:{JINSHOUZHI}:{secrets.token_hex(6)}", {"seat": seat, "at": time.time()}
        )
        info.golden = True
        t.send(acc, {"type": "item_used", "item": JINSHOUZHI, "seat": seat})
        t.broadcast_table()

    async def _queue_qiankun(self, acc: int, seat: int, pattern: Any) -> None:
        t = self.t
        if t.state not in (TableState.WAITING, TableState.BETWEEN):
            raise ItemError("item_moment", "乾坤大挪移 is used before a hand starts: use it after this hand")
        if self.queued is not None:
            raise ItemError("item_moment", "乾坤大挪移 is already set for the next hand at this table")
        if pattern is not None and pattern not in PATTERNS:
            raise ItemError(
                "item_refused",
                f"unknown pattern {pattern!r}: name one of {', '.join(PATTERNS)} (or none for a random one)",
            )
        if (await self.load(acc)).get(QIANKUN, 0) < 1:
            raise ItemError("not_owned", "you have no 乾坤大挪移; buy one in the shop")
        self.queued = {"seat": seat, "account": acc, "pattern": pattern}
        t.send(acc, {"type": "item_used", "item": QIANKUN, "seat": seat, "queued": True, "pattern": pattern})
        t.publish()

    async def _in_hand(self, acc: int, seat: int, item: str, tile_s: Any, target_s: Any) -> None:
        t = self.t
        hand = t.hand
        spec = ITEMS[item]
        if t.state != TableState.PLAYING or hand is None or hand.over:
            raise ItemError("item_moment", f"{spec.zh} is used during a hand, on your turn")
        try:
            tile = parse_tile(tile_s) if tile_s is not None else None
            target = parse_tile(target_s) if target_s is not None else None
        except (NotationError, ValueError, TypeError) as e:
            raise ItemError("item_refused", f"not a tile: {e}") from None
        # judged on the hand as shown: in a claim window nobody is on a turn, even where nobody could
        # claim and the engine has already given the next seat its draw
        engine_items.check(t.hand_shown() or hand, seat, item, tile, target)
        index = len(hand.events)
        await self._consume(
            acc,
            item,
            f"use:{t.id}:{t.hand_id}:{index}",
            {"seat": seat, "event": index, "tile": tile_s, "target": target_s},
        )
        # nothing else ran meanwhile: a table handles one message at a time
        event = engine_items.use(hand, seat, item, tile, target)
        t.send(
            acc,
            {
                "type": "item_used",
                "item": item,
                "seat": seat,
                "hand": t.hand_id,
                "result": tiles_to_json({k: v for k, v in event.items() if k not in ("type", "private_to")}),
            },
        )
        if spec.kind == "tiles":
            t.reprompt(seat)  # the hand changed: the legal actions are offered again (same deadline)
        await t.flush()

    # ---- 乾坤大挪移 at the deal ----------------------------------------------------------------------
    async def before_hand(self, hand: Hand) -> Hand:
        """Deal the queued 乾坤大挪移 (consuming it now); the hand unchanged when there is none."""
        q, self.queued = self.queued, None
        t = self.t
        if q is None or not self.enabled:
            return hand
        info = t.seats[q["seat"]]
        if info is None or info.account_id != q["account"] or not info.human or info.escaped:
            return hand
        acc = q["account"]
        try:
            await self._consume(
                acc,
                QIANKUN,
                f"use:{t.id}:{hand.events[0]['seed_hash'][:40]}:{QIANKUN}",
                {"seat": q["seat"], "pattern": q["pattern"], "hand_no": hand.hand_no},
            )
        except ItemError as e:
            t.error(acc, e.code, str(e), item=QIANKUN)
            return hand
        return engine_items.with_qiankun(hand, [{"seat": q["seat"], "pattern": q["pattern"]}])

    # ---- surviving a takeover ------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {"queued": self.queued}

    def restore(self, d: dict[str, Any] | None) -> None:
        self.queued = (d or {}).get("queued")


__all__ = [
    "BUYERS",
    "HAND_ITEMS",
    "MAX_BUY",
    "PRICES",
    "ItemError",
    "ItemSeat",
    "ItemStore",
    "ItemTable",
    "TableItems",
    "refusal",
    "shop_list",
]
