"""The competition model: event → groups → players and teams → sessions (局) → tables → hands (盘).

Only what the referee writes down is stored: who won each hand, who dealt in (or a self-draw), the fan
list or fan points, flowers and penalties.  Scores, places and standard scores are derived
(:mod:`majiang.tournament.scoring`, :mod:`majiang.tournament.ranking`), never stored as truth.

Identity, for a database layer: players, teams, groups and events have string ids unique in their
event; a session is ``(group id, session no)``, a table ``(group id, session no, table no)``, a hand
``(group id, session no, table no, hand no)``.  Every class round-trips through ``to_dict``/``from_dict``.

Seats: a table lists its four players in their starting seats for the first round (0 East, 1 South,
2 West, 3 North).  Hand records and penalties name a player by that index, whatever seat the
between-round changes (mcr.md §1) have moved him to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from majiang.mcr.fans import FAN_INFO, fan_by_name
from majiang.tournament.errors import TournamentError
from majiang.tournament.names import split_name
from majiang.tournament.penalties import Penalty

HANDS_PER_SESSION = 16  # 4 rounds (圈) × 4 deals
SESSION_START = 500  # each player's points at the start of a session (记分牌)
TEAM_PLAYERS = 4
TEAM_RESERVES = 1


class ModelError(TournamentError):
    """A record that cannot be right: unknown seat, a discarder who won, a team of six players…"""


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player.  ``ranked`` False marks a referee-appointed substitute (替补人员): his points
    count for his table but he has no place in any ranking (第十二条)."""

    id: str
    name: str = ""
    team: str | None = None
    ranked: bool = True
    ema_id: str = ""
    country: str = ""
    #: the name's parts when registered (else guessed from ``name``: :mod:`.names`), and the name in
    #: Latin letters, family name first (optional: for the EMA file)
    family: str = ""
    given: str = ""
    romanised: str = ""

    @property
    def family_name(self) -> str:
        return split_name(self.name, family=self.family, given=self.given, country=self.country)[0]

    @property
    def given_name(self) -> str:
        return split_name(self.name, family=self.family, given=self.given, country=self.country)[1]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.team is not None:
            d["team"] = self.team
        if not self.ranked:
            d["ranked"] = False
        for k in ("ema_id", "country", "family", "given", "romanised"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Player:
        return cls(
            id=str(d["id"]),
            name=str(d.get("name", "")),
            team=d.get("team"),
            ranked=bool(d.get("ranked", True)),
            ema_id=str(d.get("ema_id", "")),
            country=str(d.get("country", "")),
            family=str(d.get("family", "")),
            given=str(d.get("given", "")),
            romanised=str(d.get("romanised", "")),
        )


@dataclass(frozen=True, slots=True)
class Team:
    """1 leader (领队, not a player) + 4 players + at most 1 reserve (第六条)."""

    id: str
    name: str = ""
    leader: str = ""
    players: tuple[str, ...] = ()
    reserve: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        if len(self.players) > TEAM_PLAYERS:
            raise ModelError(f"team {self.id}: at most {TEAM_PLAYERS} players, got {len(self.players)}")
        if len(set(self.members)) != len(self.members):
            raise ModelError(f"team {self.id}: a player is listed twice")

    @property
    def members(self) -> tuple[str, ...]:
        """Players and the reserve: everyone whose standard scores count for the team."""
        return self.players + ((self.reserve,) if self.reserve else ())

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "leader": self.leader, "players": list(self.players)}
        if self.reserve:
            d["reserve"] = self.reserve
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Team:
        return cls(
            id=str(d["id"]),
            name=str(d.get("name", "")),
            leader=str(d.get("leader", "")),
            players=tuple(str(p) for p in d.get("players", ())),
            reserve=d.get("reserve"),
        )


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand (盘) as the referee records it.

    ``winner`` None is an exhaustive draw (荒牌).  ``discarder`` None with a winner is a self-draw
    (自摸); a robbed kong (抢杠和) names the robbed player as discarder.  Give the fans either as
    ``fans`` (names from the fan table, Chinese or English, one entry per time counted) or as
    ``points`` (their total); ``flowers`` are counted apart because they do not reach the 8-fan
    minimum.  A false win is a :class:`Penalty`, not a winner.
    """

    no: int
    winner: int | None = None
    discarder: int | None = None
    fans: tuple[str, ...] = ()
    points: int | None = None
    flowers: int = 0
    penalties: tuple[Penalty, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "fans", tuple(self.fans))
        object.__setattr__(self, "penalties", tuple(self.penalties))
        if not 1 <= self.no <= HANDS_PER_SESSION:
            raise ModelError(f"hands are numbered 1–{HANDS_PER_SESSION}, got {self.no}")
        for who, seat in (("winner", self.winner), ("discarder", self.discarder)):
            if seat is not None and seat not in (0, 1, 2, 3):
                raise ModelError(f"hand {self.no}: the {who} is a seat 0–3, got {seat!r}")
        if self.winner is None:
            if self.discarder is not None or self.fans or self.points or self.flowers:
                raise ModelError(f"hand {self.no}: a drawn hand has no discarder, fans or flowers")
        elif self.discarder == self.winner:
            raise ModelError(f"hand {self.no}: the discarder cannot be the winner (a self-draw has no discarder)")
        if not 0 <= self.flowers <= 8:
            raise ModelError(f"hand {self.no}: flowers are 0–8, got {self.flowers}")
        for name in self.fans:
            try:
                fan_by_name(name)
            except ValueError as e:
                raise ModelError(f"hand {self.no}: {e}") from None
        if self.fans and self.points is not None and self.points != _fan_sum(self.fans):
            raise ModelError(f"hand {self.no}: the fans add up to {_fan_sum(self.fans)}, not {self.points}")
        if self.points is not None and self.points < 0:
            raise ModelError(f"hand {self.no}: fan points cannot be negative")
        for p in self.penalties:
            if p.is_false_win and p.seat == self.winner:
                raise ModelError(f"hand {self.no}: a player who made a false win may not win that hand")

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def self_drawn(self) -> bool:
        return self.winner is not None and self.discarder is None

    @property
    def fan_points(self) -> int:
        """Fan points without flowers (what the 8-fan minimum looks at)."""
        if self.fans:
            return _fan_sum(self.fans)
        return self.points or 0

    @property
    def fan_total(self) -> int:
        """F of mcr.md §6: fans with flowers."""
        return self.fan_points + self.flowers if self.winner is not None else 0

    @property
    def hand_name(self) -> str:
        """What the score sheet calls the hand: its highest fan (ties: rulebook order), Chinese."""
        if not self.fans:
            return ""
        best = min((fan_by_name(n) for n in self.fans), key=lambda f: (-FAN_INFO[f].points, int(f)))
        return FAN_INFO[best].zh

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"no": self.no, "winner": self.winner, "discarder": self.discarder}
        if self.fans:
            d["fans"] = list(self.fans)
        if self.points is not None:
            d["points"] = self.points
        if self.flowers:
            d["flowers"] = self.flowers
        if self.penalties:
            d["penalties"] = [p.to_dict() for p in self.penalties]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandRecord:
        return cls(
            no=int(d["no"]),
            winner=d.get("winner"),
            discarder=d.get("discarder"),
            fans=tuple(d.get("fans", ())),
            points=d.get("points"),
            flowers=int(d.get("flowers", 0)),
            penalties=tuple(Penalty.from_dict(p) for p in d.get("penalties", ())),
        )


def _fan_sum(names: Sequence[str]) -> int:
    return sum(FAN_INFO[fan_by_name(n)].points for n in names)


@dataclass(frozen=True, slots=True)
class Substitution:
    """From hand ``from_hand`` on, ``substitute`` (an unranked player) plays seat ``seat`` (三缺一 mid-session).
    The departed player keeps the score he had (scored as it stands)."""

    seat: int
    substitute: str
    from_hand: int

    def __post_init__(self) -> None:
        if self.seat not in (0, 1, 2, 3):
            raise ModelError(f"a substitution's seat is 0–3, got {self.seat!r}")
        if not 2 <= self.from_hand <= HANDS_PER_SESSION:
            raise ModelError("a mid-session substitute starts at hand 2–16 (for a whole session, seat him)")

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "substitute": self.substitute, "from_hand": self.from_hand}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Substitution:
        return cls(seat=int(d["seat"]), substitute=str(d["substitute"]), from_hand=int(d["from_hand"]))


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table of one session.  Either ``hands`` (full entry) or ``totals`` (quick entry: each seat's
    sum of hand scores, zero-sum) is given.  ``penalties`` are those not tied to a hand (late
    arrival…).  ``time_called`` marks a session ended by the time limit (the hand in play finished)."""

    no: int
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...] = ()
    totals: tuple[int, ...] | None = None
    penalties: tuple[Penalty, ...] = ()
    time_called: bool = False
    substitutions: tuple[Substitution, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "hands", tuple(self.hands))
        object.__setattr__(self, "penalties", tuple(self.penalties))
        object.__setattr__(self, "substitutions", tuple(self.substitutions))
        if self.totals is not None:
            object.__setattr__(self, "totals", tuple(self.totals))
        if len(self.players) != 4 or len(set(self.players)) != 4:
            raise ModelError(f"table {self.no}: four different players, got {self.players}")
        numbers = [h.no for h in self.hands]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ModelError(f"table {self.no}: hands must be numbered 1, 2, 3… in order, got {numbers}")
        if self.totals is not None:
            if self.hands:
                raise ModelError(f"table {self.no}: give hands or totals, not both")
            if len(self.totals) != 4:
                raise ModelError(f"table {self.no}: four totals")
            if sum(self.totals) != 0:
                raise ModelError(f"table {self.no}: hand scores are zero-sum; the totals add up to {sum(self.totals)}")
            if self.substitutions:
                raise ModelError(f"table {self.no}: a mid-session substitution needs hand-by-hand entry")
        if len({s.seat for s in self.substitutions}) != len(self.substitutions):
            raise ModelError(f"table {self.no}: one substitution per seat")
        for s in self.substitutions:
            if s.from_hand > len(self.hands) + 1:
                raise ModelError(f"table {self.no}: the substitute starts after the last hand played")

    @property
    def entry(self) -> str:
        return "totals" if self.totals is not None else "hands"

    @property
    def entered(self) -> bool:
        """Whether anything was entered for the table (a hand, quick totals, a penalty, a time call)."""
        return bool(self.hands or self.totals is not None or self.penalties or self.time_called)

    @property
    def finished(self) -> bool:
        """Its 16 hands, its totals, or time called (第六条); else the session is still incomplete."""
        return self.totals is not None or self.time_called or len(self.hands) >= HANDS_PER_SESSION

    def substitute_at(self, seat: int, hand_no: int) -> str | None:
        """The substitute playing ``seat`` in hand ``hand_no``, if any."""
        for s in self.substitutions:
            if s.seat == seat and hand_no >= s.from_hand:
                return s.substitute
        return None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"no": self.no, "players": list(self.players)}
        if self.totals is not None:
            d["totals"] = list(self.totals)
        else:
            d["hands"] = [h.to_dict() for h in self.hands]
        if self.penalties:
            d["penalties"] = [p.to_dict() for p in self.penalties]
        if self.time_called:
            d["time_called"] = True
        if self.substitutions:
            d["substitutions"] = [s.to_dict() for s in self.substitutions]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableRecord:
        totals = d.get("totals")
        return cls(
            no=int(d["no"]),
            players=tuple(str(p) for p in d["players"]),
            hands=tuple(HandRecord.from_dict(h) for h in d.get("hands", ())),
            totals=None if totals is None else tuple(int(t) for t in totals),
            penalties=tuple(Penalty.from_dict(p) for p in d.get("penalties", ())),
            time_called=bool(d.get("time_called", False)),
            substitutions=tuple(Substitution.from_dict(s) for s in d.get("substitutions", ())),
        )


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One session (局) of a group.  ``absent`` players did not play it (a bye, 弃权论): standard
    score 0 and no session score."""

    no: int
    tables: tuple[TableRecord, ...] = ()
    absent: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(self.tables))
        object.__setattr__(self, "absent", tuple(self.absent))
        seated = [p for t in self.tables for p in t.players]
        seated += [s.substitute for t in self.tables for s in t.substitutions]
        if len(set(seated)) != len(seated):
            raise ModelError(f"session {self.no}: a player is seated twice")
        if set(seated) & set(self.absent):
            raise ModelError(f"session {self.no}: a player is both seated and absent")
        if [t.no for t in self.tables] != list(range(1, len(self.tables) + 1)):
            raise ModelError(f"session {self.no}: tables are numbered 1, 2, 3…")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"no": self.no, "tables": [t.to_dict() for t in self.tables]}
        if self.absent:
            d["absent"] = list(self.absent)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SessionRecord:
        return cls(
            no=int(d["no"]),
            tables=tuple(TableRecord.from_dict(t) for t in d.get("tables", ())),
            absent=tuple(str(p) for p in d.get("absent", ())),
        )


@dataclass(frozen=True, slots=True)
class Group:
    """Players ranked together (同组): the 1998 standard score ranks a session across the whole group."""

    id: str
    name: str = ""
    players: tuple[Player, ...] = ()
    teams: tuple[Team, ...] = ()
    sessions: tuple[SessionRecord, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "teams", tuple(self.teams))
        object.__setattr__(self, "sessions", tuple(self.sessions))
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise ModelError(f"group {self.id}: duplicate player ids")
        known = set(ids)
        for t in self.teams:
            for m in t.members:
                if m not in known:
                    raise ModelError(f"group {self.id}: team {t.id} lists unknown player {m}")
        by_team = {p.id: p.team for p in self.players}
        for t in self.teams:
            for m in t.members:
                if by_team[m] != t.id:
                    raise ModelError(f"group {self.id}: player {m} is in team {t.id} but says {by_team[m]}")
        for s in self.sessions:
            for tb in s.tables:
                for pid in (*tb.players, *(x.substitute for x in tb.substitutions)):
                    if pid not in known:
                        raise ModelError(f"group {self.id}, session {s.no}: unknown player {pid}")
        if [s.no for s in self.sessions] != list(range(1, len(self.sessions) + 1)):
            raise ModelError(f"group {self.id}: sessions are numbered 1, 2, 3…")

    @property
    def ranked_players(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.ranked)

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def team_of(self) -> dict[str, str]:
        """Player id → team id, for the players who belong to a team."""
        return {p.id: p.team for p in self.players if p.team is not None}

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "players": [p.to_dict() for p in self.players],
            "teams": [t.to_dict() for t in self.teams],
            "sessions": [s.to_dict() for s in self.sessions],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Group:
        return cls(
            id=str(d["id"]),
            name=str(d.get("name", "")),
            players=tuple(Player.from_dict(p) for p in d.get("players", ())),
            teams=tuple(Team.from_dict(t) for t in d.get("teams", ())),
            sessions=tuple(SessionRecord.from_dict(s) for s in d.get("sessions", ())),
        )


@dataclass(frozen=True, slots=True)
class Event:
    """A competition.  ``rules`` is the MCR profile (false-win payments), ``scheme`` the standard-score
    scheme (``1998`` or ``4210``), ``tie_split`` how the 1998 scheme shares tied places."""

    id: str
    name: str = ""
    rules: str = "gb"
    scheme: str = "1998"
    tie_split: str = "average"
    groups: tuple[Group, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(self.groups))
        if len({g.id for g in self.groups}) != len(self.groups):
            raise ModelError(f"event {self.id}: duplicate group ids")

    def group(self, gid: str) -> Group:
        for g in self.groups:
            if g.id == gid:
                return g
        raise KeyError(gid)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "scheme": self.scheme,
            "tie_split": self.tie_split,
            "groups": [g.to_dict() for g in self.groups],
        }
        if self.extra:
            d["extra"] = dict(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(
            id=str(d["id"]),
            name=str(d.get("name", "")),
            rules=str(d.get("rules", "gb")),
            scheme=str(d.get("scheme", "1998")),
            tie_split=str(d.get("tie_split", "average")),
            groups=tuple(Group.from_dict(g) for g in d.get("groups", ())),
            extra=dict(d.get("extra", {})),
        )
