"""``seedrng.h`` (through its test hooks ``majiang._speedups.seedrng``) against Python: SHAKE-256 and
SHA-256 against hashlib, ``SeedStream.below`` and the wall's ``shuffle`` against majiang, and the
MT19937 twin against ``random.Random`` (int seeds, ``choice``, ``getrandbits``, ``getstate`` both ways)."""

from __future__ import annotations

import hashlib
import random

import pytest

from majiang.engine.wall import Wall, shuffle
from majiang.seeded import SeedStream
from majiang.tiles import full_set

C = pytest.importorskip("majiang._speedups.seedrng", reason="majiang._speedups.seedrng not built (setup.py build_ext)")

RNG = random.Random(20240611)
EDGE_LENGTHS = [0, 1, 2, 7, 8, 31, 32, 63, 64, 135, 136, 137, 271, 272, 273, 408, 1000]
MT_SEEDS = [0, 1, 2, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**63, 2**64 - 1]
MT_SEEDS += [RNG.getrandbits(32) for _ in range(4)] + [RNG.getrandbits(64) for _ in range(4)]


def data(n: int) -> bytes:
    return RNG.randbytes(n)


# ---- SHAKE-256 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("inlen", EDGE_LENGTHS)
def test_shake256_lengths(inlen: int) -> None:
    msg = data(inlen)
    for outlen in EDGE_LENGTHS:
        assert C.shake256(msg, outlen) == hashlib.shake_256(msg).digest(outlen), (inlen, outlen)


def test_shake256_every_short_input() -> None:
    for inlen in range(300):
        msg = data(inlen)
        assert C.shake256(msg, 64) == hashlib.shake_256(msg).digest(64), inlen


@pytest.mark.parametrize(
    "absorb, squeeze",
    [
        ([], [0, 0]),
        ([32, 7], [4, 4, 4]),
        ([0, 135, 1, 0], [135, 1, 136, 1]),
        ([136, 136], [1] * 300),
        ([1] * 137, [136, 0, 136, 137, 1000]),
        ([100, 100, 72], [3, 133, 5, 131, 272, 2]),
        ([1000], [4] * 100),
    ],
)
def test_shake256_streaming(absorb: list[int], squeeze: list[int]) -> None:
    """Absorbing in pieces and squeezing n1, n2, … gives digest(n1 + n2 + …) of the whole input."""
    msg = data(sum(absorb))
    assert C.shake256_pieces(msg, absorb, squeeze) == hashlib.shake_256(msg).digest(sum(squeeze))


def test_shake256_random_splits() -> None:
    for _ in range(200):
        msg = data(RNG.randrange(300))
        cuts = sorted(RNG.randrange(len(msg) + 1) for _ in range(RNG.randrange(4)))
        absorb = [b - a for a, b in zip([0, *cuts], [*cuts, len(msg)], strict=True)]
        squeeze = [RNG.randrange(300) for _ in range(RNG.randrange(1, 6))]
        assert C.shake256_pieces(msg, absorb, squeeze) == hashlib.shake_256(msg).digest(sum(squeeze))


# ---- SHA-256 -----------------------------------------------------------------------------------------


def test_sha256_short() -> None:
    for n in range(201):
        msg = data(n)
        assert C.sha256(msg) == hashlib.sha256(msg).digest(), n


@pytest.mark.parametrize("n", [447, 448, 511, 512, 1000, 4095, 4096, 65537, 1_000_003])
def test_sha256_long(n: int) -> None:
    msg = data(n)
    assert C.sha256(msg) == hashlib.sha256(msg).digest()


def test_sha256_known_answer() -> None:
    assert C.sha256(b"abc").hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


# ---- SeedStream and the wall -------------------------------------------------------------------------

# n = 2**31 + 1 rejects almost half the words, 3 * 2**30 + 1 a quarter; powers of two never reject
BELOW_NS = [1, 2, 3, 5, 6, 7, 136, 144, 2**31 + 1, 2**31 + 2, 3 * 2**30 + 1, 2**31, 2**32 - 1, 2**32 - 2**31 - 1]


@pytest.mark.parametrize("label", [b"shuffle", b"dice", b"", b"items"])
def test_below(label: bytes) -> None:
    rejected = 0
    for _ in range(25):
        seed = data(32)
        ns = [RNG.choice(BELOW_NS) for _ in range(400)] + [RNG.randrange(1, 2**32) for _ in range(100)]
        py = SeedStream(seed, label)
        expected = [py.below(n) for n in ns]
        assert C.below(seed, label, ns) == expected
        rejected += py._pos - len(ns)  # words drawn beyond one per number: rejections were exercised
    assert rejected > 1000


def test_below_long_stream() -> None:
    """Far past the 160 words SeedStream starts with (it regrows), small and rejecting n mixed."""
    seed = data(32)
    ns = [RNG.choice([6, 2**31 + 1, RNG.randrange(1, 200)]) for _ in range(5000)]
    py = SeedStream(seed, b"dice")
    assert C.below(seed, b"dice", ns) == [py.below(n) for n in ns]


def test_below_other_seed_lengths() -> None:
    for n in [0, 1, 16, 128, 129, 200]:
        seed = data(n)
        py = SeedStream(seed, b"shuffle")
        assert C.below(seed, b"shuffle", list(range(1, 300))) == [py.below(k) for k in range(1, 300)]


@pytest.mark.parametrize("flowers", [True, False])
def test_shuffle(flowers: bool) -> None:
    tiles = full_set(flowers)
    assert len(tiles) == (144 if flowers else 136)
    for _ in range(200):
        seed = data(32)
        assert C.shuffle(tiles, seed) == shuffle(tiles, seed)


def test_shuffle_odd_sizes() -> None:
    for n in [0, 1, 2, 3, 17, 255, 256, 1000]:
        tiles = [RNG.randrange(256) for _ in range(n)]
        seed = data(32)
        assert C.shuffle(tiles, seed) == shuffle(tiles, seed)


def test_wall_dice() -> None:
    """Wall.build's dice: four below(6) + 1 from SeedStream(seed, b"dice"), after the shuffle's stream."""
    for _ in range(50):
        seed = data(32)
        wall = Wall.build(full_set(True), seed, 18)
        assert tuple(d + 1 for d in C.below(seed, b"dice", [6, 6, 6, 6])) == wall.dice


# ---- MT19937 as random.Random ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", MT_SEEDS)
def test_choices(seed: int) -> None:
    sizes = [n for n in range(1, 201) for _ in range(3)]
    sizes += [2**31 + 1, 2**32 - 1, 2**31, 3, 2**16 + 1] * 20 + [RNG.randrange(1, 2**32) for _ in range(200)]
    py = random.Random(seed)
    assert C.choices(seed, sizes) == [py.choice(range(n)) for n in sizes]


@pytest.mark.parametrize("seed", MT_SEEDS)
def test_getrandbits(seed: int) -> None:
    ks = [k for k in range(1, 33) for _ in range(30)]
    RNG.shuffle(ks)
    py = random.Random(seed)
    assert C.getrandbits(seed, ks) == [py.getrandbits(k) for k in ks]


@pytest.mark.parametrize("seed", MT_SEEDS[:9])
def test_state_after_draws(seed: int) -> None:
    """The C words and index are CPython's, before and after each regeneration of the 624 words."""
    for draws in [0, 1, 396, 623, 624, 625, 1247, 1248, 1249, 5000]:
        py = random.Random(seed)
        for _ in range(draws):
            py.getrandbits(32)
        state = C.state(seed, draws)
        assert state == py.getstate(), draws
        again = random.Random()
        again.setstate(state)  # accepted by CPython as it is
        assert again.getrandbits(32) == py.getrandbits(32)


@pytest.mark.parametrize("seed", MT_SEEDS[::2])
def test_choices_from_python_state(seed: int) -> None:
    sizes = [RNG.choice([1, 2, 3, 6, 34, 136, 144, 2**31 + 1, RNG.randrange(1, 2**32)]) for _ in range(1500)]
    py = random.Random(seed)
    for warmup in [0, 1, 623, 1, 500, 700]:  # indexes 0..624 on both sides of a regeneration
        for _ in range(warmup):
            py.choice(range(1000))
        state = py.getstate()
        assert C.choices_from_state(state, sizes) == [py.choice(range(n)) for n in sizes]


def test_python_randbelow_is_getrandbits() -> None:
    """The twin copies _randbelow_with_getrandbits: check that random.Random.choice still uses it."""
    assert random.Random._randbelow is random.Random._randbelow_with_getrandbits


def test_refusals() -> None:
    with pytest.raises(OverflowError):
        C.choices(-1, [2])
    with pytest.raises(OverflowError):
        C.choices(2**64, [2])
    with pytest.raises(ValueError):
        C.getrandbits(0, [33])
    with pytest.raises(ValueError):
        C.getrandbits(0, [0])
    with pytest.raises(ValueError):
        C.choices(0, [0])
    with pytest.raises(ValueError):
        C.below(b"", b"", [0])
    bad = random.Random(0).getstate()
    with pytest.raises(ValueError):
        C.choices_from_state((3, (*bad[1][:-1], 625), None), [2])
