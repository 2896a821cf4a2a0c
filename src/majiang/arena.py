"""A bot league in the duplicate format (复式赛制) of the IJCAI 2020 mahjong competition
(``majiang arena``, docs/arena.md).

- **Swiss rounds** (瑞士制): round 1 groups the bots into fours in a seeded random order; each later
  round groups them by the standings (ranking points, then total score, then the round-1 draw),
  passing over a group of four that has already played together whenever another grouping exists.
- **A match** is one group of four: :data:`IJCAI_WALLS` walls, the prevalent wind 东南西北 in turn,
  each played in all :data:`IJCAI_SEATINGS` seatings (every order of the four bots over the four
  seats), so the luck of the deal cancels out.  Every group of a round plays the same walls.
- **Ranking points**: 4/3/2/1 to the four bots of a match by their summed score; tied bots share
  the points of the places they tie for (:func:`rank_points`).
- **Fillers**: when the field is not a multiple of four, sample bots (``eff`` unless told) make it
  up; they play the Swiss like everyone else and are flagged in the report.

The core here does no I/O; ``majiang.cli.arena_cmd`` draws the tables and writes the JSON.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any

from majiang.bots.base import FAULT_KINDS, Bot, make_bot
from majiang.engine.compiled import new_hand
from majiang.engine.protocol import Action, Ruleset
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.sim import bot_faults, ci95_half_width, close_bots, play_hand

IJCAI_WALLS = 4  # one wall a prevalent wind: 东 南 西 北
IJCAI_SEATINGS = 24  # 4! orders of the four bots
SEATING_CHOICES = (1, 4, 24)  # the identity, the four rotations, all orders (cut-down matches for tests)
RANK_POINTS = (4, 3, 2, 1)
FORMAT = "majiang-arena/1"

Group = tuple[str, ...]
Progress = Callable[[int, int, int], None]  # (hands done, hands in all, round)


def rank_points(scores: Sequence[float]) -> list[float]:
    """Ranking points of a match's four bots from their summed scores: 4 for the highest, then 3,
    2, 1; bots on the same score share the points of the places they hold together.  The four
    always get 10 between them.

    >>> rank_points([10, -2, 5, -13])
    [4.0, 2.0, 3.0, 1.0]
    >>> rank_points([5, 5, 0, -10])
    [3.5, 3.5, 2.0, 1.0]
    >>> rank_points([0, 0, 0, 0])
    [2.5, 2.5, 2.5, 2.5]
    """
    if len(scores) != len(RANK_POINTS):
        raise ValueError(f"a match has {len(RANK_POINTS)} bots, got {len(scores)} scores")
    places = sorted(range(len(scores)), key=lambda i: -scores[i])
    points = [0.0] * len(scores)
    i = 0
    while i < len(places):
        j = i
        while j + 1 < len(places) and scores[places[j + 1]] == scores[places[i]]:
            j += 1
        share = Fraction(sum(RANK_POINTS[i : j + 1]), j + 1 - i)
        for k in places[i : j + 1]:
            points[k] = float(share)
        i = j + 1
    return points


def match_seatings(n: int) -> list[tuple[int, ...]]:
    """The seatings a wall is played in: ``seating[seat]`` is the group's bot in that seat.  24 is
    every order (IJCAI's format); 4 the rotations (each bot once in each seat); 1 the group's order."""
    if n == 24:
        return list(permutations(range(4)))
    if n == 4:
        return [tuple((s + r) % 4 for s in range(4)) for r in range(4)]
    if n == 1:
        return [(0, 1, 2, 3)]
    raise ValueError(f"seatings must be one of {', '.join(map(str, SEATING_CHOICES))}, got {n}")


@dataclass(frozen=True)
class Entrant:
    """A bot in the league: ``id`` is unique (``eff``, ``eff#2`` for a second ``eff``, fillers
    ``eff#filler1``); ``spec`` is what :func:`~majiang.bots.base.make_bot` makes it from."""

    id: str
    spec: str
    filler: bool = False


NAMED = re.compile(r"([A-Za-z0-9_.-]+)=(.+)")  # NAME=SPEC: "mybot=botzone:./mybot"


def field_of(specs: Sequence[str], filler: str = "eff") -> list[Entrant]:
    """The league's entrants: the ``specs`` in order, then as many ``filler`` bots as make the
    field a multiple of four.  ``NAME=SPEC`` names a bot; a name taken before gets ``#2``, ``#3`` …

    >>> [e.id for e in field_of(["eff", "fan", "eff", "rand", "fan"], filler="rand")]
    ['eff', 'fan', 'eff#2', 'rand', 'fan#2', 'rand#filler1', 'rand#filler2', 'rand#filler3']
    >>> [(e.id, e.spec) for e in field_of(["mine=botzone:./mybot", "eff", "mine=ext:./other", "rand"])]
    [('mine', 'botzone:./mybot'), ('eff', 'eff'), ('mine#2', 'ext:./other'), ('rand', 'rand')]
    """
    seen: dict[str, int] = {}
    out: list[Entrant] = []
    for given in specs:
        named = NAMED.fullmatch(given)
        name, spec = (named[1], named[2]) if named else (given, given)
        seen[name] = seen.get(name, 0) + 1
        out.append(Entrant(name if seen[name] == 1 else f"{name}#{seen[name]}", spec))
    for k in range(1, (-len(specs)) % 4 + 1):
        out.append(Entrant(f"{filler}#filler{k}", filler, filler=True))
    return out


def first_round_order(ids: Sequence[str], seed: int) -> list[str]:
    """The seeded random draw (抽签) that groups round 1 and breaks the last ties of the standings."""
    order = list(ids)
    random.Random(f"majiang-arena draw {seed}").shuffle(order)
    return order


def swiss_groups(
    order: Sequence[str], played: Collection[frozenset[str]] = (), limit: int = 20_000
) -> tuple[Group, ...]:
    """Groups of four from the standings ``order`` (best first): each group is the best remaining
    bot with the best-placed three that make a group not in ``played``; the search backtracks when
    a later group cannot be made, trying ``limit`` groups at most.  When no such grouping is found,
    the plain one: the top four, the next four, …

    >>> swiss_groups("ABCDEFGH")
    (('A', 'B', 'C', 'D'), ('E', 'F', 'G', 'H'))
    >>> swiss_groups("ABCDEFGH", played=[frozenset("ABCD"), frozenset("EFGH")])
    (('A', 'B', 'C', 'E'), ('D', 'F', 'G', 'H'))
    """
    if len(order) % 4:
        raise ValueError(f"{len(order)} bots do not make groups of four")
    tried = 0

    def fill(remaining: list[str]) -> list[Group] | None:
        nonlocal tried
        if not remaining:
            return []
        head, rest = remaining[0], remaining[1:]
        for trio in combinations(range(len(rest)), 3):
            tried += 1
            if tried > limit:
                return None
            group = (head, *(rest[k] for k in trio))
            if frozenset(group) in played:
                continue
            later = fill([p for k, p in enumerate(rest) if k not in trio])
            if later is not None:
                return [group, *later]
        return None

    found = fill(list(order))
    if found is None:
        found = [tuple(order[i : i + 4]) for i in range(0, len(order), 4)]
    return tuple(found)


class TimedBot:
    """A bot with a stopwatch around each :meth:`choose` (the time per decision in the report);
    the optional hooks (``hand_over``, ``close``, ``faults``) are the wrapped bot's."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        t0 = time.perf_counter()
        try:
            return self.bot.choose(view, legal)
        finally:
            self.times.append(time.perf_counter() - t0)

    @property
    def last_fault(self) -> str | None:
        """The wrapped bot's (:func:`~majiang.bots.base.take_fault` clears it there)."""
        return getattr(self.bot, "last_fault", None)

    @last_fault.setter
    def last_fault(self, kind: str | None) -> None:
        if hasattr(self.bot, "last_fault"):
            self.bot.last_fault = kind

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


@dataclass
class Record:
    """One bot's line in the standings."""

    entrant: Entrant
    points: float = 0.0
    matches: int = 0
    hands: int = 0
    score: int = 0
    score_sq: int = 0
    wins: int = 0
    deal_ins: int = 0
    draws: int = 0
    illegal: int = 0  # faults seen by the runner: refused actions, and those the bot reported
    false_wins: int = 0  # 诈和, as the ruleset scores them
    #: faults by kind (timeout, illegal, crash: majiang.bots.base.FAULT_KINDS)
    fault_kinds: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS.values(), 0))
    #: (round, wall) → [score sum, hands]: a wall's seatings are one draw of luck (sim.ci95_half_width)
    walls: dict[tuple[int, int], list[float]] = field(default_factory=dict)

    def add_hand(self, delta: int, wall: tuple[int, int]) -> None:
        self.hands += 1
        self.score += delta
        self.score_sq += delta * delta
        cell = self.walls.setdefault(wall, [0.0, 0])
        cell[0] += delta
        cell[1] += 1


@dataclass
class Match:
    round: int
    table: int
    bots: Group
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    points: list[float] = field(default_factory=list)
    hands: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "bots": list(self.bots),
            "scores": self.scores,
            "points": self.points,
            "hands": self.hands,
        }


@dataclass
class Round:
    no: int
    order: list[str]  # the order the groups were made from: the draw, then the standings
    matches: list[Match]
    repeats: int  # groups that had already played together (0 whenever it could be avoided)


@dataclass
class League:
    rules: str
    faults: str
    seed: int
    filler: str
    walls: int
    seatings: int
    entrants: list[Entrant]
    draw: list[str]
    records: dict[str, Record]
    players: dict[str, TimedBot]
    rounds: list[Round] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def hands_per_match(self) -> int:
        return self.walls * self.seatings

    def standings(self) -> list[str]:
        """Best first: ranking points, then total score, then the round-1 draw."""
        pos = {b: i for i, b in enumerate(self.draw)}
        return sorted(self.records, key=lambda b: (-self.records[b].points, -self.records[b].score, pos[b]))

    def to_dict(self) -> dict[str, Any]:
        """The report; the same seed gives the same report but for ``seconds`` and the
        ``time_per_decision_ms`` of each bot."""
        table = []
        for rank, b in enumerate(self.standings(), 1):
            r = self.records[b]
            bot = self.players[b]
            table.append(
                {
                    "rank": rank,
                    "bot": b,
                    "spec": r.entrant.spec,
                    "filler": r.entrant.filler,
                    "points": r.points,
                    "matches": r.matches,
                    "hands": r.hands,
                    "score": r.score,
                    **_per_hand(r),
                    "win_rate": r.wins / max(r.hands, 1),
                    "deal_in_rate": r.deal_ins / max(r.hands, 1),
                    "draw_rate": r.draws / max(r.hands, 1),
                    "faults": r.illegal + unreported_faults(bot.bot),
                    "fault_kinds": dict(r.fault_kinds),
                    "false_wins": r.false_wins,
                    "decisions": len(bot.times),
                    "time_per_decision_ms": _times_ms(bot.times),
                }
            )
        return {
            "format": FORMAT,
            "rules": self.rules,
            "faults": self.faults,
            "seed": self.seed,
            "filler": self.filler,
            "rounds": len(self.rounds),
            "walls_per_match": self.walls,
            "seatings_per_match": self.seatings,
            "hands_per_match": self.hands_per_match,
            "entrants": [{"bot": e.id, "spec": e.spec, "filler": e.filler} for e in self.entrants],
            "standings": table,
            "pairings": [
                {"round": r.no, "order": r.order, "repeats": r.repeats, "matches": [m.to_dict() for m in r.matches]}
                for r in self.rounds
            ],
            "seconds": self.seconds,
        }


def unreported_faults(bot: Bot) -> int:
    """Faults a bot counts but did not report to the runner (a bot without ``last_fault``)."""
    return bot_faults([bot])


def _per_hand(r: Record) -> dict[str, Any]:
    mean = r.score / max(r.hands, 1)
    ci = ci95_half_width(r.hands, r.score, r.score_sq, r.walls)
    return {"score_per_hand": mean, "score_per_hand_ci95": [mean - ci, mean + ci]}


def _times_ms(times: Sequence[float]) -> dict[str, float]:
    if not times:
        return {"mean": 0.0, "p50": 0.0, "p99": 0.0}
    ordered = sorted(times)

    def rank(q: float) -> float:  # nearest rank
        return ordered[min(len(ordered) - 1, max(math.ceil(q * len(ordered)) - 1, 0))]

    return {"mean": 1000 * sum(ordered) / len(ordered), "p50": 1000 * rank(0.5), "p99": 1000 * rank(0.99)}


def _digest(*parts: object) -> bytes:
    return hashlib.sha256(repr(parts).encode()).digest()


def wall_seed(seed: int, round_no: int, wall: int) -> bytes:
    """The wall of one round's ``wall``-th board: the same at every table of that round."""
    return _digest("majiang-arena wall", seed, round_no, wall)


def run_league(
    specs: Sequence[str],
    rounds: int,
    seed: int = 1,
    rules: str = "gb",
    filler: str = "eff",
    walls: int = IJCAI_WALLS,
    seatings: int = IJCAI_SEATINGS,
    time_limit: float | None = None,
    progress: Progress | None = None,
    faults: str = "botzone",
) -> League:
    """Play a league of ``rounds`` Swiss rounds between the bots ``specs`` (duplicates allowed;
    :func:`field_of`).  ``time_limit``: seconds a turn for the Botzone bots that do not set their own.
    ``faults``: how a bot's fault is scored — ``botzone`` (the IJCAI format, Botzone's judge: the hand
    ends, −30 for the offender and +10 for each other bot) or ``substitute`` (a legal move is played
    in its place, the score unchanged)."""
    if len(specs) < 2:
        raise ValueError(f"a league needs at least two bots, got {len(specs)}")
    if rounds < 1:
        raise ValueError("rounds must be at least 1")
    if not 1 <= walls <= IJCAI_WALLS:
        raise ValueError(f"walls must be 1 to {IJCAI_WALLS} (one a prevalent wind), got {walls}")
    order_of_seats = match_seatings(seatings)
    ruleset = make_ruleset(rules, {"faults": faults})
    entrants = field_of(specs, filler)
    players: dict[str, TimedBot] = {}
    try:
        for i, e in enumerate(entrants):
            bot_seed = int.from_bytes(_digest("majiang-arena bot", seed, i)[:8], "big")
            players[e.id] = TimedBot(make_bot(_limited(e.spec, time_limit), bot_seed, rules=rules))
        league = League(
            rules,
            faults,
            seed,
            filler,
            walls,
            seatings,
            entrants,
            first_round_order([e.id for e in entrants], seed),
            {e.id: Record(e) for e in entrants},
            players,
        )
        total = rounds * len(entrants) // 4 * league.hands_per_match
        done = 0
        played: set[frozenset[str]] = set()
        t0 = time.perf_counter()
        for round_no in range(1, rounds + 1):
            order = league.draw if round_no == 1 else league.standings()
            groups = swiss_groups(order, played)
            rnd = Round(
                round_no,
                list(order),
                [Match(round_no, t, g) for t, g in enumerate(groups, 1)],
                sum(frozenset(g) in played for g in groups),
            )
            boards = [wall_seed(seed, round_no, w) for w in range(walls)]
            for m in rnd.matches:  # the standings change only after the whole round
                for w, board in enumerate(boards):
                    for seating in order_of_seats:
                        _play(league, m, ruleset, board, w, seating)
                        done += 1
                        if progress:
                            progress(done, total, round_no)
            for m in rnd.matches:
                m.points = rank_points(m.scores)
                for b, pts in zip(m.bots, m.points, strict=True):
                    league.records[b].points += pts
                    league.records[b].matches += 1
                played.update(frozenset(m.bots) for m in rnd.matches)
            league.rounds.append(rnd)
        league.seconds = time.perf_counter() - t0
        return league
    finally:
        close_bots([p.bot for p in players.values()])


def _limited(spec: str, seconds: float | None) -> str:
    if seconds is None:
        return spec
    from majiang.bots.botzone import with_time_limit

    return with_time_limit(spec, seconds)


def _play(league: League, m: Match, ruleset: Ruleset, board: bytes, wall: int, seating: tuple[int, ...]) -> None:
    """One hand of match ``m``: ``seating[seat]`` is the index in ``m.bots`` of the bot there."""
    who = [m.bots[seating[s]] for s in range(4)]
    records = [league.records[b] for b in who]
    hand = new_hand(ruleset, board, dealer=0, prevalent=wall, hand_no=m.hands)

    def illegal(seat: int, kind: str) -> None:
        records[seat].illegal += 1
        name = FAULT_KINDS.get(kind, "illegal")
        records[seat].fault_kinds[name] = records[seat].fault_kinds.get(name, 0) + 1

    play_hand(hand, [league.players[b] for b in who], illegal)
    m.hands += 1
    for s in range(4):
        records[s].add_hand(hand.deltas[s], (m.round, wall))
        m.scores[seating[s]] += hand.deltas[s]
    for e in hand.events:
        if e["type"] == "false_win":
            records[e["seat"]].false_wins += 1
    w = hand.win
    if w is not None:
        records[w.seat].wins += 1
        if w.discarder is not None:
            records[w.discarder].deal_ins += 1
    elif hand.events[-1].get("result") == "draw":  # 荒牌: the wall ran out (not a hand a fault ended)
        for r in records:
            r.draws += 1
