"""What one seat may know — the single gate for hidden information.

:class:`SeatView` is what bots decide on and what the hall sends (``to_dict``); :func:`event_view`
filters the event log for one seat.  Other seats' concealed tiles, their draws, the faces of their
concealed kongs, the wall order and the seed (until the hand is over) never pass through here.
Who may see which field of an event is declared with the event type
(:mod:`majiang.engine.events`): an item's answer (:mod:`majiang.engine.items`) reaches its owner
whole, the others learn who used which item; an undeclared event type raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from majiang.engine import events as _events
from majiang.engine.protocol import Action, SeatState
from majiang.tiles import NUM_KINDS, Tile, tile_str

if TYPE_CHECKING:
    from majiang.engine.compiled import CompiledHand
    from majiang.engine.hand import Hand
    from majiang.melds import Meld

    #: a hand on either engine: the Python reference or the compiled core (the same interface)
    AnyHand = Hand | CompiledHand


_CONCEALED = attrgetter("concealed")
_T = TypeVar("_T")


class _lazy(Generic[_T]):
    """:func:`functools.cached_property` without its lock (Python 3.11 takes an ``RLock`` on every
    first read, and a view's attributes are read once each, on every decision of every bot): the
    value is computed on first read and kept in the instance's ``__dict__``, which later reads find
    first.  A view belongs to one thread."""

    def __init__(self, fn: Callable[[Any], _T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _lazy[_T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...
    def __get__(self, obj: object, owner: type | None = None) -> _T | _lazy[_T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class SeatView:
    """The table from ``seat``'s chair.  Attributes are read from the hand when first used, so a
    view is cheap to make; it describes the moment it was made and is meant to be used before the
    next action is applied."""

    def __init__(self, hand: AnyHand, seat: int) -> None:
        self._hand = hand
        self.seat = seat
        self.legal: list[Action] = list(hand.legal(seat))

    # everything below only reads what this seat may know
    @_lazy
    def counts(self) -> list[int]:
        return list(self._hand.seats[self.seat].counts)

    @property
    def rules(self) -> str:
        return self._hand.rules.name

    @property
    def hand_no(self) -> int:
        return self._hand.hand_no

    @property
    def dealer(self) -> int:
        return self._hand.dealer

    @property
    def prevalent(self) -> int:
        return self._hand.prevalent

    @property
    def seat_wind(self) -> int:
        return self._hand.seat_wind(self.seat)

    @property
    def phase(self) -> str:
        return self._hand.phase._value_  # .value is a Python-level descriptor in 3.11

    @property
    def current(self) -> int:
        return self._hand.current

    @property
    def over(self) -> bool:
        return self._hand.over

    @property
    def wall(self) -> int:
        """Live tiles left in the wall (a count; never which)."""
        return self._hand.wall.live

    @property
    def drawn(self) -> Tile | None:
        h = self._hand
        return h.seats[self.seat].drawn if h.current == self.seat else None

    @_lazy
    def melds(self) -> list[list[Meld]]:
        """Every seat's declared sets; other seats' concealed kongs face down (their tiles are
        :data:`~majiang.melds.FACE_DOWN`), as remote players see them."""
        seat = self.seat
        seats: Sequence[SeatState] = self._hand.seats
        # ``any(map(...))`` runs in C: a seat without a concealed kong costs no bytecode per meld
        return [
            list(st.melds) if s == seat or not any(map(_CONCEALED, st.melds)) else [m.face_down() for m in st.melds]
            for s, st in enumerate(seats)
        ]

    @_lazy
    def discards(self) -> list[list[Tile]]:
        return [list(st.discards) for st in self._hand.seats]

    @_lazy
    def claimed(self) -> list[list[bool]]:
        return [list(st.claimed) for st in self._hand.seats]

    @_lazy
    def moqie(self) -> list[list[bool]]:
        """Each seat's discards: 摸切, the tile just drawn thrown (public, as at a real table)."""
        return [list(st.moqie) for st in self._hand.seats]

    @_lazy
    def flowers(self) -> list[list[Tile]]:
        return [list(st.flowers) for st in self._hand.seats]

    @property
    def concealed_counts(self) -> list[int]:
        return [st.n_concealed for st in self._hand.seats]

    @_lazy
    def visible(self) -> list[int]:
        """Copies of each tile in the ponds and in exposed melds."""
        return list(self._hand.visible)

    @property
    def pending(self) -> tuple[int, Tile] | None:
        h = self._hand
        return h.pending if h.phase._value_ in ("claim", "rob") else None

    @property
    def scores(self) -> list[int]:
        h = self._hand
        return [b + d for b, d in zip(h.scores_before, h.deltas, strict=True)]

    @property
    def public(self) -> dict[str, Any]:
        return self._hand.rules.public(self._hand)

    @property
    def seed_hash(self) -> str:
        return str(self._hand.events[0]["seed_hash"])

    @property
    def seed(self) -> str | None:
        return self._hand.seed.hex() if self._hand.over else None

    @property
    def result(self) -> dict[str, Any] | None:
        return _result(self._hand) if self._hand.over else None

    def concealed(self) -> list[Tile]:
        return [t for t in range(NUM_KINDS) for _ in range(self.counts[t])]

    def unseen(self, tile: Tile) -> int:
        """Copies of ``tile`` this seat cannot see (wall and others' concealed tiles)."""
        own = self.counts[tile] + sum(m.tiles.count(tile) for m in self.melds[self.seat] if m.concealed)
        return max(0, 4 - own - self.visible[tile])

    def to_dict(self, sealed: bool = False) -> dict[str, Any]:
        """JSON for the wire (tiles as strings); ``sealed``: without the seed after the end (see
        :func:`event_view`)."""
        seats = []
        for s in range(4):
            seats.append(
                {
                    "seat": s,
                    "melds": [_meld_json(m, hide=s != self.seat) for m in self.melds[s]],
                    "discards": [tile_str(t) for t in self.discards[s]],
                    "claimed": self.claimed[s],
                    "moqie": self.moqie[s],
                    "flowers": [tile_str(t) for t in self.flowers[s]],
                    "concealed_count": self.concealed_counts[s],
                }
            )
        d: dict[str, Any] = {
            "seat": self.seat,
            "rules": self.rules,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "prevalent": "ESWN"[self.prevalent],
            "seat_wind": "ESWN"[self.seat_wind],
            "phase": self.phase,
            "current": self.current,
            "wall": self.wall,
            "scores": self.scores,
            "hand": [tile_str(t) for t in self.concealed()],
            "drawn": tile_str(self.drawn) if self.drawn is not None else None,
            "seats": seats,
            "pending": {"seat": self.pending[0], "tile": tile_str(self.pending[1])} if self.pending else None,
            "legal": [action_json(a) for a in self.legal],
            "seed_hash": self.seed_hash,
        }
        if self.public:
            d["public"] = _events.public_to_json(self.public)
        if self.over:
            if not sealed:
                d["seed"] = self.seed
            d["result"] = self.result
        return d


def public_view(hand: AnyHand) -> dict[str, Any]:
    """The table as a spectator may see it (``SeatView.to_dict`` without a seat): every seat's
    concealed tile count, melds (concealed kongs face down for everyone), ponds in discard order,
    flowers, the wall's live count, the scores, whose turn, the winds and the dice — never a
    concealed tile, a draw or the wall's content."""
    v = SeatView(hand, 0)
    seats = [
        {
            "seat": s,
            "melds": [_meld_json(m.face_down(), hide=True) for m in hand.seats[s].melds],
            "discards": [tile_str(t) for t in v.discards[s]],
            "claimed": v.claimed[s],
            "moqie": v.moqie[s],
            "flowers": [tile_str(t) for t in v.flowers[s]],
            "concealed_count": v.concealed_counts[s],
        }
        for s in range(4)
    ]
    dice = next((e.get("dice") for e in hand.events if e.get("type") == "dice"), None)
    d: dict[str, Any] = {
        "seat": None,
        "rules": v.rules,
        "hand_no": v.hand_no,
        "dealer": v.dealer,
        "prevalent": "ESWN"[v.prevalent],
        "seat_winds": ["ESWN"[hand.seat_wind(s)] for s in range(4)],
        "phase": v.phase,
        "current": v.current,
        "wall": v.wall,
        "scores": v.scores,
        "hand": [],
        "drawn": None,
        "seats": seats,
        "pending": {"seat": v.pending[0], "tile": tile_str(v.pending[1])} if v.pending else None,
        "legal": [],
        "seed_hash": v.seed_hash,
        "dice": list(dice) if dice is not None else None,
    }
    if v.public:
        d["public"] = _events.public_to_json(v.public)
    if v.over:
        d["seed"] = v.seed
        d["result"] = v.result
    return d


def seat_view(hand: AnyHand, seat: int) -> SeatView:
    return SeatView(hand, seat)


def _meld_json(m: Meld, hide: bool) -> dict[str, Any]:
    d = m.to_dict(hide=hide)
    d["tiles"] = [tile_str(t) if t is not None else None for t in d["tiles"]]  # type: ignore[attr-defined]
    return d


def _result(hand: AnyHand) -> dict[str, Any]:
    """The result screen: winner, the winner's revealed hand, fans, deltas.  Losers' concealed
    tiles stay hidden."""
    out: dict[str, Any] = {"deltas": list(hand.deltas), "win": None}
    w = hand.win
    if w is not None:
        st = hand.seats[w.seat]
        out["win"] = {
            "seat": w.seat,
            "tile": tile_str(w.tile),
            "from": w.discarder,
            "points": w.points,
            "fans": w.names,
            "hand": [tile_str(t) for t in st.concealed()],
            "melds": [_meld_json(m, hide=False) for m in st.melds],
        }
    if hand.settlement is not None and hand.settlement.parts:
        out["parts"] = hand.settlement.parts
    return out


def action_json(a: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"type": a.type}
    if a.tile >= 0:
        d["tile"] = tile_str(a.tile)
    if a.tiles:
        d["tiles"] = [tile_str(t) for t in a.tiles]
    return d


# ---- the event log, per seat (the declarations: majiang.engine.events) ------------------------------
def tiles_to_json(x: Any) -> Any:
    """Tile ints → strings: an event (or a list of events) by its declaration, a plain object by
    the names that hold tiles in the declarations."""
    return _events.plain_to_json(x)


def event_view(event: dict[str, Any], seat: int, sealed: bool = False) -> dict[str, Any] | None:
    """The part of one engine event that ``seat`` may see (tiles still as ints), or None; an
    undeclared event type raises :class:`~majiang.engine.events.UnknownEvent`.  ``sealed``: the hand
    keeps its seed after its end (a 复式 table: other tables play the same walls)."""
    return _events.view(event, seat, sealed)


def seat_events(events: Iterable[dict[str, Any]], seat: int, sealed: bool = False) -> list[dict[str, Any]]:
    """What ``seat`` (−1: a spectator) may see of ``events``, as JSON — what the hall sends
    (``sealed``: see :func:`event_view`)."""
    out = []
    for e in events:
        v = _events.view(e, seat, sealed)
        if v is not None:
            out.append(_events.to_json(v))
    return out


def action_from_json(d: Any) -> Action:
    """Parse ``{"type": "discard", "tile": "5m"}`` (and chows with ``tiles``); raises ValueError
    with a clear reason."""
    from majiang.engine.protocol import ACTION_TYPES, ActionType
    from majiang.tiles import parse_tile

    if not isinstance(d, dict):
        raise ValueError(f'an action is an object like {{"type": "discard", "tile": "5m"}}, got {d!r}')
    t = d.get("type")
    if t not in ACTION_TYPES:
        raise ValueError(f"unknown action type {t!r}: use one of {', '.join(ACTION_TYPES)}")
    tile = parse_tile(d["tile"]) if d.get("tile") is not None else -1
    raw = d.get("tiles") or ()
    if not isinstance(raw, list | tuple) or len(raw) not in (0, 3):
        raise ValueError("'tiles' must list the three tiles of a chow")
    tiles = tuple(sorted(parse_tile(x) for x in raw))
    return Action(ActionType(t), tile, tiles)
