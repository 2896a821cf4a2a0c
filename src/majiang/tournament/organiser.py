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
