"""A whole event end to end: draw, schedule, play every table through a callback, score, rank.

The callback plays one table's session and returns its hand records (16, or fewer when time is
called); the game engine with bots plugs in here.  Seats in the records are indices into
``seating.players`` (first-round seats E, S, W, N); :class:`TableSeating` tells who deals and each
player's seat wind in every hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from majiang.tournament.model import (
    HANDS_PER_SESSION,
    Event,
    Group,
    HandRecord,
    Player,
    SessionRecord,
    TableRecord,
    Team,
)
from majiang.tournament.ranking import GroupResult, evaluate
from majiang.tournament.schedule import SchedulePlan, make_schedule
from majiang.tournament.seating import ROTATION_1998, SeatChange, dealer, prevalent_wind, seat_winds
from majiang.tournament.standard import TieSplit


@dataclass(frozen=True, slots=True)
class TableSeating:
    """What the callback needs to play one table's session."""

    session: int
    table: int
    players: tuple[str, ...]
    seed: int
    rotation: tuple[SeatChange, ...] = ROTATION_1998

    def dealer(self, hand_no: int) -> int:
        return dealer(hand_no, self.rotation)

    def seat_winds(self, hand_no: int) -> tuple[int, int, int, int]:
        return seat_winds(hand_no, self.rotation)

    def prevalent_wind(self, hand_no: int) -> int:
        return prevalent_wind(hand_no)


PlaySession = Callable[[TableSeating], Sequence[HandRecord | Mapping[str, Any]]]


def demo_group(players: int = 16, teams: int = 4) -> Group:
    """Players ``P01…`` and, when ``teams``, teams ``T1…`` of consecutive players."""
    if players <= 0 or players % 4:
        raise ValueError(f"{players} players do not fill tables of four")
    if teams and players % teams:
        raise ValueError(f"{players} players do not split into {teams} equal teams")
    width = len(str(players))
    ids = [f"P{i:0{max(2, width)}d}" for i in range(1, players + 1)]
    size = players // teams if teams else 0
    team_of = {pid: f"T{i // size + 1}" for i, pid in enumerate(ids)} if teams else {}
    people = tuple(Player(id=pid, name=pid, team=team_of.get(pid)) for pid in ids)
    team_list = (
        tuple(
            Team(id=f"T{k + 1}", name=f"T{k + 1}", players=tuple(ids[k * size : (k + 1) * size])) for k in range(teams)
        )
        if teams
        else ()
    )
    return Group(id="A", name="A", players=people, teams=team_list)


def play_event(group: Group, plan: SchedulePlan, play_session: PlaySession, seed: int) -> Group:
    """Play every scheduled table through the callback and record the results."""
    sessions: list[SessionRecord] = []
    for s_no, session in enumerate(plan.sessions, start=1):
        tables: list[TableRecord] = []
        for t_no, players in enumerate(session, start=1):
            seating = TableSeating(
                session=s_no, table=t_no, players=tuple(players), seed=seed * 1_000_003 + s_no * 1_009 + t_no
            )
            raw = play_session(seating)
            hands = tuple(h if isinstance(h, HandRecord) else HandRecord.from_dict(h) for h in raw)
            tables.append(
                TableRecord(no=t_no, players=tuple(players), hands=hands, time_called=len(hands) < HANDS_PER_SESSION)
            )
        sessions.append(SessionRecord(no=s_no, tables=tuple(tables)))
    return Group(id=group.id, name=group.name, players=group.players, teams=group.teams, sessions=tuple(sessions))


def number(x: Fraction | int) -> int | float:
    """A standard score for JSON: an int when whole."""
    f = Fraction(x)
    return int(f) if f.denominator == 1 else float(f)


def result_json(result: GroupResult, repeats: int) -> dict[str, Any]:
    """The demo's JSON shape (see :func:`run_demo`)."""
    return {
        "sessions": [
            {
                "tables": [
                    {
                        "players": list(t.players),
                        "session_scores": list(t.session_scores),
                        "standard_scores": [number(sr.standard.get(p, Fraction(0))) for p in t.players],
                    }
                    for t in sr.tables
                ]
            }
            for sr in result.sessions
        ],
        "standings": [
            {
                "player": s.player,
                "team": s.team,
                "standard_total": number(s.standard_total),
                "match_total": s.match_total,
                "rank": s.rank,
            }
            for s in result.standings
        ],
        "teams": [{"team": t.team, "standard_total": number(t.standard_total), "rank": t.rank} for t in result.teams],
        "repeat_meetings": repeats,
    }


def build_demo(
    players: int = 16,
    teams: int = 4,
    sessions: int = 4,
    seed: int = 1,
    scheme: str = "1998",
    *,
    play_session: PlaySession,
    tie_split: TieSplit = "average",
    iterations: int = 100_000,
) -> tuple[Event, GroupResult, SchedulePlan]:
    """Like :func:`run_demo` but returns the recorded event, its evaluation and the schedule."""
    group = demo_group(players, teams)
    plan = make_schedule(
        [p.id for p in group.players], sessions, team_of=group.team_of(), seed=seed, iterations=iterations
    )
    played = play_event(group, plan, play_session, seed)
    event = Event(id=f"demo-{seed}", name="Demo", scheme=scheme, tie_split=tie_split, groups=(played,))
    return event, evaluate(played, scheme=scheme, tie_split=tie_split), plan


def run_demo(
    players: int = 16,
    teams: int = 4,
    sessions: int = 4,
    seed: int = 1,
    scheme: str = "1998",
    *,
    play_session: PlaySession,
) -> dict[str, Any]:
    """Draw, schedule, play, score and rank; returns
    ``{"sessions": [{"tables": [{"players", "session_scores", "standard_scores"}]}],
    "standings": [{"player", "team", "standard_total", "match_total", "rank"}],
    "teams": [{"team", "standard_total", "rank"}], "repeat_meetings": n}``.
    ``teams=0`` plays individuals (``team`` is null and ``teams`` empty)."""
    _, result, plan = build_demo(players, teams, sessions, seed, scheme, play_session=play_session)
    return result_json(result, plan.repeats)
