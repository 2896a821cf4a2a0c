"""The auto toggles at the table in the browser: 自动和 (auto-win), 不吃碰杠
(auto-pass claims) and 摸切 (auto-discard the drawn tile).  Each journey: sign up, sit at a friend's
private table by its code, switch the toggle on, stand up, log out, log in again in a fresh browser
context (nothing kept in the page's storage), sit again — the switch is still on, the server
remembered it — and the first hand shows what the toggle does.

The server is ``tests/web/rigged_serve.py``: the first hand of a table is dealt from a rigged wall, so
the moment each toggle acts on comes for sure.  The friend is a WebSocket client at seat 0 (the
dealer); the browser sits at seat 1, its 下家.  The dealer discards 白 (P) first."""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import PASSWORD, serve
from .pace import STEP_MS

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

ROOMS = """
[[room]]
id = "rig"
name = "测试场 Rigged"
rules = "gb"
coefficient = 1
fee = 0
timers = "relaxed"
claim_window_s = 0.0
bots = "rand"
bot_fill_s = 300
next_hand_s = 30
spectate_delay_s = 0
"""
PLAIN = "139m258p147s1234z5z"  # the dealer: no kong, no win; it discards 白 (P): we hold the others
HERE = Path(__file__).parent


class Rigged:
    def __init__(self, base: str, rig_file: Path) -> None:
        self.base = base
        self.rig_file = rig_file

    def rig(self, **hands: str) -> None:
        self.rig_file.write_text(json.dumps(hands), encoding="utf-8")

    def guest(self) -> str:
        import httpx

        r = httpx.post(self.base + "/api/guest", timeout=10)
        r.raise_for_status()
        return str(r.json()["token"])


@pytest.fixture(scope="module")
def rigged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rigged]:
    tmp = tmp_path_factory.mktemp("rigged")
    rig_file = tmp / "rig.json"
    program = [sys.executable, str(HERE / "rigged_serve.py")]
    with serve(tmp, ROOMS, program=program, env={"MAJIANG_TEST_RIG": str(rig_file)}) as hall:
        yield Rigged(hall.base, rig_file)


@pytest.fixture
def make_page(browser: Any, rigged: Rigged) -> Iterator[Callable[..., tuple[Any, list[dict[str, Any]]]]]:
    """Fresh pages on the rigged server (each its own context), with every WebSocket message the page
    receives recorded; JavaScript errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1440, height: int = 900) -> tuple[Any, list[dict[str, Any]]]:
        ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=rigged.base)
        ctx.set_default_timeout(20_000)
        contexts.append(ctx)
        page = ctx.new_page()
        frames: list[dict[str, Any]] = []

        def on_ws(ws: Any) -> None:
            ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

        page.on("websocket", on_ws)
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        return page, frames

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, "JavaScript errors in the page:\n" + "\n".join(errors)


class Dealer(threading.Thread):
    """The friend at seat 0: opens a private table, adds bots once ``go`` is set and the browser sits,
    discards ``first`` (白, P) first, then wins when offered, else passes, else discards the drawn tile."""

    def __init__(self, rigged: Rigged, first: str = "P") -> None:
        super().__init__(daemon=True)
        self.first_tile = first
        self.url = rigged.base.replace("http://", "ws://") + f"/ws?token={rigged.guest()}"
        self.code: str | None = None
        self.ready = threading.Event()
        self.go = threading.Event()
        self.stopped = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        from websockets.sync.client import connect

        try:
            with connect(self.url, open_timeout=10) as ws:
                ws.send(json.dumps({"type": "create", "room": "rig", "private": True}))
                bots = False
                first = True
                seated = False
                while not self.stopped.is_set():
                    try:
                        m = json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        m = {"type": "_idle"}
                    if m["type"] == "table" and m.get("code"):
                        self.code = m["code"]
                        self.ready.set()
                    if m["type"] == "table_info":
                        seated = m["table"]["seats"][1] is not None
                    if self.go.is_set() and seated and not bots:
                        ws.send(json.dumps({"type": "add_bots"}))
                        bots = True
                    if m["type"] == "prompt":
                        legal = m["legal"]
                        drawn = m["view"].get("drawn")
                        a = (
                            (
                                next((x for x in legal if x == {"type": "discard", "tile": self.first_tile}), None)
                                if first
                                else None
                            )
                            or next((x for x in legal if x["type"] == "win"), None)
                            or next((x for x in legal if x["type"] == "pass"), None)
                            or next((x for x in legal if x["type"] == "discard" and x.get("tile") == drawn), None)
                            or next(x for x in legal if x["type"] == "discard")
                        )
                        first = first and a["type"] != "discard"
                        ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": a}))
        except BaseException as e:  # reported by the test
            self.error = e
            self.ready.set()

    def wait_code(self) -> str:
        assert self.ready.wait(30), "the dealer's private table did not open"
        assert self.code, f"no code: {self.error!r}"
        return self.code

    def stop(self) -> None:
        self.stopped.set()
        self.join(10)


def sit_by_code(page: Any, code: str) -> None:
    page.fill("#join-code", code)
    page.click("#join-code-btn")
    page.wait_for_selector(".stage")
    page.wait_for_selector("#toggles")


def journey(
    rigged: Rigged, make_page: Any, name: str, rig: dict[str, str], first: str = "P"
) -> tuple[Any, list[dict[str, Any]], Dealer]:
    """Up to the first hand of the journey (module docstring); returns the second page, its messages
    and the dealer (the caller stops it)."""
    rigged.rig(**rig)
    dealer = Dealer(rigged, first)
    dealer.start()
    code = dealer.wait_code()
    page, _ = make_page()
    page.goto("/")
    page.click("#tab-register")
    user = f"tg{name[5:9]}{int(time.time() * 1000) % 10_000_000}"[:20]
    page.fill("#username", user)
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.click("#submit")
    page.wait_for_selector(".room-card")
    sit_by_code(page, code)
    switch = page.locator(f"#toggles [data-toggle={name}]")
    expect(switch).to_have_attribute("aria-pressed", "false")
    box = switch.bounding_box()
    assert box and box["height"] >= 40 and box["width"] >= 40  # a thumb's size
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")  # the server's answer
    expect(switch).to_have_class("btn toggle auto-switch on")
    page.click("#stand")
    page.wait_for_selector(".room-card")
    page.click("#logout")
    page.wait_for_selector("#tab-login")

    again, frames = make_page()  # a fresh context: only the server can remember the toggle
    again.goto("/")
    again.click("#tab-login")
    again.fill("#username", user)
    again.fill("#password", PASSWORD)
    again.click("#submit")
    again.wait_for_selector(".room-card")
    sit_by_code(again, code)
    expect(again.locator(f"#toggles [data-toggle={name}]")).to_have_attribute("aria-pressed", "true")
    others = [t for t in ("auto_win", "auto_pass", "auto_discard") if t != name]
    for t in others:
        expect(again.locator(f"#toggles [data-toggle={t}]")).to_have_attribute("aria-pressed", "false")
    dealer.go.set()
    return again, frames, dealer


def presets(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in frames if m.get("type") == "preset"]


def prompts(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in frames if m.get("type") == "prompt"]


def wait_for(page: Any, cond: Callable[[], Any], timeout: float = STEP_MS / 1000) -> Any:
    """Until ``cond`` holds, on the page's clock (Playwright delivers the recorded messages only while
    it runs); ``timeout`` is the watchdog of a hung table, not a budget (tests/web/pace.py)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        page.wait_for_timeout(100)
    raise AssertionError("timed out")


def pass_claims(page: Any) -> bool:
    """Press 过 (pass) if the page offers a claim; False, so that it can sit inside a wait condition."""
    offered = page.locator("#actionbar .act[data-action=pass]")
    if offered.count():
        # the prompt can go (answered, or timed out) between count() and click()
        with contextlib.suppress(sync_api.Error):
            offered.first.click(timeout=1500)
    return False


def test_auto_discard_toggle(rigged: Rigged, make_page: Any, shots: Path) -> None:
    # the dealer discards 北 (N), of which it holds three and we the fourth: nobody can claim it; our
    # first draw is 中 (C), which makes no kong, no win
    page, frames, dealer = journey(
        rigged,
        make_page,
        "auto_discard",
        {"dealer": "139m258p147s12z444z", "right": "1379m2468p59s146z", "draws": "7z"},
        first="N",
    )
    try:
        first = wait_for(page, lambda: presets(frames))[0]
        assert first["toggle"] == "auto_discard" and first["action"] == {"type": "discard", "tile": "C"}
        expect(page.locator("#toggle-last")).to_have_attribute("data-toggle", "auto_discard")
        expect(page.locator("#toggle-last")).to_contain_text("摸切")
        expect(page.locator(".pond.pos0 img.tile[data-tile=C]").first).to_be_visible()  # our pond: 中, at once
        asked = [p for p in prompts(frames) if any(a["type"] == "discard" for a in p["legal"])]
        leaves = ("win", "concealed_kong", "added_kong")  # what 摸切 leaves to the player
        assert all(any(a["type"] in leaves for a in p["legal"]) for p in asked), asked
        # and on the next turn (one more, not "every": the hand can end before a third).  Meanwhile we
        # pass the claims we are offered, as a player who does not claim would: an unanswered one holds
        # the table for its 10 s timer, and a timeout puts the seat into 托管, which then plays for it
        wait_for(page, lambda: pass_claims(page) or len(presets(frames)) >= 2, timeout=60)
        assert {m["toggle"] for m in presets(frames)} == {"auto_discard"}  # the one toggle on
        page.screenshot(path=str(shots / "table-toggles.png"))
        # switched off, its note goes with it (was: "摸切 … auto-discarded" outlived the toggle)
        page.click("#toggle-auto-discard")
        expect(page.locator("#toggle-auto-discard")).to_have_attribute("aria-pressed", "false")
        expect(page.locator("#toggle-last")).to_have_count(0)
    finally:
        dealer.stop()
    assert dealer.error is None, dealer.error


def test_auto_pass_toggle(rigged: Rigged, make_page: Any) -> None:
    # the browser holds a pair of 白: the dealer's 白 offers a pung, which the toggle passes at once
    page, frames, dealer = journey(rigged, make_page, "auto_pass", {"dealer": PLAIN, "right": "258m369p147s12z55z"})
    try:
        first = wait_for(page, lambda: presets(frames))[0]
        assert first["toggle"] == "auto_pass" and first["action"] == {"type": "pass"}
        expect(page.locator("#toggle-last")).to_have_attribute("data-toggle", "auto_pass")
        expect(page.locator("#your-turn")).to_be_visible()  # our own turn is still ours (摸切 is off)
        assert not [p for p in prompts(frames) if any(a["type"] == "pung" for a in p["legal"])]
        expect(page.locator("#actionbar button.act[data-action=pung]")).to_have_count(0)
    finally:
        dealer.stop()
    assert dealer.error is None, dealer.error


def test_auto_win_toggle(rigged: Rigged, make_page: Any) -> None:
    # the browser waits on 白 or 1p with 清龙 (16 fan): the dealer's 白 is won at once
    page, frames, dealer = journey(rigged, make_page, "auto_win", {"dealer": PLAIN, "right": "123456789m11p55z"})
    try:
        first = wait_for(page, lambda: presets(frames))[0]
        assert first["toggle"] == "auto_win" and first["action"]["type"] == "win"
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result h2")).to_contain_text("和了")
        end = wait_for(page, lambda: [m for m in frames if m.get("type") == "hand_end"])[0]
        assert end["result"]["win"]["seat"] == 1 and end["result"]["win"]["points"] >= 8
        assert not prompts(frames)  # the win was never asked
    finally:
        dealer.stop()
    assert dealer.error is None, dealer.error
