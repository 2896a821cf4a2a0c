"""Waiting in the browser tests on what the table shows, never on a clock.

A hand is played step by step: each step waits for the next state the server's messages bring (a
decision for us, the result screen), however slow the machine.  :data:`STEP_MS` bounds one step
only, as a watchdog for a table that hangs (nothing asked, no result): a busy machine slows every
step down but never leaves the table silent that long, so no test fails because the machine is slow.
"""

from __future__ import annotations

import contextlib
from typing import Any

#: the longest one step of a hand may show nothing new: a hung table, not a slow machine
STEP_MS = 180_000


def next_step(page: Any, selector: str) -> None:
    """Until an element of ``selector`` (CSS, ``a, b`` for either) is visible: the page's next state."""
    page.wait_for_selector(selector, state="visible", timeout=STEP_MS)


#: what a player's next step is, in order of preference: 和, 过, the drawn tile, the last tile
PLAY_OUT = (
    "button.act[data-action=win]",
    "button.act[data-action=pass]",
    ".strip.pos0 .drawn .tile.playable",
    ".strip.pos0 .tile.playable",
)


def play_out(page: Any) -> None:
    """Until the result screen: 和 when offered, else 过, else discard the drawn (or last) tile; each
    step waits for the table to ask us something or to show the result, however slow the machine
    (a budget for the whole hand failed a loaded machine: "the hand did not finish in time")."""
    from playwright.sync_api import Error as PlaywrightError

    while not page.locator("#result").is_visible():
        next_step(page, ", ".join(("#result", *PLAY_OUT)))
        for sel in PLAY_OUT:
            loc = page.locator(sel)
            if loc.count():
                with contextlib.suppress(PlaywrightError):  # a DOM click: the table redraws under the mouse
                    loc.last.dispatch_event("click", timeout=1000)
                break
