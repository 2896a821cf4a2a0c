"""Withdrawals (退赛): a player who leaves the event for good.

Kept in the event (``extra["withdrawn"]``: player → the first session he no longer plays, and why).
From that session on every draw leaves him out: recorded as an absentee of each session (a bye,
standard score 0, by the 1998 rules' 弃权论 — his earlier sessions stand and he stays ranked on them,
so N, the number of ranked players, is unchanged), and the session is drawn again for those present
(avoiding earlier meetings; players that do not fill tables of four need substitutes, as for any
absentee).  Every output marks him.

Late entries (补报): a ranked player registered after the event began (``extra["late"]``: player → the
first session he plays).  The 1998 rules have no late registration; the sessions he missed are treated
as an absentee's (弃权论: standard score 0, no session score, and N counts him like any ranked player),
and he is recorded as an absentee of each of them.  From his first session every draw seats him (the
planned schedule no longer holds: those present are re-drawn, avoiding earlier meetings).

>>> from dataclasses import replace
>>> from majiang.tournament.registration import build_group, count_entries, new_event
>>> ev = new_event("c", "C", build_group(count_entries(8), 0), sessions=2, seed=1)
>>> extra = withdraw(ev, "P03", reason="ill")
>>> sorted(extra["withdrawn"]), withdrawn_from(replace(ev, extra={**ev.extra, **extra}), 1)
(['P03'], ['P03'])
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from majiang.tournament.errors import TournamentError
from majiang.tournament.model import Event, Group, Player

KEY = "withdrawn"
LATE = "late"


class RosterError(TournamentError):
    """A withdrawal that cannot be (an unknown player, one withdrawn already, an undo of nothing)."""


def withdrawals(event: Event) -> dict[str, dict[str, Any]]:
    """Player → ``{"from_session", "reason"}`` for every withdrawn player."""
    got = event.extra.get(KEY) or {}
    return {str(p): dict(v) for p, v in got.items() if isinstance(v, dict)}


def withdrawn_from(event: Event, session_no: int) -> list[str]:
    """The players withdrawn by session ``session_no`` (who must not be drawn in it)."""
    return [p for p, w in withdrawals(event).items() if int(w.get("from_session", 1)) <= session_no]


def withdraw(event: Event, player: str, *, reason: str = "", from_session: int | None = None) -> dict[str, Any]:
    """The ``extra`` update that withdraws ``player`` from ``from_session`` on (default: the first session
    not drawn yet, or the one drawn but not started)."""
    known = {p.id for g in event.groups for p in g.players}
    if player not in known:
        raise RosterError(f"no player {player!r} in {event.id}: see 'majiang tournament players {event.id}'")
    done = withdrawals(event)
    if player in done:
        raise RosterError(f"{player} withdrew already (from session {done[player]['from_session']})")
    k = from_session if from_session is not None else _next_session(event)
    done[player] = {"from_session": k, "reason": reason[:200]}
    return {KEY: done}


def reinstate(event: Event, player: str) -> dict[str, Any]:
    """The ``extra`` update that takes a withdrawal back (later draws seat him again)."""
    done = withdrawals(event)
    if done.pop(player, None) is None:
        raise RosterError(f"{player} has not withdrawn")
    return {KEY: done}


def _next_session(event: Event) -> int:
    """The first session with nothing entered (a drawn session still empty is drawn again without him)."""
    group = event.groups[0]
    for s in group.sessions:
        if not any(t.entered for t in s.tables):
            return s.no
    return len(group.sessions) + 1


# ---- late entries (补报) ------------------------------------------------------------------------------
def late_entries(event: Event) -> dict[str, int]:
    """Player → the first session he plays, for every late entry (补报)."""
    got = event.extra.get(LATE) or {}
    return {str(p): int(v.get("from_session", 1)) for p, v in got.items() if isinstance(v, dict)}


def not_yet_entered(event: Event, session_no: int) -> list[str]:
    """The late entries who had not joined by session ``session_no`` (absentees of it: not drawn)."""
    return [p for p, k in late_entries(event).items() if k > session_no]


def next_player_id(group: Group) -> str:
    """The next free ``P`` id of the group (P17 after P01…P16)."""
    taken = [int(m.group(1)) for p in group.players if (m := re.fullmatch(r"P(\d+)", p.id))]
    width = max((len(p.id) - 1 for p in group.players if re.fullmatch(r"P\d+", p.id)), default=2)
    return f"P{max(taken, default=0) + 1:0{width}d}"


def add_late(event: Event, player: Player, *, from_session: int | None = None) -> tuple[Player, int, dict[str, Any]]:
    """Register ``player`` (a ranked player, not a substitute) after the event began.  Returns the player
    with his id (the next free ``P`` id when he has none; no team: a team's line-up is fixed), his first
    session (default: the first with nothing entered) and the ``extra`` update."""
    group = event.groups[0]
    pid = player.id or next_player_id(group)
    if any(p.id == pid for g in event.groups for p in g.players):
        raise RosterError(f"{event.id} has a player {pid!r} already")
    if not player.name.strip():
        raise RosterError("a late entry needs a name")
    first = _next_session(event)
    k = first if from_session is None else from_session
    if k < first:
        raise RosterError(f"session {k} has results already: a late entry plays from session {first} on")
    late = dict(event.extra.get(LATE) or {})
    late[pid] = {"from_session": k}
    return replace(player, id=pid, ranked=True, team=None), k, {LATE: late}
