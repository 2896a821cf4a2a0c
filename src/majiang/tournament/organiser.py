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


def table_pin(extra: Mapping[str, Any], session: int, table: int) -> str | None:
    """The 6-digit PIN of one table in one session (None before the event has an entry secret): what the
    players and the referee at that table type to enter its results from a phone.

    >>> table_pin({ENTRY_KEY: "00"}, 1, 1) == table_pin({ENTRY_KEY: "00"}, 1, 1) != table_pin({ENTRY_KEY: "00"}, 1, 2)
    True
    """
    secret = extra.get(ENTRY_KEY)
    if not isinstance(secret, str):
        return None
    mac = hmac.new(secret.encode(), f"pin:{session}:{table}".encode(), hashlib.sha256).digest()
    return f"{int.from_bytes(mac[:8], 'big') % 1_000_000:06d}"


def pin_ok(extra: Mapping[str, Any], session: int, table: int, pin: str | None) -> bool:
    want = table_pin(extra, session, table)
    return bool(pin) and want is not None and hmac.compare_digest(want, str(pin).strip())
