"""Seeded randomness shared by the engine and the rules core: the same seed gives the same numbers
on every platform and Python version (the wall's shuffle and dice, Nanchang's jing dice, items)."""

from __future__ import annotations

import hashlib
import struct


class SeedStream:
    """Deterministic random integers from a seed: 32-bit big-endian words of the SHAKE-256 stream
    of ``seed + label``, reduced by rejection sampling (exactly uniform)."""

    def __init__(self, seed: bytes, label: bytes = b"", words: int = 160) -> None:
        self._key = seed + label
        self._words: tuple[int, ...] = ()
        self._pos = 0
        self._grow(words)

    def _grow(self, words: int) -> None:
        data = hashlib.shake_256(self._key).digest(4 * words)
        self._words = struct.unpack(f">{words}I", data)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            if self._pos >= len(self._words):
                self._grow(2 * len(self._words))
            x = self._words[self._pos]
            self._pos += 1
            if x < limit:
                return x % n
