"""The session clock (第六条): a session has a time limit (3 hours by default) with a warning before
its end; when the time is up, the hand in play is finished and time is called at the table.

The clock is kept with the event (``extra["clocks"][str(session)] = {"start": ISO 8601, "minutes",
"warn"}``); :func:`clock_state` says where it stands at a moment.

>>> from datetime import UTC, datetime, timedelta
>>> t0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
>>> c = new_clock(t0)
>>> clock_state(c, t0 + timedelta(hours=2))["phase"], clock_state(c, t0 + timedelta(minutes=170))["phase"]
('running', 'warning')
>>> s = clock_state(c, t0 + timedelta(hours=3, seconds=5)); s["phase"], s["remaining_s"]
('over', 0)
>>> clock_state(None, t0)["phase"]
'not started'
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

SESSION_MINUTES = 180  # 第六条: three hours a session
WARN_MINUTES = 15


def new_clock(start: datetime, minutes: int = SESSION_MINUTES, warn: int = WARN_MINUTES) -> dict[str, Any]:
    if minutes <= 0 or not 0 <= warn < minutes:
        raise ValueError(f"a session clock needs minutes > 0 and 0 ≤ warn < minutes, not {minutes} and {warn}")
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    return {"start": start.isoformat(), "minutes": int(minutes), "warn": int(warn)}


def clock_state(clock: Mapping[str, Any] | None, now: datetime) -> dict[str, Any]:
    """``{"phase": "not started" | "running" | "warning" | "over", "remaining_s", "ends", "minutes",
    "warn"}`` (``ends`` ISO 8601; None before the start)."""
    if not clock:
        return {
            "phase": "not started",
            "remaining_s": None,
            "ends": None,
            "minutes": SESSION_MINUTES,
            "warn": WARN_MINUTES,
        }
    start = datetime.fromisoformat(str(clock["start"]))
    minutes, warn = int(clock.get("minutes", SESSION_MINUTES)), int(clock.get("warn", WARN_MINUTES))
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    total = minutes * 60
    remaining = max(0, int(total - (now - start).total_seconds()))
    phase = "over" if remaining == 0 else "warning" if remaining <= warn * 60 else "running"
    ends = datetime.fromtimestamp(start.timestamp() + total, tz=UTC).isoformat()
    return {
        "phase": phase,
        "remaining_s": remaining,
        "ends": ends,
        "minutes": minutes,
        "warn": warn,
        "start": start.isoformat(),
    }


def new_time_call(at: datetime, by: str, hands_entered: Mapping[int, int]) -> dict[str, Any]:
    """The referee's time call of a session (``extra["time_calls"][str(session)]``): when, by whom, and
    per table still playing the hand in play at the call — the one hand it may still enter (第六条: the
    hand in play is finished, no new hand starts).

    >>> call = new_time_call(datetime(2026, 5, 1, 12, 0, tzinfo=UTC), "clock", {3: 9, 4: 0})
    >>> hand_in_play(call, 3), hand_in_play(call, 4), hand_in_play(call, 5), hand_in_play(None, 3)
    (10, 1, None, None)
    """
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return {
        "at": at.isoformat(timespec="seconds"),
        "by": by,
        "in_play": {str(t): n + 1 for t, n in sorted(hands_entered.items()) if n < 16},
    }


def hand_in_play(call: Mapping[str, Any] | None, table: int) -> int | None:
    """The hand a table may still enter after the session's time call (None: no call, or not that table)."""
    if not call:
        return None
    n = (call.get("in_play") or {}).get(str(table))
    return None if n is None else int(n)
