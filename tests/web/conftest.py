"""Browser tests of the web client: a real ``majiang serve`` on a free port (scratch SQLite, fast
rooms) driven by Debian's chromium through Playwright (sync API).

Never runs ``playwright install``: the browser is /usr/bin/chromium (scripts/ensure-debian.sh
installs it).  Every test here is skipped, with a message saying so, when that file is missing.
Screenshots go to tests/web/screenshots/ (ignored by git).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).parent / "screenshots"
#: how long a page action or an ``expect`` waits for the state it needs before the test fails: a bound
#: for a page that never gets there, not a pace (a loaded machine once took over 15 s to show a table)
WAIT_MS = 60_000
PASSWORD = "correct horse battery"

# ready_s = 0: these rooms have no ready step between hands (the next hand after next_hand_s); the ready
# step and private tables' bot wait have their own hall in test_between_ui.py
ROOMS = """
[[room]]
id = "fast"
name = "快速场 Fast"
rules = "gb"
coefficient = 10
fee = 5
timers = "relaxed"
claim_window_s = 0.0
bots = "fan"
bot_fill_s = 300
next_hand_s = 6
ready_s = 0
spectate_delay_s = 0

[[room]]
id = "items"
name = "道具场 Items"
rules = "gb"
coefficient = 100
fee = 50
min_balance = 500
items = true
claim_window_s = 0.0
bots = "fan"
ready_s = 0

[[room]]
id = "rich"
name = "高手场 Masters"
rules = "gb"
coefficient = 100
fee = 50
min_balance = 20000
claim_window_s = 0.0
bots = "fan"
ready_s = 0

[[room]]
id = "match"
name = "东风战 East-round match"
rules = "gb"
coefficient = 1
fee = 0
timers = "blitz"
claim_window_s = 0.0
bots = "rand"
bot_fill_s = 300
next_hand_s = 5
ready_s = 0
match_hands = 4
auto_delay_s = 0.15

[[room]]
id = "nanchang"
name = "南昌场 Nanchang"
rules = "nanchang"
coefficient = 5
fee = 2
timers = "relaxed"
claim_window_s = 0.0
bots = "rand"
bot_fill_s = 300
ready_s = 0
"""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(
        reason=f"browser tests need Debian's chromium at {CHROMIUM}; "
        "install it with scripts/ensure-debian.sh (apt-get install chromium)"
    )
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Hall:
    """The running server: its base URL and a few HTTP/WebSocket helpers for setting up tests."""

    def __init__(self, base: str, log: Path) -> None:
        self.base = base
        self.log = log

    def get(self, path: str) -> Any:
        import httpx

        r = httpx.get(self.base + path, timeout=10)
        r.raise_for_status()
        return r.json()

    def post(self, path: str, body: Any = None, token: str | None = None) -> Any:
        import httpx

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.post(self.base + path, json=body, headers=headers, timeout=10)
        r.raise_for_status()
        return r.json()

    def play_hand_over_ws(self, room: str = "fast", timeout: float = 60, token: str | None = None) -> int:
        """A guest (or the account of ``token``) plays one hand with bots over the WebSocket (win when
        offered, else pass, else discard the drawn tile); returns the finished hand's id."""
        return self.play_hands_over_ws(1, room, timeout, token)[1][0]

    def play_hands_over_ws(
        self, n: int, room: str = "fast", timeout: float = 60, token: str | None = None
    ) -> tuple[str, list[int]]:
        """A guest (or the account of ``token``) plays ``n`` hands in a row at one table with bots (as
        play_hand_over_ws); returns the token and the finished hands' ids."""
        from websockets.sync.client import connect

        token = token or self.post("/api/guest")["token"]
        url = self.base.replace("http://", "ws://") + f"/ws?token={token}"
        deadline = time.monotonic() + timeout * n
        hands: list[int] = []
        with connect(url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "quick_join", "room": room}))
            while time.monotonic() < deadline:
                m = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
                if m["type"] == "table" and "view" not in m:
                    ws.send(json.dumps({"type": "add_bots"}))
                elif m["type"] == "prompt":
                    legal = m["legal"]
                    drawn = m["view"].get("drawn")
                    a = (
                        next((x for x in legal if x["type"] == "win"), None)
                        or next((x for x in legal if x["type"] == "pass"), None)
                        or next((x for x in legal if x["type"] == "discard" and x.get("tile") == drawn), None)
                        or next(x for x in legal if x["type"] == "discard")
                    )
                    ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": a}))
                elif m["type"] == "hand_end":
                    hands.append(int(m["hand"]))
                    if len(hands) == n:
                        ws.send(json.dumps({"type": "stand"}))
                        return token, hands
        raise AssertionError("the WebSocket hand did not finish in time")


@pytest.fixture(scope="session")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with serve(tmp_path_factory.mktemp("hall"), ROOMS) as h:
        yield h


@contextlib.contextmanager
def serve(
    tmp: Path, rooms_text: str, program: list[str] | None = None, env: dict[str, str] | None = None
) -> Iterator[Hall]:
    """``majiang serve`` on a free port with these rooms (a scratch SQLite in ``tmp``); ``program``:
    what runs the CLI (default ``python -m majiang.cli``), ``env``: extra environment variables."""
    rooms = tmp / "rooms.toml"
    rooms.write_text(rooms_text, encoding="utf-8")
    port = _free_port()
    log = tmp / "server.log"
    cmd = [
        *(program or [sys.executable, "-m", "majiang.cli"]),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{tmp / 'hall.db'}",
        "--rooms",
        str(rooms),
        "--bot-delay",
        "0.01,0.04",
        "--guests-per-hour",
        "1000000",
        "--logins-per-minute",
        "1000000",
    ]
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=tmp,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
    base = f"http://127.0.0.1:{port}"
    try:
        import httpx

        deadline = time.monotonic() + 180  # a watchdog: a loaded machine starts the server slowly
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"majiang serve exited ({proc.returncode}):\n{log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"majiang serve did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield Hall(base, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="package")  # closed on leaving tests/web: Playwright's sync API keeps an event loop
def browser() -> Iterator[Any]:  # running in the main thread, and tests elsewhere call asyncio.run()
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need the Python package playwright (pip install playwright)"
    )
    playwright.expect.set_options(timeout=WAIT_MS)
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {SHOTS}")
    return SHOTS


@pytest.fixture
def new_page(browser: Any, hall: Hall) -> Iterator[Any]:
    """A factory of fresh pages (each its own context: its own localStorage); JavaScript errors on
    any of them fail the test."""
    with pages(browser, hall) as make:
        yield make


@contextlib.contextmanager
def pages(browser: Any, hall: Hall) -> Iterator[Any]:
    """new_page for any running hall."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1440, height: int = 900) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=hall.base)
        ctx.set_default_timeout(WAIT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: (
                errors.append(f"console error: {m.text}")
                if m.type == "error" and "WebSocket" not in m.text and "status of 4" not in m.text
                else None
            ),
        )
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, "JavaScript errors in the page:\n" + "\n".join(errors)


@pytest.fixture
def page(new_page: Any) -> Any:
    return new_page()


PORTRAIT = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any, hall: Hall) -> Iterator[Any]:
    """A page on a phone: 390×844 portrait, touch, 3× pixels; JavaScript errors fail the test."""
    ctx = browser.new_context(
        viewport=PORTRAIT, is_mobile=True, has_touch=True, device_scale_factor=3, base_url=hall.base
    )
    ctx.set_default_timeout(WAIT_MS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    yield page
    ctx.close()
    assert not errors, "\n".join(errors)


def _register(page: Any, name: str, password: str = PASSWORD) -> str:
    page.goto("/")
    page.click("#tab-register")
    page.fill("#username", name)
    page.fill("#password", password)
    page.fill("#password2", password)
    page.click("#submit")
    page.wait_for_selector(".room-card")
    return name


@pytest.fixture
def signup() -> Any:
    """signup(page, prefix) registers a fresh account through the login screen and waits for the
    lobby; returns the user name."""
    counter = iter(range(1000))

    def go(page: Any, prefix: str = "web") -> str:
        name = f"{prefix}{int(time.time() * 1000) % 10_000_000}{next(counter)}"
        return _register(page, name[:20])

    return go
