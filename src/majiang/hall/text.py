"""What a player may write that others read (chat): printable text on one line, no direction
overrides, no invisible characters, a bounded length.

A bidi override (U+202E) makes a line read backwards to everyone else, zero-width characters hide
words from a mute filter or make two names look the same, NUL and newlines break logs and forge
extra chat lines.  Everything in Unicode's control (Cc), format (Cf), surrogate (Cs), private-use
(Co) and unassigned (Cn) categories goes, as do the line and paragraph separators; runs of spaces
become one."""

from __future__ import annotations

import unicodedata

CHAT_MAX = 200  # characters of one chat line, after cleaning
_DROP = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean_chat(text: str, limit: int = CHAT_MAX) -> str:
    """The line as others will see it ('' when nothing printable is left)."""
    kept = []
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if cat in ("Zl", "Zp") or ch in "\t\n\r\v\f":
            kept.append(" ")
        elif cat not in _DROP:
            kept.append(ch)
    return " ".join("".join(kept).split())[:limit]
