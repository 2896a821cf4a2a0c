"""Writing hands to the database: the commitment at the start, every event before it is sent,
the result and the coin settlement at the end.

Events from all tables go through one :class:`EventWriter` that commits them in groups (one
transaction per few milliseconds), so hundreds of tables cost a handful of commits per second.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select

from majiang.engine.view import tiles_to_json
from majiang.hall.coins import CoinSettlement, settle_coins
from majiang.hall.ledger import HOUSE, MINT, post, system_account
from majiang.hall.match import Match, finish_match
from majiang.hall.ratings import rate_hand
from majiang.store import Database
from majiang.store.models import Account, HandEvent, HandRow, PlayerHand, TableSession

BOT_FLOAT = 1_000_000  # a bot account is topped up from the mint when it runs low


@dataclass
class PendingWrite:
    rows: list[tuple[int, int, dict[str, Any]]]
    done: asyncio.Future[None]


class EventWriter:
    """Group commit of hand events: ``await write(...)`` returns once the rows are durable."""

    def __init__(self, db: Database, executor: ThreadPoolExecutor) -> None:
        self.db = db
        self.executor = executor
        self.queue: asyncio.Queue[PendingWrite] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.commits = 0
        self.rows_written = 0
        mark = "?" if db.engine.dialect.paramstyle == "qmark" else "%s"
        self.insert_sql = f"INSERT INTO {HandEvent.__tablename__} (hand_id, seq, event) VALUES ({mark}, {mark}, {mark})"

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run())

    async def write(self, hand_id: int, first_seq: int, events: Sequence[dict[str, Any]]) -> None:
        if not events:
            return
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        rows = [(hand_id, first_seq + i, tiles_to_json(e)) for i, e in enumerate(events)]
        self.queue.put_nowait(PendingWrite(rows, fut))
        self.start()
        await fut

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            first = await self.queue.get()
            batch = [first]
            while not self.queue.empty() and len(batch) < 500:
                batch.append(self.queue.get_nowait())
            try:
                errors = await loop.run_in_executor(self.executor, self._commit, batch)
            except Exception as e:  # hand every waiter the failure
                errors = [e] * len(batch)
            for p, err in zip(batch, errors, strict=True):
                if p.done.done():
                    continue
                if err is None:
                    p.done.set_result(None)
                else:
                    p.done.set_exception(err)

    def _insert(self, pending: list[PendingWrite]) -> None:
        # the driver's own executemany in one transaction: no ORM session, no SQLAlchemy statement per
        # batch (a third of the CPU of a commit through the ORM's bulk insert; BENCHMARKS.md, the hall)
        rows = [(h, q, json.dumps(ev)) for p in pending for h, q, ev in p.rows]
        with self.db.engine.begin() as conn:
            conn.exec_driver_sql(self.insert_sql, rows)

    def _commit(self, batch: list[PendingWrite]) -> list[Exception | None]:
        """One transaction for the whole batch.  If it fails — an event already written, e.g. by a
        process that lost its table to another — each write is tried alone so only the offender
        fails (events are never overwritten)."""
        try:
            self._insert(batch)
            self.commits += 1
            self.rows_written += sum(len(p.rows) for p in batch)
            return [None] * len(batch)
        except Exception:
            out: list[Exception | None] = []
            for p in batch:
                try:
                    self._insert([p])
                    out.append(None)
                except Exception as e:
                    out.append(e)
            return out


class HandStore:
    """Synchronous database work of the hall (run in the executor)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def start_hand(
        self, table_id: str, room: str, hand_no: int, rules: str, seed_hash: str, players: list[int | None]
    ) -> int:
        with self.db.session() as s:
            row = HandRow(
                table_id=table_id, room=room, hand_no=hand_no, rules=rules, seed_hash=seed_hash, players=players
            )
            s.add(row)
            s.flush()
            return row.id

    # ---- session seeds: here, never in Redis (outside the trust boundary) ----------------------------
    def save_session(self, table_id: str, seed: str) -> int:
        """Keep a new session's seed (hex); the table's snapshot names the returned row."""
        with self.db.session() as s:
            row = TableSession(table_id=table_id, seed=seed)
            s.add(row)
            s.flush()
            return row.id

    def session_seed(self, row_id: int, table_id: str) -> str | None:
        """The seed a process taking the table over needs (None: not this table's, or gone)."""
        with self.db.session() as s:
            row = s.get(TableSession, row_id)
            return row.seed if row is not None and row.table_id == table_id else None

    def drop_sessions(self, table_id: str) -> None:
        """The table ended: its seeds go (each hand's own seed is revealed in its row)."""
        with self.db.session() as s:
            s.execute(delete(TableSession).where(TableSession.table_id == table_id))

    def balances(self, account_ids: Sequence[int]) -> list[int]:
        with self.db.session() as s:
            got = dict(s.execute(select(Account.id, Account.balance).where(Account.id.in_(account_ids))).all())
        return [int(got.get(a, 0)) for a in account_ids]

    def void_orphans(self, live_tables: set[str]) -> list[int]:
        """Hands left unfinished by a process that stopped (a crash, a restart) at tables no process
        holds: each is void — no score, no coins, not even the fee — and its seed is revealed (from
        the hand's own log), so the commitment can still be checked.  Returns their ids."""
        voided = []
        with self.db.session() as s:
            for row in s.scalars(select(HandRow).where(HandRow.ended_at.is_(None))):
                if row.table_id in live_tables:
                    continue  # another process owns it, or will take it over
                head = s.scalar(select(HandEvent).where(HandEvent.hand_id == row.id).order_by(HandEvent.seq).limit(1))
                row.seed = head.event.get("seed") if head is not None else None
                row.result = {"void": "the server stopped during this hand: no score, no coins", "coins": [0] * 4}
                row.ended_at = datetime.now(UTC)
                voided.append(row.id)
            # the seeds of tables no process holds any more (ended while their process died)
            gone = set(s.scalars(select(TableSession.table_id).distinct())) - live_tables
            if gone:
                s.execute(delete(TableSession).where(TableSession.table_id.in_(gone)))
        return voided

    def finish_hand(
        self,
        hand_id: int,
        table_id: str,
        seed: str | None,
        result: dict[str, Any],
        accounts: list[int],
        score_deltas: list[int],
        coefficient: int,
        fee: int,
        stats: list[dict[str, Any]],
        escaped: Sequence[int] = (),
    ) -> CoinSettlement:
        """Reveal the seed, store the result and statistics, and settle the coins — one database
        transaction, idempotent by the settlement key.  The seats in ``escaped`` were played to the end
        by 托管 after their players escaped (and paid for it): what such a seat wins or loses is the
        house's, never the escaper's (seed 001: 逃跑的玩家将会被扣除相应的游戏币)."""
        with self.db.session() as s:
            key = f"settle:{table_id}:{hand_id}"
            if escaped:
                house_id = system_account(s, HOUSE).id
                accounts = [house_id if i in escaped else a for i, a in enumerate(accounts)]
            accs = {a.id: a for a in s.scalars(select(Account).where(Account.id.in_(accounts)).with_for_update())}
            balances = [accs[a].balance if a in accs else 0 for a in accounts]
            coins = settle_coins(score_deltas, balances, coefficient, fee)
            amounts: dict[int, int] = {}
            for a, c in zip(accounts, coins.changes, strict=True):
                amounts[a] = amounts.get(a, 0) + c
            house = system_account(s, HOUSE)
            amounts[house.id] = amounts.get(house.id, 0) + coins.house
            posted = post(
                s,
                key,
                "settle",
                amounts,
                {
                    "table": table_id,
                    "hand": hand_id,
                    "scores": score_deltas,
                    "shortfall": coins.shortfall,
                    "fee_shortfall": coins.fee_shortfall,
                },
            )
            row = s.get(HandRow, hand_id)
            if not posted and row is not None and row.result and "coins" in row.result:
                # settled before (a process died after paying): report what was paid, pay nothing
                coins = CoinSettlement(changes=list(row.result["coins"]), house=0)
            if row is not None and posted:
                row.seed = seed
                row.result = {**result, "coins": coins.changes}
                row.ended_at = datetime.now(UTC)
                for st in stats:
                    s.merge(PlayerHand(hand_id=hand_id, **st, coins=coins.changes[st["seat"]]))
                self._refill_bots(s, [a for a in accounts if a in accs and accs[a].kind == "bot"], hand_id)
                rate_hand(s, hand_id, row.rules, accounts, score_deltas, table_id)  # docs/ratings.md
            return coins

    def finish_match(
        self,
        match: Match,
        table_id: str,
        room: str,
        rules: str,
        accounts: list[int | None],
        place_points: list[int],
    ) -> dict[str, Any]:
        """A finished match stored and its ranked players' 段位 moved, in one transaction (hall/match.py)."""
        with self.db.session() as s:
            return finish_match(s, match, table_id, room, rules, accounts, place_points)

    def _refill_bots(self, s: Any, bots: list[int], hand_id: int) -> None:
        """Server bots are funded by explicit grants from the mint when they run low."""
        low = s.execute(
            select(Account.id, Account.balance).where(Account.id.in_(bots), Account.balance < BOT_FLOAT // 10)
        ).all()
        for account_id, balance in low:
            mint = system_account(s, MINT)
            top_up = BOT_FLOAT - balance
            post(s, f"refill:{account_id}:{hand_id}", "refill", {mint.id: -top_up, account_id: top_up})

    def escape(
        self, table_id: str, hand_id: int, account: int, penalty: int, others: list[int], compensation: int
    ) -> tuple[int, int]:
        """A player left a running hand: pays the room's penalty to the house, which passes
        ``compensation`` to each remaining human out of what was paid (never more: no coins are
        invented).  Returns (paid, paid to each of the others)."""
        with self.db.session() as s:
            paid = min(penalty, s.scalar(select(Account.balance).where(Account.id == account)) or 0)
            each = min(compensation, paid // len(others)) if others else 0
            if paid == 0:
                return 0, 0
            house = system_account(s, HOUSE)
            amounts = {account: -paid, house.id: paid}
            post(s, f"escape:{table_id}:{hand_id}:{account}", "escape", amounts, {"table": table_id, "hand": hand_id})
            if each:
                comp: dict[int, int] = {o: each for o in others}
                comp[house.id] = -each * len(others)
                post(
                    s,
                    f"compensate:{table_id}:{hand_id}:{account}",
                    "compensation",
                    comp,
                    {"table": table_id, "hand": hand_id, "escaped": account},
                )
            return paid, each


def fresh_executor(db: Database) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1 if db.is_sqlite else 8, thread_name_prefix="majiang-db")
