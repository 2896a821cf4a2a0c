"""Online events: seating plans, the result hook, and a session table played in a real hall."""

import asyncio
import time

from majiang.hall.rooms import Room
from majiang.hall.service import Hall
from majiang.store import Database
from majiang.tournament.adapters.online import ResultHook, open_session, seating_plan, sync_session
from majiang.tournament.adapters.repository import TournamentRepository
from majiang.tournament.draw import draw_session
from majiang.tournament.penalties import PenaltyCode
from majiang.tournament.registration import build_group, count_entries, new_event

HANDS = 4  # hall hands to wait for


def setup_event(db: Database, players: int = 16) -> TournamentRepository:
    repo = TournamentRepository(db)
    repo.save(new_event("online", "Online", build_group(count_entries(players)), sessions=2, seed=3))
    repo.put_session("online", "A", draw_session(repo.load("online"), "A", 1))
    return repo


def test_seating_plan_and_result_hook(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/o.db")
    db.migrate()
    repo = setup_event(db)
    repo.set_account("online", "P01", 42)
    event = repo.load("online")
    plan = seating_plan(event, 1, repo.accounts("online"), absent=["P02"])
    seats = {s.player: s for t in plan for s in t.seats}
    assert seats["P01"].account == 42 and not seats["P01"].bot and seats["P02"].bot
    assert sorted(seats) == [f"P{i:02d}" for i in range(1, 17)]
    assert [s.chair for s in plan[0].seats] == [0, 1, 2, 3]
    repo.link_hall_table("online", 1, 2, "hall-xyz")
    hook = ResultHook(repo)
    assert hook("some-other-table", 0, None) is None
    win = {
        "seat": 1,
        "from": None,
        "points": 12,
        "fans": [{"name": "Pure Straight", "zh": "清龙", "points": 16, "count": 1}],
    }
    got = hook("hall-xyz", 0, {"deltas": [0, 0, 0, 0], "win": win}, [{"type": "false_win", "seat": 3, "kind": "wrong"}])
    assert got is not None and (got.session, got.table, got.complete) == (1, 2, False)
    rec = repo.table("online", 1, 2).hands[0]
    assert rec.winner == 1 and rec.discarder is None and rec.fans == ("清龙",)
    assert [(p.seat, p.code) for p in rec.penalties] == [(3, PenaltyCode.FALSE_WIN)]
    assert hook("hall-xyz", 0, {"win": win}) is not None  # idempotent: the same hand again replaces it
    assert len(repo.table("online", 1, 2).hands) == 1
    results = [hook("hall-xyz", n, {"deltas": [0, 0, 0, 0], "win": None}) for n in range(1, 16)]
    assert [r.complete for r in results if r] == [False] * 14 + [True]  # the 16th hand completes the table
    assert hook("hall-xyz", 16, {"win": None}) is None  # a 17th hall hand is not the event's
    assert len(repo.table("online", 1, 2).hands) == 16


def test_a_session_played_in_the_hall(tmp_path):
    """The table with a registered (but not connected) player opens in the hall, he plays 托管 and bots fill
    the other chairs; the tables with nobody to seat are played on the engine at once.  sync_session enters
    the hands the hall has finished (the first four here, to keep the test short)."""
    db = Database(f"sqlite:///{tmp_path}/hall.db")
    db.migrate()

    async def main() -> tuple[list, int]:
        room = Room(id="ev", name="ev", rules="gb", bots="rand", bot_fill_s=0.05, next_hand_s=0.0, timers="blitz")
        hall = Hall(db, rooms=[room], bot_delay=(0, 0), auto_delay_s=0.0)
        repo = setup_event(db)
        p = hall.accounts.register("player01", "correct horse")
        repo.set_account("online", "P01", p.account_id)
        tables = await open_session(hall, repo, "online", 1, room_id="ev")
        runner = hall.tables[next(t.hall_table for t in tables if t.hall_table)]
        t0 = time.monotonic()
        while runner.hands_played < HANDS and time.monotonic() - t0 < 40:
            await asyncio.sleep(0.05)
        runner.put("close")
        await asyncio.sleep(0.05)
        entered = await asyncio.get_running_loop().run_in_executor(None, sync_session, repo, "online", 1)
        await hall.close()
        return tables, entered

    tables, entered = asyncio.run(main())
    assert entered >= HANDS
    hall_table = next(t for t in tables if not t.engine)
    assert hall_table.hall_table and hall_table.code
    assert any(t.engine for t in tables)
    repo = TournamentRepository(db)
    session = repo.load("online").groups[0].sessions[0]
    counts = {t.no: len(t.hands) for t in session.tables}
    assert counts.pop(hall_table.table) == entered and set(counts.values()) == {16}
    assert repo.hall_tables("online")[hall_table.hall_table][2:] == (1, hall_table.table)
    assert sync_session(repo, "online", 1) == 0  # nothing new
    db.dispose()
