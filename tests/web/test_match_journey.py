"""Issue 28's journey in one go: a new player on a phone (390×844, English) makes a friend, opens a
public 东风战 table, the friend joins it from his friends list, two bots fill the other seats; the
phone reads another seat's discards at a readable size; the match ends with places and a 段位 change
for both friends (a public table: ranked), shown on the leaderboard's rank tab and the player's page;
the player shares the last hand's replay and the friend
opens the link — and no page the phone showed has a word of Chinese.

Was: a friend could only watch a friend's public table (or be invited to a private one, unranked),
so the match against a friend gave no rank change."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_language_walk import ALLOWED_LATIN, check, set_lang

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

MATCH_MS = 600_000  # four hands in 托管 at blitz timers; the watchdog of a loaded machine


def befriend(me: Any, friend: Any, friend_name: str) -> None:
    me.fill("#friends input", friend_name)
    me.click("#friend-add")
    friend.reload()  # his friends card lists the request (a toast told him; the card reads the list)
    friend.locator("#friends .friend.incoming .friend-accept").click()
    expect(friend.locator("#friends .friend:not(.incoming):not(.outgoing)")).to_have_count(1)


def test_a_phone_player_plays_an_east_round_with_a_friend_and_shares_a_hand(
    phone: Any, new_page: Any, signup: Any, shots: Path
) -> None:
    me = phone
    name = signup(me, "jrny")
    set_lang(me, "en")
    allowed = ALLOWED_LATIN | {name}
    friend = new_page()
    pal = signup(friend, "pal")
    allowed |= {pal}
    check(me, "en", "the lobby", allowed)

    befriend(me, friend, pal)
    # the phone opens a public table in the match room (a new one: nobody else's match)
    me.locator(".room-card[data-room=match]").click()
    me.click("#create-table")
    me.wait_for_url(re.compile("#table$"))
    check(me, "en", "the table, waiting", allowed)
    # the friend sees him at a public table and joins it from his friends list
    friend.reload()
    mine = friend.locator("#friends .friend").filter(has_text=name)
    expect(mine.locator(".friend-join")).to_be_visible()
    mine.locator(".friend-join").click()
    friend.wait_for_url(re.compile("#table$"))
    expect(me.locator(".plate").filter(has_text=pal)).to_have_count(1)
    for p in (me, friend):
        p.click("#auto-toggle")  # 托管 plays the four hands
    me.click("#add-bots")  # two bots fill the empty seats

    # every discard readable: a tap on another seat's pond opens it at ≥ 24 px, the last discard marked
    pond = me.locator(".pond.pos2")
    expect(pond.locator(".tile").first).to_be_visible(timeout=MATCH_MS)
    pond.tap()
    detail = me.locator("#seat-detail")
    expect(detail).to_be_visible()
    # the widths in one snapshot: the pond re-renders as the hand plays on, so tiles read one by one
    # can be replaced (detached) between the listing and the measuring
    widths = me.wait_for_function(
        """() => {
            const tiles = [...document.querySelectorAll('#seat-detail-pond .tile')];
            return tiles.length ? tiles.map(t => t.getBoundingClientRect().width) : null;
        }""",
        timeout=MATCH_MS,
    ).json_value()
    assert widths and min(widths) >= 24, widths
    check(me, "en", "a seat's pond and melds", allowed)
    me.tap("#seat-detail-close")

    # the match: running totals after each hand, then places and both friends' 段位 change
    expect(me.locator("#match-box h3")).to_contain_text(re.compile(r"hand [123] of 4"), timeout=MATCH_MS)
    check(me, "en", "a hand's result with the match's totals", allowed)
    expect(me.locator("#match-box h3")).to_contain_text("over", timeout=MATCH_MS)
    places = sorted(int(x) for x in me.locator("#match-box tbody td:nth-child(3)").all_inner_texts())
    assert places == [1, 2, 3, 4]
    expect(me.locator("#match-box tr.me td:nth-child(4)")).to_contain_text("→")
    # the 段位 reached, as the English page shows it: its English name, no Chinese
    shown = me.locator("#match-box tr.me td:nth-child(4)").inner_text()
    assert not re.search("[\u3400-\u9fff]", shown) and re.search(r"Novice|dan", shown), shown
    rows = me.locator("#match-box tbody tr")
    for who in (name, pal):  # a public table: both friends are ranked
        expect(rows.filter(has_text=who).locator("td:nth-child(4)")).to_contain_text("→")
    check(me, "en", "the match's places", allowed)
    me.screenshot(path=str(shots / "phone-match-places.png"))
    after = me.locator("#match-box tr.me td:nth-child(4)").inner_text().split("→")[1].strip()
    link = me.locator("#result #replay-link").get_attribute("href")  # the result dialog's 回放 Replay
    assert link and re.fullmatch(r"#replay/\d+", link), link

    # the 段位 reached is on the leaderboard's rank tab (beside the rating tab) and on the player's page
    mine = me.evaluate("window.mj.me.id")
    me.goto("/#leaderboard/gb/rank")
    row = me.locator(f"#leaderboard-table tr.rank-row[data-account='{mine}']")
    expect(row).to_have_class("rank-row me")
    expect(row.locator("td.level")).to_contain_text(after)
    expect(me.locator("#leaderboard-by a[data-by=rank]")).to_have_class(re.compile("primary"))
    check(me, "en", "the leaderboard by rank", allowed)
    me.locator("#leaderboard-by a[data-by=rating]").tap()
    expect(me.locator("#leaderboard-by a[data-by=rating]")).to_have_class(re.compile("primary"))
    me.goto("/#player/me")
    expect(me.locator("#rank-gb")).to_contain_text(after)
    check(me, "en", "the player's page", allowed)

    # a shareable replay of a hand of the match (private by default; the friend opens the link)
    me.goto(f"/{link}")
    me.reload()
    me.click("#share-hand")
    expect(me.locator("#share-url")).to_contain_text("/#replay/s/")
    check(me, "en", "the replay with its share link", allowed)
    url = me.locator("#share-url").inner_text()
    friend.goto(url)
    expect(friend.locator("#shared-note")).to_be_visible()
    expect(friend.locator("#replay-log li").first).to_be_visible()
