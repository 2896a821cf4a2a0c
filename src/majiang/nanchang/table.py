"""The Nanchang table rules (§2.1–2.6, §2.12): tiles, deal, jing dice and flip, chows, claims, kongs,
the dead wall.  Pure functions on plain values: the engine owns the state, and the engine adapter
(:mod:`majiang.rulesets.nanchang`) calls these with it.

Wall model (§2.3, "engine model"): the wall is a flat list of tiles in draw order, stacks laid out
``top, bottom``; live draws take from the front, replacement draws (补牌) from the back.

>>> flip = flip_jing(list(range(34)) * 2, dice_sum=7)
>>> flip.position, flip.indicator            # 7th stack from the tail: its top tile
(54, 20)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from majiang.nanchang.jing import JingPair
from majiang.nanchang.melds import Meld, MeldKind, meld_from_tiles
from majiang.nanchang.options import DEFAULT_OPTIONS, Options
from majiang.nanchang.terms import WinMethod
from majiang.nanchang.win import can_win
from majiang.seeded import SeedStream
from majiang.tiles import DRAGONS, WINDS, Tile, counts_of, full_set

SEATS = 4
DEALT = 13  # the dealer gets one more


def tile_set() -> list[Tile]:
    """The 136 tiles (no flowers), four of each of the 34 kinds, sorted."""
    return full_set(flowers=False)


def deal(wall: Sequence[Tile], dealer: int = 0) -> tuple[list[list[Tile]], list[Tile]]:
    """Deal from the front of the wall: three rounds of 4 tiles (2 stacks) each, then the dealer's
    跳牌 takes 2 and every other seat 1 — dealer 14, others 13.  Returns the hands by seat and the
    rest of the wall."""
    hands: list[list[Tile]] = [[] for _ in range(SEATS)]
    pos = 0
    order = [(dealer + i) % SEATS for i in range(SEATS)]
    for _ in range(3):
        for seat in order:
            hands[seat].extend(wall[pos : pos + 4])
            pos += 4
    for seat in order:
        n = 2 if seat == dealer else 1
        hands[seat].extend(wall[pos : pos + n])
        pos += n
    return hands, list(wall[pos:])


def jing_dice(seed: bytes) -> tuple[int, int]:
    """The dealer's two dice for 翻精 (§2.4), drawn from the hand's seed so that a replay turns up
    the same indicator."""
    rng = SeedStream(seed, b"jing")
    return rng.below(6) + 1, rng.below(6) + 1


@dataclass(frozen=True, slots=True)
class JingFlip:
    """The turned-up indicator (翻精): its index in the wall, the jing pair, and the tile beneath it
    (the 下精 indicator of 埋地雷/上下翻)."""

    position: int
    indicator: Tile
    under: Tile
    pair: JingPair


def flip_jing(wall: Sequence[Tile], dice_sum: int) -> JingFlip:
    """§2.4: count ``dice_sum`` stacks from the tail (stack 1 = the replacement end) and turn up the
    top tile of that stack.  ``wall`` is the live wall after the deal, its tail still whole stacks."""
    if not 2 <= dice_sum <= 12:
        raise ValueError(f"two dice sum to 2–12, got {dice_sum}")
    if len(wall) < 2 * dice_sum:
        raise ValueError(f"a wall of {len(wall)} tiles has fewer than {dice_sum} stacks")
    pos = len(wall) - 2 * dice_sum
    return JingFlip(pos, wall[pos], wall[pos + 1], JingPair.from_indicator(wall[pos]))


def replacement_index(wall_len: int, indicator_pos: int | None, options: Options = DEFAULT_OPTIONS) -> int:
    """Index of the next replacement tile: the last tile of the wall, skipping the face-up indicator
    unless ``indicator_drawable``."""
    last = wall_len - 1
    if last == indicator_pos and not options.indicator_drawable:
        last -= 1
    if last < 0:
        raise ValueError("the wall is empty")
    return last


def is_exhaustive_draw(tiles_left: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """荒庄: a player would draw but only the dead wall (34 tiles by default) is left."""
    return tiles_left <= options.dead_wall_tiles


def may_declare_kong(tiles_left: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """A kong is allowed only while more than the dead wall remains (§2.3)."""
    return tiles_left > options.dead_wall_tiles


class ClaimKind(StrEnum):
    """Claims on a discard, in priority order 胡 > 杠/碰 > 吃."""

    HU = "hu"
    KONG = "kong"
    PENG = "peng"
    CHI = "chi"


@dataclass(frozen=True, slots=True)
class Claim:
    """A legal claim: ``used`` are the claimer's own tiles; ``meld`` the set it exposes (none for 胡)."""

    kind: ClaimKind
    used: tuple[Tile, ...]
    meld: Meld | None


def _chow_windows(tile: Tile) -> list[tuple[Tile, Tile, Tile]]:
    """Every chow through ``tile``: suit runs, any three different winds, 中发白."""
    if tile < 27:
        r = tile % 9
        return [(tile - r + s, tile - r + s + 1, tile - r + s + 2) for s in range(max(0, r - 2), min(r, 6) + 1)]
    if tile in WINDS:
        return [c for c in ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30)) if tile in c]
    return [DRAGONS]


def chows(counts: Sequence[int], tile: Tile) -> list[tuple[Tile, Tile, Tile]]:
    """The chows (吃) a player holding ``counts`` can make with the discarded ``tile``: sorted
    three-tile tuples, honour chows included (§2.5: natural tiles only, jing at face value).

    >>> chows(counts_of([28, 29, 30]), 27)       # 东 with 南西北 in hand: 东南西, 东南北, 东西北
    [(27, 28, 29), (27, 28, 30), (27, 29, 30)]
    """
    return [w for w in _chow_windows(tile) if all(counts[t] for t in w if t != tile)]


def legal_claims(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    discard: Tile,
    seat: int,
    discarder: int,
    jing: JingPair,
    *,
    tiles_left: int,
    options: Options = DEFAULT_OPTIONS,
    furiten: bool = False,
) -> list[Claim]:
    """What ``seat`` may claim on ``discarder``'s ``discard``, highest priority first.

    Jing are never wild for claims (§2.5): chi/peng/kong need natural tiles of the exact kinds (a jing
    may be used at face value).  吃 only from the 上家 (seat − 1).  ``furiten``: the seat passed a win
    since its last draw (过手胡, see :func:`pass_hu_blocks`), so it may not win on a discard.
    """
    if seat == discarder:
        return []
    counts = counts_of(concealed)
    out: list[Claim] = []
    blocked = furiten and options.pass_hu_furiten
    if not blocked and can_win(concealed, melds, jing, win_tile=discard, method=WinMethod.DISCARD, options=options):
        out.append(Claim(ClaimKind.HU, tuple(concealed), None))
    source = {(seat - 1) % SEATS: 1, (seat + 2) % SEATS: 2, (seat + 1) % SEATS: 3}[discarder]
    if counts[discard] >= 3 and may_declare_kong(tiles_left, options):
        out.append(Claim(ClaimKind.KONG, (discard,) * 3, meld_from_tiles([discard] * 4, MeldKind.KONG, source=source)))
    if counts[discard] >= 2:
        out.append(Claim(ClaimKind.PENG, (discard,) * 2, meld_from_tiles([discard] * 3, MeldKind.PUNG, source=source)))
    if discarder == (seat - 1) % SEATS:
        for window in chows(counts, discard):
            used = tuple(t for t in window if t != discard)
            out.append(
                Claim(ClaimKind.CHI, used, meld_from_tiles(window, MeldKind.CHOW, claimed=window.index(discard)))
            )
    return out


def pass_hu_blocks(passed_gain: int | None, gain: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """过手胡: does having passed a discard win worth ``passed_gain`` (``None``: none passed since the
    player's last draw) forbid winning now for ``gain``?  Self-draws are never blocked; with
    ``pass_hu_allows_bigger`` a strictly bigger win is allowed."""
    if passed_gain is None or not options.pass_hu_furiten:
        return False
    return not (options.pass_hu_allows_bigger and gain > passed_gain)


def self_kongs(
    concealed: Sequence[Tile], melds: Sequence[Meld], *, tiles_left: int, options: Options = DEFAULT_OPTIONS
) -> list[Meld]:
    """Kongs a player may declare on its own turn: 暗杠 (four in hand) and 补杠 (a held tile added to
    its exposed pung; the result counts as a 明杠)."""
    if not may_declare_kong(tiles_left, options):
        return []
    counts = counts_of(concealed)
    out = [meld_from_tiles([t] * 4, MeldKind.KONG, concealed=True) for t in range(len(counts)) if counts[t] == 4]
    out += [
        meld_from_tiles([m.tile] * 4, MeldKind.KONG, source=m.source)
        for m in melds
        if m.kind is MeldKind.PUNG and counts[m.tile]
    ]
    return out
