"""Registering an event (pure): players from a list, teams, the schedule made once for all sessions.

A player list is text in one of three forms:

* JSON: a list of names, or of objects with ``name`` (or ``family``) and optionally the CSV columns below;
  ``reserve`` true for a team's reserve;
* CSV with a header row naming its columns (``name``, or ``family`` and ``given``, required; ``id``,
  ``family``, ``given``, ``romanised``, ``team``, ``ema_id``, ``country``, ``reserve`` optional —
  :func:`players_csv_rows` writes them back);
* plain lines ``name`` or ``name,team`` (``#`` starts a comment).

>>> rows = parse_players("name,team\\nAnna,Red\\nBo,Red\\nCai,Blue\\nDu,Blue\\n")
>>> [(r.name, r.team) for r in rows]
[('Anna', 'Red'), ('Bo', 'Red'), ('Cai', 'Blue'), ('Du', 'Blue')]
>>> g = build_group(rows)
>>> [p.id for p in g.players], [t.players for t in g.teams]
(['P01', 'P02', 'P03', 'P04'], [('P01', 'P02'), ('P03', 'P04')])
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from majiang.tournament.draw import plan_group
from majiang.tournament.errors import TournamentError
from majiang.tournament.model import TEAM_PLAYERS, Event, Group, ModelError, Player, Team
from majiang.tournament.names import full_name

SCHEMES = ("1998", "4210")
COLUMNS = ("id", "name", "family", "given", "romanised", "team", "ema_id", "country", "reserve")


class RegistrationError(TournamentError):
    """A player list or an event setup that cannot work; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    id: str = ""
    team: str = ""
    ema_id: str = ""
    country: str = ""
    reserve: bool = False
    family: str = ""  # the name's parts when the list gives them (else guessed: :mod:`.names`)
    given: str = ""
    romanised: str = ""  # the name in Latin letters, family name first (the EMA file)


def _truthy(x: Any) -> bool:
    return str(x).strip().lower() in ("1", "true", "yes", "y", "x", "reserve", "替补")


def _name(row: Any) -> str:
    """The printed name: the ``name`` column, else made of ``family`` and ``given`` (王芳, María José García-López)."""
    name = str(row.get("name") or "").strip()
    return name or full_name(str(row.get("family") or "").strip(), str(row.get("given") or "").strip())


def parse_players(text: str) -> list[Entry]:
    """Entries from a player list (JSON, CSV with a header, or plain lines)."""
    stripped = text.strip()
    if not stripped:
        raise RegistrationError("the player list is empty: one player per line (name or name,team)")
    if stripped[0] in "[{":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as e:
            raise RegistrationError(f"the player list looks like JSON but is not valid: {e}") from None
        if isinstance(data, dict):
            data = data.get("players", [])
        out = []
        for i, d in enumerate(data, start=1):
            if isinstance(d, str):
                out.append(Entry(name=d.strip()))
            elif isinstance(d, dict) and (d.get("name") or d.get("family")):
                out.append(
                    Entry(
                        name=_name(d),
                        family=str(d.get("family") or "").strip(),
                        given=str(d.get("given") or "").strip(),
                        romanised=str(d.get("romanised") or "").strip(),
                        id=str(d.get("id") or ""),
                        team=str(d.get("team") or ""),
                        ema_id=str(d.get("ema_id") or ""),
                        country=str(d.get("country") or ""),
                        reserve=_truthy(d.get("reserve", False)),
                    )
                )
            else:
                raise RegistrationError(f"player {i} of the JSON list needs a name: {d!r}")
        return out
    lines = [ln for ln in stripped.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    dialect = "excel-tab" if "\t" in lines[0] else "excel"
    first = [c.strip().lower() for c in next(csv.reader([lines[0]], dialect=dialect))]
    if "name" in first or "family" in first:
        unknown = [c for c in first if c and c not in COLUMNS]
        if unknown:
            raise RegistrationError(f"unknown column(s) {unknown} in the player list; columns: {', '.join(COLUMNS)}")
        reader = csv.DictReader(io.StringIO("\n".join(lines[1:])), fieldnames=first, dialect=dialect)
        out = []
        for row in reader:
            if not ((row.get("name") or "").strip() or (row.get("family") or "").strip()):
                continue
            out.append(
                Entry(
                    name=_name(row),
                    family=(row.get("family") or "").strip(),
                    given=(row.get("given") or "").strip(),
                    romanised=(row.get("romanised") or "").strip(),
                    id=(row.get("id") or "").strip(),
                    team=(row.get("team") or "").strip(),
                    ema_id=(row.get("ema_id") or "").strip(),
                    country=(row.get("country") or "").strip(),
                    reserve=_truthy(row.get("reserve") or ""),
                )
            )
        return out
    out = []
    for ln in lines:
        parts = [c.strip() for c in next(csv.reader([ln], dialect=dialect))]
        out.append(Entry(name=parts[0], team=parts[1] if len(parts) > 1 else ""))
    return out


def count_entries(count: int) -> list[Entry]:
    """``count`` anonymous players ``P01 …``."""
    if count <= 0:
        raise RegistrationError("--count must be positive")
    width = max(2, len(str(count)))
    return [Entry(name=f"P{i:0{width}d}") for i in range(1, count + 1)]


def build_group(entries: Sequence[Entry], teams: int = 0, group_id: str = "A") -> Group:
    """Players (ids ``P01 …`` unless given) and teams: from the entries' ``team`` column, or ``teams``
    teams ``T1 …`` of consecutive players when no entry names a team."""
    n = len(entries)
    width = max(2, len(str(n)))
    ids = [e.id or f"P{i:0{width}d}" for i, e in enumerate(entries, start=1)]
    if len(set(ids)) != n:
        raise RegistrationError("player ids must be unique; fix the 'id' column of the player list")
    named = any(e.team for e in entries)
    team_of: dict[str, str] = {}
    if named:
        for pid, e in zip(ids, entries, strict=True):
            if e.team:
                team_of[pid] = e.team
    elif teams:
        if teams < 0 or n % teams:
            raise RegistrationError(f"{n} players do not split into {teams} equal teams; change --teams or the list")
        size = n // teams
        if size > TEAM_PLAYERS:
            raise RegistrationError(
                f"{teams} teams of {size}: a team has at most {TEAM_PLAYERS} players (+1 reserve "
                "named in the list's 'reserve' column); use more teams"
            )
        team_of = {pid: f"T{i // size + 1}" for i, pid in enumerate(ids)}
    order: list[str] = []
    for pid in ids:
        t = team_of.get(pid)
        if t and t not in order:
            order.append(t)
    team_list = []
    reserve_of = {pid for pid, e in zip(ids, entries, strict=True) if e.reserve}
    for t in order:
        members = [pid for pid in ids if team_of.get(pid) == t]
        reserves = [pid for pid in members if pid in reserve_of]
        players = [pid for pid in members if pid not in reserve_of]
        if len(players) > TEAM_PLAYERS or len(reserves) > 1:
            raise RegistrationError(
                f"team {t} has {len(players)} players and {len(reserves)} reserve(s): a team is "
                f"{TEAM_PLAYERS} players and at most 1 reserve (mark it in the 'reserve' column)"
            )
        team_list.append(Team(id=t, name=t, players=tuple(players), reserve=reserves[0] if reserves else None))
    people = tuple(
        Player(
            id=pid,
            name=e.name,
            team=team_of.get(pid),
            ema_id=e.ema_id,
            country=e.country,
            family=e.family,
            given=e.given,
            romanised=e.romanised,
        )
        for pid, e in zip(ids, entries, strict=True)
    )
    try:
        return Group(id=group_id, name=group_id, players=people, teams=tuple(team_list))
    except ModelError as e:
        raise RegistrationError(str(e)) from None


def new_event(
    event_id: str,
    name: str,
    group: Group,
    *,
    sessions: int,
    seed: int,
    scheme: str = "1998",
    rules: str = "gb",
    iterations: int = 100_000,
) -> Event:
    """An event with its schedule for ``sessions`` sessions planned now (kept in ``extra``)."""
    if scheme not in SCHEMES:
        raise RegistrationError(f"unknown scheme {scheme!r}: use 1998 (group ranking N−k) or 4210 (per table)")
    if sessions < 1:
        raise RegistrationError("--sessions must be at least 1")
    plan = plan_group(group, sessions, seed=seed, iterations=iterations)
    extra = {"seed": seed, "sessions": sessions, "plans": {group.id: plan.to_dict()}}
    return Event(id=event_id, name=name, rules=rules, scheme=scheme, groups=(group,), extra=extra)


def players_csv_rows(group: Group) -> list[list[str]]:
    """The group's players in the player list's own columns (:data:`COLUMNS`), the header first: what
    ``parse_players`` reads back.  ``family``/``given`` are those registered (empty: guessed)."""
    reserves = {t.reserve for t in group.teams if t.reserve}
    rows = [list(COLUMNS)]
    for p in group.players:
        if not p.ranked:
            continue  # substitutes are not registered players
        rows.append(
            [p.id, p.name, p.family, p.given, p.romanised, p.team or "", p.ema_id, p.country]
            + ["yes" if p.id in reserves else ""]
        )
    return rows
