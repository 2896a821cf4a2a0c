"""Drawing a session's tables for a recorded event (pure): from the event's precomputed schedule
(``perfect``: a perfect design where one exists, else the best the search found), or from the
standings so far (``swiss`` 高高碰, ``snake`` 蛇形).  Starting seats are balanced against the
sessions already drawn.

The schedule is made once, when the event is created (:func:`plan_group`), and kept in
``event.extra["plans"][group id]`` so that later draws never depend on a changed algorithm.

>>> from majiang.tournament.demo import demo_group
>>> g = demo_group(16, 4)
>>> ev = Event(id="e", groups=(g,), extra={"seed": 1, "plans": {"A": plan_group(g, 4, seed=1).to_dict()}})
>>> s1 = draw_session(ev, "A", 1, "perfect")
>>> len(s1.tables), sorted(p for t in s1.tables for p in t.players) == sorted(p.id for p in g.players)
(4, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Literal

from majiang.tournament.errors import TournamentError
from majiang.tournament.model import Event, Group, ModelError, SessionRecord, TableRecord
from majiang.tournament.pairing import redraw, snake_tables, swiss_tables
from majiang.tournament.ranking import disqualified, evaluate
from majiang.tournament.roster import late_entries, not_yet_entered, withdrawn_from
from majiang.tournament.schedule import SchedulePlan, make_schedule
from majiang.tournament.seating import Schedule, balance_winds

DrawMethod = Literal["perfect", "swiss", "snake", "seeded"]
METHODS: tuple[str, ...] = ("perfect", "swiss", "snake", "seeded")


class DrawError(TournamentError):
    """A session that cannot be drawn now; the message says what to do instead."""


def seatable(group: Group) -> list[str]:
    """The players a draw seats: ranked players who are not a team's reserve and not disqualified, in
    registration order."""
    away = {t.reserve for t in group.teams if t.reserve} | disqualified(group)
    return [p.id for p in group.players if p.ranked and p.id not in away]


def plan_group(group: Group, sessions: int, *, seed: int, iterations: int = 100_000) -> SchedulePlan:
    """The whole event's schedule for the group (team-mates apart, as few repeat meetings as possible)."""
    ids = seatable(group)
    if not ids or len(ids) % 4:
        raise DrawError(
            f"{len(ids)} players do not fill tables of four: add or remove players "
            "(reserves and substitutes are not drawn)"
        )
    team_of = {p: t for p, t in group.team_of().items() if p in set(ids)}
    return make_schedule(ids, sessions, team_of=team_of, seed=seed, iterations=iterations)


def has_entries(session: SessionRecord) -> bool:
    """Whether anything was entered for the session (at any of its tables)."""
    return any(t.entered for t in session.tables)


def _played(group: Group, before: int) -> Schedule:
    return tuple(tuple(t.players for t in s.tables) for s in group.sessions[: before - 1])


def _order(group: Group, session_no: int, ids: Sequence[str], seed: int, scheme: str) -> list[str]:
    """Seeding order for swiss/snake: standings after the earlier sessions, or a seeded draw (定位)."""
    if session_no == 1:
        order = list(ids)
        random.Random(seed).shuffle(order)
        return order
    earlier = replace(group, sessions=group.sessions[: session_no - 1])
    standings = [s.player for s in evaluate(earlier, scheme=scheme).standings]
    wanted = set(ids)
    order = [p for p in standings if p in wanted]
    return order + [p for p in ids if p not in set(order)]


def seeded_tables(order: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Strictly by the standings: 1–4 at table 1, 5–8 at table 2 … (a final phase's tables)."""
    if len(order) % 4:
        raise DrawError(f"{len(order)} players do not fill tables of four")
    return tuple(tuple(order[i : i + 4]) for i in range(0, len(order), 4))


def _scheduled(event: Event, group: Group, session_no: int, base_seed: int) -> Sequence[Sequence[str]]:
    """``perfect``: the session's tables from the event's schedule (planned now if none is stored)."""
    plans = event.extra.get("plans", {})
    if group.id in plans:
        plan = SchedulePlan.from_dict(plans[group.id])
    else:
        plan = plan_group(group, max(session_no, int(event.extra.get("sessions", session_no))), seed=base_seed)
    if session_no > len(plan.sessions):
        raise DrawError(
            f"the event's schedule has {len(plan.sessions)} sessions; draw session {session_no} "
            "with --method swiss or --method snake"
        )
    tables = plan.sessions[session_no - 1]
    out = sorted(disqualified(group) & {p for t in tables for p in t})
    if out:
        raise DrawError(
            f"{', '.join(out)} disqualified: the schedule seats them in session {session_no}; "
            "draw it with 'draw --method redraw' (byes) or seat a substitute"
        )
    return tables


def _by_standings(method: str, ranking: Sequence[str], group: Group, played: Schedule) -> Sequence[Sequence[str]]:
    """``swiss`` / ``snake`` / ``seeded``: tables from the ranking, best first, the winds balanced."""
    if method == "swiss":
        tables = swiss_tables(ranking, team_of=group.team_of(), played=played)
    elif method == "snake":
        tables = snake_tables(ranking)
    else:
        tables = seeded_tables(ranking)
    return balance_winds((tuple(tuple(t) for t in tables),), played=played)[0]


def _present(
    event: Event, group: Group, session_no: int, players: Sequence[str] | None, absent: Sequence[str]
) -> tuple[list[str], list[str]]:
    """(the ranked players the session seats, those away): ``players`` (default :func:`seatable`) less
    the absentees — ``absent``, a withdrawn player (退赛) from his withdrawal on, a late entry (补报)
    before his first session."""
    everyone = seatable(group)
    pool = list(everyone) if players is None else [p for p in players if p in set(everyone)]
    gone = [*absent, *withdrawn_from(event, session_no), *not_yet_entered(event, session_no)]
    away = [p for p in dict.fromkeys(gone) if p in set(pool)]
    return [p for p in pool if p not in set(away)], away


def _substitutes(group: Group, substitutes: Sequence[str], seated: Sequence[str]) -> list[str]:
    """The substitutes (替补: unranked players of the group) seated besides ``seated``."""
    known = {p.id: p for p in group.players}
    for sub in substitutes:
        if sub not in known or known[sub].ranked:
            raise DrawError(f"{sub} is not a substitute of the group (an unranked player: 'draw … --substitute NAME')")
    return list(dict.fromkeys(s for s in substitutes if s not in set(seated)))


def draw_session(
    event: Event,
    group_id: str,
    session_no: int,
    method: str = "perfect",
    *,
    seed: int | None = None,
    players: Sequence[str] | None = None,
    absent: Sequence[str] = (),
    order: Sequence[str] | None = None,
    substitutes: Sequence[str] = (),
) -> SessionRecord:
    """The tables of session ``session_no`` (no hands yet).  ``perfect`` takes the session from the
    event's schedule; ``swiss``/``snake``/``seeded`` seat by the standings after the earlier sessions
    (or by ``order``, best first).  ``players`` (default :func:`seatable`) are those the draw seats, less
    ``absent`` (recorded as absentees: a bye); with either, ``perfect`` re-draws the players present,
    avoiding earlier meetings (:func:`.pairing.redraw`).  ``substitutes`` (替补: unranked players of the
    group) fill the tables the players present leave short (after withdrawals and late entries), seated
    for this session only, last in any standings order."""
    if method not in METHODS:
        raise DrawError(f"unknown draw method {method!r}: use one of {', '.join(METHODS)}")
    group = event.group(group_id)
    drawn = len(group.sessions)
    if session_no < 1 or session_no > drawn + 1:
        raise DrawError(
            f"session {session_no} cannot be drawn yet: {drawn} session(s) drawn, draw session {drawn + 1} next"
        )
    if session_no <= drawn and has_entries(group.sessions[session_no - 1]):
        raise DrawError(f"session {session_no} already has results entered; it cannot be drawn again")
    ranked_ids, away = _present(event, group, session_no, players, absent)
    ids = [*ranked_ids, *_substitutes(group, substitutes, ranked_ids)]
    # a late entry seated: the schedule planned at registration does not know him, re-draw those present
    joined = any(p in late_entries(event) for p in ids)
    restricted = players is not None or bool(away) or joined or bool(substitutes)
    if restricted and (not ids or len(ids) % 4):
        short = -len(ids) % 4
        raise DrawError(
            f"{len(ids)} players to seat in session {session_no} do not fill tables of four"
            + (f" ({len(away)} not checked in or withdrawn: {', '.join(away)})" if away else "")
            + f": seat {short} substitute(s) 替补 with 'draw … --substitute NAME' (repeat it), or check players in"
        )
    if method != "perfect" and len(ids) % 4:
        raise DrawError(
            f"{len(ids)} players to seat do not fill tables of four (reserves and the disqualified "
            "are not drawn): give byes with 'draw --method redraw' or seat a substitute"
        )
    base_seed = int(event.extra.get("seed", 0)) if seed is None else seed
    played = _played(group, session_no)
    tables: Sequence[Sequence[str]]
    if method == "perfect" and restricted:
        tables, _ = redraw(ids, seed=base_seed * 7919 + 31 * session_no, team_of=group.team_of(), played=played)
        tables = balance_winds((tuple(tuple(t) for t in tables),), played=played)[0]
    elif method == "perfect":
        tables = _scheduled(event, group, session_no, base_seed)
    else:
        if order is None or session_no == 1:
            ranking = _order(group, session_no, ranked_ids, base_seed * 7919 + session_no, event.scheme)
        else:
            wanted = set(ranked_ids)
            ranking = [p for p in order if p in wanted]
            ranking += [p for p in ranked_ids if p not in set(ranking)]
        ranking += [p for p in ids if p not in set(ranked_ids)]  # the substitutes last
        tables = _by_standings(method, ranking, group, played)
    try:
        return SessionRecord(
            no=session_no,
            tables=tuple(TableRecord(no=k, players=tuple(t)) for k, t in enumerate(tables, start=1)),
            absent=tuple(away),
        )
    except ModelError as e:
        raise DrawError(str(e)) from None


def with_session(event: Event, group_id: str, session: SessionRecord) -> Event:
    """The event with ``session`` added (or replacing the session of that number)."""
    groups = []
    for g in event.groups:
        if g.id == group_id:
            sessions = list(g.sessions)
            if session.no <= len(sessions):
                sessions[session.no - 1] = session
            else:
                sessions.append(session)
            g = replace(g, sessions=tuple(sessions))
        groups.append(g)
    return replace(event, groups=tuple(groups))


@dataclass(frozen=True, slots=True)
class Repeat:
    """Two players at one table of a session who met in earlier sessions (``met_in``)."""

    table: int
    players: tuple[str, str]
    met_in: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"table": self.table, "players": list(self.players), "met_in": list(self.met_in)}

    def describe(self) -> str:
        met = ", ".join(map(str, self.met_in))
        return f"table {self.table}: {self.players[0]}–{self.players[1]} (met in session {met})"


def repeats_in(group: Group, session: SessionRecord) -> list[Repeat]:
    """The repeat meetings a drawn session adds: each pair at one of its tables who met before it."""
    met: dict[frozenset[str], list[int]] = {}
    for s in group.sessions[: session.no - 1]:
        for t in s.tables:
            for a, b in combinations(t.players, 2):
                met.setdefault(frozenset((a, b)), []).append(s.no)
    out = []
    for t in session.tables:
        for a, b in combinations(t.players, 2):
            if frozenset((a, b)) in met:
                out.append(Repeat(t.no, (a, b), tuple(met[frozenset((a, b))])))
    return out


def fewest_repeats(group: Group, session: SessionRecord, *, seed: int = 0) -> int:
    """The fewest repeat meetings a search finds for the session's players (team-mates apart), whatever
    the standings: the draw's repeats are unavoidable when it has no more than this."""
    ids = [p for t in session.tables for p in t.players]
    _, added = redraw(ids, seed=seed, team_of=group.team_of(), played=_played(group, session.no))
    return added
