"""Logging in (errors in words, guests, a kept session), private tables joined by code, lobby and
table chat between two players."""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def test_login_errors_guest_and_session(page: Any, signup: Any) -> None:
    page.goto("/")
    page.fill("#username", "nobody-here")
    page.fill("#password", "wrong password")
    page.click("#submit")
    expect(page.locator("#login-error")).to_be_visible()
    expect(page.locator("#login-error")).not_to_be_empty()
    page.click("#tab-register")
    page.fill("#username", "ab")
    page.fill("#password", "short")
    page.click("#submit")
    expect(page.locator("#login-error")).to_contain_text("at least 3 characters")
    page.click("#guest")
    page.wait_for_selector(".room-card")
    expect(page.locator("#account .badge.guest")).to_be_visible()
    # the token is kept in localStorage: a reload stays logged in
    page.reload()
    page.wait_for_selector(".room-card")
    assert page.evaluate("localStorage.getItem('majiang.token')")
    page.click("#logout")
    page.wait_for_url(re.compile("#login$"))
    assert page.evaluate("localStorage.getItem('majiang.token')") is None


def test_private_table_by_code_and_chat(new_page: Any, signup: Any) -> None:
    host = new_page()
    guest = new_page()
    host_name = signup(host, "host")
    guest_name = signup(guest, "friend")
    # the host opens a private table: its code is shown at the table
    host.click(".room-card[data-room=fast] .btn.ghost")
    host.click("#create-private")
    host.wait_for_url(re.compile("#table$"))
    code = host.locator("#table-code b").inner_text()
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{8}", code)  # secrets, no look-alikes: a code read aloud is not mistaken
    # a private table is not listed in the lobby; the friend joins by code
    guest.fill("#join-code", code)
    guest.click("#join-code-btn")
    guest.wait_for_url(re.compile("#table$"))
    for p in (host, guest):
        expect(p.locator("#seat-list")).to_contain_text(host_name)
        expect(p.locator("#seat-list")).to_contain_text(guest_name)
    expect(host.locator(".plate.pos0 .pname")).to_have_text(host_name)
    # table chat reaches the other player
    guest.fill("#table-chat-input", "你好 hi")
    guest.click("#table-chat-send")
    expect(host.locator("#table-chat-log")).to_contain_text("你好 hi")
    # a wrong code is refused in words
    host.click("#stand")
    host.wait_for_url(re.compile("#lobby$"))
    host.fill("#join-code", "000000")
    host.click("#join-code-btn")
    expect(host.locator(".toast.error")).to_contain_text("no private table")


def test_spectate_a_table(new_page: Any, signup: Any) -> None:
    player = new_page()
    watcher = new_page()
    player_name = signup(player, "watched")
    signup(watcher, "watcher")
    player.click(".room-card[data-room=fast] .btn.ghost")
    player.click("#create-table")
    player.wait_for_url(re.compile("#table$"))
    player.click("#add-bots")
    expect(player.locator(".strip.pos0 .concealed .tile").first).to_be_visible()
    # the watcher finds the table in the room's list and watches it
    watcher.click(".room-card[data-room=fast] .btn.ghost")
    row = watcher.locator(".table-row", has_text=player_name)
    expect(row).to_be_visible()
    row.locator("button", has_text="观战").click()
    watcher.wait_for_url(re.compile("#table$"))
    expect(watcher.locator(".table-card")).to_contain_text("观战中")
    expect(watcher.locator(".table-card")).to_contain_text("倍数 N ×10")
    expect(watcher.locator("#seat-list")).to_contain_text(player_name)
    expect(watcher.locator("#actionbar")).to_have_count(0)  # a spectator is never prompted
    watcher.click("#stand")
    watcher.wait_for_url(re.compile("#lobby$"))
    # the player leaves too (an escape during a hand: confirmed), so the table ends
    player.click("#stand")
    player.click("#confirm-ok")  # the in-page confirmation (not the native confirm())
    player.wait_for_url(re.compile("#lobby$"))


def test_a_friend_watches_a_private_table_by_its_code(new_page: Any, signup: Any) -> None:
    """Was: the lobby's code box only joined; mid-hand it queued the friend for a bot's seat."""
    host = new_page()
    friend = new_page()
    host_name = signup(host, "privhost")
    signup(friend, "privwatch")
    host.click(".room-card[data-room=fast] .btn.ghost")
    host.click("#create-private")
    host.wait_for_url(re.compile("#table$"))
    code = host.locator("#table-code b").inner_text()
    host.click("#add-bots")
    expect(host.locator(".strip.pos0 .concealed .tile").first).to_be_visible()
    friend.fill("#join-code", code)
    friend.click("#watch-code-btn")
    friend.wait_for_url(re.compile("#table$"))
    expect(friend.locator(".table-card")).to_contain_text("观战中")
    expect(friend.locator("#seat-list")).to_contain_text(host_name)
    expect(friend.locator("#actionbar")).to_have_count(0)  # watching, not seated nor queued
    friend.click("#stand")
    friend.wait_for_url(re.compile("#lobby$"))
    host.click("#stand")
    host.click("#confirm-ok")  # the in-page confirmation (not the native confirm())
    host.wait_for_url(re.compile("#lobby$"))


def test_friends_add_accept_and_invite_to_a_private_table(new_page: Any, signup: Any) -> None:
    """Was: no friends list with presence, no invite to a private table."""
    host = new_page()
    friend = new_page()
    host_name = signup(host, "fhost")
    friend_name = signup(friend, "fguest")
    host.fill("#friend-name", friend_name)
    host.click("#friend-add")
    expect(friend.locator(".toast")).to_contain_text("friend request")
    friend.reload()
    friend.wait_for_selector(".room-card")
    friend.click(f".friends-card .friend.incoming:has-text('{host_name}') .friend-accept")
    expect(friend.locator(f".friends-card .friend:has-text('{host_name}')")).to_be_visible()
    host.reload()
    host.wait_for_selector(".room-card")
    row = host.locator(f".friends-card .friend:has-text('{friend_name}')")
    expect(row).to_contain_text("在线")  # presence: the friend is connected
    host.click(".room-card[data-room=fast] .btn.ghost")
    host.click("#create-private")
    host.wait_for_url(re.compile("#table$"))
    host.click(f"#invite-friends .friend:has-text('{friend_name}') .friend-invite")
    friend.click("#invite-join")
    friend.wait_for_url(re.compile("#table$"))
    expect(friend.locator("#seat-list")).to_contain_text(host_name)
    expect(friend.locator("#seat-list")).to_contain_text(friend_name)
    for p in (friend, host):
        p.click("#stand")
        p.wait_for_url(re.compile("#lobby$"))
