"""The standings and the entries log as JSON (``GET /api/tournaments/{id}/standings``, the entries
of ``majiang tournament log``): what the repository's use cases hand to the web and the CLI."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from majiang.store.tournament_models import (
    TTEntry,
)
from majiang.tournament.checkin import required as checkin_required
from majiang.tournament.history import arrows, team_arrows
from majiang.tournament.model import (
    Event,
)
from majiang.tournament.phases import phases_of
from majiang.tournament.ranking import GroupResult, tie_breaks
from majiang.tournament.roster import late_entries, withdrawals


def entry_dict(e: TTEntry) -> dict[str, Any]:
    return {
        "id": e.id,
        "group": e.group_id,
        "session": e.session_no,
        "table": e.table_no,
        "kind": e.kind,
        "hand": e.hand_no,
        "data": e.data,
        "by": e.by,
        "at": e.at.isoformat() if e.at else None,
        "undone_by": e.undone_by,
        "summary": entry_summary(e.kind, e.hand_no, e.data),
    }


def entry_summary(kind: str, hand_no: int | None, data: dict[str, Any]) -> str:
    """One line for the log: ``hand 3 (corrected)``, ``totals 40,-8,-16,-16``, ``penalty S late_arrival -10``."""
    if kind == "hand":
        return f"hand {hand_no}" + (" (corrected)" if data.get("replaced") is not None else "")
    if kind == "hands":
        n = len(data.get("hands", ()))
        return f"hands {hand_no}–{(hand_no or 1) + n - 1}" if n > 1 else f"hand {hand_no}"
    if kind == "totals":
        return "totals " + ",".join(str(x) for x in data.get("totals", ()))
    if kind == "penalty":
        p = data.get("penalty", {})
        pts = f" -{p['points']}" if p.get("points") else ""
        return f"penalty {'ESWN'[int(p.get('seat', 0))]} {p.get('code', '')}{pts}"
    if kind == "time_call":
        return "time called" if data.get("called") else "time call withdrawn"
    if kind == "undo":
        return f"undo of entry {data.get('entry')} ({data.get('kind')})"
    return kind


def _num(x: Fraction | int) -> int | float:
    f = Fraction(x)
    return int(f) if f.denominator == 1 else float(f)


def standings_json(
    event: Event,
    results: dict[str, GroupResult],
    *,
    previous: dict[str, GroupResult | None] | None = None,
    after: int | None = None,
    phase: str | None = None,
    available: dict[str, int] | None = None,
) -> dict[str, Any]:
    """``{"event", "name", "scheme", "rules", "after", "phase", "phases", "checkin", "groups": [{"group",
    "name", "sessions_drawn", "sessions_scored", "sessions", "sessions_available", "pending", "standings":
    [...], "teams": [...]}]}`` — ``after``: the session the standings are taken after (None: the last with
    results); ``sessions``: the numbers of the sessions in the columns; ``sessions_available``: how many
    sessions have results (what ``after`` may be); ``pending``: session → the tables with
    nothing entered yet; ``provisional``: each table not finished (``hands`` entered, null: nothing) of a
    session not complete, ``final`` false while there is one (the ranking is 暂定 provisional); each
    standing with rank, ``previous_rank`` and ``movement`` (▲2 ▼1 – 新 new, empty
    after session 1; with ``previous``), player, name, team, standard_total, match_total, per-session
    standard scores and session scores; each team likewise with rank, ``previous_rank``, ``movement``,
    team, name, standard_total, match_total and members."""
    groups = []
    for g in event.groups:
        r = results[g.id]
        before = (previous or {}).get(g.id)
        prev_team = {t.team: t.rank for t in before.teams} if before is not None else {}
        team_moved = team_arrows(r, before) if previous is not None else {}
        team_names = {t.id: t.name for t in g.teams}
        names = {p.id: p.name for p in g.players}
        groups.append(
            {
                "group": g.id,
                "name": g.name,
                "sessions_drawn": len(g.sessions),
                "sessions_scored": len(r.sessions),
                "sessions": [x.no for x in r.sessions],
                "sessions_available": (available or {}).get(g.id, len(r.sessions)),
                "pending": {str(k): list(v) for k, v in r.pending.items()},
                # 暂定: a session with a table not entered or not finished is not final
                "provisional": [
                    {"session": k, "table": t, "hands": h} for k, tables in r.provisional.items() for t, h in tables
                ],
                "final": not r.provisional,
                "standings": _player_rows(event, g, r, before, previous is not None),
                "teams": [
                    {
                        "rank": t.rank,
                        "previous_rank": prev_team.get(t.team),
                        "movement": team_moved.get(t.team, ""),
                        "team": t.team,
                        "name": team_names.get(t.team, t.team),
                        "standard_total": _num(t.standard_total),
                        "match_total": t.match_total,
                        "members": list(t.members),
                        "member_names": [names.get(m) or m for m in t.members],
                    }
                    for t in r.teams
                ],
            }
        )
    return {
        "event": event.id,
        "name": event.name,
        "scheme": event.scheme,
        "rules": event.rules,
        "after": after,
        "phase": phase,
        "phases": [p.to_dict() for p in phases_of(event)],
        "checkin": checkin_required(event),
        "groups": groups,
    }


def _player_rows(event: Event, g: Any, r: GroupResult, before: GroupResult | None, moves: bool) -> list[dict[str, Any]]:
    """The group's individual standings rows (with ``moves``: each one's movement since ``before``)."""
    prev_rank = {s.player: s.rank for s in before.standings} if before is not None else {}
    moved = arrows(r, before) if moves else {}
    names = {p.id: p.name for p in g.players}
    team_names = {t.id: t.name for t in g.teams}
    ties = tie_breaks(r.standings)
    gone = withdrawals(event)
    late = late_entries(event)
    return [
        {
            "rank": s.rank,
            "previous_rank": prev_rank.get(s.player),
            "movement": moved.get(s.player, ""),
            "player": s.player,
            "name": names.get(s.player, s.player),
            "team": s.team,
            "team_name": team_names.get(s.team) or s.team if s.team else None,
            "standard_total": _num(s.standard_total),
            "match_total": s.match_total,
            "session_standards": [_num(v) for v in s.session_standards],
            "session_scores": list(s.session_scores),
            # why a session score is missing: 缺席 absent, 未录入 not entered, 替补 reserve not needed …
            "session_notes": [
                "" if sc is not None else sr.cell(s.player, sc, late.get(s.player))
                for sr, sc in zip(r.sessions, s.session_scores, strict=True)
            ],
            "disqualified": s.disqualified,
            # level on standard total with a neighbour: the tie-break that placed him
            "tie_break": ties.get(s.player),
            "withdrawn": s.player in gone,  # 退赛: out of every draw from then on
            "late_entry": late.get(s.player),  # 补报: his first session (the earlier ones: an absentee's)
        }
        for s in r.standings
    ]
