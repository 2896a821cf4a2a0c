"""The hand's events, declared: one :class:`EventSpec` per event type, the single table that seat
views (:func:`majiang.engine.view.event_view`), JSON and logs (:mod:`majiang.engine.log`) derive from.

An event stays a plain dict at run time (``{"type": "discard", "seat": 2, "tile": 4}``; the engine
appends thousands per second), but every key of every type is declared here: what it holds (a
:class:`Kind`: :data:`TILE` — a tile, or lists of them; :data:`NUMBER`; :data:`TEXT`; :data:`FLAG`;
:data:`DATA`, JSON without tiles; :data:`PUBLIC_STATE`; or a :class:`Record` of its own fields) and who
may see it (a :class:`SeenBy`: :data:`PUBLIC`, :data:`OWNER` — only the event's ``seat``,
:data:`PER_SEAT` — a list by seat of which each seat sees its own entry, :data:`HIDDEN` — only the log,
:data:`SEALABLE` — everybody unless the view is sealed).  What is not declared is
refused: an unknown event type or field raises :class:`UnknownEvent`, nothing passes through
unchecked.

The engine declares its own events below; a ruleset declares its events (:func:`register_event`),
the fields it adds to the engine's (:func:`register_fields`: a win's summary, the settlement's
detail) and its public state (:func:`register_public`) when its module is imported; importing
:mod:`majiang.rulesets` imports every ruleset.

>>> to_json({"type": "discard", "seat": 2, "tile": 4})
{'type': 'discard', 'seat': 2, 'tile': '5m'}
>>> from_json({"type": "payment", "reason": "kong", "deltas": [3, -1, -1, -1]})["deltas"]
[3, -1, -1, -1]
>>> spec("draw").fields["tile"].seen_by is OWNER
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeAlias

from majiang.tiles import parse_tile, tile_str


class Kind(StrEnum):
    """What a field holds, at any depth of lists (and of a dict's values)."""

    TILE = "tile"
    NUMBER = "number"
    TEXT = "text"
    FLAG = "flag"
    DATA = "data"  # JSON without tiles
    #: a ruleset's public state (:meth:`~majiang.engine.protocol.Ruleset.public`): keys
    #: :func:`register_public` declares
    PUBLIC_STATE = "public_state"


class SeenBy(StrEnum):
    """Who may see a field through a seat view."""

    PUBLIC = "public"
    OWNER = "owner"  # only the event's ``seat``
    PER_SEAT = "per_seat"  # a list by seat: each seat sees its own entry
    HIDDEN = "hidden"  # only the log
    #: everybody, unless the view is sealed (the seed a hand's end reveals, which a 复式 table keeps
    #: until the other tables on the same walls are done)
    SEALABLE = "sealable"


TILE, NUMBER, TEXT, FLAG, DATA, PUBLIC_STATE = Kind
PUBLIC, OWNER, PER_SEAT, HIDDEN, SEALABLE = SeenBy

#: the log format written now (in ``hand_start``); logs without a version are format 1, whose
#: reader turns numbers written as tile names (Nanchang's jing deltas) back into numbers
VERSION = 3
FIRST_NUMBERS = 2  # the first format that writes every number as a number
FIRST_MOQIE = 3  # the first format whose discards say whether they were 摸切 (older ones get it on reading)


class UnknownEvent(ValueError):
    """An event type or field that no declaration names."""


@dataclass(frozen=True)
class Record:
    """A nested object (or a list of them) with its own fields; :data:`OWNER` there means the
    record's own ``seat`` (``hand_start.items``: who used which item)."""

    fields: Mapping[str, Field]


Holds: TypeAlias = "Kind | Record"


@dataclass(frozen=True)
class Field:
    holds: Holds
    seen_by: SeenBy = PUBLIC
    #: ``(key, value)``: ``seen_by`` applies only when the event's ``key`` is ``value`` (a kong's tile is
    #: the owner's only when the kong is concealed); otherwise the field is public
    only_if: tuple[str, Any] | None = None


@dataclass(frozen=True)
class EventSpec:
    type: str
    fields: Mapping[str, Field]
    #: may come before the first decision (乾坤大挪移 can still be used)
    dealing: bool = False
    #: fields (declared with the others) only views have, computed from the whole event (a deal's
    #: tile counts per seat)
    derived: Mapping[str, Callable[[dict[str, Any]], Any]] = field(default_factory=dict)

    # precomputed (views are made for every seat of every event): the names declared, those that
    # hold tiles, whether a field nests, whether some seat sees less than the whole event
    names: frozenset[str] = field(init=False, repr=False, compare=False)
    tile_names: frozenset[str] = field(init=False, repr=False, compare=False)
    nested: bool = field(init=False, repr=False, compare=False)
    masked: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds = self.fields.values()
        object.__setattr__(self, "names", frozenset({"type", *self.fields}))
        object.__setattr__(self, "tile_names", frozenset(k for k, f in self.fields.items() if f.holds == TILE))
        object.__setattr__(self, "nested", any(isinstance(f.holds, Record) or f.holds == PUBLIC_STATE for f in kinds))
        object.__setattr__(self, "masked", bool(self.derived) or any(f.seen_by != PUBLIC for f in kinds))


def fields(**holds: Holds) -> dict[str, Field]:
    """Public fields by what they hold: ``fields(total=NUMBER, self_drawn=FLAG)``."""
    return {name: Field(h) for name, h in holds.items()}


def _f(holds: Holds, seen_by: SeenBy = PUBLIC, only_if: tuple[str, Any] | None = None) -> Field:
    return Field(holds, seen_by, only_if)


SEAT = _f(NUMBER)
_TYPE = _f(TEXT)
_SPECS: dict[str, EventSpec] = {}
_PUBLIC: dict[str, Record] = {}
_loose: dict[str, Holds] | None = None  # field name → what it holds, over the whole table (plain dicts)


def register_event(event: EventSpec) -> None:
    """Declare a new event type (a ruleset's own).  Declaring the same type twice must give the
    same declaration."""
    global _loose
    known = _SPECS.get(event.type)
    if known is not None and known != event:
        raise ValueError(f"event type {event.type!r} is already declared differently")
    _SPECS[event.type] = event
    _loose = None


def register_fields(event_type: str, extra: Mapping[str, Field]) -> None:
    """Add fields to a declared event type (what a ruleset's win summary or settlement detail adds;
    the table is one for all rulesets, so two rulesets may not give one name two meanings)."""
    global _loose
    known = _SPECS[event_type]
    for name, f in extra.items():
        if name in known.fields and known.fields[name] != f:
            raise ValueError(f"field {name!r} of {event_type!r} is already declared differently")
    _SPECS[event_type] = replace(known, fields={**known.fields, **extra})
    _loose = None


def register_public(key: str, record: Record) -> None:
    """Declare one key of a ruleset's public state (views show it, the next hand's header carries it)."""
    global _loose
    if _PUBLIC.get(key, record) != record:
        raise ValueError(f"public state {key!r} is already declared differently")
    _PUBLIC[key] = record
    _loose = None


def spec(event_type: str) -> EventSpec:
    """The declaration of ``event_type``; raises :class:`UnknownEvent`."""
    s = _SPECS.get(event_type)
    if s is None:
        raise UnknownEvent(f"unknown event type {event_type!r}")
    return s


def check(event: dict[str, Any]) -> None:
    """Raise :class:`UnknownEvent` unless ``event``'s type and every field are declared."""
    s = _SPECS.get(event["type"])  # spec(), without the call: every emitted event passes here
    if s is None:
        raise UnknownEvent(f"unknown event type {event['type']!r}")
    if not event.keys() <= s.names:
        for k in event:
            _field(s, k)


def dealing(event_type: str) -> bool:
    return spec(event_type).dealing


def _field(s: EventSpec, name: str) -> Field:
    if name == "type":
        return _TYPE
    f = s.fields.get(name)
    if f is None:
        raise UnknownEvent(f"event {s.type!r} has no field {name!r}")
    return f


# ---- JSON: tiles as strings ------------------------------------------------------------------------
def _tile_out(x: Any) -> Any:
    if isinstance(x, list | tuple):
        return [_tile_out(v) for v in x]
    if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 42:
        return tile_str(x)
    return x


def _tile_in(x: Any) -> Any:
    if isinstance(x, list):
        return [_tile_in(v) for v in x]
    if isinstance(x, str):
        return parse_tile(x)
    return x


def _number_v1(x: Any) -> Any:
    """Format 1 wrote numbers under some names as tile names (Nanchang's jing deltas, read by a tile
    field's writer): back to numbers."""
    if isinstance(x, list):
        return [_number_v1(v) for v in x]
    if isinstance(x, dict):
        return {k: _number_v1(v) for k, v in x.items()}
    if isinstance(x, str):
        return parse_tile(x)
    return x


def _convert(holds: Holds, x: Any, out: bool, legacy: bool = False) -> Any:
    if holds == TILE:
        return _tile_out(x) if out else _tile_in(x)
    if isinstance(holds, Record):
        if isinstance(x, list | tuple):
            return [_convert(holds, v, out, legacy) for v in x]
        if isinstance(x, dict):
            return {k: _convert(_record_field(holds, k).holds, v, out, legacy) for k, v in x.items()}
        return x
    if holds == PUBLIC_STATE:
        if isinstance(x, dict):
            return {k: _convert(_public(k), v, out, legacy) for k, v in x.items()}
        return x
    if holds == NUMBER and legacy and not out:
        return _number_v1(x)
    return x


def _record_field(r: Record, name: str) -> Field:
    f = r.fields.get(name)
    if f is None:
        raise UnknownEvent(f"no field {name!r} in {sorted(r.fields)}")
    return f


def _public(key: str) -> Record:
    r = _PUBLIC.get(key)
    if r is None:
        raise UnknownEvent(f"unknown public state {key!r}")
    return r


def to_json(event: dict[str, Any]) -> dict[str, Any]:
    """An engine event (tiles as ints) → JSON (tiles as strings, numbers as numbers)."""
    s = spec(event["type"])
    if not event.keys() <= s.names:
        return {k: _convert(_field(s, k).holds, v, True) for k, v in event.items()}  # raises on the undeclared
    if s.nested:
        return {k: v if k == "type" else _convert(s.fields[k].holds, v, True) for k, v in event.items()}
    tiles = s.tile_names  # the common case: only tiles need converting
    return {k: _tile_out(v) if k in tiles else v for k, v in event.items()}


def from_json(event: dict[str, Any], version: int = VERSION) -> dict[str, Any]:
    """A stored event (tiles as strings) of log format ``version`` → the engine event."""
    s = spec(event["type"])
    legacy = version < FIRST_NUMBERS
    return {k: _convert(_field(s, k).holds, v, False, legacy) for k, v in event.items()}


def public_to_json(state: dict[str, Any]) -> dict[str, Any]:
    """A ruleset's public state (:meth:`~majiang.engine.protocol.Ruleset.public`) as JSON."""
    out: dict[str, Any] = _convert(PUBLIC_STATE, state, True)
    return out


def _loose_fields() -> dict[str, Holds]:
    global _loose
    if _loose is None:
        names: dict[str, Holds] = {}

        def add(fields: Mapping[str, Field]) -> None:
            for name, f in fields.items():
                if f.holds == TILE or isinstance(f.holds, Record):
                    names.setdefault(name, f.holds)
                if isinstance(f.holds, Record):
                    add(f.holds.fields)

        for s in _SPECS.values():
            add(s.fields)
        for r in _PUBLIC.values():
            add(r.fields)
        _loose = names
    return _loose


def plain_to_json(x: Any) -> Any:
    """Tiles → strings in a plain object that is no event (a part of one, say): under the names
    that hold tiles somewhere in the table, recursively."""
    if isinstance(x, dict):
        if isinstance(x.get("type"), str):
            return to_json(x)
        names = _loose_fields()
        return {k: _convert(names[k], v, True) if k in names else plain_to_json(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain_to_json(v) for v in x]
    return x


# ---- seat views ------------------------------------------------------------------------------------
def _hidden_from(f: Field, event: dict[str, Any], owner: Any, seat: int, sealed: bool = False) -> bool:
    if f.seen_by == PUBLIC or f.seen_by == PER_SEAT:
        return False
    if f.seen_by == SEALABLE:
        return sealed
    if f.only_if is not None and event.get(f.only_if[0]) != f.only_if[1]:
        return False
    return f.seen_by == HIDDEN or owner != seat


def _record_view(r: Record, x: Any, seat: int) -> Any:
    if isinstance(x, list):
        return [_record_view(r, v, seat) for v in x]
    if not isinstance(x, dict):
        return x
    owner = x.get("seat")
    return {k: v for k, v in x.items() if not _hidden_from(_record_field(r, k), x, owner, seat)}


def view(event: dict[str, Any], seat: int, sealed: bool = False) -> dict[str, Any] | None:
    """The part of ``event`` that ``seat`` may see (−1: a spectator), tiles still as ints; the event
    itself when it hides nothing.  ``sealed``: :data:`SEALABLE` fields are hidden too."""
    s = spec(event["type"])
    if not s.masked and event.keys() <= s.names:
        return event
    owner = event.get("seat")
    out: dict[str, Any] = {}
    for k, v in event.items():
        f = _field(s, k)
        if _hidden_from(f, event, owner, seat, sealed):
            continue
        if f.seen_by == PER_SEAT:
            v = [x if i == seat else [] for i, x in enumerate(v)]
        elif isinstance(f.holds, Record):
            v = _record_view(f.holds, v, seat)
        out[k] = v
    for k, derive in s.derived.items():
        out[k] = derive(event)
    return out


# ---- the engine's events ---------------------------------------------------------------------------
_USE = Record({"seat": SEAT, "item": _f(TEXT), "pattern": _f(TEXT, OWNER)})  # a 乾坤大挪移 use in the header

#: the keys :class:`~majiang.engine.hand.Hand` writes into ``hand_start`` itself (the rest is ``extra``)
HEADER_KEYS = frozenset(
    {"type", "version", "rules", "ruleset", "seed", "seed_hash", "dealer", "prevalent", "hand_no", "scores", "arrange"}
)

for _spec in (
    EventSpec(
        "hand_start",
        {
            "version": _f(NUMBER),
            "rules": _f(TEXT),
            "ruleset": _f(DATA),
            "seed": _f(TEXT, HIDDEN),
            "seed_hash": _f(TEXT),
            "dealer": SEAT,
            "prevalent": _f(NUMBER),
            "hand_no": _f(NUMBER),
            "scores": _f(NUMBER),
            "arrange": _f(NUMBER, HIDDEN),  # the wall order stays hidden
            # what a session and items add (Hand's ``extra``)
            "round": _f(NUMBER),
            "players": _f(NUMBER),
            "previous": _f(PUBLIC_STATE),
            "items": _f(_USE),
        },
        dealing=True,
    ),
    EventSpec("dice", {"dice": _f(NUMBER), "break_seat": SEAT, "break_stack": _f(NUMBER)}, dealing=True),
    EventSpec(
        "deal",
        {"hands": _f(TILE, PER_SEAT), "counts": _f(NUMBER)},
        dealing=True,
        derived={"counts": lambda e: [len(h) for h in e["hands"]]},
    ),
    EventSpec("flower", {"seat": SEAT, "tile": _f(TILE), "replacement": _f(TILE, OWNER)}, dealing=True),
    EventSpec("draw", {"seat": SEAT, "tile": _f(TILE, OWNER), "tail": _f(FLAG)}),
    # ``moqie``: 摸切, the tile just drawn thrown straight away (see :func:`moqie`); public, as at a real table
    EventSpec("discard", {"seat": SEAT, "tile": _f(TILE), "moqie": _f(FLAG)}),
    EventSpec("chow", {"seat": SEAT, "from": SEAT, "tile": _f(TILE), "tiles": _f(TILE)}),
    EventSpec("pung", {"seat": SEAT, "from": SEAT, "tile": _f(TILE)}),
    EventSpec("add_kong_declared", {"seat": SEAT, "tile": _f(TILE)}),
    EventSpec("kong", {"seat": SEAT, "tile": _f(TILE, OWNER, only_if=("kind", "concealed")), "kind": _f(TEXT)}),
    EventSpec("robbed", {"seat": SEAT, "from": SEAT, "tile": _f(TILE)}),
    EventSpec("payment", {"reason": _f(TEXT), "deltas": _f(NUMBER)}),
    EventSpec("false_win", {"seat": SEAT, "tile": _f(TILE), "kind": _f(TEXT), "ends_hand": _f(FLAG)}),
    # a wrong answer or a timeout penalised by the ruleset (Hand.fault): ``kind`` WA, TLE …
    EventSpec("fault", {"seat": SEAT, "kind": _f(TEXT), "ends_hand": _f(FLAG)}),
    # ``fans``: the ruleset's names and values; a ruleset adds its summary (register_fields)
    EventSpec("win", {"seat": SEAT, "tile": _f(TILE), "from": SEAT, "points": _f(NUMBER), "fans": _f(DATA)}),
    EventSpec("exhausted", {}),
    # ``parts``: the settlement's parts by name (numbers); a ruleset adds its detail (register_fields)
    EventSpec(
        "hand_end",
        {"result": _f(TEXT), "seat": SEAT, "parts": _f(NUMBER), "deltas": _f(NUMBER), "seed": _f(TEXT, SEALABLE)},
    ),
    # an item used in the hand (majiang.engine.items): the others see who used which
    EventSpec(
        "item",
        {
            "seat": SEAT,
            "item": _f(TEXT),
            "give": _f(TILE, OWNER),
            "tile": _f(TILE, OWNER),
            "found": _f(FLAG, OWNER),
            "near": _f(NUMBER, OWNER),
            "private_to": _f(NUMBER, OWNER),
        },
    ),
):
    register_event(_spec)


# ---- 摸切 -------------------------------------------------------------------------------------------
#: the events that move a seat's own tiles; the last of them before a discard says whether it was 摸切
TILE_MOVES = frozenset(("draw", "flower", "discard", "chow", "pung", "kong", "add_kong_declared"))


def moqie(events: Sequence[dict[str, Any]], seat: int, tile: int) -> bool:
    """Whether ``seat``'s discard of ``tile``, made now (after ``events``), is 摸切: the seat's last
    tile move drew this kind (a draw, or a flower's replacement) — the hand is then what it was before
    the draw.  After a claim, on the dealer's first turn, or when the seat kept the tile it drew: 手切.
    Tiles are kinds, so throwing a copy from the hand of the kind just drawn counts as 摸切 (an
    observer learns the same: the hand did not change).  The compiled core applies the same rule
    (``mj_moqie``); a log of an older format gets it on reading."""
    for e in reversed(events):
        if e.get("seat") != seat or e["type"] not in TILE_MOVES:
            continue
        if e["type"] == "draw":
            return bool(e["tile"] == tile)
        if e["type"] == "flower":
            return bool(e.get("replacement") == tile)
        return False
    return False
