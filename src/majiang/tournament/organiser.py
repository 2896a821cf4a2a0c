"""The organiser's secret (组委会口令): what the HTTP routes that change an event ask for.

``majiang tournament new`` prints the token once and keeps only its SHA-256 in the event
(``extra["organiser_sha256"]``); ``majiang tournament token EVENT`` issues a new one (for an event made
before, or a token lost) — whoever can write the database is the organiser.

>>> token, extra = issue_token()
>>> is_organiser(extra, token), is_organiser(extra, "guess"), is_organiser({}, token)
(True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

KEY = "organiser_sha256"
ENV = "MAJIANG_ORGANISER_TOKEN"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token() -> tuple[str, dict[str, str]]:
    """A fresh token and the ``extra`` entry that stores its hash."""
    token = secrets.token_urlsafe(24)
    return token, {KEY: _digest(token)}


def is_organiser(extra: Mapping[str, Any], token: str | None) -> bool:
    """Whether ``token`` is the event's organiser token (compared in constant time)."""
    stored = extra.get(KEY)
    if not token or not isinstance(stored, str):
        return False
    return hmac.compare_digest(stored, _digest(token))


ENTRY_KEY = "entry_secret"


def new_entry_secret() -> dict[str, str]:
    """The ``extra`` entry that the tables' PINs are derived from (kept with the event)."""
    return {ENTRY_KEY: secrets.token_hex(16)}


PIN_DIGITS = 8  # 10^8 PINs a seat: with the failure limits of the phone entry, guessing is hopeless


def seat_pin(extra: Mapping[str, Any], session: int, table: int, seat: int) -> str | None:
    """The PIN of one seat (0–3: E, S, W, N of the first round) at one table in one session (None before
    the event has an entry secret): printed on that player's seat slip, typed on that player's phone.
    Each seat has its own, so one phone cannot confirm for the others.

    >>> a = seat_pin({ENTRY_KEY: "00"}, 1, 1, 0)
    >>> a == seat_pin({ENTRY_KEY: "00"}, 1, 1, 0) != seat_pin({ENTRY_KEY: "00"}, 1, 1, 1), len(a)
    (True, 8)
    """
    secret = extra.get(ENTRY_KEY)
    if not isinstance(secret, str):
        return None
    mac = hmac.new(secret.encode(), f"pin:{session}:{table}:{seat}".encode(), hashlib.sha256).digest()
    return f"{int.from_bytes(mac[:8], 'big') % 10**PIN_DIGITS:0{PIN_DIGITS}d}"


def pin_seat(extra: Mapping[str, Any], session: int, table: int, pin: str | None) -> int | None:
    """The seat whose PIN ``pin`` is at that table (spaces and dashes ignored), or None."""
    typed = "".join(ch for ch in str(pin or "") if ch not in " -")
    found = None
    for seat in range(4):  # every seat compared, in constant time, whatever matches
        want = seat_pin(extra, session, table, seat)
        if typed and want is not None and hmac.compare_digest(want, typed):
            found = seat
    return found


def spaced(pin: str) -> str:
    """``12345678`` → ``1234 5678`` (as printed: easier to read out and type)."""
    return f"{pin[:4]} {pin[4:]}"
