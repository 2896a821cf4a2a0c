"""The language switch covers every visible string: in 中文 and in English, walk the lobby (with the
shop), a table with bots until the hand's result shows, the player's page (statistics and the coin
statement), the leaderboard and the calculator, and find no text of the other language.

What is read: every visible text node of the page (and the placeholders of visible inputs), except
inside elements marked ``data-lang-free`` (names that are the same in every language: tile faces,
fan names, player names, the coin glyph — docs/web-client.md) and tile images.

- English: no CJK character at all.
- 中文: no Latin word of three letters or more, except :data:`ALLOWED_LATIN` (and the test's own user
  name, which is Latin because the test makes it so).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest

from .pace import play_out

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect

#: Latin words a Chinese page may show: proper names and abbreviations written so in Chinese too
#: (MCR, the Mahjong Competition Rules; Botzone, a platform's name; Elo, a rating's name)
ALLOWED_LATIN = {"MCR", "Botzone", "Elo"}
#: the server's bots are players with Latin account names (fan-bot-1): names, like the test's user name
BOT_NAME = re.compile(r"\b[a-z]+-bot-\d+\b")

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")

VISIBLE_TEXT = """() => {
  const out = [];
  const skip = (el) => el.closest('[data-lang-free], script, style, noscript, img');
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const s = n.nodeValue.trim();
    if (!s || !el || skip(el) || !shown(el)) continue;
    out.push(s);
  }
  for (const el of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    if (el.placeholder && !skip(el) && shown(el)) out.push(el.placeholder);
  }
  return out;
}"""


def foreign(texts: list[str], lang: str, allowed: set[str]) -> list[str]:
    """The texts that show the other language."""
    if lang == "en":
        return [s for s in texts if CJK.search(s)]
    bare = [functools.reduce(lambda s, a: s.replace(a, " "), sorted(allowed, key=len, reverse=True), s) for s in texts]
    bare = [BOT_NAME.sub(" ", b) for b in bare]
    return [s for s, b in zip(texts, bare, strict=True) if LATIN_WORD.search(b)]


def check(page: Any, lang: str, where: str, allowed: set[str]) -> None:
    bad = foreign(page.evaluate(VISIBLE_TEXT), lang, allowed)
    assert not bad, f"{where} in {lang}: text of the other language: {bad}"


def set_lang(page: Any, lang: str) -> None:
    """Click the header's switch (中/EN → 中文 → English) until it shows ``lang``."""
    for _ in range(3):
        if page.get_attribute("#lang-toggle", "data-lang") == lang:
            break
        page.click("#lang-toggle")
    expect(page.locator("body")).to_have_attribute("data-lang", lang)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_in_one_language(page: Any, signup: Any, lang: str) -> None:
    name = signup(page, "walk")
    allowed = ALLOWED_LATIN | {name}
    set_lang(page, lang)
    # ---- the lobby, with the shop, the relief and friends cards, and a room's tables
    page.click(".room-card[data-room=fast]")
    expect(page.locator("#tables")).not_to_be_empty()
    check(page, lang, "the lobby", allowed)
    # ---- a table with bots, played until the hand's result shows
    page.click(".room-card[data-room=fast] button.quick")
    page.wait_for_url(re.compile("#table$"))
    page.click("#add-bots")
    expect(page.locator(".strip.pos0 .concealed .tile").first).to_be_visible()
    check(page, lang, "the table", allowed)
    play_out(page)
    check(page, lang, "the hand's result", allowed)
    # the next hand starts by itself in this room: stand up (confirming if asked) and go on
    page.click("#stand")
    page.wait_for_function("() => location.hash === '#lobby' || !!document.getElementById('confirm-ok')")
    if page.locator("#confirm-ok").count():
        check(page, lang, "the leave dialog", allowed)
        page.click("#confirm-ok")
    page.wait_for_url(re.compile("#lobby$"))
    # ---- the shop's purchase dialog
    page.locator("#shop .shop-item button.buy").first.click()
    expect(page.locator("#buy-confirm")).to_be_visible()
    check(page, lang, "the shop's purchase dialog", allowed)
    page.click("#buy-confirm-cancel")
    # ---- the player's page: statistics, recent hands, the coin statement
    page.click("#nav-me")
    expect(page.locator("#recent-hands tbody tr").first).to_be_visible()
    expect(page.locator("#statement")).to_be_visible()
    check(page, lang, "the player's page", allowed)
    # ---- a replay of the hand just played
    page.locator("#recent-hands .replay-link").first.click()
    page.wait_for_url(re.compile(r"#replay/\d+$"))
    expect(page.locator("#replay-log li").first).to_be_visible()
    page.click("#replay-end")
    expect(page.locator("#replay-result .replay-result")).to_be_visible()
    page.wait_for_selector("#review-summary, #review-none, #review-card .form-error")  # the review panel's answer
    check(page, lang, "the replay", allowed)
    # ---- the leaderboard
    page.click("#nav-leaderboard")
    expect(page.locator("#leaderboard-body")).not_to_contain_text("载入中")
    expect(page.locator("#leaderboard-body")).not_to_contain_text("loading")
    check(page, lang, "the leaderboard", allowed)
    # ---- the calculator, with a hand whose fans are shown
    page.goto("/#calc")
    expect(page.locator("#palette button.pal")).to_have_count(34)
    check(page, lang, "the calculator", allowed)
    page.locator(".examples button[data-example]").first.click()
    page.click("#calc-go")
    expect(page.locator("#calc-fans tbody tr.fan").first).to_be_visible()
    check(page, lang, "the calculator's result", allowed)
