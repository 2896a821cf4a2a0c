"""Client bugs, each pinned: the player page's seat is the seat's wind in each hand; a page kicked
by a second login stops its prompt and countdown and says so; the replay tells bots of one kind
apart by the wind on their own seat plate; the calculator explains an incomplete hand in words."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

WIND_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}


@pytest.fixture(scope="module")
def two_hands(hall: Any) -> tuple[int, list[int], str]:
    """A guest's two hands in a row at one table: the dealer moves, so the guest's wind changes."""
    token, hands = hall.play_hands_over_ws(2)
    import httpx

    me = httpx.get(hall.base + "/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    return int(me["id"]), hands, token


def dealer_of(hall: Any, hand: int) -> int:
    start = hall.get(f"/api/hands/{hand}")["events"][0]
    assert start["type"] == "hand_start"
    return int(start["dealer"])


def test_player_page_shows_each_hands_seat_wind(page: Any, hall: Any, two_hands: tuple[int, list[int], str]) -> None:
    import httpx

    account, hands, token = two_hands  # a hand history is its owner's only: the guest looks at its own page
    rows = {
        r["hand"]: r
        for r in httpx.get(
            f"{hall.base}/api/players/{account}/hands", timeout=10, headers={"Authorization": f"Bearer {token}"}
        ).json()
    }
    page.goto("/")
    page.evaluate("t => localStorage.setItem('majiang.token', t)", token)
    page.goto(f"/#player/{account}")
    page.reload()  # the app boots with the guest's token: its own page, with its hands
    winds = set()
    for hand in hands:
        wind = "ESWN"[(rows[hand]["seat"] - dealer_of(hall, hand)) % 4]
        assert rows[hand]["wind"] == wind  # the server says which wind the seat had
        cell = page.locator(f"#recent-hands tr[data-hand='{hand}'] td.seat-wind")
        expect(cell).to_contain_text(WIND_ZH[wind])
        winds.add(wind)
    assert len(winds) == 2, "the dealer moved between the two hands, so did the guest's wind"


def test_replay_names_bots_by_their_own_plate(page: Any, hall: Any, two_hands: tuple[int, list[int], str]) -> None:
    """The replay names each bot as the table did (fan-bot-1 …; was: bot:fan (南), its account), on its
    own plate."""
    _, hands, token = two_hands
    hand = hands[1]
    assert dealer_of(hall, hand) != 0
    import httpx

    seat_names = httpx.get(
        f"{hall.base}/api/hands/{hand}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    ).json()["result"]["seat_names"]
    bots = [s for s in range(4) if seat_names[s]]
    assert len(bots) == 3 and all(re.fullmatch(r"\w+-bot-\d", seat_names[s]) for s in bots), seat_names
    page.goto("/")
    page.evaluate("t => localStorage.setItem('majiang.token', t)", token)  # the hand's own player
    page.goto(f"/#replay/{hand}")
    page.reload()
    expect(page.locator("#replay-log li").first).to_be_visible()
    page.click("#replay-step")
    for s in bots:
        expect(page.locator(f".plate[data-seat='{s}'] .pname")).to_have_text(seat_names[s])


def test_kicked_page_stops_its_countdown(new_page: Any, signup: Any, hall: Any) -> None:
    password = "correct horse battery"  # conftest.PASSWORD, which signup() registers with

    page = new_page()
    name = signup(page, "kick")
    page.locator(".room-card[data-room=fast] button.quick").click()
    page.click("#add-bots")
    page.wait_for_selector("#your-turn")  # hand 1: we are the dealer, our turn comes at once
    expect(page.locator("#actionbar .countdown")).to_have_text(re.compile(r"\d+s"))
    other = new_page()  # a second login elsewhere takes the account's connection over
    other.goto("/")
    other.fill("#username", name)
    other.fill("#password", password)
    other.click("#submit")
    other.wait_for_selector("#logout")
    expect(page.locator("#kicked")).to_be_visible()
    expect(page.locator("#your-turn")).to_be_hidden()
    expect(page.locator(".strip.pos0 .tile.playable")).to_have_count(0)
    page.wait_for_timeout(1200)
    for text in page.locator(".countdown").all_inner_texts():
        assert not text.strip(), f"a countdown still runs: {text}"
    expect(page.locator("body")).to_have_attribute("data-conn", "stopped")


def test_calculator_incomplete_hand_in_words(page: Any) -> None:
    page.goto("/#calc")
    for t in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2p", "3p"]:
        page.click(f"#palette button[data-tile='{t}']")
    status = page.locator("#calc-status")
    expect(status).to_contain_text("not a complete hand: 13 tiles, add the winning tile")
    expect(status).to_contain_text("13 张")
    # a winning tile that makes no win: the reason in words, no tile notation such as 123456789m
    page.click("#calc-modes button[data-mode=win]")
    page.click("#palette button[data-tile='5p']")
    err = page.locator("#calc-error")
    expect(err).to_contain_text("not a winning hand")
    expect(err).to_contain_text("不是和牌")
    assert not re.search(r"\d{3,}[mps]", err.inner_text()), err.inner_text()


def test_a_replay_shows_a_stranger_no_names_and_no_coins(
    page: Any, hall: Any, two_hands: tuple[int, list[int], str]
) -> None:
    """Was: walking /api/hands/1..N rebuilt a player's public-table hands with his coins; the replay
    names the seats by their winds for anyone who did not play the hand."""
    _, hands, _ = two_hands
    hand = hands[1]
    d = hall.get(f"/api/hands/{hand}")
    assert d["players"] == [None] * 4 and "coins" not in d["result"] and not d["yours"]
    page.goto(f"/#replay/{hand}")
    expect(page.locator("#replay-log li").first).to_be_visible()
    page.click("#replay-step")
    names = [page.locator(f".plate[data-seat='{s}'] .pname").inner_text() for s in range(4)]
    bots = d["result"]["seat_names"]  # bots keep the names the table showed; a person is his seat's wind
    people = [n for n, b in zip(names, bots, strict=True) if b is None]
    assert [n for n, b in zip(names, bots, strict=True) if b] == [b for b in bots if b]
    assert people and all(re.fullmatch(r"[东南西北]家 (East|South|West|North)", n) for n in people), names


def test_the_model_applies_each_event_once(page: Any, hall: Any, two_hands: tuple[int, list[int], str]) -> None:
    """A run of events that overlaps what the table's model already holds (an ``events`` message
    says where it starts: ``from``) is trimmed, not applied a second time; a run after a gap is
    refused, so that the page asks for a snapshot."""
    _, hands, _ = two_hands
    events = hall.get(f"/api/hands/{hands[0]}")["events"]
    assert len(events) > 30
    page.goto("/")
    got = page.evaluate(
        """async (events) => {
          const { HandModel } = await import('/static/js/model.js');
          const once = new HandModel(null, true);
          once.applyEvents(events);
          const overlapped = new HandModel(null, true);
          overlapped.applyEvents(events.slice(0, 30), 0);
          const applied = overlapped.applyEvents(events.slice(20), 20); // its first 10 are held already
          const gap = new HandModel(null, true);
          gap.applyEvents(events.slice(0, 5), 0);
          return { same: JSON.stringify(once) === JSON.stringify(overlapped), applied: applied.length,
                   n: overlapped.n, gap: gap.applyEvents(events.slice(10), 10), gapN: gap.n };
        }""",
        events,
    )
    assert got == {"same": True, "applied": len(events) - 30, "n": len(events), "gap": None, "gapN": 5}


def test_a_player_shares_a_hand_by_link_and_takes_it_back(
    page: Any, new_page: Any, hall: Any, two_hands: tuple[int, list[int], str]
) -> None:
    """Replays are private by default; a player of the hand makes a share link that anyone may open (with
    the players' names, without their coins) until he takes it back."""
    import httpx

    _, hands, token = two_hands
    hand = hands[0]
    page.goto("/")
    page.evaluate("t => localStorage.setItem('majiang.token', t)", token)
    page.goto(f"/#replay/{hand}")
    page.reload()
    page.click("#share-hand")
    expect(page.locator("#share-url")).to_contain_text("/#replay/s/")
    url = page.locator("#share-url").inner_text()
    stranger = new_page()
    stranger.goto(url)
    expect(stranger.locator("#shared-note")).to_be_visible()
    expect(stranger.locator("#replay-log li").first).to_be_visible()
    shared = httpx.get(f"{hall.base}/api/shared/{url.rsplit('/', 1)[1]}", timeout=10).json()
    assert shared["players"] != [None] * 4 and "coins" not in shared["result"]
    page.click("#share-hand")  # 取消分享
    expect(page.locator("#share-url")).to_have_text("")
    assert httpx.get(f"{hall.base}/api/shared/{url.rsplit('/', 1)[1]}", timeout=10).status_code == 404
    other = httpx.post(f"{hall.base}/api/guest", timeout=10).json()["token"]
    r = httpx.post(f"{hall.base}/api/hands/{hand}/share", headers={"Authorization": f"Bearer {other}"}, timeout=10)
    assert r.status_code == 404  # only its players share a hand
