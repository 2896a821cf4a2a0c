"""Hardening checks: rate limits, WebSocket Origin, session tokens (expiry, revocation), security
headers, bounded message sizes, schema-validated HTTP bodies, and structured logs without secrets."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import re
import sqlite3
import time
import urllib.request
from typing import Any

import pytest
from hardening_harness import Live, LiveSession, Serve, WSClosed, check_server_message
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from majiang.hall.rooms import Room

ROOMS = [Room(id="hc", name="checks", rules="gb", bots="rand", bot_fill_s=600, next_hand_s=0.05, timers="relaxed")]


@pytest.fixture(scope="module")
def hall(tmp_path_factory: Any) -> Any:
    db = tmp_path_factory.mktemp("checks") / "checks.db"
    session = LiveSession(f"sqlite:///{db}", ROOMS)
    session.db_path = db  # type: ignore[attr-defined]
    yield session
    session.close()
    assert not session.failures(), "\n".join(session.failures()[:3])


async def pings(ws: Any, n: int) -> dict[str, int]:
    for _ in range(n):
        ws.send({"type": "ping"})
    out: dict[str, int] = {}
    for _ in range(n):
        m = await ws.recv()
        check_server_message(m)
        key = m.get("code", m["type"])
        out[key] = out.get(key, 0) + 1
    return out


# ---- rate limits ------------------------------------------------------------------------------------------
def test_rate_limit_per_connection(hall: Any) -> None:
    """20 messages a second, bursts of 60: 100 at once → about 60 answered, the rest refused."""

    async def body() -> dict[str, int]:
        tok, _ = await hall.live.guest()
        ws = await hall.live.connect(tok)
        return await pings(ws, 100)

    got = hall.run(body())
    # 60 at once, plus what 20/s refills while the 100 are read (a loaded machine: up to ~0.5 s)
    assert 60 <= got.get("pong", 0) <= 70 and got.get("rate_limited", 0) >= 30, got


def test_two_connections_of_one_account_share_its_budget(hall: Any) -> None:
    """The account's bucket (30/s, bursts of 90) outlives a connection: after 60 messages on the
    first, a second connection of the same account gets only the account's remaining ~30."""

    async def body() -> tuple[dict[str, int], dict[str, int]]:
        tok, _ = await hall.live.guest()
        first = await hall.live.connect(tok)
        a = await pings(first, 60)
        second = await hall.live.connect(tok)  # takes over: the first is kicked
        assert (await first.recv())["type"] == "kicked"
        b = await pings(second, 60)
        return a, b

    a, b = hall.run(body())
    assert a == {"pong": 60}, a
    assert 28 <= b.get("pong", 0) <= 45 and b.get("rate_limited", 0) >= 15, b  # alone it would be 60


def test_a_flooding_connection_is_closed(hall: Any) -> None:
    async def body() -> int | None:
        tok, _ = await hall.live.guest()
        ws = await hall.live.connect(tok)
        for _ in range(400):
            ws.send({"type": "ping"})
        with pytest.raises(WSClosed) as e:
            while True:
                await ws.recv()
        return e.value.code

    assert hall.run(body()) == 1008


# ---- Origin --------------------------------------------------------------------------------------------------
async def _open(live: Live, tok: str, origin: str | None) -> str:
    headers = [("origin", origin)] if origin else []
    try:
        ws = await live.connect(tok, headers=headers)
    except WSClosed as e:
        return f"refused {e.code}"
    await ws.close()
    return "accepted"


def test_websocket_origin_checks(hall: Any, tmp_path: Any) -> None:
    async def body(live: Live) -> dict[str, str]:
        tok, _ = await live.guest()
        return {
            o or "none": await _open(live, tok, o)
            for o in [
                None,
                "http://testserver",
                "https://testserver",
                "http://evil.example",
                "https://testserver.evil.example",
                "null",
                "http://evil.example/testserver",
                "https://mahjong.example",
            ]
        }

    default = hall.run(body(hall.live))
    assert default == {
        "none": "accepted",
        "http://testserver": "accepted",
        "https://testserver": "accepted",
        "http://evil.example": "refused 1008",
        "https://testserver.evil.example": "refused 1008",
        "null": "refused 1008",
        "http://evil.example/testserver": "refused 1008",
        "https://mahjong.example": "refused 1008",
    }, default
    other = LiveSession(f"sqlite:///{tmp_path}/origin.db", ROOMS, allowed_origins=["https://mahjong.example"])
    try:
        allowed = other.run(body(other.live))
    finally:
        other.close()
    assert allowed["https://mahjong.example"] == "accepted" and allowed["none"] == "accepted"
    assert allowed["http://testserver"] == "accepted" and allowed["http://evil.example"] == "refused 1008"


# ---- session tokens -------------------------------------------------------------------------------------------
def forge(db_path: Any, body: dict[str, Any], secret: bytes | None = None) -> str:
    """A token signed like accounts.Accounts.issue, with the secret from the settings table."""
    if secret is None:
        with sqlite3.connect(db_path) as c:
            secret = bytes.fromhex(c.execute("SELECT value FROM settings WHERE key = 'token_secret'").fetchone()[0])
    raw = base64.urlsafe_b64encode(json.dumps(body, separators=(",", ":")).encode()).decode().rstrip("=")
    return f"{raw}.{hmac.new(secret, raw.encode(), hashlib.sha256).hexdigest()}"


def test_tokens_expire_and_are_checked(hall: Any) -> None:
    async def body() -> dict[str, Any]:
        live = hall.live
        tok, acc = await live.guest()
        now = int(time.time())
        fresh = forge(hall.db_path, {"a": acc, "v": 0, "e": now + 60})
        expired = forge(hall.db_path, {"a": acc, "v": 0, "e": now - 1})
        wrong_key = forge(hall.db_path, {"a": acc, "v": 0, "e": now + 60}, secret=b"x" * 32)
        other = forge(hall.db_path, {"a": acc + 10**6, "v": 0, "e": now + 60})
        out: dict[str, Any] = {}
        for name, t in [
            ("issued", tok),
            ("fresh", fresh),
            ("expired", expired),
            ("wrong_key", wrong_key),
            ("unknown_account", other),
            ("tampered", tok[:-1] + ("0" if tok[-1] != "0" else "1")),
            ("garbage", "x.y"),
            ("long", "a" * 600 + ".b"),
        ]:
            r = await live.http.get("/api/me", headers={"Authorization": f"Bearer {t}"})
            out[name] = (r.status_code, r.json().get("detail", ""))
            try:
                ws = await live.connect(t, welcome=False)
                m = await ws.recv()
                out[name + "_ws"] = m["type"] if m["type"] == "welcome" else f"{m['code']}"
                if m["type"] != "welcome":
                    with pytest.raises(WSClosed) as e:
                        await ws.recv()
                    out[name + "_ws"] += f" {e.value.code}"
                await ws.close()
            except WSClosed as e:
                out[name + "_ws"] = f"closed {e.code}"
        body = json.loads(base64.urlsafe_b64decode(tok.split(".")[0] + "=="))
        out["ttl"] = body["e"] - now
        return out

    out = hall.run(body())
    assert out["issued"][0] == 200 and out["fresh"][0] == 200 and out["fresh_ws"] == "welcome"
    assert out["expired"][0] == 401 and "expired" in out["expired"][1] and out["expired_ws"] == "auth 4401"
    for name in ("wrong_key", "unknown_account", "tampered", "garbage", "long"):
        assert out[name][0] == 401 and out[name + "_ws"] == "auth 4401", (name, out[name])
    assert 6 * 86400 < out["ttl"] <= 7 * 86400 + 5  # a week


def test_logout_revokes_every_token(hall: Any) -> None:
    async def body() -> dict[str, Any]:
        live = hall.live
        r = await live.http.post("/api/register", json={"username": "revoked_one", "password": "correct horse"})
        tok = r.json()["token"]
        r2 = await live.http.post("/api/login", json={"username": "revoked_one", "password": "correct horse"})
        tok2 = r2.json()["token"]
        auth = {"Authorization": f"Bearer {tok}"}
        out = {
            "before": (await live.http.get("/api/me", headers=auth)).status_code,
            "logout": (await live.http.post("/api/logout", headers=auth)).status_code,
        }
        for name, t in (("first", tok), ("second", tok2)):
            r = await live.http.get("/api/me", headers={"Authorization": f"Bearer {t}"})
            out[name] = (r.status_code, r.json()["detail"])
            ws = await live.connect(t, welcome=False)
            out[name + "_ws"] = (await ws.recv()).get("code")
        hello = await live.connect(None)
        hello.send({"type": "hello", "token": tok})
        out["hello"] = (await hello.recv()).get("code")
        r3 = await live.http.post("/api/login", json={"username": "revoked_one", "password": "correct horse"})
        out["again"] = (
            await live.http.get("/api/me", headers={"Authorization": f"Bearer {r3.json()['token']}"})
        ).status_code
        return out

    out = hall.run(body())
    assert out["before"] == 200 and out["logout"] == 200 and out["again"] == 200
    for name in ("first", "second"):
        assert out[name][0] == 401 and "revoked" in out[name][1] and out[name + "_ws"] == "auth", out
    assert out["hello"] == "auth"


# ---- security headers --------------------------------------------------------------------------------------------
HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}


@pytest.mark.parametrize(
    "path",
    ["/", "/docs", "/api/rooms", "/openapi.json", "/healthz", "/no/such/page", "/static/index.html", "/tournaments"],
)
def test_security_headers(hall: Any, path: str) -> None:
    r = hall.run(hall.live.http.get(path))
    assert r.status_code < 500
    for k, v in HEADERS.items():
        assert r.headers.get(k) == v, (path, k, r.headers.get(k))
    csp = r.headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in csp and "script-src" in csp, f"{path}: Content-Security-Policy {csp!r}"


# ---- sizes ----------------------------------------------------------------------------------------------------------
def test_a_5kb_message_is_refused_and_changes_nothing(hall: Any) -> None:
    """A legal answer to the open prompt, padded past 4 KB: refused (bad_message), the prompt stays open,
    the table unchanged; the same answer unpadded is then accepted."""

    async def body() -> tuple[dict[str, Any], bool, bool]:
        live = hall.live
        tok, _ = await live.guest()
        ws = await live.connect(tok)
        ws.send({"type": "create", "room": "hc"})
        m = await ws.until(lambda m: m["type"] == "table")
        table = live.hall.tables[m["table"]["id"]]
        ws.send({"type": "add_bots"})
        prompt = await ws.until(lambda m: m["type"] == "prompt")
        await asyncio.sleep(0.05)
        before = (len(table.hand.events), table.seq, dict(table.prompts))
        answer = {"type": "action", "seq": prompt["seq"], "action": prompt["legal"][0]}
        padded = json.dumps(answer)[:-1] + " " * 5000 + "}"
        assert 5000 < len(padded.encode()) < 6000
        ws.send_text(padded)
        err = await ws.recv()
        await asyncio.sleep(0.05)
        same = before == (len(table.hand.events), table.seq, dict(table.prompts))
        ws.send(answer)
        moved = await ws.recv()
        return err, same, moved["type"] in ("events", "prompt", "hand_end")

    err, same, moved = hall.run(body())
    assert err["type"] == "error" and err["code"] == "bad_message" and "too large" in err["message"], err
    assert same, "a refused 5 KB message changed the table"
    assert moved


@pytest.fixture(scope="module")
def served(tmp_path_factory: Any) -> Any:
    """A real ``majiang serve --log-level info`` (uvicorn: 16 KB WebSocket frames at most)."""
    srv = Serve(tmp_path_factory.mktemp("served"), extra=["--origin", "https://mahjong.example"]).wait_up()
    yield srv
    srv.stop()


def _http(
    url: str, body: Any = None, token: str | None = None, raw: bytes | None = None, method: str | None = None
) -> tuple[int, Any]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(
        url,
        data=data,
        method=method or ("POST" if data is not None else "GET"),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text.decode(errors="replace")


def test_the_server_closes_a_20kb_frame(served: Any) -> None:
    _, g = _http(served.base + "/api/guest", {})
    with connect(f"{served.ws_base}/ws?token={g['token']}", max_size=2**20, open_timeout=20) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "chat", "text": "x" * 20_000}))
        with pytest.raises(ConnectionClosed) as e:
            while True:
                ws.recv(timeout=10)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1009, e.value


def test_origin_over_a_real_server(served: Any) -> None:
    _, g = _http(served.base + "/api/guest", {})
    url = f"{served.ws_base}/ws?token={g['token']}"
    with pytest.raises(InvalidStatus) as e:
        connect(url, origin="http://evil.example", open_timeout=20)  # type: ignore[arg-type]
    assert e.value.response.status_code == 403
    for origin in (None, f"http://127.0.0.1:{served.port}", "https://mahjong.example"):
        with connect(url, origin=origin, open_timeout=20) as ws:  # type: ignore[arg-type]
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


# ---- HTTP bodies --------------------------------------------------------------------------------------------------
def test_every_http_body_is_schema_validated(served: Any) -> None:
    """Each operation with a JSON body (from /openapi.json) answers malformed bodies with 422 and a
    clear reason (400 for JSON nested too deep to parse) — never a 5xx."""
    spec = json.loads(urllib.request.urlopen(served.base + "/openapi.json", timeout=30).read())
    _, g = _http(served.base + "/api/guest", {})
    token = g["token"]
    ops = [(p, m) for p, item in spec["paths"].items() for m, op in item.items() if "requestBody" in op]
    assert ("/api/register", "post") in ops and ("/api/tables", "post") in ops
    checked = 0
    for path, method in ops:
        bad: list[tuple[str, bytes]] = [
            ("not json", b"{not json"),
            ("array", b"[1, 2]"),
            ("string", b'"x"'),
            ("null", b"null"),
            (
                "wrong types",
                json.dumps(
                    {"username": 1, "password": [], "room": {}, "private": "maybe", "item": 5, "hand": 7}
                ).encode(),
            ),
            ("extra field", json.dumps({"zzz": 1}).encode()),
            ("huge", json.dumps({"username": "x" * 1_000_000}).encode()),
            ("deep", b"[" * 5000 + b"]" * 5000),
        ]
        for name, raw in bad:
            status, detail = _http(served.base + path, raw=raw, token=token, method=method.upper())
            assert status < 500, f"{method.upper()} {path} with {name}: {status} {detail}"
            # 422 (validation), or 400 for JSON nested past the parser's depth, 413 for an oversized body
            assert status in (400, 413, 422), f"{method.upper()} {path} with {name}: {status} {str(detail)[:200]}"
            assert isinstance(detail, dict) and detail.get("detail"), (path, name, detail)
            if status == 422:
                assert isinstance(detail, dict) and detail.get("detail"), (path, name, detail)
                first = detail["detail"][0] if isinstance(detail["detail"], list) else detail["detail"]
                assert isinstance(first, str) or ("loc" in first and "msg" in first), (path, name, detail)
            checked += 1
    assert checked == len(ops) * len(bad) and checked >= 3 * len(bad)


# ---- structured logs ------------------------------------------------------------------------------------------
def play_one_hand(served: Any, token: str, hello: bool = False) -> int:
    url = f"{served.ws_base}/ws" + ("" if hello else f"?token={token}")
    with connect(url, max_size=2**22, open_timeout=20) as ws:
        if hello:
            ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "create", "room": "s"}))
        while json.loads(ws.recv(timeout=10))["type"] != "table":
            pass
        ws.send(json.dumps({"type": "add_bots"}))
        t0 = time.time()
        while time.time() - t0 < 60:
            m = json.loads(ws.recv(timeout=30))
            if m["type"] == "prompt":
                legal = m["legal"]
                a = next((x for x in legal if x["type"] in ("win", "concealed_kong")), None) or legal[-1]
                ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": a}))
            elif m["type"] == "hand_end":
                ws.send(json.dumps({"type": "stand"}))
                return int(m["hand"])
    raise AssertionError("the hand did not end")


def test_json_logs_hold_no_token_no_password_and_no_tile(tmp_path: Any) -> None:
    srv = Serve(tmp_path).wait_up()
    secrets: list[str] = []
    try:
        _, reg = _http(srv.base + "/api/register", {"username": "logwatch", "password": "tr0ub4dor&3xyzzy"})
        _, log = _http(srv.base + "/api/login", {"username": "logwatch", "password": "tr0ub4dor&3xyzzy"})
        _, g = _http(srv.base + "/api/guest", {})
        secrets += [reg["token"], log["token"], g["token"], "tr0ub4dor&3xyzzy"]
        assert _http(srv.base + "/api/me", token=reg["token"])[0] == 200
        hands = [play_one_hand(srv, log["token"]), play_one_hand(srv, g["token"], hello=True)]
        _http(srv.base + "/api/logout", {}, token=reg["token"])
        logs = [_http(srv.base + f"/api/hands/{h}")[1] for h in hands]
    finally:
        text = srv.stop()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # every line is one JSON object
    assert lines and all({"ts", "level", "logger", "msg"} <= set(x) for x in lines)
    assert any("[redacted]" in x["msg"] for x in lines), "the WebSocket URL with its token was never logged"
    for s in secrets:
        assert s not in text and s[:40] not in text, "a session token or password reached the log"
    assert not any(x["level"] in ("error", "critical") for x in lines), [x for x in lines if x["level"] == "error"]
    for hand in logs:
        assert hand["seed"] not in text
        for e in hand["events"]:
            if e["type"] == "deal":
                for tiles in e["hands"]:
                    assert " ".join(tiles) not in text and json.dumps(tiles) not in text
    tile = re.compile(r"(?<![\w/])(?:[1-9][mps]|f[1-8])(?![\w])")
    found = [x["msg"] for x in lines if tile.search(x["msg"])]
    assert not found, f"tile-like strings in the log: {found[:5]}"
