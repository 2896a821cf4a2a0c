"""The states a hall table passes through: ``waiting`` (seats filling) → ``playing`` (a hand runs) ⇄
``between`` (the result, the ready step) → ``ended``.  A :class:`~enum.StrEnum`: each state is its
string in the table's info, its (Redis) snapshot and the wire, as before the states had names."""

from __future__ import annotations

from enum import StrEnum


class TableState(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN = "between"
    ENDED = "ended"
