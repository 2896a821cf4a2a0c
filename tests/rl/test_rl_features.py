"""The observation planes: every piece of public information, nothing hidden."""

import random

import numpy as np
import pytest

from majiang.bots.base import RandomBot
from majiang.engine import Hand
from majiang.engine.view import SeatView
from majiang.melds import KONG, Meld
from majiang.rl import OBS_SHAPE, DiscardLog, botzone_v0, discard_order, encode, mcr_v0, nanchang_v0
from majiang.rl import features as F
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand
from majiang.tiles import EAST, NUM_KINDS, WEST


def _block(obs, k):
    return obs[F.GLOBAL_ROWS + k * F.BLOCK_ROWS : F.GLOBAL_ROWS + (k + 1) * F.BLOCK_ROWS]


def _played(seed, rules="gb", stop=None):
    rng = random.Random(seed)
    h = Hand(make_ruleset(rules), rng.randbytes(32), dealer=seed % 4, prevalent=2, hand_no=9, scores=[30, -20, 0, -10])
    bots = [RandomBot(seed * 4 + i) for i in range(4)]
    steps = 0
    while not h.over and (stop is None or steps < stop):
        p = h.prompted()[0]
        h.act(p, bots[p].choose(SeatView(h, p), h.legal(p)))
        steps += 1
    return h


def test_public_information_is_in_the_planes():
    h = _played(7, stop=60)
    seat = 1
    v = SeatView(h, seat)
    obs = encode(v, DiscardLog().feed(h.events))
    assert obs.shape == OBS_SHAPE and obs.dtype == np.float32
    assert obs[F.PREVALENT, WEST] == 1 and obs[F.PREVALENT].sum() == 1  # prevalent West (not always East)
    assert obs[F.SEAT_WIND, EAST + v.seat_wind] == 1
    assert obs[F.SCALARS, 0] == np.float32(v.wall / 144) and obs[F.SCALARS, 1] == np.float32(9 / 15)
    assert np.array_equal(obs[F.OWN : F.OWN + 4].sum(axis=0), np.asarray(v.counts, dtype=np.float32))
    for k in range(4):
        s = (seat + k) % 4
        b = _block(obs, k)
        info = b[F.B_INFO]
        assert [i for i in range(8) if info[F.INFO_FLOWERS + i]] == [f - 34 for f in sorted(v.flowers[s])]
        assert info[F.INFO_CONCEALED] == np.float32(v.concealed_counts[s] / 14)
        assert info[F.INFO_SCORE] == np.float32((v.scores[s] / 100 + 1) / 2)
        assert info[F.INFO_DEALER] == (s == v.dealer)
        pond = [t for t, c in zip(v.discards[s], v.claimed[s], strict=True) if not c]
        assert np.array_equal(b[F.B_POND : F.B_POND + 4].sum(axis=0), np.bincount(pond, minlength=NUM_KINDS))
        # the pond in order, one plane per discard
        assert [int(np.flatnonzero(b[F.B_ORDER + i])[0]) for i in range(len(v.discards[s]))] == v.discards[s]
    # the global order and the claimers read back from the planes
    back = []
    for k in range(4):
        s = (seat + k) % 4
        b = _block(obs, k)
        for i, t in enumerate(v.discards[s]):
            taken = [r for r in range(3) if b[F.B_CLAIMED + r, i]]
            claimer = (s + taken[0] + 1) % 4 if taken else None
            back.append((round(float(b[F.B_SEQ, i]) * F.ORDER_SCALE), s, t, claimer))
    order = DiscardLog().feed(h.events)
    assert [(s, t, c) for _, s, t, c in sorted(back)] == [(d.seat, d.tile, d.claimer) for d in order]
    assert any(d.claimer is not None for d in order)


def test_discard_order_from_the_view_matches_the_event_log():
    same = 0
    for seed in range(60):
        for rules in ("gb", "nanchang"):
            h = _played(seed, rules)
            log = DiscardLog().feed(h.events)
            got = discard_order(SeatView(h, seed % 4))
            assert got is not None
            assert sorted((d.seat, d.index, d.tile) for d in got) == sorted((d.seat, d.index, d.tile) for d in log)
            same += got == log
    assert same >= 115  # two seats' next claims rarely fit the same discard


def test_other_seats_concealed_tiles_never_change_the_observation():
    """Re-deal what ``seat`` cannot see — the others' concealed tiles and the wall — and the
    observation stays the same."""
    rng = random.Random(0)
    checked = 0
    for seed in range(12):
        for stop in (5, 30, 70):
            h = _played(seed, stop=stop)
            if h.over:
                continue
            for seat in range(4):
                before = encode(SeatView(h, seat), DiscardLog().feed(h.events))
                others = [s for s in range(4) if s != seat]
                saved = [list(h.seats[s].counts) for s in others], list(h.wall.tiles)
                pool = [t for s in others for t in h.seats[s].concealed()]
                live = [i for i, taken in enumerate(h.wall.taken) if not taken and h.wall.tiles[i] < NUM_KINDS]
                pool += [h.wall.tiles[i] for i in live]
                rng.shuffle(pool)
                for s in others:
                    n = h.seats[s].n_concealed
                    h.seats[s].counts = list(np.bincount(pool[:n], minlength=NUM_KINDS))
                    pool = pool[n:]
                for i, t in zip(live, pool, strict=True):
                    h.wall.tiles[i] = t
                assert np.array_equal(before, encode(SeatView(h, seat), DiscardLog().feed(h.events)))
                for s, c in zip(others, saved[0], strict=True):
                    h.seats[s].counts = c
                h.wall.tiles[:] = saved[1]
                checked += 1
    assert checked > 100


def test_another_seats_concealed_kong_shows_only_that_it_exists():
    h = _played(3, stop=20)
    h.seats[2].melds.append(Meld(KONG, (5,) * 4, concealed=True))
    a = encode(SeatView(h, 0))
    h.seats[2].melds[-1] = Meld(KONG, (30,) * 4, concealed=True)
    b = encode(SeatView(h, 0))
    assert np.array_equal(a, b)
    assert _block(a, 2)[F.B_INFO, F.INFO_CONCEALED_KONGS] == 0.25
    own = encode(SeatView(h, 2))  # its owner sees its faces
    assert _block(own, 0)[F.B_MELDS + 3, 30] == 1


def test_encode_works_inside_a_bot():
    class PlaneBot:
        name = "planes"

        def __init__(self):
            self.seen = 0

        def choose(self, view, legal):
            obs = encode(view)
            assert obs.shape == OBS_SHAPE and F.OBS_LOW.min() <= obs.min() and obs.max() <= 1
            self.seen += 1
            return legal[-1]

    bots = [PlaneBot() for _ in range(4)]
    h = Hand(make_ruleset("gb"), bytes(32))
    play_hand(h, bots)
    assert h.over and sum(b.seen for b in bots) > 30


@pytest.mark.parametrize("mod", [mcr_v0, nanchang_v0, botzone_v0], ids=["mcr", "nanchang", "botzone"])
def test_the_environment_observation_is_the_encoding_of_the_seat_view(mod):
    """The environments rebuild only the seat blocks that changed; every observation is still
    exactly encode(view) built from nothing."""
    env = mod.raw_env()
    rng = np.random.default_rng(0)
    for seed in range(4):
        env.reset(seed=seed)
        while True:
            for s in (0, 2, 1, 3):
                fresh = encode(SeatView(env.hand, s), DiscardLog().feed(env.hand.events))
                assert np.array_equal(env.observe(f"player_{s}")["observation"], fresh)
            if env.table.over:
                break
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
