"""The 95 % interval of a bot's score per hand in duplicate runs is taken over walls: the 24 seatings of a
wall share its luck, and identical deterministic bots play some seatings identically, so counting every
hand as an independent draw made the interval too narrow (by up to √24)."""

import math
import random

import pytest

from majiang.sim import SeatStats, SimResult, simulate


def cluster_half_width(walls: list[list[int]]) -> float:
    """The cluster-robust 95 % half width over walls, written out from the textbook formula."""
    n = sum(len(w) for w in walls)
    mean = sum(sum(w) for w in walls) / n
    k = len(walls)
    return 1.96 * math.sqrt(k / (k - 1) * sum((sum(w) - mean * len(w)) ** 2 for w in walls) / n**2)


def test_a_walls_repeated_hands_do_not_narrow_the_interval() -> None:
    rng = random.Random(7)
    walls = [[rng.randint(-30, 60)] * 24 for _ in range(20)]  # one deterministic outcome a wall, 24 times
    st = SeatStats("best")
    for w, scores in enumerate(walls):
        for x in scores:
            st.add(x, wall=w)
    once = SeatStats("best")  # each wall's outcome counted once: the information there really is
    for scores in walls:
        once.add(scores[0])
    assert st.ci95() == pytest.approx(cluster_half_width(walls))
    assert st.ci95() == pytest.approx(once.ci95())
    mean = st.score_sum / st.hands  # what was reported: 480 independent hands
    naive = 1.96 * math.sqrt(sum((x - mean) ** 2 for w in walls for x in w) / 479 / 480)
    assert st.ci95() > 4 * naive


def test_without_walls_the_interval_is_the_usual_one() -> None:
    rng = random.Random(3)
    xs = [rng.randint(-30, 60) for _ in range(200)]
    st = SeatStats("fan")
    for x in xs:
        st.add(x)
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    assert st.ci95() == pytest.approx(1.96 * sd / math.sqrt(len(xs)))
    singles = SeatStats("fan")  # one hand a wall: the cluster formula is the usual one
    for w, x in enumerate(xs):
        singles.add(x, wall=w)
    assert singles.ci95() == pytest.approx(st.ci95())


def test_a_duplicate_run_counts_its_walls_and_chunks_merge_them() -> None:
    whole = simulate(48, 5, ["rand", "eff", "rand", "eff"], duplicate=True)
    assert [len(s.walls) for s in whole.seats] == [2] * 4
    assert all(hands == 24 for _, hands in whole.seats[1].walls.values())
    assert not simulate(8, 5, ["rand"] * 4, duplicate=False).seats[0].walls
    first, second = SimResult(seats=[SeatStats("x")]), SimResult(seats=[SeatStats("x")])
    for w, x in ((0, 5), (0, -3), (1, 8)):
        first.seats[0].add(x, wall=w)
    for w, x in ((1, 2), (2, -9)):  # wall 1 was split between the two chunks
        second.seats[0].add(x, wall=w)
    first.merge(second)
    assert first.seats[0].walls == {0: [2.0, 2], 1: [10.0, 2], 2: [-9.0, 1]}
    assert first.seats[0].ci95() == pytest.approx(cluster_half_width([[5, -3], [8, 2], [-9]]))


def test_the_arenas_standings_take_the_interval_over_its_boards() -> None:
    from majiang.arena import Entrant, Record, _per_hand

    rec = Record(Entrant("best", "best"))
    walls = [[12] * 24, [-6] * 24, [30] * 24, [0] * 24]
    for w, scores in enumerate(walls):
        for x in scores:
            rec.add_hand(x, (1, w))
    lo, hi = _per_hand(rec)["score_per_hand_ci95"]
    assert (hi - lo) / 2 == pytest.approx(cluster_half_width(walls))
