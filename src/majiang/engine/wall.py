"""The wall (牌墙): seeded shuffle, two dice throws, the break, draws from the head and the tail.

mcr.md §2: each player builds a wall of N stacks of 2 (MCR 18, Nanchang 17).  The dealer throws two
dice; counting the dealer as 1 counter-clockwise, the player at that count throws again; the sum of
both throws, counted right to left on that player's wall, is the stack where the wall is broken.
Live draws take tiles from the head (after the break), replacement draws (补花, 杠) from the tail.

The shuffle is a Fisher–Yates driven by SHAKE-256 of the 256-bit seed, so a wall is the same on every
platform and Python version: a seed committed by its hash before the hand reproduces it exactly.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from majiang.seeded import SeedStream as SeedStream  # re-exported: the engine's items draw from it too
from majiang.tiles import Tile


def new_seed() -> bytes:
    """A fresh 256-bit seed."""
    return secrets.token_bytes(32)


def seed_hash(seed: bytes) -> str:
    """The commitment shown before the hand: hex SHA-256 of the seed."""
    return hashlib.sha256(seed).hexdigest()


def shuffle(tiles: Sequence[Tile], seed: bytes) -> list[Tile]:
    """Fisher–Yates, drawing ``j`` uniformly in [0, i] for i = n−1 … 1 (same numbers as
    :meth:`SeedStream.below`, inlined because every hand starts here)."""
    out = list(tiles)
    rng = SeedStream(seed, b"shuffle")
    words, pos = rng._words, 0
    end = len(words)
    for i in range(len(out) - 1, 0, -1):
        if pos == end:
            rng._pos = pos
            rng._grow(2 * end)
            words, end = rng._words, 2 * end
        x = words[pos]
        pos += 1
        n = i + 1
        if x >= 4294967296 - 4294967296 % n:  # rejected (a chance of n in 2**32): draw again
            limit = 4294967296 - 4294967296 % n
            while x >= limit:
                if pos == end:
                    rng._pos = pos
                    rng._grow(2 * end)
                    words, end = rng._words, 2 * end
                x = words[pos]
                pos += 1
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


@dataclass
class Wall:
    """The tiles in draw order from the break: index 0 is the top of the first stack after the
    break, 1 its bottom, …; the tail is the far end.  ``taken`` marks tiles already drawn (or, like
    a face-up jing indicator, never drawable)."""

    #: one wall for every seat: :meth:`left` is :attr:`live` whatever the seat (the engine's hot
    #: paths read ``live`` directly then, without the call)
    shared: ClassVar[bool] = True

    tiles: list[Tile]
    dice: tuple[int, int, int, int]  # dealer's two dice, then the second thrower's
    break_seat: int  # relative to the dealer: 0 dealer, 1 下家, 2 对家, 3 上家
    break_stack: int  # stacks counted right to left on that seat's wall
    dead: int = 0  # tiles that are never drawn live (Nanchang's 34-tile dead wall)
    taken: list[bool] = field(default_factory=list)
    head: int = 0
    tail_drawn: int = 0
    remaining: int = 0
    live: int = 0  # tiles that may still be drawn (the dead wall excluded)
    reserved: set[int] = field(default_factory=set)  # never drawn, still part of the wall (a face-up indicator)

    def __post_init__(self) -> None:
        if not self.taken:
            self.taken = [False] * len(self.tiles)
        self.remaining = self.taken.count(False)
        self.live = max(0, self.remaining - self.dead)

    @classmethod
    def build(cls, tile_set: Sequence[Tile], seed: bytes, stacks_per_wall: int, dead: int = 0) -> Wall:
        """Shuffle, build four walls, throw the dice and break the wall."""
        shuffled = shuffle(tile_set, seed)
        rng = SeedStream(seed, b"dice")
        d1, d2 = rng.below(6) + 1, rng.below(6) + 1
        thrower = (d1 + d2 - 1) % 4  # counting the dealer as 1, counter-clockwise
        d3, d4 = rng.below(6) + 1, rng.below(6) + 1
        count = d1 + d2 + d3 + d4
        n_stacks = len(shuffled) // 2
        # the walls lie in seat order; the break is `count` stacks from the right end of the
        # thrower's wall, and the head of the live wall starts just after it
        start = (thrower * stacks_per_wall + count) % n_stacks
        # the stacks start, start + 1, …, n_stacks − 1, 0, …, start − 1, two tiles each: a rotation
        tiles = shuffled[2 * start : 2 * n_stacks] + shuffled[: 2 * start]
        return cls(tiles=tiles, dice=(d1, d2, d3, d4), break_seat=thrower, break_stack=count, dead=dead)

    # ---- drawing ---------------------------------------------------------------------------
    def take(self, index: int) -> Tile:
        if self.taken[index]:
            raise RuntimeError(f"wall position {index} already taken")
        self.taken[index] = True
        self.remaining -= 1
        self.live = max(0, self.remaining - self.dead)
        return self.tiles[index]

    def draw_head(self) -> Tile:
        taken, i = self.taken, self.head
        while taken[i]:
            i += 1
        taken[i] = True  # what take() does, without the call: this runs on every draw
        self.head = i + 1
        self.remaining -= 1
        self.live = max(0, self.remaining - self.dead)
        return self.tiles[i]

    def tail_index(self) -> int:
        """The next replacement tile: the top of the last stack first, then its bottom."""
        n_stacks = len(self.tiles) // 2
        k = self.tail_drawn
        while True:
            stack = n_stacks - 1 - k // 2
            idx = 2 * stack + (k % 2)
            if not self.taken[idx] and idx not in self.reserved:
                return idx
            k += 1

    def draw_tail(self) -> Tile:
        idx = self.tail_index()
        self.tail_drawn = (len(self.tiles) // 2 - 1 - idx // 2) * 2 + idx % 2 + 1
        return self.take(idx)

    def peek_head(self) -> Tile | None:
        """The next live tile (for 顺风耳-style information items; never sent unless allowed)."""
        if self.live == 0:
            return None
        i = self.head
        while self.taken[i]:
            i += 1
        return self.tiles[i]

    # ---- the interface the engine draws through (shared with :class:`SeatWalls`) ---------------
    def opening(self, dealer: int) -> dict[str, Any] | None:
        """The event that opens the hand: the dice and the break."""
        return {
            "type": "dice",
            "dice": list(self.dice),
            "break_seat": (dealer + self.break_seat) % 4,
            "break_stack": self.break_stack,
        }

    def left(self, seat: int) -> int:
        """Tiles ``seat`` may still draw: one shared wall, so the same for every seat."""
        return self.live

    def draw(self, seat: int, tail: bool = False) -> Tile:
        if tail:
            return self.draw_tail()
        taken, i = self.taken, self.head  # draw_head(), without the call: this runs on every draw
        while taken[i]:
            i += 1
        taken[i] = True
        self.head = i + 1
        self.remaining -= 1
        self.live = max(0, self.remaining - self.dead)
        return self.tiles[i]

    def deal(self, dealer: int) -> list[list[Tile]]:
        return deal(self, dealer)

    def copy(self) -> Wall:
        return Wall(
            tiles=list(self.tiles),
            dice=self.dice,
            break_seat=self.break_seat,
            break_stack=self.break_stack,
            dead=self.dead,
            taken=list(self.taken),
            head=self.head,
            tail_drawn=self.tail_drawn,
            reserved=set(self.reserved),
        )


def deal(wall: Wall, dealer: int) -> list[list[Tile]]:
    """Deal 4-4-4 by stacks of two, then 跳牌: the dealer takes the tops of the first and third next
    stacks, the others one tile each (下家 the bottom of the first, 对家 the top and 上家 the bottom
    of the second).  Returns 4 hands indexed by absolute seat; the dealer holds 14."""
    hands: list[list[Tile]] = [[] for _ in range(4)]
    if wall.head == 0 and not any(wall.taken[:53]):
        # a fresh wall: the first 48 tiles go out four at a time in seat order
        t = wall.tiles
        for r in range(3):
            for k in range(4):
                hands[(dealer + k) % 4].extend(t[16 * r + 4 * k : 16 * r + 4 * k + 4])
        for i in range(48):
            wall.taken[i] = True
        wall.remaining -= 48
        wall.live = max(0, wall.remaining - wall.dead)
        wall.head = 48
    else:
        for _ in range(3):
            for k in range(4):
                seat = (dealer + k) % 4
                hands[seat].extend(wall.draw_head() for _ in range(4))
    base = wall.head
    jump = {0: (base, base + 4), 1: (base + 1,), 2: (base + 2,), 3: (base + 3,)}
    for k in range(4):
        for idx in jump[k]:
            hands[(dealer + k) % 4].append(wall.take(idx))
    return hands


@dataclass
class SeatWalls:
    """A wall cut into four equal parts, one per seat: part ``k`` (``tiles[k*n:(k+1)*n]``) belongs to
    the seat ``k`` places after the dealer, who takes every tile of the hand from its back — the deal
    (13 each; the dealer's 14th is its first draw), every draw and every replacement.  A seat whose
    part is empty cannot draw.  ``tiles`` is the wall as one list in that order, so a wall is written
    down (and rebuilt) as one string of tiles."""

    #: one part per seat: :meth:`left` depends on the seat
    shared: ClassVar[bool] = False

    tiles: list[Tile]
    dealer: int = 0
    taken: list[bool] = field(default_factory=list)
    reserved: set[int] = field(default_factory=set)
    drawn: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # tiles taken from each part
    remaining: int = 0
    live: int = 0

    def __post_init__(self) -> None:
        if len(self.tiles) % 4:
            raise ValueError(f"a wall of {len(self.tiles)} tiles does not cut into four equal parts")
        if not self.taken:
            self.taken = [False] * len(self.tiles)
        self.remaining = self.live = self.taken.count(False)

    @classmethod
    def build(cls, tile_set: Sequence[Tile], seed: bytes) -> SeatWalls:
        return cls(tiles=shuffle(tile_set, seed))

    @property
    def part(self) -> int:
        return len(self.tiles) // 4

    def index(self, seat: int) -> int:
        """The position of ``seat``'s next tile (its part's back)."""
        k = (seat - self.dealer) % 4
        return (k + 1) * self.part - 1 - self.drawn[k]

    def left(self, seat: int) -> int:
        return self.part - self.drawn[(seat - self.dealer) % 4]

    def opening(self, dealer: int) -> dict[str, Any] | None:
        return None  # no dice: every seat's part is fixed

    def draw(self, seat: int, tail: bool = False) -> Tile:
        if not self.left(seat):
            raise RuntimeError(f"seat {seat}'s part of the wall is empty")
        i = self.index(seat)
        self.drawn[(seat - self.dealer) % 4] += 1
        self.taken[i] = True
        self.remaining -= 1
        self.live -= 1
        return self.tiles[i]

    def deal(self, dealer: int) -> list[list[Tile]]:
        """13 tiles to each seat from the back of its part, then the dealer's first draw (the 14th)."""
        self.dealer = dealer
        hands = [[self.draw(s) for _ in range(13)] for s in range(4)]
        hands[dealer].append(self.draw(dealer))
        return hands

    def copy(self) -> SeatWalls:
        return SeatWalls(
            tiles=list(self.tiles),
            dealer=self.dealer,
            taken=list(self.taken),
            reserved=set(self.reserved),
            drawn=list(self.drawn),
        )
