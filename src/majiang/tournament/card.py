"""A player's card: his sessions (table, first-round seat, opponents, session scores, place, standard
score), his rank and the tie-break step that decided it (:func:`.ranking.tie_breaks`), as JSON-ready
data.  Pure: it reads the event and its evaluated group; what the public may see is the caller's
business (the web page gives it :func:`.sealing.public_view`, so nothing of a 复式 session still
playing is on it)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from majiang.tournament.errors import TournamentError
from majiang.tournament.model import Event, Group
from majiang.tournament.ranking import TIE_BREAK_TEXT, GroupResult, Standing, decided_by
from majiang.tournament.roster import withdrawals

WINDS = ("东 E", "南 S", "西 W", "北 N")


class PlayerNotFound(TournamentError):
    """No player of that id in the event."""


def _num(x: Fraction | int) -> int | float:
    f = Fraction(x)
    return int(f) if f.denominator == 1 else float(f)


def player_group(event: Event, player_id: str) -> Group:
    for g in event.groups:
        if any(p.id == player_id for p in g.players):
            return g
    raise PlayerNotFound(f"event {event.id!r} has no player {player_id!r}")


def rank_reason(standings: tuple[Standing, ...], player_id: str, names: dict[str, str]) -> dict[str, Any] | None:
    """Which step of the 1998 chain placed the player among those level with him on Σ standard scores
    (against the level player above him, else the one below), with that player; None when nobody is level."""
    ok = [s for s in standings if not s.disqualified]
    i = next((k for k, s in enumerate(ok) if s.player == player_id), None)
    if i is None:
        return None
    me = ok[i]
    above = ok[i - 1] if i and ok[i - 1].standard_total == me.standard_total else None
    below = ok[i + 1] if i + 1 < len(ok) and ok[i + 1].standard_total == me.standard_total else None
    if above is not None:
        step, other = decided_by(above, me), above
    elif below is not None:
        step, other = decided_by(me, below), below
    else:
        return None
    zh, en = TIE_BREAK_TEXT[step]
    return {
        "step": step,
        "zh": zh,
        "en": en,
        "against": other.player,
        "against_name": names.get(other.player, other.player),
        "above": above is not None,
    }


def player_card(event: Event, result: GroupResult, player_id: str) -> dict[str, Any]:
    """``{"event", "id", "name", "team", "ranked", "withdrawn", "rank", "standard_total", "match_total",
    "disqualified", "tie_break", "sessions": [...]}``; each session ``{"session", "state", "table",
    "seat", "wind", "score", "place", "standard", "hands", "time_called", "opponents": [{"id", "name",
    "wind", "score"}]}`` with ``state`` one of ``played``, ``playing`` (hands entered, table not
    finished), ``not entered``, ``drawn`` (no results yet), ``absent``, ``not seated``."""
    group = player_group(event, player_id)
    names = {p.id: p.name or p.id for p in group.players}
    player = next(p for p in group.players if p.id == player_id)
    team = next((t.name or t.id for t in group.teams if player_id in t.members), None)
    standing = next((s for s in result.standings if s.player == player_id), None)
    scored = {sr.no: sr for sr in result.sessions}
    sessions = []
    for rec in group.sessions:
        sr = scored.get(rec.no)
        row: dict[str, Any] = {"session": rec.no, "state": "not seated", "standard": None}
        if sr is not None and player_id in sr.standard:
            row["standard"] = _num(sr.standard[player_id])
        if player_id in rec.absent:
            sessions.append({**row, "state": "absent"})
            continue
        table = next((t for t in rec.tables if player_id in t.players), None)
        if table is None:
            sessions.append(row)
            continue
        seat = table.players.index(player_id)
        row |= {
            "table": table.no,
            "seat": seat,
            "wind": WINDS[seat],
            "hands": "totals" if table.totals is not None else len(table.hands),
            "time_called": table.time_called,
            "opponents": [{"id": p, "name": names.get(p, p), "wind": WINDS[i]} for i, p in enumerate(table.players)],
        }
        tr = None if sr is None else next((t for t in sr.tables if t.table == table.no), None)
        if sr is None or tr is None:
            row["state"] = "drawn"
        elif table.no in sr.pending:
            row["state"] = "not entered"
        else:
            row["state"] = "played" if tr.complete else "playing"
            scores, places = tr.session_scores, tr.places
            row |= {"score": scores[seat], "place": places[seat]}
            for i, o in enumerate(row["opponents"]):
                o["score"] = scores[i]
        row["opponents"] = [o for o in row["opponents"] if o["id"] != player_id]
        sessions.append(row)
    return {
        "event": event.id,
        "event_name": event.name or event.id,
        "group": group.id,
        "id": player_id,
        "name": names[player_id],
        "team": team,
        "ranked": player.ranked,
        "withdrawn": player_id in withdrawals(event),
        "rank": None if standing is None else standing.rank,
        "field": len(result.standings),
        "disqualified": bool(standing and standing.disqualified),
        "standard_total": None if standing is None else _num(standing.standard_total),
        "match_total": None if standing is None else standing.match_total,
        "tie_break": rank_reason(result.standings, player_id, names),
        "sessions": sessions,
    }
