"""Rankings (第十一条): individuals by Σ standard scores, teams by their members' Σ.

Individual tie-breaks, in order: (1) higher Σ session scores (比赛成绩之和); (2) higher best
single-session standard score; (3) more high single-session standard scores — read as comparing the
session standard scores sorted from best down, so the player with more sessions at the best score
goes first, then at the next score, and so on.  Players equal on all of it share the rank (1, 2, 2, 4)
and are listed by id.  Teams: Σ standard scores, then Σ session scores, then shared.

A player disqualified (故意诈和) is listed after everyone else.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from majiang.mcr.rules import Rules, get_rules
from majiang.tournament.model import Event, Group
from majiang.tournament.scoring import TableResult, score_table
from majiang.tournament.standard import StandardScheme, TieSplit, get_scheme

TIE_BREAKS = ("standard_total", "match_total", "best_session", "high_sessions")


@dataclass(frozen=True, slots=True)
class SessionResult:
    no: int
    tables: tuple[TableResult, ...]
    standard: Mapping[str, Fraction]  # ranked players who played; absent ones get 0
    absent: tuple[str, ...] = ()
    #: tables with nothing entered yet: their players are not scored (standard 0 for now), not ranked as a tie
    pending: tuple[int, ...] = ()
    waiting: tuple[str, ...] = ()  # the players of those tables
    #: tables entered but not finished (fewer than 16 hands, no totals, no time call): (table, hands)
    unfinished: tuple[tuple[int, int], ...] = ()
    reserves: tuple[str, ...] = ()  # the teams' reserves (not seated: not needed, not absent)

    @property
    def complete(self) -> bool:
        """Every table finished: the session's standard scores are final (else provisional, 暂定)."""
        return not self.pending and not self.unfinished

    def cell(self, player: str, score: int | None, first_session: int | None = None) -> str:
        """What a standings cell says for ``player``: the session score, or why there is none
        (``first_session``: a late entry's first, 补报)."""
        if score is not None:
            return str(score)
        if first_session is not None and first_session > self.no:
            return "补报 late entry, not yet registered"
        if player in self.absent:
            return "缺席 absent"
        if player in self.waiting:
            return "未录入 not entered"
        if player in self.reserves:
            return "替补 reserve, not needed"  # a team's reserve who did not play this session
        return "未上场 not seated"


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    team: str | None
    standard_total: Fraction
    match_total: int
    session_standards: tuple[Fraction, ...]
    session_scores: tuple[int | None, ...]  # None: did not play that session
    rank: int = 0
    disqualified: bool = False

    @property
    def best_session(self) -> Fraction:
        return max(self.session_standards, default=Fraction(0))

    @property
    def key(self) -> tuple[Fraction, int, Fraction, tuple[Fraction, ...]]:
        """Sorts best last: the whole tie-break chain."""
        return (
            self.standard_total,
            self.match_total,
            self.best_session,
            tuple(sorted(self.session_standards, reverse=True)),
        )


def decided_by(a: Standing, b: Standing) -> str:
    """Which step of the chain separates two players (``tied`` if none)."""
    for name, x, y in zip(TIE_BREAKS, a.key, b.key, strict=True):
        if x != y:
            return name
    return "tied"


TIE_BREAK_TEXT = {
    "match_total": ("比赛成绩之和", "higher Σ session scores"),
    "best_session": ("单局最高标准分", "higher best session standard score"),
    "high_sessions": ("高标准分局数", "more high session standard scores"),
    "tied": ("并列", "equal on every tie-break: the rank is shared"),
}


def tie_breaks(standings: Sequence[Standing]) -> dict[str, str]:
    """For each player level on standard total with a neighbour in the ranking: the step of the
    1998 chain that placed him (against the tied player above him, else the one below), or ``tied``
    when nothing separates them.  Players with no one level are left out."""
    ok = [s for s in standings if not s.disqualified]
    out: dict[str, str] = {}
    for i, s in enumerate(ok):
        above = ok[i - 1] if i and ok[i - 1].standard_total == s.standard_total else None
        below = ok[i + 1] if i + 1 < len(ok) and ok[i + 1].standard_total == s.standard_total else None
        if above is not None:
            out[s.player] = decided_by(above, s)
        elif below is not None:
            out[s.player] = decided_by(s, below)
    return out


@dataclass(frozen=True, slots=True)
class TeamStanding:
    team: str
    members: tuple[str, ...]
    standard_total: Fraction
    match_total: int
    rank: int = 0


@dataclass(frozen=True, slots=True)
class GroupResult:
    group: Group
    scheme: str
    field_size: int
    sessions: tuple[SessionResult, ...]
    standings: tuple[Standing, ...]
    teams: tuple[TeamStanding, ...]

    @property
    def provisional(self) -> dict[int, tuple[tuple[int, int | None], ...]]:
        """Sessions not complete (暂定): session no → (table, hands entered; None: nothing entered) of
        each table not finished.  Empty: the standings are final."""
        return {
            s.no: tuple(sorted([*((t, None) for t in s.pending), *s.unfinished]))
            for s in self.sessions
            if not s.complete
        }

    @property
    def pending(self) -> dict[int, tuple[int, ...]]:
        """Sessions with tables that have nothing entered yet: session no → table numbers."""
        return {s.no: s.pending for s in self.sessions if s.pending}

    def standing(self, player: str) -> Standing:
        for s in self.standings:
            if s.player == player:
                return s
        raise KeyError(player)


def _ranks(keys: Sequence[object]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) of keys already sorted best first."""
    out: list[int] = []
    for i, k in enumerate(keys):
        out.append(out[-1] if i and k == keys[i - 1] else i + 1)
    return out


def rank_individuals(rows: Sequence[Standing]) -> tuple[Standing, ...]:
    """Order and rank by the tie-break chain; the disqualified go last."""
    ok = sorted((r for r in rows if not r.disqualified), key=lambda r: r.player)
    ok.sort(key=lambda r: r.key, reverse=True)
    ranks = _ranks([r.key for r in ok])
    out = [replace(r, rank=k) for r, k in zip(ok, ranks, strict=True)]
    dq = sorted((r for r in rows if r.disqualified), key=lambda r: r.player)
    out += [replace(r, rank=len(ok) + i + 1) for i, r in enumerate(dq)]
    return tuple(out)


def rank_teams(rows: Sequence[TeamStanding]) -> tuple[TeamStanding, ...]:
    ordered = sorted(rows, key=lambda r: r.team)
    ordered.sort(key=lambda r: (r.standard_total, r.match_total), reverse=True)
    ranks = _ranks([(r.standard_total, r.match_total) for r in ordered])
    return tuple(replace(r, rank=k) for r, k in zip(ordered, ranks, strict=True))


def disqualified(group: Group) -> set[str]:
    """The players disqualified in any session so far (故意诈和; a substitute's offence is not theirs)."""
    out: set[str] = set()
    for s in group.sessions:
        for rec in s.tables:
            for h in rec.hands:
                for pen in h.penalties:
                    if pen.disqualifies and rec.substitute_at(pen.seat, h.no) is None:
                        out.add(rec.players[pen.seat])
    return out


def evaluate(
    group: Group,
    *,
    rules: str | Rules | None = None,
    scheme: str | StandardScheme = "1998",
    tie_split: TieSplit = "average",
    first_session: int = 1,
    fields: Mapping[int, int] | None = None,
    players: Collection[str] | None = None,
) -> GroupResult:
    """Score every table, give standard scores session by session, and rank players and teams.

    For a phase of a multi-day event (:mod:`.phases`): only the sessions from ``first_session`` on
    count, ``fields`` gives a session's N (session no → N; default the group's ranked players less
    reserves) and ``players`` limits the ranking to those players (and the teams to those members)."""
    r = get_rules(rules)
    sch = get_scheme(scheme, tie_split)
    ranked = {p.id for p in group.ranked_players}
    reserves = {t.reserve for t in group.teams if t.reserve}
    # 第十条's N: the players of the field.  A reserve only stands in for one of them, so reserves
    # never enlarge it (with 28 seated and a reserve the 1st still gets 28 and the last 0).
    field = len(ranked - reserves)
    sessions: list[SessionResult] = []
    for s in group.sessions[max(first_session, 1) - 1 :]:
        n = (fields or {}).get(s.no, field)
        tables = tuple(score_table(t, session=s.no, rules=r, ranked=ranked) for t in s.tables)
        scored = tuple(tr for tr, t in zip(tables, s.tables, strict=True) if t.entered)
        pending = tuple(t.no for t in s.tables if not t.entered)
        waiting = tuple(p for t in s.tables if not t.entered for p in t.players)
        unfinished = tuple((t.no, len(t.hands)) for t in s.tables if t.entered and not t.finished)
        std = sch.session_standard(scored, n)
        sessions.append(
            SessionResult(s.no, tables, std, s.absent, pending, waiting, unfinished, tuple(sorted(reserves)))
        )
    out = disqualified(group)
    played: dict[str, list[int | None]] = {pid: [] for pid in ranked}
    for sr in sessions:
        credited = {
            seat.player: seat.score
            for t in sr.tables
            for seat in t.seats
            if seat.ranked and seat.player not in sr.waiting
        }
        for pid in ranked:
            played[pid].append(credited.get(pid))
    rows: list[Standing] = []
    only = None if players is None else set(players)
    for p in group.ranked_players:
        if only is not None and p.id not in only:
            continue
        scores = played[p.id]
        if p.id in reserves and all(x is None for x in scores):
            continue
        stds = tuple(sr.standard.get(p.id, Fraction(0)) for sr in sessions)
        rows.append(
            Standing(
                player=p.id,
                team=p.team,
                standard_total=sum(stds, Fraction(0)),
                match_total=sum(x for x in scores if x is not None),
                session_standards=stds,
                session_scores=tuple(scores),
                disqualified=p.id in out,
            )
        )
    standings = rank_individuals(rows)
    return GroupResult(
        group=group,
        scheme=sch.name,
        field_size=field if not sessions else (fields or {}).get(sessions[-1].no, field),
        sessions=tuple(sessions),
        standings=standings,
        teams=rank_teams(_team_rows(group, standings, only)),
    )


def _team_rows(group: Group, standings: Sequence[Standing], only: set[str] | None) -> list[TeamStanding]:
    """Each team's totals, the sums of its ranked members' (only teams with a member in ``only``)."""
    by_player = {s.player: s for s in standings}
    team_rows = []
    for t in group.teams:
        members = tuple(m for m in t.members if m in by_player)
        if only is not None and not members:
            continue
        team_rows.append(
            TeamStanding(
                team=t.id,
                members=members,
                standard_total=sum((by_player[m].standard_total for m in members), Fraction(0)),
                match_total=sum(by_player[m].match_total for m in members),
            )
        )
    return team_rows


def provisional_note(result: GroupResult) -> str:
    """What every output says while a session is incomplete (``""`` when the standings are final):
    ``暂定 provisional, not final — session 2: table 3 3/16 hands, table 4 not entered``."""
    if not result.provisional:
        return ""
    parts = [
        f"session {k}: " + ", ".join(f"table {t} " + ("not entered" if h is None else f"{h}/16 hands") for t, h in ts)
        for k, ts in result.provisional.items()
    ]
    return "暂定 provisional, not final — " + "; ".join(parts)


def evaluate_event(event: Event) -> dict[str, GroupResult]:
    """Every group of the event under the event's rules profile and scheme."""
    tie: TieSplit = "top" if event.tie_split == "top" else "average"
    return {g.id: evaluate(g, rules=event.rules, scheme=event.scheme, tie_split=tie) for g in event.groups}


def standings_history(result: GroupResult) -> dict[str, list[Fraction]]:
    """Each player's cumulative standard score after each session (for the standings plot)."""
    out: dict[str, list[Fraction]] = {}
    for s in result.standings:
        acc = Fraction(0)
        out[s.player] = []
        for v in s.session_standards:
            acc += v
            out[s.player].append(acc)
    return out
