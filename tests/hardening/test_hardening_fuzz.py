"""Protocol fuzzing: over 100,000 Hypothesis-generated hostile WebSocket frames against a live hall.

Four populations of connections are fuzzed (docs/protocol.md):

* idle accounts (logged in, not seated): malformed and hostile frames, actions while not seated,
  joins of tables and codes that do not exist, floods over the rate limit;
* seated players with an open prompt: stale, replayed, other seats' and other tables' ``seq``,
  well-formed actions that are not in ``legal``, joins elsewhere — the table's whole state (engine,
  prompts, seats, the hand's event count, balances) is snapshotted before and after each batch and
  must not change; then the prompt is answered legally so hands keep being played;
* unauthenticated connections: the first frame is hostile (a ``hello`` with a forged token at best);
* chat floods (table and lobby).

Each Hypothesis example is a batch: a list of frames drawn by the structured strategies of
:mod:`hardening_strategies` plus seeded mutants of them (truncated at a byte, a character inserted
or deleted, a key dropped, a value swapped for a nasty one — AFL-style, a few microseconds each
where a structured draw costs hundreds).  Frames that would be *accepted* in the connection's
context (checked with the server's own validator, ``parse_client_message``) are swapped for a
rejected one, so every frame of a batch must leave the state as it was.

Asserted throughout: no ERROR log, no exception escaping the app, every reply a well-formed server
message (:func:`hardening_harness.check_server_message`), no state change; at the end the hall still
plays a normal hand, answers ``/healthz`` and the coin ledger balances.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections import Counter
from typing import Any

import pytest
from hardening_harness import WS, Live, LiveSession, WSClosed, check_server_message
from hardening_strategies import NASTY, TYPES, hostile_frame, realize_seq, table_bound, wrong_seq_action
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from majiang.engine.view import action_from_json
from majiang.hall.messages import BadMessage, parse_client_message
from majiang.hall.rooms import TIMER_PRESETS, Room

IDLE_EXAMPLES = int(os.environ.get("HARDENING_FUZZ_IDLE_EXAMPLES", "1700"))
SPECTATOR_EXAMPLES = int(os.environ.get("HARDENING_FUZZ_SPECTATOR_EXAMPLES", "1000"))
SEATED_EXAMPLES = int(os.environ.get("HARDENING_FUZZ_SEATED_EXAMPLES", "400"))
UNAUTH_EXAMPLES = int(os.environ.get("HARDENING_FUZZ_UNAUTH_EXAMPLES", "120"))
MIN_FRAMES = int(os.environ.get("HARDENING_FUZZ_MIN_FRAMES", "100000"))
N_IDLE, N_SPECTATORS = 200, 140  # each connection comes round every few seconds: most frames pass the rate limit
ROOMS = [
    Room(
        id="fz-main",
        name="fuzz",
        rules="gb",
        bots="rand",
        bot_fill_s=600,
        next_hand_s=0.05,
        timers="hardening",
        spectate_delay_s=0.0,
    ),
    Room(id="fz-vip", name="fuzz vip", rules="gb", bots="rand", min_balance=10**9, timers="hardening"),
]
FIGURES: Counter[str] = Counter()
# derandomized by default (a stable CI); HARDENING_FUZZ_RANDOM=1 draws new frames on every run
SETTINGS = dict(
    deadline=None,
    database=None,
    derandomize=not os.environ.get("HARDENING_FUZZ_RANDOM"),
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
REJECT = '{"type": "action", "seq": -1, "action": {"type": "pass"}}'  # what an accepted frame is swapped for


# ---- the mutator ------------------------------------------------------------------------------------
JUNK_CHARS = ['"', "{", "}", "[", "]", ",", ":", "\\", "\x00", "é", "🀄", " ", "\n", "0", "-", "e", "\u202e", "\ufeff"]


def _dumps(x: Any) -> str:
    text = json.dumps(x, ensure_ascii=False)
    try:
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate cannot travel in a WebSocket text frame: keep it escaped
        text = json.dumps(x)
    return text


def mutate(frame: str, rnd: random.Random) -> str:
    """One seeded mutation of a frame: byte-level or JSON-level."""
    op = rnd.randrange(9)
    if op == 0 and len(frame) > 1:
        return frame[: rnd.randrange(1, len(frame))]
    if op == 1:
        i = rnd.randrange(len(frame) + 1)
        return frame[:i] + rnd.choice(JUNK_CHARS) + frame[i:]
    if op == 2 and frame:
        i = rnd.randrange(len(frame))
        return frame[:i] + frame[i + 1 :]
    if op == 3:
        return frame + rnd.choice(["", " ", "\n"]) + frame
    try:
        obj = json.loads(frame)
    except (ValueError, RecursionError):
        return frame[::-1] if op == 4 else frame.upper()
    if not isinstance(obj, dict) or not obj:
        return _dumps({"type": rnd.choice(TYPES), "x": obj})
    key = rnd.choice(list(obj))
    if op == 4:
        del obj[key]
    elif op == 5:
        obj[key] = rnd.choice(NASTY)
    elif op == 6:
        obj["type"] = rnd.choice(TYPES)
    elif op == 7:
        obj[rnd.choice(["seq", "seat", "table", "code", "on", "text", "room", "action", "account", "z"])] = rnd.choice(
            NASTY
        )
    elif isinstance(obj.get("action"), dict):
        obj["action"][rnd.choice(["type", "tile", "tiles", "x"])] = rnd.choice(NASTY + ["5m", "pass", "win"])
    else:
        obj = [obj]
    return _dumps(obj)


HOSTILE = hostile_frame()  # strategies are built once: building one per draw costs more than the draw
BOUND = table_bound(("fz-main", "fz-vip"))


@st.composite
def half_bound(draw: st.DrawFn) -> str:
    """Half hostile frames, half well-formed messages that go to the table runner."""
    return draw(BOUND if draw(st.booleans()) else HOSTILE)


HALF_BOUND = half_bound()


@st.composite
def batch(
    draw: st.DrawFn, lo: int = 4, hi: int = 14, mutants: tuple[int, int] = (2, 6), bound: bool = False
) -> list[str]:
    """Frames drawn by the structured strategies, each followed by a few seeded mutants of it
    (``bound``: half of them well-formed messages that go to the table runner)."""
    base = draw(st.lists(HALF_BOUND if bound else HOSTILE, min_size=lo, max_size=hi))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(*mutants))
    out: list[str] = []
    for f in base:
        out.append(f)
        out.extend(mutate(f, rnd) for _ in range(k))
    FIGURES["frames_structured"] += len(base)
    FIGURES["frames_mutants"] += len(out) - len(base)
    return out


# ---- the live hall and its populations ----------------------------------------------------------------
class Bucket:
    """The client's copy of the server's per-connection token bucket (20/s, bursts of 60), so that a
    seated player's batch and its answer are not cut by the rate limit (floods are fuzzed elsewhere)."""

    def __init__(self, rate: float = 20.0, burst: float = 60.0) -> None:
        self.rate, self.burst, self.tokens, self.t = rate, burst, burst, time.monotonic()

    def available(self) -> int:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        return int(self.tokens)

    def take(self, n: int) -> None:
        self.available()
        self.tokens -= n


class Seated:
    """A human seat that answers its prompts when the fuzz is done with them."""

    def __init__(self, fz: Fuzz, token: str, account: int, ws: WS) -> None:
        self.fz, self.token, self.account, self.ws = fz, token, account, ws
        self.table_id = ""
        self.seat = -1
        self.prompt: dict[str, Any] | None = None
        self.answered: tuple[int, dict[str, Any]] | None = None  # (seq, the frame) until the server took it
        self.bucket = Bucket()
        self.rnd = random.Random(account)

    @property
    def table(self) -> Any:
        return self.fz.hall.tables[self.table_id]

    def sync(self) -> list[dict[str, Any]]:
        got = self.ws.drain()
        for m in got:
            check_server_message(m)
            if m["type"] == "prompt":
                self.prompt, self.answered = m, None
        self.fz.count_replies(got)
        return got

    def ready(self) -> bool:
        """An open prompt, received, at a table that waits only for humans (and tokens to spend)."""
        t = self.fz.hall.tables.get(self.table_id)
        if t is None or t.state != "playing" or t.hand is None or t.hand.over or self.bucket.available() < 25:
            return False
        if self.prompt is None and self.answered is not None and t.inbox.empty() and self.ws.to_app.empty():
            p = t.prompts.get(self.seat)
            if p is not None and p.seq == self.answered[0]:  # the answer was lost (rate-limited): again
                self.ws.send(self.answered[1])
                self.bucket.take(1)
            return False
        if self.prompt is None:
            return False
        p = t.prompts.get(self.seat)
        return (
            p is not None
            and p.seq == self.prompt["seq"]
            and t.inbox.empty()
            and all(t.seats[s] is not None and t.seats[s].human for s in t.prompts)
        )

    def answer(self) -> None:
        assert self.prompt is not None
        legal = self.prompt["legal"]
        a = next((x for x in legal if x["type"] == "win"), None) or self.rnd.choice(legal)
        frame = {"type": "action", "seq": self.prompt["seq"], "action": a}
        self.ws.send(frame)
        self.bucket.take(1)
        self.answered = (self.prompt["seq"], frame)
        self.prompt = None


class Fuzz:
    def __init__(self, live: Live) -> None:
        self.live = live
        self.hall = live.hall
        self.idle: list[list[Any]] = []  # [token, account, ws, the table it watches or None]
        self.seated: list[Seated] = []
        self.turn = 0
        self.idle_turn = 0
        self.buckets: dict[int, Bucket] = {}

    @classmethod
    async def create(cls, live: Live) -> Fuzz:
        fz = cls(live)
        # 24 tables: 16 with one human, 8 with two (for other seats' seq)
        for humans in (1,) * 16 + (2,) * 8:
            group = []
            for k in range(humans):
                tok, acc = await live.guest()
                p = Seated(fz, tok, acc, await live.connect(tok))
                if k == 0:
                    p.ws.send({"type": "create", "room": "fz-main"})
                else:
                    p.ws.send({"type": "join", "table": group[0].table_id})
                m = await p.ws.until(lambda m: m["type"] == "table")
                p.table_id, p.seat = m["table"]["id"], m["seat"]
                group.append(p)
            group[0].ws.send({"type": "add_bots"})
            fz.seated.extend(group)
        tables = sorted({p.table_id for p in fz.seated})
        for i in range(N_IDLE + N_SPECTATORS):
            tok, acc = await live.guest()
            ws = await live.connect(tok)
            watch = None
            if i >= N_IDLE:  # a spectator: its table-bound frames reach the table runner
                watch = tables[i % len(tables)]
                ws.send({"type": "spectate", "table": watch})
                await ws.until(lambda m: m["type"] == "table")
            fz.idle.append([tok, acc, ws, watch])
            fz.buckets[acc] = Bucket()
        return fz

    def count_replies(self, msgs: list[dict[str, Any]]) -> None:
        for m in msgs:
            FIGURES["replies"] += 1
            if m["type"] == "error":
                FIGURES[f"error:{m['code']}"] += 1

    # ---- what the server would accept here (the oracle) ------------------------------------------
    def filter_idle(self, frame: str, watching: str | None) -> str:
        """Swap a frame the server would accept from an idle account (or a spectator) for a rejected one."""
        try:
            msg = parse_client_message(frame)
        except BadMessage:
            return frame
        t = msg.type
        exists = t in ("join", "spectate") and (
            msg.table in self.hall.tables
            or (t == "join" and msg.code is not None and msg.code in self.hall.cluster._codes)
        )
        # a sit in a room it may enter seats the account; in fz-vip it is refused and changes nothing
        sits = t in ("quick_join", "create") and msg.room in self.hall.rooms and msg.room != "fz-vip"
        accepted = sits or exists or (t == "chat" and msg.scope == "lobby")
        if watching is not None:
            # a spectator's sits go to its table (refused there: busy or full); it may leave, chat at
            # its table or watch another, and gets no answer to "auto"
            accepted = (
                t in ("stand", "chat", "auto")
                or (t == "spectate" and msg.table in self.hall.tables)
                or (t == "join" and msg.table is None and msg.code is not None and msg.code in self.hall.cluster._codes)
            )
        if accepted:
            FIGURES["frames_swapped"] += 1
            return REJECT
        return frame

    def filter_seated(self, frame: str, p: Seated) -> str:
        try:
            msg = parse_client_message(frame)
        except BadMessage:
            return frame
        t = msg.type
        accepted = t in ("stand", "auto", "chat")
        if t == "action" and p.prompt is not None and msg.seq == p.prompt["seq"]:
            try:
                a = action_from_json(msg.action.model_dump(exclude_none=True))
                accepted = a.type == "win" or a in {action_from_json(x) for x in p.prompt["legal"]}
            except ValueError:
                pass
        if accepted:
            FIGURES["frames_swapped"] += 1
            return REJECT
        return frame

    # ---- state snapshots ------------------------------------------------------------------------------
    async def snapshot(self, p: Seated) -> str:
        t = p.table
        h = t.hand
        humans = [s.account_id for s in t.seats if s is not None and s.human]
        state = (
            t.state,
            t.seq,
            t.hand_id,
            t.hands_played,
            t.shown,
            sorted(t.spectators),
            t.code,
            [None if s is None else (s.account_id, s.auto, s.timeouts, s.escaped, s.human) for s in t.seats],
            sorted((k, v.seq, tuple(v.legal)) for k, v in t.prompts.items()),
            [self.hall.where.get(a) for a in humans],
            len(self.hall.tables),
            None
            if h is None
            else (
                len(h.events),
                h.phase,
                h.current,
                h.pending,
                h.wall.live,
                tuple(h.deltas),
                sorted(h.responses.items()),
                sorted(h.options.items()),
                h.first_turn,
                [
                    (tuple(st.counts), tuple(st.melds), tuple(st.discards), tuple(st.flowers), st.drawn, st.barred)
                    for st in h.seats
                ],
            ),
            await self.hall.run_db(self.hall.store.balances, humans),
        )
        return repr(state)

    async def quiesce(self, ws: WS, table: Any = None) -> None:
        """Until the handler has read every frame, the table's inbox is empty and replies stopped."""
        stable = 0
        last = -1
        for _ in range(20000):
            await asyncio.sleep(0)
            n = ws.from_app.qsize()
            busy = not ws.to_app.empty() or (table is not None and not table.inbox.empty())
            stable = stable + 1 if (not busy and n == last) else 0
            last = n
            if stable >= 8:
                return
        raise AssertionError("the server did not settle")

    async def ready_player(self) -> Seated:
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while loop.time() < end:
            for _ in range(len(self.seated)):
                self.turn = (self.turn + 1) % len(self.seated)
                p = self.seated[self.turn]
                p.sync()
                if p.ready():
                    return p
            await asyncio.sleep(0.001)
        raise AssertionError(
            "no seated player got a prompt within 30 s: "
            + "; ".join(
                f"{p.account}@{p.table_id}/{p.seat} closed={p.ws.close_code} prompt={p.prompt and p.prompt['seq']} "
                f"table={self.hall.tables.get(p.table_id) and self.hall.tables[p.table_id].state}"
                for p in self.seated
            )
        )


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: Any) -> Any:
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(TIMER_PRESETS, "hardening", {"first_discard": 600.0, "action": 600.0, "claim": 600.0})
        db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
        session = LiveSession(f"sqlite:///{db}", ROOMS)
        try:
            session.fz = session.run(Fuzz.create(session.live))  # type: ignore[attr-defined]
            yield session
        finally:
            session.close()


def assert_no_failures(session: LiveSession) -> None:
    failures = session.failures()
    assert not failures, "the server failed:\n" + "\n---\n".join(failures[:3])


# ---- idle accounts ---------------------------------------------------------------------------------------
def idle_example(fuzz: Any, frames: list[str], spectators: bool) -> None:
    fz: Fuzz = fuzz.fz

    async def example() -> None:
        pool = fz.idle[N_IDLE:] if spectators else fz.idle[:N_IDLE]
        for i in range(10 * len(pool)):
            fz.idle_turn += 1
            slot = pool[fz.idle_turn % len(pool)]
            # a spectator's frames are kept under the rate limit (they are meant for the table runner)
            if not spectators or fz.buckets[slot[1]].available() >= 12:
                break
            if i % len(pool) == len(pool) - 1:
                await asyncio.sleep(0.05)
        tok, acc, ws, watch = slot
        bucket = fz.buckets[acc]
        if ws.closed:  # closed for flooding: a fresh connection (a spectator watches again)
            ws = slot[2] = await fz.live.connect(tok)
            fz.buckets[acc] = bucket = Bucket()
            FIGURES["reconnects"] += 1
            if watch is not None:
                ws.send({"type": "spectate", "table": watch})
                await ws.until(lambda m: m["type"] == "table")
        tables = len(fz.hall.tables)
        sent = [fz.filter_idle(f, watch) for f in frames]
        if spectators:
            sent = sent[: bucket.available()]
        for f in sent:
            ws.send_text(f)
        bucket.take(len(sent))
        FIGURES["frames_spectators" if watch else "frames_idle"] += len(sent)
        replies: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        answered = 0
        closed = False
        while answered < len(sent):
            try:
                m = await ws.recv(max(0.01, end - loop.time()))
            except WSClosed as e:
                assert e.code == 1008, f"closed with {e.code} {e.reason}"  # closed for flooding
                FIGURES["closed_for_flooding"] += 1
                closed = True
                break
            check_server_message(m)
            replies.append(m)
            # not answers: lobby pushes (to a lobby subscriber), chat, a watched table's traffic
            if m["type"] in ("error", "pong", "tables", "muted") or (m["type"] == "lobby" and "chat" in m):
                answered += 1
        fz.count_replies(replies)
        for m in replies:
            if m["type"] == "error":
                FIGURES[f"{'spectators' if spectators else 'idle'}:{m['code']}"] += 1
        assert len(fz.hall.tables) == tables
        assert all(s is None or s.account_id != acc for t in fz.hall.tables.values() for s in t.seats)
        assert fz.hall.where.get(acc) == (None if closed else watch)
        assert watch is None or closed or acc in fz.hall.tables[watch].spectators

    fuzz.run(example(), 60)
    assert_no_failures(fuzz)


@settings(max_examples=IDLE_EXAMPLES, **SETTINGS)
@given(frames=batch(lo=4, hi=12, mutants=(4, 8)))
def test_fuzz_idle_connections(fuzz: Any, frames: list[str]) -> None:
    idle_example(fuzz, frames, spectators=False)


@settings(max_examples=SPECTATOR_EXAMPLES, **SETTINGS)
@given(frames=batch(lo=6, hi=16, mutants=(0, 2), bound=True))
def test_fuzz_spectators(fuzz: Any, frames: list[str]) -> None:
    idle_example(fuzz, frames, spectators=True)


# ---- seated players -----------------------------------------------------------------------------------------
# a live table moves on between examples: no shrinking
@settings(max_examples=SEATED_EXAMPLES, phases=[Phase.explicit, Phase.generate], **SETTINGS)
@given(frames=batch(lo=2, hi=5, mutants=(1, 2)), data=st.data())
def test_fuzz_seated_players_change_nothing(fuzz: Any, frames: list[str], data: Any) -> None:
    fz: Fuzz = fuzz.fz

    async def prepare() -> tuple[Seated, tuple[int, ...]]:
        p = await fz.ready_player()
        others = tuple(q.prompt["seq"] for q in fz.seated if q.prompt is not None and q is not p)
        return p, others

    p, others = fuzz.run(prepare(), 60)
    assert p.prompt is not None
    seq = p.prompt["seq"]
    extra = [
        realize_seq(*x, seq, list(others)) for x in data.draw(st.lists(wrong_seq_action(), min_size=2, max_size=8))
    ]
    legal = {json.dumps(a, sort_keys=True) for a in p.prompt["legal"]}
    wrong = [
        {"type": "action", "seq": seq, "action": a}
        for a in [
            {"type": "discard", "tile": "f1"},
            {"type": "kong", "tile": "P"},
            {"type": "chow", "tile": "1m", "tiles": ["1m", "2m", "3m"]},
            {"type": "concealed_kong", "tile": "9s"},
            {"type": "pass"},
            {"type": "pung", "tile": "E"},
        ]
        if json.dumps(a, sort_keys=True) not in legal
    ]
    others_tables = [q.table_id for q in fz.seated if q.table_id != p.table_id]
    context = [
        {"type": "join", "table": others_tables[0]},
        {"type": "join", "table": p.table_id},
        {"type": "quick_join", "room": "fz-main"},
        {"type": "create", "room": "fz-vip"},
        {"type": "add_bots"},
        {"type": "hello", "token": p.token},
        {"type": "join", "code": "000000"},
    ]
    order = data.draw(st.permutations(range(len(context))))
    frames = frames + [json.dumps(m) for m in extra + wrong + [context[i] for i in order]]
    frames = frames[: p.bucket.available() - 3]  # the answer afterwards must pass the rate limit

    async def example() -> None:
        t = p.table
        before = await fz.snapshot(p)
        sent = [fz.filter_seated(f, p) for f in frames]
        for f in sent:
            p.ws.send_text(f)
        p.bucket.take(len(sent))
        FIGURES["frames_seated"] += len(sent)
        await fz.quiesce(p.ws, t)
        for q in fz.seated:
            if q.table_id == p.table_id:
                q.sync()
        after = await fz.snapshot(p)
        assert after == before, f"rejected frames changed the table:\n{before}\n{after}\nframes: {sent}"
        assert p.prompt is not None and p.prompt["seq"] == seq, "the prompt was not kept open"
        if p.ws.closed:
            raise AssertionError(f"a seated player was disconnected: {p.ws.close_code}")
        p.answer()

    fuzz.run(example(), 60)
    assert_no_failures(fuzz)


# ---- unauthenticated connections -------------------------------------------------------------------------------
@settings(max_examples=UNAUTH_EXAMPLES, **SETTINGS)
@given(frames=batch(lo=2, hi=6, mutants=(1, 3)))
def test_fuzz_unauthenticated_first_frame(fuzz: Any, frames: list[str]) -> None:
    fz: Fuzz = fuzz.fz

    async def example() -> None:
        for f in frames:
            ws = await WS(fz.live, "/ws").open()
            ws.send_text(f)
            FIGURES["frames_unauthenticated"] += 1
            m = await ws.recv(15)
            check_server_message(m)
            assert m["type"] == "error" and m["code"] == "auth", m
            with pytest.raises(WSClosed) as e:
                await ws.recv(15)
            assert e.value.code == 4401
            await ws.close()

    fuzz.run(example(), 120)
    assert_no_failures(fuzz)


# ---- chat floods ------------------------------------------------------------------------------------------------
def test_fuzz_chat_floods(fuzz: Any) -> None:
    """Seated players and idle accounts flood table and lobby chat: the flood is cut by the rate
    limits, the chat logs stay bounded, every other player is still served."""
    fz: Fuzz = fuzz.fz

    async def flood() -> dict[str, int]:
        sent = 0
        for p in fz.seated:
            p.sync()
            for i in range(100):
                p.ws.send({"type": "chat", "text": f"flood {i} " + "中" * (i % 150)})
                sent += 1
        for _tok, _acc, ws, _w in fz.idle[:5]:
            if not ws.closed:
                for i in range(100):
                    ws.send({"type": "chat", "scope": "lobby", "text": f"lobby flood {i}"})
                    sent += 1
        await asyncio.sleep(0.5)
        codes: Counter[str] = Counter()
        for p in fz.seated:
            for m in p.sync():
                codes[m.get("code", m["type"])] += 1
        for _tok, _acc, ws, _w in fz.idle:
            for m in ws.drain():
                check_server_message(m)
                codes[m.get("code", m["type"])] += 1
        FIGURES["frames_chat_flood"] += sent
        return dict(codes)

    codes = fuzz.run(flood(), 120)
    assert codes.get("rate_limited", 0) > 0 and codes.get("chat", 0) > 0, codes
    assert all(len(t.chat_log) <= 100 for t in fz.hall.tables.values())
    assert len(fz.hall.lobby_chat) <= 100
    assert_no_failures(fuzz)


# ---- afterwards ----------------------------------------------------------------------------------------------------
def test_fuzz_afterwards_the_hall_still_plays(fuzz: Any) -> None:
    fz: Fuzz = fuzz.fz

    async def check() -> dict[str, Any]:
        assert fz.live.http is not None
        health = (await fz.live.http.get("/healthz")).json()
        tok, _acc = await fz.live.guest()
        ws = await fz.live.connect(tok)
        ws.send({"type": "create", "room": "fz-main"})
        await ws.until(lambda m: m["type"] == "table")
        ws.send({"type": "add_bots"})
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while loop.time() < end:
            m = await ws.recv(30)
            check_server_message(m)
            if m["type"] == "prompt":
                legal = m["legal"]
                a = next((x for x in legal if x["type"] == "win"), None) or legal[-1]
                ws.send({"type": "action", "seq": m["seq"], "action": a})
            elif m["type"] == "hand_end":
                break
        else:
            raise AssertionError("no hand completed after the fuzz")
        ws.send({"type": "stand"})
        await ws.close()
        audit = (await fz.live.http.get("/api/ledger/audit")).json()
        idle = [a for _t, a, _w, _x in fz.idle]
        balances = await fz.hall.run_db(fz.hall.store.balances, idle)
        played = [(t.hands_played, t.seq) for t in fz.hall.tables.values() if t.room.id == "fz-main"]
        return {"health": health, "audit": audit, "balances": set(balances), "played": played}

    r = fuzz.run(check(), 120)
    assert r["health"]["ok"] is True
    assert r["audit"]["ok"], r["audit"]
    assert r["balances"] == {2000}, "an idle account's balance changed"
    assert sum(seq for _h, seq in r["played"]) >= SEATED_EXAMPLES, "the seated fuzz tables did not move on"
    assert_no_failures(fuzz)
    frames = sum(
        v
        for k, v in FIGURES.items()
        if k.startswith("frames_") and k not in ("frames_structured", "frames_mutants", "frames_swapped")
    )
    FIGURES["frames_total"] = frames
    FIGURES["reached_table"] = sum(
        FIGURES[f"error:{c}"] for c in ("stale", "illegal", "bad_action", "not_playing", "busy", "full")
    )
    hands = sum(h for h, _seq in r["played"])
    print(f"\nprotocol fuzz: {frames} frames, {dict(sorted(FIGURES.items()))}, hands at the fuzzed tables {hands}")
    if IDLE_EXAMPLES >= 1000:
        assert frames >= MIN_FRAMES, dict(FIGURES)
