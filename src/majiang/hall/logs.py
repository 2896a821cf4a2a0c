"""Structured logs: one JSON object per line, secrets redacted.

Session tokens (a ``token=`` query parameter, an ``Authorization`` header, a ``"token"`` field)
never reach a log line; the hall never logs tiles, hands or the wall (tables log only message kinds
and ids)."""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

_SECRET = re.compile(r"(token=|Bearer\s+|\"token\"\s*:\s*\")[A-Za-z0-9._\-]+")


def redact(text: str) -> str:
    return _SECRET.sub(r"\1[redacted]", text)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False)


def log_config(level: str = "info") -> dict[str, Any]:
    """A ``logging.config`` dict for uvicorn and majiang: JSON lines on stderr."""
    lvl = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": lvl, "propagate": False},
            "uvicorn.error": {"handlers": ["stderr"], "level": lvl, "propagate": False},
            "uvicorn.access": {"handlers": ["stderr"], "level": lvl, "propagate": False},
            "majiang": {"handlers": ["stderr"], "level": lvl, "propagate": False},
        },
    }
