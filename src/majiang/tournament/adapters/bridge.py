"""The engine bridge: play a table's session on the real game engine with bots, and turn engine
results (a finished :class:`~majiang.engine.hand.Hand`, or a hall hand's stored result) into the
competition's :class:`~majiang.tournament.model.HandRecord`.

This is an edge module (it imports the engine and the bots); the competition core stays pure.

Seats: the tournament names a player by his index in the table's ``players`` (first-round seat
E, S, W, N).  :class:`majiang.engine.session.Session` keeps players 0–3 the same and moves them
between chairs after each round exactly as :data:`majiang.tournament.seating.ROTATION_1998` does,
so the engine's player numbers are the table's seat indices.

>>> from majiang.tournament.demo import TableSeating
>>> hands = play_table(TableSeating(session=1, table=1, players=("a", "b", "c", "d"), seed=7))
>>> len(hands), all(1 <= h.no <= 16 for h in hands)
(16, True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from majiang.mcr.fans import FAN_INFO, Fan
from majiang.tournament.demo import PlaySession, TableSeating, build_demo, result_json
from majiang.tournament.model import HandRecord
from majiang.tournament.penalties import Penalty, PenaltyCode
from majiang.tournament.ranking import evaluate
from majiang.tournament.scoring import hand_deltas

FLOWER_NAMES = frozenset({FAN_INFO[Fan.FLOWER_TILES].en, FAN_INFO[Fan.FLOWER_TILES].zh})

#: bots: one spec for everybody, or player id → spec (``rand``, ``eff``, ``fan``, ``ext:COMMAND``)
BotSpec = str | Mapping[str, str]


class BridgeError(RuntimeError):
    """The engine and the competition rules disagree about a hand (a rules-profile mismatch)."""


def session_seed(seed: int) -> bytes:
    """The engine session seed of a table (from :attr:`TableSeating.seed`)."""
    return hashlib.sha256(b"majiang-tournament:" + str(seed).encode()).digest()


def record_from_outcome(
    no: int,
    win: Mapping[str, Any] | None,
    false_wins: Iterable[tuple[int, str]],
    chair_players: Sequence[int] = (0, 1, 2, 3),
) -> HandRecord:
    """One hand in the competition's terms.

    ``win``: ``{"seat", "from", "fans"}`` with chairs (the engine's ``Win`` as the hall stores it,
    ``fans`` a list of ``{"name", "zh", "points", "count"}``), or None for an exhaustive draw.
    ``false_wins``: ``(chair, kind)`` with kind ``wrong`` (错和) or ``short`` (诈和).
    ``chair_players[chair]`` is the table player (first-round seat index) sitting at that chair.
    Flowers are taken out of the fan list into ``flowers``."""
    pens = tuple(
        Penalty(
            seat=chair_players[chair],
            code=PenaltyCode.DECEPTIVE_WIN if kind == "short" else PenaltyCode.FALSE_WIN,
            note=f"engine: {kind}",
        )
        for chair, kind in false_wins
    )
    if win is None:
        return HandRecord(no=no, penalties=pens)
    fans: list[str] = []
    flowers = 0
    for f in win.get("fans", ()):
        count = int(f.get("count", 1))
        if f.get("name") in FLOWER_NAMES or f.get("zh") in FLOWER_NAMES:
            flowers += count
            continue
        fans.extend([str(f.get("zh") or f["name"])] * count)
    discarder = win.get("from")
    return HandRecord(
        no=no,
        winner=chair_players[int(win["seat"])],
        discarder=None if discarder is None else chair_players[int(discarder)],
        fans=tuple(fans),
        flowers=flowers,
        penalties=pens,
    )


def false_wins_of(events: Iterable[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """``(chair, kind)`` of every false win in a hand's event log."""
    return [(int(e["seat"]), str(e.get("kind", "wrong"))) for e in events if e.get("type") == "false_win"]


def _bots(spec: BotSpec, players: Sequence[str], seed: int) -> list[Any]:
    from majiang.bots.base import make_bot

    kinds = [spec] * 4 if isinstance(spec, str) else [spec.get(p, "rand") for p in players]
    return [make_bot(kind, seed * 4 + i) for i, kind in enumerate(kinds)]


def play_table(
    seating: TableSeating, bots: BotSpec = "rand", rules: str = "gb", *, check: bool = True, seed: bytes | None = None
) -> list[HandRecord]:
    """Play one table's session (16 hands, the 1998 seat changes) on the engine, each player by his
    bot; returns the hand records in the table's seat terms.  ``check`` verifies that the
    competition's payments reproduce the engine's score changes for every hand.  ``seed``: the engine
    session seed (复式: the session's, so that hand k deals the wall it deals at every table); default
    :func:`session_seed` of the seating's."""
    from majiang.engine.session import Session
    from majiang.rulesets import make_ruleset
    from majiang.sim import play_hand

    session = Session(make_ruleset(rules), seed if seed is not None else session_seed(seating.seed))
    players = _bots(bots, seating.players, seating.seed)
    out: list[HandRecord] = []
    while True:
        hand = session.new_hand()
        if hand is None:
            break
        chairs = [session.player_at(s) for s in range(4)]
        play_hand(hand, [players[chairs[s]] for s in range(4)])
        rec = session.finish_hand(hand)
        w = hand.win
        win = None if w is None else {"seat": w.seat, "from": w.discarder, "fans": w.names}
        record = record_from_outcome(len(out) + 1, win, false_wins_of(hand.events), rec.players)
        if check:
            mine = hand_deltas(record, rules)
            if mine != rec.deltas:
                raise BridgeError(
                    f"session {seating.session} table {seating.table} hand {record.no}: the engine "
                    f"scored {rec.deltas}, the competition rules {mine} (rules {rules!r})"
                )
            if w is not None and record.fan_total != w.points:
                raise BridgeError(f"hand {record.no}: fan total {record.fan_total} ≠ engine {w.points}")
        out.append(record)
    return out


def engine_play_session(
    bots: BotSpec = "rand", rules: str = "gb", progress: Callable[[TableSeating], None] | None = None
) -> PlaySession:
    """A ``play_session`` callback for :func:`majiang.tournament.demo.run_demo`: every table played on
    the engine by bots; ``progress`` is called after each table."""

    def play(seating: TableSeating) -> list[HandRecord]:
        hands = play_table(seating, bots, rules)
        if progress is not None:
            progress(seating)
        return hands

    return play


def engine_demo(
    players: int = 16,
    teams: int = 4,
    sessions: int = 4,
    seed: int = 1,
    scheme: str = "1998",
    *,
    bots: BotSpec = "rand",
    rules: str = "gb",
    progress: Callable[[TableSeating], None] | None = None,
) -> dict[str, Any]:
    """:func:`majiang.tournament.demo.run_demo` played on the engine: the JSON of ``majiang tournament demo``."""
    event, result, plan = build_demo(
        players, teams, sessions, seed, scheme, play_session=engine_play_session(bots, rules, progress)
    )
    if rules != event.rules:  # the demo event is scored by the default profile; rescore under ``rules``
        result = evaluate(event.groups[0], rules=rules, scheme=scheme)
    return result_json(result, plan.repeats)
