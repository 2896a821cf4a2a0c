"""The ruleset boundary: what the engine asks of a ruleset (MCR, Nanchang, …).

The engine (:mod:`majiang.engine.hand`) owns turn order, the wall, claims and their priority
(和 > 碰/杠 > 吃, one winner: first after the discarder), the event log and the views.  Everything
that differs between rulesets is behind :class:`Ruleset`: the tile set and wall size, bonus
tiles, which chows exist, when a kong may be declared, whether a hand wins and what it is worth,
bonuses paid as they happen, false wins and the settlement.  A new ruleset implements this
protocol; the engine never asks which ruleset it runs.

A ruleset's hooks see the hand through :class:`HandState`, the few members of
:class:`~majiang.engine.hand.Hand` a ruleset may read (and the three it may change: the wall's
``reserved`` positions, ``ruleset_state`` and ``emit``), so this module needs nothing from the
engine's state machine and ``Hand`` satisfies it structurally.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, Protocol

from majiang.engine.wall import SeatWalls, Wall
from majiang.melds import Meld
from majiang.tiles import Tile


class ActionType(StrEnum):
    """What a decision does.  A :class:`~enum.StrEnum`: each member is its string (``"discard"``),
    so logs, the wire and the C core see the same values as before there were names."""

    DISCARD = "discard"
    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠 on a discard
    ADDED_KONG = "added_kong"  # 加杠
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    WIN = "win"  # 和
    PASS = "pass"  # 过


class Action(NamedTuple):
    """A player's decision.  ``tile``: the tile discarded / claimed / konged / won; ``tiles``: the
    three tiles of a chow (吃), the claimed one included."""

    type: ActionType
    tile: Tile = -1
    tiles: tuple[Tile, ...] = ()


DISCARD, CHOW, PUNG, KONG, ADDED_KONG, CONCEALED_KONG, WIN, PASS = ActionType
ACTION_TYPES = tuple(ActionType)

# shared instances: the engine lists these instead of building new tuples on every turn
PASS_ACTION = Action(PASS)
DISCARDS = tuple(Action(DISCARD, t) for t in range(34))
PUNGS = tuple(Action(PUNG, t) for t in range(34))
KONGS = tuple(Action(KONG, t) for t in range(34))
WINS = tuple(Action(WIN, t) for t in range(34))


class WinContext(NamedTuple):
    """How a tile came to the winner."""

    discarder: int | None  # None = self-drawn
    kong: bool  # 杠上开花 (self-drawn replacement) / 抢杠和 (robbing an added kong)
    last: bool  # the wall is exhausted: 妙手回春 / 海底捞月
    first_turn: bool  # no claim, kong or second draw yet: 天和 / 地和 conditions
    fourth_tile: bool  # the other three copies are visible (和绝张)


@dataclass
class Win:
    """A valid win as the ruleset scored it."""

    seat: int
    tile: Tile
    discarder: int | None
    points: int  # what the settlement is based on (MCR: total fan incl. flowers)
    names: list[dict[str, Any]]  # fans / 胡 names for the log and the result screen
    detail: Any = None  # the ruleset's own result object (ScoreResult, Nanchang interpretation)
    summary: dict[str, Any] = field(default_factory=dict)  # extra JSON for the log


@dataclass
class FalseWin:
    """The ruling on a win declared without a valid hand (错和/诈和)."""

    kind: str
    deltas: list[int]
    ends_hand: bool  # Botzone: the hand ends; 1998 rules: play on
    barred: bool  # the offender may not win again this hand


@dataclass(frozen=True)
class CoreSpec:
    """How the compiled hand core (:mod:`majiang.engine.compiled`) plays a ruleset: what a ruleset that
    opts in returns from :meth:`Ruleset.core`.  The core plays MCR's table: 136 tiles in quarters
    (Botzone's wall, no dice) or 144 with the 8 flowers in walls of ``stacks`` stacks broken by the
    dice; no dead wall, no kong bonus, base-8 settlement; wins scored by the fan calculator with
    ``fan_rules`` (a :class:`majiang.mcr.rules.Rules`)."""

    quarters: bool
    flowers: bool
    stacks: int
    #: a false win ends the hand (offender −30, others +10); otherwise 错和 10 / 诈和 20 each, play on
    false_win_ends: bool
    #: a wrong answer or a timeout: (the offender's delta, each other seat's), ending the hand; None = no such rule
    fault: tuple[int, int] | None
    fan_rules: Any


@dataclass
class Settlement:
    deltas: list[int]
    parts: dict[str, list[int]] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)


class WallState(Protocol):
    """The wall as a ruleset sees it (:class:`~majiang.engine.wall.Wall`)."""

    @property
    def tiles(self) -> Sequence[Tile]:
        """Every tile in draw order from the break (drawn ones included)."""
        ...

    @property
    def reserved(self) -> set[int]:
        """Positions never drawn (a face-up jing indicator): the one part a ruleset may change."""
        ...

    @property
    def remaining(self) -> int:
        """Tiles not drawn yet, the dead wall included."""
        ...

    @property
    def live(self) -> int:
        """Tiles that may still be drawn (the dead wall excluded)."""
        ...

    @property
    def shared(self) -> bool:
        """One wall for every seat: :meth:`left` is :attr:`live` for each."""
        ...

    def left(self, seat: int) -> int:
        """Tiles ``seat`` may still draw (one shared wall: :attr:`live`; a wall cut into one part per
        seat: what is left of its part)."""
        ...


class SeatState(Protocol):
    """One seat as a ruleset sees it (:class:`~majiang.engine.hand.Seat`), read only."""

    @property
    def counts(self) -> Sequence[int]:
        """Concealed tiles as counts by kind."""
        ...

    @property
    def melds(self) -> Sequence[Meld]: ...

    @property
    def flowers(self) -> Sequence[Tile]: ...

    @property
    def discards(self) -> Sequence[Tile]:
        """The pond in order, claimed discards included (see :attr:`claimed`)."""
        ...

    @property
    def claimed(self) -> Sequence[bool]: ...

    @property
    def moqie(self) -> Sequence[bool]:
        """Each discard: 摸切, the tile just drawn thrown (:func:`majiang.engine.events.moqie`)."""
        ...

    @property
    def barred(self) -> bool:
        """A false win lost the seat the right to win this hand."""
        ...

    @property
    def passed_win(self) -> bool:
        """The seat let a winning discard go by since its last draw (过手胡)."""
        ...

    def concealed(self) -> list[Tile]:
        """The concealed tiles, sorted (a new list)."""
        ...


class HandState(Protocol):
    """What a ruleset may read of a hand and do to it — :class:`~majiang.engine.hand.Hand` as its
    hooks receive it."""

    @property
    def seed(self) -> bytes: ...

    @property
    def dealer(self) -> int: ...

    @property
    def prevalent(self) -> int: ...

    @property
    def first_turn(self) -> bool:
        """No claim, kong or second draw yet."""
        ...

    @property
    def events(self) -> Sequence[dict[str, Any]]:
        """The log so far (``events[0]`` is the ``hand_start`` header)."""
        ...

    @property
    def wall(self) -> WallState: ...

    @property
    def seats(self) -> Sequence[SeatState]: ...

    @property
    def ruleset_state(self) -> dict[str, Any]:
        """The ruleset's own state for this hand (e.g. Nanchang's jing), empty at the start."""
        ...

    def seat_wind(self, seat: int) -> int: ...

    def emit(self, event: dict[str, Any]) -> None:
        """Append an event to the log (e.g. Nanchang's ``jing`` flip)."""
        ...


class Ruleset(Protocol):
    name: str
    #: stacks of two per player's wall (MCR 18, Nanchang 17)
    stacks_per_wall: int
    #: tiles never drawn live; a live draw with only this many left ends the hand (MCR 0, Nanchang 34)
    dead_wall: int
    #: players change seats between rounds (MCR: mcr.md §1); False: they keep their chairs
    #: (Nanchang passes the deal round the table, nanchang.md §2.2)
    seat_changes: bool
    #: the fans a win needs (起和) where wins are scored in fans (MCR 8); None: not scored in fans
    min_fan: int | None

    def tile_set(self) -> list[Tile]: ...

    def build_wall(self, seed: bytes) -> Wall | SeatWalls:
        """The hand's wall from its seed: one shared wall broken by the dice (:class:`Wall`), or a wall
        cut into one part per seat (:class:`SeatWalls`)."""
        ...

    def is_bonus(self, tile: Tile) -> bool:
        """Flowers: set aside when drawn and replaced from the tail."""
        ...

    def setup(self, hand: HandState) -> None:
        """After the deal and flower replacement (e.g. Nanchang flips the jing indicator)."""
        ...

    def chows(self, counts: Sequence[int], tile: Tile) -> list[tuple[Tile, Tile, Tile]]:
        """The chows a player holding ``counts`` can make with the discarded ``tile`` (sorted
        three-tile tuples; honour chows included where the ruleset has them)."""
        ...

    def can_kong(self, hand: HandState) -> bool:
        """Whether a kong may be declared now (a replacement tile must remain)."""
        ...

    def could_win(self, hand: HandState, seat: int, tile: Tile, self_drawn: bool) -> bool:
        """A cheap necessary condition for :meth:`check_win` (the winning shape alone); the
        engine asks it on every draw and discard before the full check."""
        ...

    def check_win(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> Win | None:
        """A valid win for ``seat`` with ``tile``, or None.  Includes every legality rule of the
        ruleset (minimum fan, barred seats, 过手胡, 精钓 restrictions …)."""
        ...

    def win_refusal(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> dict[str, Any] | None:
        """Why a hand complete in shape with ``tile`` is still no win, for the player to read (MCR:
        ``{"fan": 6, "min": 8}`` — under the 8-fan minimum); None when it is a win, or not complete,
        or the ruleset has nothing to say."""
        ...

    def false_win(self, hand: HandState, seat: int, tile: Tile, ctx: WinContext) -> FalseWin | None:
        """The penalty for declaring a win that :meth:`check_win` refuses; None = refuse the
        action as illegal instead."""
        ...

    def fault(self, hand: HandState, seat: int, kind: str) -> FalseWin | None:
        """The ruling when ``seat`` fails to answer with a legal decision (``kind``: ``WA`` a wrong
        answer, ``TLE`` no answer in time …): the penalty and whether the hand ends; None = the
        ruleset has no such rule (the engine refuses the answer instead)."""
        ...

    def kong_bonus(self, hand: HandState, seat: int, tile: Tile, kind: str) -> list[int] | None:
        """Points paid at once for a kong (Nanchang), or None."""
        ...

    def settle(self, hand: HandState, win: Win | None) -> Settlement:
        """Hand-end settlement (``win`` None = exhaustive draw).  Zero-sum."""
        ...

    def next_dealer(self, dealer: int, win: Win | None) -> tuple[int, bool]:
        """(next dealer, whether the deal passed)."""
        ...

    def summary(self) -> dict[str, Any]:
        """JSON describing the ruleset and its options (for the log header)."""
        ...

    def public(self, hand: HandState) -> dict[str, Any]:
        """Ruleset state every seat may see (e.g. Nanchang's jing indicator)."""
        ...

    def core(self) -> CoreSpec | None:
        """How the compiled hand core plays this ruleset, or None: the Python engine plays it (the
        engine picks by this answer, never by a name: :func:`majiang.engine.compiled.new_hand`)."""
        ...
