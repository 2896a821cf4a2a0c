"""Seats at one table: the draw (定位), the seat changes between the four rounds of a session
(mcr.md §1), who deals each hand, and starting winds balanced across sessions.

A table's players are listed in their first-round seats: index 0 East, 1 South, 2 West, 3 North.

>>> [round_seats(r) for r in range(4)]
[(0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1)]
>>> dealer(1), dealer(5), dealer(16)
(0, 1, 1)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from majiang.tournament.model import HANDS_PER_SESSION

Schedule = tuple[tuple[tuple[str, ...], ...], ...]
"""Sessions → tables → the four player ids in first-round seats (E, S, W, N)."""

#: A seat change maps each seat (0 E … 3 N) to the seat its player moves to.
SeatChange = tuple[int, int, int, int]

SWAP_PAIRS: SeatChange = (1, 0, 3, 2)  # E↔S, W↔N
CYCLE: SeatChange = (2, 3, 1, 0)  # E→W, W→S, S→N, N→E
#: mcr.md §1: after the East round E↔S and W↔N; after South E→W, W→S, S→N, N→E; after West as after East.
ROTATION_1998: tuple[SeatChange, SeatChange, SeatChange] = (SWAP_PAIRS, CYCLE, SWAP_PAIRS)
#: No seat changes (casual play).
NO_ROTATION: tuple[SeatChange, SeatChange, SeatChange] = ((0, 1, 2, 3),) * 3

WINDS = "ESWN"
WINDS_ZH = "东南西北"


def round_seats(round_index: int, rotation: Sequence[SeatChange] = ROTATION_1998) -> tuple[int, int, int, int]:
    """Which table player sits East, South, West, North at the start of round ``round_index`` (0–3)."""
    if not 0 <= round_index <= 3:
        raise ValueError(f"rounds are 0–3, got {round_index}")
    at = [0, 1, 2, 3]  # at[seat] = player index
    for change in rotation[:round_index]:
        moved = [0, 0, 0, 0]
        for seat, player in enumerate(at):
            moved[change[seat]] = player
        at = moved
    return (at[0], at[1], at[2], at[3])


def dealer(hand_no: int, rotation: Sequence[SeatChange] = ROTATION_1998) -> int:
    """The table player who deals hand ``hand_no`` (1–16): the deal passes after every hand (no 连庄)."""
    r, k = divmod(hand_no - 1, 4)
    return round_seats(r, rotation)[k]


def seat_winds(hand_no: int, rotation: Sequence[SeatChange] = ROTATION_1998) -> tuple[int, int, int, int]:
    """Each table player's seat wind (门风, 0 E … 3 N) in hand ``hand_no``: the dealer is East."""
    r, k = divmod(hand_no - 1, 4)
    seats = round_seats(r, rotation)
    winds = [0, 0, 0, 0]
    for seat, player in enumerate(seats):
        winds[player] = (seat - k) % 4
    return (winds[0], winds[1], winds[2], winds[3])


def prevalent_wind(hand_no: int) -> int:
    """圈风: East for hands 1–4, South 5–8, West 9–12, North 13–16."""
    if not 1 <= hand_no <= HANDS_PER_SESSION:
        raise ValueError(f"hands are 1–{HANDS_PER_SESSION}")
    return (hand_no - 1) // 4


def draw_seats(player_ids: Sequence[str], seed: int) -> tuple[tuple[str, ...], ...]:
    """定位: shuffle the players with a seeded generator and seat them four to a table, East first."""
    if len(player_ids) % 4:
        raise ValueError(f"{len(player_ids)} players do not fill tables of four")
    order = list(player_ids)
    random.Random(seed).shuffle(order)
    return tuple(tuple(order[i : i + 4]) for i in range(0, len(order), 4))


def wind_counts(schedule: Schedule) -> dict[str, list[int]]:
    """How often each player starts a session in each first-round seat (E, S, W, N)."""
    counts: dict[str, list[int]] = {}
    for session in schedule:
        for table in session:
            for seat, p in enumerate(table):
                counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    return counts


_PERMS = tuple(itertools.permutations(range(4)))


def _seat_cost(seats: Sequence[int]) -> int:
    """How unevenly one player starts, session after session (``seats``: his first-round seat in each
    session he plays, in order): after his k-th session no seat should have come up more than ⌈k/4⌉
    times (each excess counts squared, heavily), and at the end the counts should be even."""
    counts = [0, 0, 0, 0]
    excess = 0
    for k, seat in enumerate(seats, start=1):
        counts[seat] += 1
        cap = -(-k // 4)
        excess += sum(max(0, c - cap) ** 2 for c in counts)
    return excess * 1000 + sum(c * c for c in counts)


def balance_winds(schedule: Schedule, passes: int = 20, *, played: Schedule = (), restarts: int = 6) -> Schedule:
    """Reorder the players of every table so that each starts in each seat as evenly as possible, at
    every point of the event and not only at its end (nobody starts East in two of the first three
    sessions while someone else never has).  Tables keep their players; only the seats change.
    ``played`` sessions count but keep their seats (use it to seat a later round).  Each session is
    first seated in turn given the sessions before it; then coordinate descent: each table in turn takes
    the ordering that lowers its players' unevenness (:func:`_seat_cost`) given all other tables, until
    nothing improves; on a small event (players × sessions ≤ 256) with an excess left, a few seeded
    restarts from shuffled seats keep the best.  Deterministic."""
    fixed = [[tuple(t) for t in s] for s in played]
    start = len(fixed)
    base = [*fixed, *[[tuple(t) for t in s] for s in schedule]]
    where: dict[str, list[tuple[int, int]]] = {}
    for j, sess in enumerate(base):
        for ti, t in enumerate(sess):
            for p in t:
                where.setdefault(p, []).append((j, ti))

    def player_cost(sched: list[list[tuple[str, ...]]], p: str, upto: int | None = None) -> int:
        return _seat_cost([sched[j][ti].index(p) for j, ti in where[p] if upto is None or j <= upto])

    def best_order(sched: list[list[tuple[str, ...]]], j: int, ti: int, upto: int | None) -> bool:
        t = sched[j][ti]
        costs = []
        for perm in _PERMS:
            sched[j][ti] = tuple(t[i] for i in perm)
            costs.append((sum(player_cost(sched, p, upto) for p in t), perm))
        sched[j][ti] = t
        cost, perm = min(costs)
        if cost < costs[0][0]:  # _PERMS[0] is the identity
            sched[j][ti] = tuple(t[i] for i in perm)
            return True
        return False

    def descend(sched: list[list[tuple[str, ...]]]) -> int:
        for _ in range(passes):
            changed = False
            for j in range(start, len(sched)):
                for ti in range(len(sched[j])):
                    changed = best_order(sched, j, ti, None) or changed
            if not changed:
                break
        return sum(player_cost(sched, p) for p in where)

    first = [list(s) for s in base]
    for j in range(start, len(first)):  # session by session, later ones not yet counted
        for ti in range(len(first[j])):
            best_order(first, j, ti, j)
    best_cost, best = descend(first), first
    rng = random.Random(len(where) * 7919 + len(base))
    small = len(where) * len(base) <= 256  # restarts cost seconds on a large event (100 players: 10 s)
    for _ in range(restarts if best_cost >= 1000 and small else 0):  # an excess left: try from shuffled seats
        trial = [list(s) for s in base]
        for j in range(start, len(trial)):
            trial[j] = [tuple(rng.sample(t, len(t))) for t in trial[j]]
        cost = descend(trial)
        if cost < best_cost:
            best_cost, best = cost, trial
    return tuple(tuple(tuple(t) for t in s) for s in best[start:])
