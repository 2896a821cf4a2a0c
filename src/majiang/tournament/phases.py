"""Multi-day events in phases (pure): e.g. five qualifying sessions for everyone, then two final sessions
for the top 16, seated from the qualifying standings (top four at table 1, the next four at table 2 …).

An event's phases are kept in ``event.extra["phases"]`` (a list of :meth:`Phase.to_dict`), in order;
phase 1 starts at session 1 and each phase takes the next ``sessions`` sessions.  An event without
phases is one phase of all its sessions, and everything works as it always did.

- ``draw`` — how the phase's sessions are drawn: ``perfect`` (the schedule planned at registration; with
  fewer players than registered, a re-draw that avoids earlier meetings), ``swiss`` (高高碰), ``snake``
  (蛇形) or ``seeded`` (strictly by the standings: 1–4 at table 1, 5–8 at table 2 …).  The first session of
  a later phase is seeded by the standings of the phase before; the next ones by the phase's own standings.
- ``cut`` — only the top N of the previous phase's standings play the phase (a multiple of four); the
  others' places are final.  Without a cut everybody plays on.
- ``carry`` — whether the phase's standings carry the earlier sessions (True, default) or start from zero.

Standard scores (1998): a session's N is the field of its phase (the cut, or the registered field).  The
overall standings list the players of the last phase played first, in that phase's order, then those cut
before it in the order of the phase they were cut from (:func:`overall`).

>>> p = (Phase("qualifying", 3), Phase("final", 1, draw="seeded", cut=8))
>>> bounds(p, 1), phase_index(p, 3), phase_index(p, 4), phase_index(p, 5)
((4, 4), 0, 1, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from majiang.tournament.draw import draw_session, has_entries, seatable
from majiang.tournament.errors import TournamentError
from majiang.tournament.model import Event, Group, SessionRecord
from majiang.tournament.ranking import GroupResult, Standing, disqualified, evaluate
from majiang.tournament.standard import TieSplit

PHASE_DRAWS: tuple[str, ...] = ("perfect", "swiss", "snake", "seeded")
MAX_PHASES = 10


class PhaseError(TournamentError):
    """Phases that cannot be right, or a phase that cannot be drawn yet; the message says why."""


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    sessions: int
    draw: str = "perfect"
    cut: int | None = None
    carry: bool = True

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > 40:
            raise PhaseError("a phase needs a name of 1–40 characters")
        if not 1 <= self.sessions <= 50:
            raise PhaseError(f"phase {self.name}: 1–50 sessions, got {self.sessions}")
        if self.draw not in PHASE_DRAWS:
            raise PhaseError(f"phase {self.name}: draw is one of {', '.join(PHASE_DRAWS)}, not {self.draw!r}")
        if self.cut is not None and (self.cut < 4 or self.cut % 4):
            raise PhaseError(f"phase {self.name}: the cut is a multiple of four (whole tables), got {self.cut}")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "sessions": self.sessions, "draw": self.draw, "carry": self.carry}
        if self.cut is not None:
            d["cut"] = self.cut
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Phase:
        cut = d.get("cut")
        return cls(
            name=str(d["name"]),
            sessions=int(d["sessions"]),
            draw=str(d.get("draw", "perfect")),
            cut=None if cut is None else int(cut),
            carry=bool(d.get("carry", True)),
        )


def check_phases(phases: Sequence[Phase]) -> tuple[Phase, ...]:
    """The phases, checked: unique names, at most :data:`MAX_PHASES`, no cut in the first, cuts that shrink."""
    out = tuple(phases)
    if len(out) > MAX_PHASES:
        raise PhaseError(f"at most {MAX_PHASES} phases")
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise PhaseError("two phases have the same name")
    if out and out[0].cut is not None:
        raise PhaseError(f"the first phase ({out[0].name}) is played by everybody: it has no cut")
    last: int | None = None
    for p in out:
        if p.cut is not None:
            if last is not None and p.cut > last:
                raise PhaseError(f"phase {p.name}: the cut {p.cut} is larger than the one before ({last})")
            last = p.cut
    return out


def phases_of(event: Event) -> tuple[Phase, ...]:
    """The event's phases (empty: one phase of every session, as before phases existed)."""
    raw = event.extra.get("phases") or ()
    return check_phases([Phase.from_dict(d) for d in raw])


def with_phases(event: Event, phases: Sequence[Phase]) -> Event:
    return replace(event, extra={**event.extra, "phases": [p.to_dict() for p in check_phases(phases)]})


def bounds(phases: Sequence[Phase], index: int) -> tuple[int, int]:
    """The first and last session numbers of phase ``index`` (0-based)."""
    first = 1 + sum(p.sessions for p in phases[:index])
    return first, first + phases[index].sessions - 1


def phase_index(phases: Sequence[Phase], session_no: int) -> int | None:
    """The phase (0-based) that session ``session_no`` belongs to; None past the last phase."""
    for i in range(len(phases)):
        first, last = bounds(phases, i)
        if first <= session_no <= last:
            return i
    return None


def find_phase(phases: Sequence[Phase], name: str) -> int:
    """A phase's index from its name (or its number 1, 2 …)."""
    for i, p in enumerate(phases):
        if p.name == name:
            return i
    if name.isdigit() and 1 <= int(name) <= len(phases):
        return int(name) - 1
    known = ", ".join(p.name for p in phases) or "none defined"
    raise PhaseError(f"no phase {name!r} (phases: {known})")


def _tie(event: Event) -> TieSplit:
    return "top" if event.tie_split == "top" else "average"


def field_of(group: Group, phases: Sequence[Phase], index: int) -> int:
    """N of the phase's sessions (1998 scheme): the last cut at or before it, else the registered field."""
    for p in reversed(phases[: index + 1]):
        if p.cut is not None:
            return p.cut
    reserves = {t.reserve for t in group.teams if t.reserve}
    return len({p.id for p in group.ranked_players} - reserves)


def fields(group: Group, phases: Sequence[Phase]) -> dict[int, int]:
    """Session no → its N, for the sessions of the group that belong to a phase with a cut."""
    out: dict[int, int] = {}
    for s in group.sessions:
        i = phase_index(phases, s.no)
        if i is not None and any(p.cut is not None for p in phases[: i + 1]):
            out[s.no] = field_of(group, phases, i)
    return out


def _complete(group: Group, last: int) -> bool:
    return len(group.sessions) >= last and all(
        has_entries(s) and all(t.entered for t in s.tables) for s in group.sessions[:last]
    )


def phase_players(event: Event, group: Group, index: int) -> list[str] | None:
    """Who plays phase ``index``: None for everybody (no cut so far); else the ids, best first, of the
    top ``cut`` of the previous phase's standings (ties at the cut: listing order), less the disqualified.
    A phase with a cut needs the phase before it complete."""
    phases = phases_of(event)
    if not any(p.cut is not None for p in phases[: index + 1]):
        return None
    phase = phases[index]
    prev = phase_players(event, group, index - 1)
    out = disqualified(group)
    if phase.cut is None:
        return [p for p in (prev or seatable(group)) if p not in out]
    _, last = bounds(phases, index - 1)
    if not _complete(group, last):
        raise PhaseError(
            f"phase {phase.name} takes the top {phase.cut} of phase {phases[index - 1].name}, which ends "
            f"with session {last}: enter every table of sessions 1–{last} first"
        )
    ranked = [s.player for s in evaluate_phase(event, group, index - 1).standings if s.player not in out]
    ranked = [p for p in ranked if p in set(seatable(group))]
    if len(ranked) < phase.cut:
        raise PhaseError(f"phase {phase.name}: the cut is {phase.cut} but only {len(ranked)} players can go through")
    return ranked[: phase.cut]


def evaluate_phase(event: Event, group: Group, index: int) -> GroupResult:
    """The standings of phase ``index`` with the group's sessions so far (none past the phase's end)."""
    phases = phases_of(event)
    first, last = bounds(phases, index)
    upto = replace(group, sessions=group.sessions[:last])
    players = phase_players(event, group, index)
    return evaluate(
        upto,
        rules=event.rules,
        scheme=event.scheme,
        tie_split=_tie(event),
        first_session=1 if phases[index].carry else first,
        fields=fields(group, phases),
        players=players,
    )


def overall(event: Event, group: Group) -> GroupResult:
    """The overall standings: with no cut, every session for everybody (the plain ranking); with cuts,
    the players of the last phase played first in that phase's order, then those cut before it, each
    tier in the order of the phase they reached last.  The disqualified come last."""
    phases = phases_of(event)
    full = evaluate(group, rules=event.rules, scheme=event.scheme, tie_split=_tie(event), fields=fields(group, phases))
    if not group.sessions or not any(p.cut is not None for p in phases):
        return full
    reached = phase_index(phases, len(group.sessions))
    reached = len(phases) - 1 if reached is None else reached
    if not any(p.cut is not None for p in phases[: reached + 1]):
        return full
    rows = {s.player: s for s in full.standings}
    out: list[Standing] = []
    placed: set[str] = set()
    dq = disqualified(group)
    for i in range(reached, -1, -1):
        try:
            ranked = evaluate_phase(event, group, i).standings
        except PhaseError:  # an earlier phase no longer complete (a result taken back): rank everything as one
            return full
        tier = [s for s in ranked if s.player not in placed and s.player not in dq]
        offset = len(out)
        first_rank = min((s.rank for s in tier), default=1)
        for s in tier:
            out.append(replace(rows[s.player], rank=offset + s.rank - first_rank + 1))
            placed.add(s.player)
    rest = [s for s in full.standings if s.player not in placed]
    out += [replace(s, rank=len(out) + k + 1) for k, s in enumerate(rest)]
    return replace(full, standings=tuple(out))


def seeding_order(event: Event, group: Group, session_no: int) -> list[str] | None:
    """The standings order a seeded draw of ``session_no`` follows: the previous phase's standings for a
    phase's first session, else the phase's standings so far (None for session 1)."""
    phases = phases_of(event)
    if session_no == 1:
        return None
    earlier = replace(group, sessions=group.sessions[: session_no - 1])
    i = phase_index(phases, session_no)
    if i is None:
        return [s.player for s in overall(event, earlier).standings]
    first, _ = bounds(phases, i)
    j = i - 1 if session_no == first and i > 0 else i
    return [s.player for s in evaluate_phase(event, earlier, j).standings]


def draw_method(event: Event, session_no: int, method: str | None) -> str:
    """The method a session is drawn with: the one asked for, else its phase's, else ``perfect``."""
    if method:
        return method
    phases = phases_of(event)
    i = phase_index(phases, session_no)
    return phases[i].draw if i is not None else "perfect"


def draw_phase_session(
    event: Event,
    group_id: str,
    session_no: int,
    method: str | None = None,
    *,
    absent: Sequence[str] = (),
    seed: int | None = None,
    substitutes: Sequence[str] = (),
) -> SessionRecord:
    """Session ``session_no`` drawn for the players of its phase, less ``absent`` (they get byes: the
    players not checked in), by the phase's method (or ``method``), seeded by :func:`seeding_order`;
    ``substitutes`` fill the tables (:func:`~majiang.tournament.draw.draw_session`)."""
    group = event.group(group_id)
    phases = phases_of(event)
    planned = sum(p.sessions for p in phases)
    if phases and session_no > planned:
        raise PhaseError(
            f"the phases plan {planned} sessions: add a phase ('majiang tournament phase {event.id} --add …') "
            f"to draw session {session_no}"
        )
    how = draw_method(event, session_no, method)
    i = phase_index(phases, session_no)
    players = phase_players(event, group, i) if i is not None else None
    order = seeding_order(event, group, session_no) if how != "perfect" else None
    return draw_session(
        event,
        group_id,
        session_no,
        how,
        seed=seed,
        players=players,
        absent=absent,
        order=order,
        substitutes=substitutes,
    )
