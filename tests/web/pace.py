"""Waiting in the browser tests on what the table shows, never on a clock.

A hand is played step by step: each step waits for the next state the server's messages bring (a
decision for us, the result screen), however slow the machine.  :data:`STEP_MS` bounds one step
only, as a watchdog for a table that hangs (nothing asked, no result): a busy machine slows every
step down but never leaves the table silent that long, so no test fails because the machine is slow.
"""

from __future__ import annotations

from typing import Any

#: the longest one step of a hand may show nothing new: a hung table, not a slow machine
STEP_MS = 180_000


def next_step(page: Any, selector: str) -> None:
    """Until an element of ``selector`` (CSS, ``a, b`` for either) is visible: the page's next state."""
    page.wait_for_selector(selector, state="visible", timeout=STEP_MS)
