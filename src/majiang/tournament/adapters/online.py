"""Online events: a session's tables played in the hall (:class:`majiang.hall.service.Hall`).

What works with the hall as it is:

* :func:`open_session` (``await`` it in the hall's event loop) creates one private hall table per
  event table in a room with the event's rules, links it to the event table in the database
  (``tt_tables.hall_table``), seats every linked player (``tt_players.account_id``) at his chair
  (chair = first-round seat: 0 East … 3 North) with the table's ``sit`` message — a player who is not
  connected plays 托管 until he connects — and fills the remaining chairs (absentees, players without
  an account) with the room's bots.  A table with no human at all is played at once on the engine
  with bots (:func:`majiang.tournament.adapters.bridge.play_table`) and entered with ``source="engine"``.
* :func:`sync_session` reads the hall's stored hands (``hands`` rows with their result, and the
  ``false_win`` events) of the linked tables and enters the ones not entered yet: the first 16 hands
  a hall table plays are the session.  It is idempotent; run it as often as you like.
* :class:`ResultHook` turns one finished hall hand into the event's :class:`HandRecord` and records it —
  what the hall calls at the end of every hand of a competition table (see docs/tournament.md).

Through disconnects (docs/tournament.md, "Online sessions"): the hall keeps an event table's chair for its
player the whole session (a competition room: ``Room.competition``); a player who closes the page or stands up
plays 托管 until he reconnects or comes back with the table's code, and the table plays on.  Opening a session
again (:func:`open_session` on a session already open) answers the live tables as they are and opens a new
hall table, from the next hand, for one whose hall table is gone before its 16th hand.

Duplicate walls (复式, ``duplicate=True``): every table of the session deals from one secret session seed
(hand k has the same wall at every table, and at a table played by bots on the engine), and its hall tables
are sealed: no hand's seed is stored or sent, nobody may watch them, so its log, replay, review and
``/api/hands/{id}`` stay closed; when every table of the session is finished (:func:`session_finished`) the
seeds are stored (:func:`reveal_session`: the ResultHook and :func:`sync_session` call it) and the hands
open as any private table's (their players).  The seed commitment (``seed_hash`` at each hand's start) is
kept; the seed is checked against it after the session.

Seats: the hall keeps every player on his chair for the whole session (it does not move players after
each round), so chair ``i`` holds table player ``i`` throughout and the deal passes E → S → W → N each
hand.  The records are in player terms either way; if the hall applies the 1998 seat changes, pass the
per-hand chair → player map as ``chair_players``.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from majiang.hall.states import TableState
from majiang.tournament.adapters.bridge import BotSpec, false_wins_of, play_table, record_from_outcome
from majiang.tournament.adapters.repository import RepositoryError, TournamentRepository
from majiang.tournament.adapters.walls import new_duplicate, put_duplicate
from majiang.tournament.demo import TableSeating
from majiang.tournament.model import HANDS_PER_SESSION, Event, HandRecord
from majiang.tournament.sealing import duplicate_info, session_finished, table_finished

if TYPE_CHECKING:
    from majiang.hall.rooms import Room
    from majiang.hall.service import Hall
    from majiang.store import Database

IDENTITY = (0, 1, 2, 3)


@dataclass(frozen=True, slots=True)
class OnlineSeat:
    chair: int  # 0 East … 3 North (the first-round seat)
    player: str
    name: str
    account: int | None  # the hall account that must sit here; None: a bot plays the chair
    bot: bool  # a bot plays this chair (absent, or no account)

    def to_dict(self) -> dict[str, Any]:
        return {
            "chair": self.chair,
            "wind": "ESWN"[self.chair],
            "player": self.player,
            "name": self.name,
            "account": self.account,
            "bot": self.bot,
        }


@dataclass(frozen=True, slots=True)
class OnlineTable:
    event: str
    group: str
    session: int
    table: int
    seats: tuple[OnlineSeat, ...]
    hall_table: str | None = None  # the hall table id (None: played on the engine)
    code: str | None = None  # the private table's join code
    engine: bool = False  # nobody could sit: played at once by bots on the engine
    state: str = "opened"  # opened (now) · playing (open already, its hall table live) · done (finished)
    first_hand: int = 1  # the hall table plays the session from this hand (a reopened table: the next one)
    duplicate: bool = False  # 复式: the session's walls are the same at every table, records sealed

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "group": self.group,
            "session": self.session,
            "table": self.table,
            "hall_table": self.hall_table,
            "code": self.code,
            "engine": self.engine,
            "state": self.state,
            "first_hand": self.first_hand,
            "duplicate": self.duplicate,
            "seats": [s.to_dict() for s in self.seats],
        }


def seating_plan(
    event: Event,
    session_no: int,
    accounts: Mapping[str, int],
    *,
    group_id: str | None = None,
    absent: Iterable[str] = (),
) -> list[OnlineTable]:
    """Who must sit where (pure): each table of the drawn session with its four chairs."""
    group = event.groups[0] if group_id is None else event.group(group_id)
    if not 1 <= session_no <= len(group.sessions):
        raise RepositoryError(f"session {session_no} is not drawn; draw it first")
    away = set(absent)
    names = {p.id: p.name or p.id for p in group.players}
    out = []
    for tb in group.sessions[session_no - 1].tables:
        seats = []
        for chair, pid in enumerate(tb.players):
            acc = accounts.get(pid)
            here = acc is not None and pid not in away
            seats.append(
                OnlineSeat(
                    chair=chair, player=pid, name=names.get(pid, pid), account=acc if here else None, bot=not here
                )
            )
        out.append(OnlineTable(event=event.id, group=group.id, session=session_no, table=tb.no, seats=tuple(seats)))
    return out


def event_room(hall: Hall, rules: str, room_id: str | None = None, bots: str = "rand") -> Room:
    """The hall room event tables open in: ``room_id`` if given, else a room ``event-RULES`` registered on
    the fly (coefficient 1, no fee, no balance limits; empty chairs get bots only when asked)."""
    from majiang.hall.rooms import Room

    if room_id is not None:
        room = hall.room(room_id)
        if room.rules != rules:
            raise RepositoryError(
                f"room {room_id!r} plays {room.rules}, the event {rules}: pick a room with rules = {rules!r}"
            )
        return room
    rid = f"event-{rules}"  # the first registered stays (add_room keeps a room it has)
    return hall.add_room(
        Room(
            id=rid,
            name=f"比赛 Competition ({rules})",
            rules=rules,
            coefficient=1,
            fee=0,
            bots=bots,
            bot_fill_s=3600.0,
            next_hand_s=5.0,
            competition=True,
        )
    )


async def _live(hall: Hall, table_id: str) -> tuple[bool, str | None]:
    """Whether a hall table still runs (on this process or another), and its code."""
    local = hall.tables.get(table_id)
    if local is not None:
        return local.state != TableState.ENDED, local.code
    state = await hall.cluster.table_state(table_id)
    if state is None or state.get("state") == TableState.ENDED:
        return False, None
    return True, state.get("code")


async def open_session(
    hall: Hall,
    repo: TournamentRepository,
    event_id: str,
    session_no: int,
    *,
    group_id: str | None = None,
    room_id: str | None = None,
    absent: Iterable[str] = (),
    bots: BotSpec = "rand",
    seat: bool = True,
    duplicate: bool | None = None,
) -> list[OnlineTable]:
    """Create the session's tables in the hall and seat the players (see the module doc); run it in the
    hall's event loop.  The database work is synchronous (small), as in the hall's own handlers.

    A session open already is opened again: a table whose hall table still runs is answered as it is
    (``state="playing"``), a finished one as ``done``, and one whose hall table is gone before its 16th hand
    gets a new hall table that plays on from the next hand (the hands played so far are synced first).
    ``duplicate``: 复式 (same walls at every table, records sealed until the session ends); None keeps what
    the session was opened with (a session opened before is never switched)."""
    event = repo.load(event_id)
    group = event.groups[0] if group_id is None else event.group(group_id)
    dup = duplicate_info(event, session_no)
    links = {link[3]: tid for tid, link in repo.hall_tables(event_id).items() if link[1:3] == (group.id, session_no)}
    if links and duplicate is not None and bool(duplicate) != (dup is not None):
        raise RepositoryError(
            f"session {session_no} was opened {'with' if dup else 'without'} duplicate walls; it cannot be changed now"
        )
    if dup is None and duplicate:
        dup = new_duplicate(repo, event_id, session_no)
    if links:
        sync_session(repo, event_id, session_no)  # what the hall finished, before anything is reopened
        event = repo.load(event_id)
        group = event.group(group.id)
    deal_seed = bytes.fromhex(dup["seed"]) if dup else None
    plan = seating_plan(event, session_no, repo.accounts(event_id), group_id=group.id, absent=absent)
    room = event_room(hall, event.rules, room_id, bots if isinstance(bots, str) else "rand")
    out: list[OnlineTable] = []
    for t in plan:
        done = group.sessions[session_no - 1].tables[t.table - 1]
        proto = OnlineTable(
            t.event, t.group, t.session, t.table, t.seats, duplicate=dup is not None, first_hand=len(done.hands) + 1
        )
        if table_finished(done):
            out.append(replace(proto, hall_table=links.get(t.table), state="done"))
            continue
        if t.table in links:
            live, code = await _live(hall, links[t.table])
            if live:
                out.append(replace(proto, hall_table=links[t.table], code=code, state="playing"))
                continue
        humans = [s for s in t.seats if not s.bot]
        if not humans:
            _play_on_engine(repo, event, group.id, t, len(done.hands), bots, deal_seed)
            out.append(replace(proto, engine=True, state="done"))
            continue
        made: Any = hall.create_table(room.id, private=True)
        runner = await made if inspect.isawaitable(made) else made
        # before any sit reaches it (its messages wait in its queue): the walls, the first hand, the seal
        runner.deal_seed = deal_seed
        runner.sealed = dup is not None
        runner.first_hand = runner.hands_played = len(done.hands)
        repo.link_hall_table(event_id, session_no, t.table, runner.id, group_id=group.id)
        if dup is not None:  # every hall table that plays the session, for the reveal
            dup = _add_sealed(repo, event_id, session_no, runner.id)
        if seat:
            _seat_players(hall, runner, humans)
        out.append(replace(proto, hall_table=runner.id, code=runner.code))
    if dup is not None:
        reveal_session(repo, event_id, session_no)  # every table played by bots at once: nothing to hide
    return out


def _play_on_engine(
    repo: TournamentRepository,
    event: Event,
    group_id: str,
    t: OnlineTable,
    played: int,
    bots: BotSpec,
    deal_seed: bytes | None,
) -> None:
    """A table of bots only: played on the engine at once from hand ``played`` + 1, its hands entered."""
    session_no = t.session
    seating = TableSeating(
        session=session_no,
        table=t.table,
        players=tuple(s.player for s in t.seats),
        seed=int(event.extra.get("seed", 0)) * 1_000_003 + session_no * 1_009 + t.table,
    )
    rest = play_table(seating, bots, event.rules, seed=deal_seed)[played:]
    repo.enter_hands(event.id, session_no, t.table, rest, group_id=group_id, source="engine")


def _seat_players(hall: Hall, runner: Any, humans: Sequence[OnlineSeat]) -> None:
    """The players sent to their chairs (in 托管 while not connected), bots filling the rest."""
    for s in humans:
        away = not getattr(hall.cluster, "multi", False) and s.account not in getattr(hall.hub, "conns", {})
        _send(hall, runner, "sit", s.account or 0, name=s.name, seat=s.chair, away=away)
    if len(humans) < 4:
        _send(hall, runner, "fill")


def _add_sealed(repo: TournamentRepository, event_id: str, session_no: int, hall_table: str) -> dict[str, Any]:
    dup = duplicate_info(repo.load(event_id), session_no) or {}
    dup["tables"] = sorted({*dup.get("tables", []), hall_table})
    put_duplicate(repo, event_id, session_no, dup)
    return dup


def reveal_session(repo: TournamentRepository, event_id: str, session_no: int) -> int:
    """复式: once every table of the session is finished, store the seeds of its sealed hall hands (from
    each hand's own log) so that their logs, replays and ``/api/hands/{id}`` open; idempotent.  Returns
    how many hands were revealed (0 while a table still plays, or for a session without duplicate walls)."""
    from majiang.store.models import HandEvent, HandRow

    event = repo.load(event_id)
    dup = duplicate_info(event, session_no)
    if dup is None or not session_finished(event, session_no):
        return 0
    tables = [str(t) for t in dup.get("tables", [])]
    revealed = 0
    with repo.db.session() as s:
        rows = (
            s.scalars(select(HandRow).where(HandRow.table_id.in_(tables), HandRow.seed.is_(None))).all()
            if tables
            else []
        )
        for row in rows:
            head = s.scalar(select(HandEvent).where(HandEvent.hand_id == row.id).order_by(HandEvent.seq).limit(1))
            if head is not None and isinstance(head.event, dict) and head.event.get("seed"):
                row.seed = str(head.event["seed"])
                revealed += 1
    if not dup.get("revealed"):
        dup["revealed"] = True
        put_duplicate(repo, event_id, session_no, dup)
    return revealed


def _send(hall: Hall, runner: Any, kind: str, account: int = 0, **data: Any) -> None:
    """A message to a hall table: through ``Hall.route`` where the hall has it (clustered halls), else the
    table's own queue."""
    route = getattr(hall, "route", None)
    if callable(route):
        route(runner.id, kind, account, **data)
    else:
        runner.put(kind, account, **data)


@dataclass(frozen=True, slots=True)
class HookResult:
    event: str
    group: str
    session: int
    table: int
    record: HandRecord
    complete: bool  # the table has its 16 hands: the hall should close it


@dataclass
class ResultHook:
    """``hook(table_id, hand_no, result, events)`` records a finished hall hand if the table plays an
    event table; returns None for other tables.  ``hand_no`` is 0-based (the hall's ``hands_played``
    before the hand), ``result`` the engine result (``SeatView(hand, 0).result``: ``{"deltas", "win":
    {"seat", "from", "fans", …}}``), ``events`` the hand's event log (for false wins)."""

    repo: TournamentRepository
    links: dict[str, tuple[str, str, int, int]] = field(default_factory=dict)

    def refresh(self) -> None:
        self.links = self.repo.hall_tables()

    def __call__(
        self,
        table_id: str,
        hand_no: int,
        result: Mapping[str, Any] | None,
        events: Sequence[Mapping[str, Any]] = (),
        chair_players: Sequence[int] = IDENTITY,
    ) -> HookResult | None:
        if table_id not in self.links:
            self.refresh()
        link = self.links.get(table_id)
        if link is None or hand_no >= HANDS_PER_SESSION:
            return None
        event_id, group_id, session_no, table_no = link
        record = record_from_outcome(hand_no + 1, (result or {}).get("win"), false_wins_of(events), chair_players)
        try:
            self.repo.enter_hand(
                event_id, session_no, table_no, record, group_id=group_id, replace_existing=True, source="hall"
            )
        except RepositoryError:
            # an earlier hand is missing (a hook call that failed): catch up from the hall's stored hands
            sync_session(self.repo, event_id, session_no)
            if len(self.repo.table(event_id, session_no, table_no, group_id).hands) <= hand_no:
                raise
        complete = hand_no + 1 >= HANDS_PER_SESSION
        if complete:
            reveal_session(self.repo, event_id, session_no)  # 复式: the last table finished opens the records
        return HookResult(event_id, group_id, session_no, table_no, record, complete)


def result_hook(db: Database) -> ResultHook:
    """The hall's hand-end hook for event tables on ``db`` (``create_app(hand_end_hooks=[result_hook])``)."""
    return ResultHook(TournamentRepository(db))


def sync_session(repo: TournamentRepository, event_id: str, session_no: int | None = None) -> int:
    """Enter the hands the hall has finished at the event's linked tables and that are not entered yet
    (all sessions, or ``session_no``), in order and without gaps.  Returns how many hands were entered."""
    from majiang.store.models import HandEvent, HandRow

    links = {
        tid: link for tid, link in repo.hall_tables(event_id).items() if session_no is None or link[2] == session_no
    }
    if not links:
        return 0
    with repo.db.session() as s:
        rows = s.scalars(
            select(HandRow).where(
                HandRow.table_id.in_(list(links)), HandRow.result.is_not(None), HandRow.hand_no < HANDS_PER_SESSION
            )
        ).all()
        found: dict[str, dict[int, tuple[int, dict[str, Any]]]] = {}
        for r in rows:
            found.setdefault(r.table_id, {})[r.hand_no] = (r.id, dict(r.result or {}))
        ids = [r.id for r in rows]
        false_wins: dict[int, list[dict[str, Any]]] = {}
        if ids:
            for e in s.scalars(select(HandEvent).where(HandEvent.hand_id.in_(ids)).order_by(HandEvent.seq)):
                if isinstance(e.event, dict) and e.event.get("type") == "false_win":
                    false_wins.setdefault(e.hand_id, []).append(e.event)
    event = repo.load(event_id)
    hook = ResultHook(repo, links)
    entered = 0
    for table_id, hands in found.items():
        _, group_id, s_no, t_no = links[table_id]
        table = event.group(group_id).sessions[s_no - 1].tables[t_no - 1]
        if table.totals is not None:
            continue
        n = len(table.hands)
        while n in hands and n < HANDS_PER_SESSION:
            hand_id, result = hands[n]
            hook(table_id, n, result, false_wins.get(hand_id, []))
            n += 1
            entered += 1
    for k in sorted({link[2] for link in links.values()}):
        reveal_session(repo, event_id, k)
    return entered
