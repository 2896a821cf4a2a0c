"""Regression tests of the hall attacked as an internet attacker would: login floods, rate
limits, usernames, slow clients, hosts, privacy, memory.  Each docstring says what the server did
before the fix (docs/hardening.md)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
from hardening_harness import Live, run_live

from majiang.hall import accounts as accounts_module
from majiang.hall.limits import Limits
from majiang.hall.rooms import Room

ROOMS = [
    Room(id="free", name="free room", rules="gb", bots="rand", bot_fill_s=600, timers="relaxed"),
    Room(id="paid", name="paid room", rules="gb", bots="rand", bot_fill_s=600, coefficient=10, guests=False),
]
OPEN = Limits(
    login_per_address_per_min=1e9,
    login_burst=1e9,
    login_per_account_per_min=1e9,
    login_account_burst=1e9,
    guests_per_address_per_hour=1e9,
    guest_burst=1e9,
)
PASSWORD = "correct horse battery"


def live_run(tmp_path: Any, body: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    kwargs.setdefault("limits", OPEN)
    return run_live(f"sqlite:///{tmp_path}/abuse.db", ROOMS, body, timeout=120, **kwargs)


def client_from(live: Live, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=live.app, client=(address, 40000)), base_url="http://testserver", timeout=60
    )


# ---- #2: a login flood froze every table -------------------------------------------------------------------
def test_password_hashing_never_runs_on_the_database_worker(tmp_path: Any, monkeypatch: Any) -> None:
    """Was: argon2 ran on the database worker (one thread under SQLite) that also writes the tables'
    events: 105 wrong-password logins from 3 clients stopped every table (0 prompts in 12 s)."""
    threads: set[str] = set()
    real = accounts_module._hasher

    class Spy:
        def __getattr__(self, name: str) -> Any:
            def call(*args: Any) -> Any:
                threads.add(threading.current_thread().name)
                return getattr(real, name)(*args)

            return call

    monkeypatch.setattr(accounts_module, "_hasher", Spy())

    async def body(live: Live) -> tuple[float, list[int]]:
        assert live.http is not None
        r = await live.http.post("/api/register", json={"username": "alice", "password": PASSWORD})
        assert r.status_code == 200, r.text
        flood = [
            asyncio.ensure_future(live.http.post("/api/login", json={"username": "alice", "password": "x" * 12}))
            for _ in range(24)
        ]
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        await live.hall.run_db(lambda: None)  # what a table's event write waits for
        probe = time.perf_counter() - t0
        codes = [r.status_code for r in await asyncio.gather(*flood)]
        return probe, codes

    (probe, codes), errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    assert threads and all(t.startswith("argon2") for t in threads), threads
    assert set(codes) <= {401, 503}, codes
    assert probe < 0.5, f"the database worker waited {probe:.2f} s behind the password hashes"


def test_a_login_flood_is_rate_limited_per_address_and_per_account(tmp_path: Any) -> None:
    """Was: no HTTP rate limit: unlimited password guesses from one address, or on one account."""

    async def body(live: Live) -> tuple[list[int], str | None, list[int]]:
        assert live.http is not None
        async with client_from(live, "10.1.1.1") as c:
            await c.post("/api/register", json={"username": "bob", "password": PASSWORD})
        from_one = [
            (await live.http.post("/api/login", json={"username": f"nobody{i}", "password": "x" * 12}))
            for i in range(12)
        ]
        on_one: list[int] = []
        for i in range(7):  # a botnet: a new address each time, one account
            async with client_from(live, f"10.0.0.{i + 1}") as c:
                on_one.append((await c.post("/api/login", json={"username": "bob", "password": "x" * 12})).status_code)
        return [r.status_code for r in from_one], from_one[-1].headers.get("retry-after"), on_one

    limits = Limits(
        login_per_address_per_min=0.01, login_burst=10, login_per_account_per_min=0.01, login_account_burst=5
    )  # refills too slowly to matter while the test runs
    (from_one, retry_after, on_one), errors = live_run(tmp_path, body, limits=limits)
    assert not errors, errors[0]
    assert from_one[:10] == [401] * 10 and from_one[10:] == [429, 429], from_one
    assert retry_after is not None and int(retry_after) >= 1
    assert on_one[:5] == [401] * 5 and on_one[5:] == [429, 429], on_one


def test_an_unknown_username_costs_the_same_time_as_a_wrong_password(tmp_path: Any) -> None:
    """Was: a wrong password took 613 ms, an unknown name 10 ms: usernames revealed by timing."""

    async def body(live: Live) -> tuple[float, float]:
        assert live.http is not None
        await live.http.post("/api/register", json={"username": "carol", "password": PASSWORD})

        async def timed(name: str) -> float:
            t0 = time.perf_counter()
            r = await live.http.post("/api/login", json={"username": name, "password": "x" * 12})
            assert r.status_code == 401
            return time.perf_counter() - t0

        known, unknown = [], []
        for _ in range(4):  # interleaved, so a busy machine slows both alike
            known.append(await timed("carol"))
            unknown.append(await timed("nobody-here"))
        return min(known), min(unknown)

    (known, unknown), errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    assert unknown > 0.3 * known, (known, unknown)  # was 10 ms against 613 ms


# ---- #9: unlimited free guests, their coins worth as much as anyone's --------------------------------------
def test_guests_are_limited_per_address(tmp_path: Any) -> None:
    """Was: 184 guests a second from one address (≈ 368,000 free coins a second)."""

    async def body(live: Live) -> tuple[list[int], str | None, int]:
        assert live.http is not None
        rs = [await live.http.post("/api/guest") for _ in range(5)]
        async with client_from(live, "10.9.9.9") as other:
            elsewhere = (await other.post("/api/guest")).status_code
        return [r.status_code for r in rs], rs[-1].headers.get("retry-after"), elsewhere

    limits = Limits(guests_per_address_per_hour=3, guest_burst=3)
    (codes, retry_after, elsewhere), errors = live_run(tmp_path, body, limits=limits)
    assert not errors, errors[0]
    assert codes == [200, 200, 200, 429, 429], codes
    assert retry_after is not None and int(retry_after) > 60  # 3 an hour: the next in 20 minutes
    assert elsewhere == 200


def test_a_guest_may_sit_only_in_a_room_open_to_guests(tmp_path: Any) -> None:
    """Was: guests (free coins) sat in every room; now a room says ``guests = false`` and the built-in
    paid rooms do."""

    async def body(live: Live) -> tuple[dict[str, Any], dict[str, Any]]:
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        ws.send({"type": "quick_join", "room": "paid"})
        refused = await ws.until(lambda m: m["type"] in ("error", "table"))
        ws.send({"type": "quick_join", "room": "free"})
        seated = await ws.until(lambda m: m["type"] in ("error", "table"))
        return refused, seated

    (refused, seated), errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    assert refused["type"] == "error" and "registered" in refused["message"], refused
    assert seated["type"] == "table", seated
    from majiang.hall.rooms import load_rooms

    assert [r.id for r in load_rooms() if r.guests] == ["beginners"]


# ---- #13: look-alike and control-character usernames; a guest-name collision answered 500 -------------------
def test_usernames_are_normalised_and_look_alikes_refused(tmp_path: Any) -> None:
    """Was: ``bob_auth\\n`` registered (``$`` matches before a final newline), ``guest-…`` and ``fan-bot-0``
    could be taken by players, ``Bob`` next to ``bob``."""

    async def body(live: Live) -> dict[str, int]:
        assert live.http is not None
        names = [
            "bob_auth",
            "bob_auth\n",
            "Bob_Auth",
            "bob-auth",
            "b0b_auth",
            "bob\u200b_auth",
            "bob\tauth",
            "guest-12ab",
            "Guest_x",
            "fan-bot-0",
            "bot:fan",
            "ｂｏｂｂｙ",
            "bobby",
            "alice",
            "аlice",
            "ALlCE",
        ]
        out = {}
        for n in names:
            r = await live.http.post("/api/register", json={"username": n, "password": PASSWORD})
            assert r.status_code in (200, 400), (n, r.status_code, r.text)
            out[n] = r.status_code
        r = await live.http.post("/api/login", json={"username": "ｂｏｂｂｙ", "password": PASSWORD})
        out["login ｂｏｂｂｙ"] = r.status_code
        return out

    out, errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    accepted = sorted(n for n, c in out.items() if c == 200)
    assert accepted == ["alice", "bob_auth", "login ｂｏｂｂｙ", "ｂｏｂｂｙ"], out  # ｂｏｂｂｙ is stored as bobby
    from majiang.hall.accounts import skeleton

    assert skeleton("аlice") == skeleton("ALlCE") == skeleton("alice")  # Cyrillic а, l for I


def test_a_guest_name_collision_is_drawn_again(tmp_path: Any, monkeypatch: Any) -> None:
    """Was: two guests drawing the same 6 hex digits: IntegrityError, HTTP 500."""
    draws = iter(["aaaaaa", "aaaaaa", "aaaaaa", "bbbbbbbb"])
    real = accounts_module.secrets.token_hex

    class Secrets:
        token_bytes = staticmethod(accounts_module.secrets.token_bytes)

        @staticmethod
        def token_hex(n: int = 32) -> str:
            return next(draws, None) or real(n)

    async def body(live: Live) -> list[tuple[int, str]]:
        assert live.http is not None
        monkeypatch.setattr(accounts_module, "secrets", Secrets)
        out = []
        for _ in range(2):
            r = await live.http.post("/api/guest")
            out.append((r.status_code, r.json()["account"]["name"] if r.status_code == 200 else r.text))
        return out

    out, errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    assert out == [(200, "guest-aaaaaa"), (200, "guest-bbbbbbbb")], out


# ---- #15: half-open HTTP requests never timed out (slowloris) ----------------------------------------------
def slow_client(port: int, head: bytes, drip: bytes, every: float, limit: float) -> tuple[float, bytes]:
    """Send ``head``, then ``drip`` every ``every`` seconds until the server closes (or ``limit``)."""
    import socket

    t0 = time.monotonic()
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as s:
        s.sendall(head)
        s.settimeout(every)
        while time.monotonic() - t0 < limit:
            try:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
            except TimeoutError:
                try:
                    s.sendall(drip)
                except OSError:
                    break
            except OSError:
                break
    return time.monotonic() - t0, got


def test_a_slow_request_head_or_body_times_out(tmp_path: Any) -> None:
    """Was: a client dripping one header line a second (or a body byte a second) held its connection
    open for ever; 1,000 of them hold every file descriptor."""
    from hardening_harness import Serve

    srv = Serve(tmp_path, extra=["--header-timeout", "1.5", "--body-timeout", "1.5"]).wait_up()
    try:
        head_s, head_reply = slow_client(
            srv.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-a: b\r\n", 0.3, 15
        )
        body_s, body_reply = slow_client(
            srv.port,
            b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
            b" ",
            0.3,
            15,
        )
        silent_s, _ = slow_client(srv.port, b"", b"", 0.5, 15)
        # a normal request on a kept-alive connection still works
        with httpx.Client(base_url=srv.base) as c:
            assert c.get("/healthz").status_code == 200
            assert c.get("/healthz").status_code == 200
    finally:
        srv.stop()
    assert head_s < 5 and head_reply.startswith(b"HTTP/1.1 408"), (head_s, head_reply)
    assert body_s < 5 and body_reply.startswith(b"HTTP/1.1 408"), (body_s, body_reply)
    assert silent_s < 5, silent_s


# ---- #16: no Host allowlist (DNS rebinding) ---------------------------------------------------------------
def raw_request(port: int, request: bytes) -> bytes:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        return s.recv(4096)


def test_a_request_for_another_host_is_refused(tmp_path: Any) -> None:
    """Was: a page on attacker.example, its name rebound to 127.0.0.1, reached the API and the WebSocket
    (the Origin check compared Origin with Host, both the attacker's)."""
    from hardening_harness import Serve

    upgrade = (
        b"GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        b"Origin: http://%s\r\n\r\n"
    )
    srv = Serve(tmp_path).wait_up()
    try:
        port = b"%d" % srv.port
        evil_http = raw_request(srv.port, b"GET /api/rooms HTTP/1.1\r\nHost: attacker.example:" + port + b"\r\n\r\n")
        evil_ws = raw_request(srv.port, upgrade % (b"attacker.example:" + port, b"attacker.example:" + port))
        good_http = raw_request(srv.port, b"GET /api/rooms HTTP/1.1\r\nHost: localhost:" + port + b"\r\n\r\n")
        good_ws = raw_request(srv.port, upgrade % (b"127.0.0.1:" + port, b"127.0.0.1:" + port))
    finally:
        srv.stop()
    assert evil_http.startswith(b"HTTP/1.1 400"), evil_http[:200]
    assert evil_ws.startswith(b"HTTP/1.1 403"), evil_ws[:200]
    assert good_http.startswith(b"HTTP/1.1 200"), good_http[:200]
    assert good_ws.startswith(b"HTTP/1.1 101"), good_ws[:200]


def test_host_names_match_exactly_or_as_subdomains() -> None:
    from majiang.hall.hosts import host_allowed

    allowed = ["mahjong.example", ".play.example", "::1"]
    assert host_allowed("mahjong.example:443", allowed) and host_allowed("[::1]:8000", allowed)
    assert host_allowed("a.play.example", allowed) and host_allowed("play.example", allowed)
    assert not host_allowed("mahjong.example.attacker.example", allowed)
    assert not host_allowed("xplay.example", allowed) and not host_allowed("", allowed)


# ---- #17: every balance and hand history public ------------------------------------------------------------
def test_balances_and_hand_histories_are_the_owners_only(tmp_path: Any) -> None:
    """Was: GET /api/players/{id} (balance, coins won) and /api/players/{id}/hands answered anyone, without
    logging in."""

    async def body(live: Live) -> dict[str, Any]:
        assert live.http is not None
        alice, alice_id = await live.guest()
        bob, _ = await live.guest()
        out: dict[str, Any] = {}
        for who, tok in (("anon", None), ("other", bob), ("owner", alice)):
            headers = {"Authorization": f"Bearer {tok}"} if tok else {}
            prof = await live.http.get(f"/api/players/{alice_id}", headers=headers)
            hands = await live.http.get(f"/api/players/{alice_id}/hands", headers=headers)
            out[who] = (prof.status_code, sorted(prof.json()), hands.status_code)
        return out

    out, errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    for who in ("anon", "other"):
        code, fields, hands = out[who]
        assert code == 200 and "name" in fields and "win_rate" in fields, out[who]
        assert "balance" not in fields and "coins_won" not in fields, out[who]
        assert hands in (401, 403), out[who]
    code, fields, hands = out["owner"]
    assert code == 200 and "balance" in fields and hands == 200, out["owner"]


# ---- #3: a client that never reads grew server memory --------------------------------------------------
def test_a_client_that_never_reads_is_dropped_at_a_byte_budget() -> None:
    """Was: the send queue was capped at 2,000 messages, not bytes: a 37-byte ``tables`` request got a
    121 KB reply, so 5 clients that never read grew the server from 113 to 312 MB in 20 s."""
    from majiang.hall import hub

    async def body() -> tuple[bool, int, int]:
        stuck = asyncio.Event()
        closes: list[int] = []

        async def never(text: str) -> None:
            await stuck.wait()  # the socket's buffer is full: the client does not read

        async def close(code: int, reason: str) -> None:
            closes.append(code)

        conn = hub.Connection(1, never, close)
        big = {"type": "tables", "room": "r", "tables": ["x" * 10_000]}
        sent = 0
        while not conn.closed and sent < 1000:
            conn.send(big)
            sent += 1
        held = conn.queued_bytes
        await asyncio.sleep(1.2)
        conn.task.cancel()
        return conn.closed, sent, held + conn.queue.qsize()

    closed, sent, held = asyncio.run(body())
    assert closed, "a client 10 MB behind was still connected"
    assert sent * 10_000 <= 2 * hub.QUEUE_BYTES, sent
    assert held <= 2, held  # what it never read was dropped at once


def test_the_tables_list_is_paginated(tmp_path: Any) -> None:
    """Was: ``tables`` (WebSocket) and GET /api/rooms/{room}/tables answered every table at once."""

    async def body(live: Live) -> tuple[dict[str, Any], dict[str, Any], list[Any], dict[str, str]]:
        assert live.http is not None
        for _ in range(12):  # one open table per account (#10): twelve guests open one each
            tok, _ = await live.guest()
            r = await live.http.post("/api/tables", json={"room": "free"}, headers={"Authorization": f"Bearer {tok}"})
            assert r.status_code == 200, r.text
        ws = await live.connect(tok)
        ws.send({"type": "tables", "room": "free", "limit": 5})
        first = await ws.until(lambda m: m["type"] == "tables")
        ws.send({"type": "tables", "room": "free", "limit": 5, "offset": 10})
        last = await ws.until(lambda m: m["type"] in ("tables", "error"))
        r = await live.http.get("/api/rooms/free/tables", params={"limit": 5, "offset": 5})
        return first, last, r.json(), dict(r.headers)

    (first, last, page, headers), errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    assert len(first["tables"]) == 5 and first["next"] == 5 and first["total"] == 12, first
    assert len(last["tables"]) == 2 and last["next"] is None, last
    assert len(page) == 5 and headers["x-total-count"] == "12" and headers["x-next-offset"] == "10", headers


# ---- #11: mute stored any integer, for ever ------------------------------------------------------------
def test_mute_only_real_accounts_bounded_and_freed(tmp_path: Any, monkeypatch: Any) -> None:
    """Was: ``mute`` stored any integer (≈ 4,000 digits) in a per-account set never freed: ≈ 146 MB an
    hour per connection."""
    from majiang.hall.routes import ws as ws_routes

    monkeypatch.setattr(ws_routes, "MUTE_LIMIT", 3)

    async def body(live: Live) -> tuple[list[dict[str, Any]], Any, Any]:
        tok, me = await live.guest()
        others = [(await live.guest())[1] for _ in range(4)]
        ws = await live.connect(tok)
        replies = []
        for target in [10**4000, 987654321, *others]:
            ws.send_text(f'{{"type": "mute", "account": {target}, "on": true}}')
            replies.append(await ws.until(lambda m: m["type"] in ("muted", "error")))
        held = set(live.hall.mutes.get(me, ()))
        await ws.close()
        await asyncio.sleep(0.3)
        return replies, held, live.hall.mutes.get(me)

    (replies, held, after), errors = live_run(tmp_path, body)
    assert not errors, errors[0]
    kinds = [(m["type"], m.get("code")) for m in replies]
    assert kinds == [
        ("error", "bad_message"),
        ("error", "not_found"),
        ("muted", None),
        ("muted", None),
        ("muted", None),
        ("error", "bad_message"),
    ], kinds
    assert len(held) == 3 and after is None, (held, after)
