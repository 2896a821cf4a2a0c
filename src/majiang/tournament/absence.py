"""Absentees (缺席, mcr.md §7) on a drawn session, pure: a substitute in the absentee's seat, or a bye and a
re-draw (重新编排) of the session for the players present.

* :func:`seat_substitute` — a whole-session substitute (替补) takes the absentee's first-round seat; the
  absentee is recorded ``absent`` (standard score 0, no session score).  With ``from_hand`` it is a
  mid-session substitution (三缺一 during play): the departed player keeps the score he had.
* :func:`redraw_session` — the session drawn again for the players present (:func:`.pairing.redraw`:
  team-mates apart, as few repeats of earlier meetings as the search finds; seats balanced).
* :func:`new_substitute` — an unranked player (``Player.ranked`` False) added to the group.
* :func:`seat_changes` — who moved, for the organiser's printout.

>>> from majiang.tournament.demo import demo_group
>>> from majiang.tournament.model import SessionRecord, TableRecord
>>> g = demo_group(8, 0)
>>> s1 = SessionRecord(no=1, tables=(TableRecord(1, ("P01", "P02", "P03", "P04")),
...                                  TableRecord(2, ("P05", "P06", "P07", "P08"))))
>>> g, sub = new_substitute(replace(g, sessions=(s1,)), "Zhao")
>>> s = seat_substitute(g, 1, "P02", sub.id)
>>> s.tables[0].players, s.absent
(('P01', 'S1', 'P03', 'P04'), ('P02',))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from majiang.tournament.draw import seatable
from majiang.tournament.errors import TournamentError
from majiang.tournament.model import Group, ModelError, Player, SessionRecord, Substitution, TableRecord
from majiang.tournament.pairing import redraw
from majiang.tournament.ranking import disqualified
from majiang.tournament.seating import balance_winds


class AbsenceError(TournamentError):
    """An absence the session cannot take; the message says what to do instead."""


def drawn_session(group: Group, session_no: int) -> SessionRecord:
    if not 1 <= session_no <= len(group.sessions):
        raise AbsenceError(f"session {session_no} is not drawn ({len(group.sessions)} drawn): draw it first")
    return group.sessions[session_no - 1]


def seat_of(session: SessionRecord, player: str) -> tuple[TableRecord, int]:
    """The table and first-round seat (0 E … 3 N) of ``player`` in the session."""
    for t in session.tables:
        if player in t.players:
            return t, t.players.index(player)
    raise AbsenceError(
        f"{player} is not seated in session {session.no}" + (" (already absent)" if player in session.absent else "")
    )


def new_substitute(group: Group, name: str) -> tuple[Group, Player]:
    """``name`` as a player: an existing player id (a team's reserve or an earlier substitute) is used as
    he is; any other name becomes a new unranked substitute ``S1``, ``S2`` … (第十二条: not ranked)."""
    known = {p.id: p for p in group.players}
    if name in known:
        return group, known[name]
    k = 1
    while f"S{k}" in known:
        k += 1
    sub = Player(id=f"S{k}", name=name, ranked=False)
    return replace(group, players=(*group.players, sub)), sub


def _with_table(session: SessionRecord, table: TableRecord, absent: Iterable[str] = ()) -> SessionRecord:
    tables = tuple(table if t.no == table.no else t for t in session.tables)
    try:
        return replace(session, tables=tables, absent=tuple(dict.fromkeys((*session.absent, *absent))))
    except ModelError as e:
        raise AbsenceError(str(e)) from None


def seat_substitute(
    group: Group, session_no: int, player: str, substitute: str, from_hand: int | None = None
) -> SessionRecord:
    """The session with ``substitute`` playing ``player``'s seat: for the whole session (the table must have
    no results; ``player`` becomes absent) or, with ``from_hand``, from that hand on (``player`` keeps the
    score he had when he left)."""
    session = drawn_session(group, session_no)
    table, seat = seat_of(session, player)
    if from_hand is None:
        if table.hands or table.totals is not None:
            raise AbsenceError(
                f"session {session_no} table {table.no} has results already: for a player who left "
                "during play give --from-hand N (the first hand the substitute plays)"
            )
        players = tuple(substitute if p == player else p for p in table.players)
        try:
            return _with_table(session, replace(table, players=players), absent=(player,))
        except ModelError as e:
            raise AbsenceError(str(e)) from None
    if table.totals is not None:
        raise AbsenceError(
            f"session {session_no} table {table.no} was entered as quick totals: a mid-session "
            "substitute needs hand-by-hand entry"
        )
    try:
        sub = Substitution(seat=seat, substitute=substitute, from_hand=from_hand)
        return _with_table(session, replace(table, substitutions=(*table.substitutions, sub)))
    except ModelError as e:
        raise AbsenceError(str(e)) from None


def present_players(group: Group, session_no: int, absent: Sequence[str]) -> list[str]:
    """Who a re-draw seats: those seated in the drawn session (substitutes and reserves included) or, for
    a session not drawn yet, the players a draw seats — less the absentees."""
    away = set(absent) | disqualified(group)
    if session_no <= len(group.sessions):
        seated = [p for t in group.sessions[session_no - 1].tables for p in t.players]
    else:
        seated = seatable(group)
    unknown = sorted(away - {p.id for p in group.players})
    if unknown:
        raise AbsenceError(f"no player {', '.join(unknown)} in group {group.id}")
    return [p for p in seated if p not in away]


def redraw_session(
    group: Group, session_no: int, absent: Sequence[str] = (), *, seed: int
) -> tuple[SessionRecord, int]:
    """Session ``session_no`` drawn again (or drawn, if it is the next) for the players present; the
    absentees (these and those already recorded) get a bye.  Returns the session and the repeat meetings
    it adds to the earlier sessions."""
    if not 1 <= session_no <= len(group.sessions) + 1:
        raise AbsenceError(f"session {session_no} cannot be drawn yet: {len(group.sessions)} drawn")
    old = group.sessions[session_no - 1] if session_no <= len(group.sessions) else None
    if old is not None and any(t.hands or t.totals is not None or t.penalties for t in old.tables):
        raise AbsenceError(
            f"session {session_no} has results entered; it cannot be re-drawn (for a player who "
            "left during play seat a substitute with 'absent … --substitute NAME --from-hand N')"
        )
    away = list(dict.fromkeys((*(old.absent if old else ()), *absent)))
    present = present_players(group, session_no, away)
    if not present or len(present) % 4:
        raise AbsenceError(
            f"{len(present)} players present do not fill tables of four: seat a substitute "
            "(absent … --substitute NAME) or give the byes of the session together"
        )
    played = tuple(tuple(t.players for t in s.tables) for s in group.sessions[: session_no - 1])
    tables, added = redraw(present, seed=seed, team_of=group.team_of(), played=played)
    seated = balance_winds((tables,), played=played)[0]
    try:
        session = SessionRecord(
            no=session_no,
            tables=tuple(TableRecord(no=k, players=tuple(t)) for k, t in enumerate(seated, start=1)),
            absent=tuple(away),
        )
    except ModelError as e:
        raise AbsenceError(str(e)) from None
    return session, added


@dataclass(frozen=True, slots=True)
class SeatChange:
    player: str
    before: tuple[int, int] | None  # (table, first-round seat); None: not seated before
    after: tuple[int, int] | None  # None: not seated now
    absent: bool = False  # not seated now because he is absent (a bye)

    def describe(self) -> str:
        def where(x: tuple[int, int] | None, gone: bool) -> str:
            if x is None:
                return "缺席 absent" if gone else "未上场 not seated"
            return f"table {x[0]} {'ESWN'[x[1]]}"

        return f"{self.player}: {where(self.before, False)} → {where(self.after, self.absent)}"


def seat_changes(before: SessionRecord | None, after: SessionRecord) -> list[SeatChange]:
    """Every player whose table or first-round seat differs between the two versions of a session."""

    def seats(s: SessionRecord | None) -> dict[str, tuple[int, int]]:
        return {} if s is None else {p: (t.no, i) for t in s.tables for i, p in enumerate(t.players)}

    old, new = seats(before), seats(after)
    order = list(dict.fromkeys((*old, *new)))
    return [SeatChange(p, old.get(p), new.get(p), p in after.absent) for p in order if old.get(p) != new.get(p)]
