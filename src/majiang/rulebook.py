"""The rulebook: the registry of every ruleset majiang plays, by name, as data — the edge where a
name (from a CLI flag, a room config, a hand-json object or a log header) becomes a ruleset.

Each entry (:class:`RulesetInfo`) answers every question the edges have, so that none of them asks
for a ruleset by name: the hand calculator behind ``/api/fan`` and ``majiang fan``, the fan minimum,
whether a round has a prevalent wind, whether players change seats, which commands accept it
(:func:`choices`, :func:`fan_names`), the default bots, the RL environment, the display names and
what the web client shows (``GET /api/rulesets``).

The adapters (:mod:`majiang.rulesets`) and calculators are named by ``module:attribute`` and
imported when first asked for, and this module imports nothing of majiang: a command's parser may
list the rulesets, and ``majiang fan --jsonl`` score MCR hands, without importing the engine or the
other rules cores.  :mod:`majiang.rulesets` re-exports all of it and imports every adapter (so that
every ruleset's events are declared wherever the rulesets are used).

>>> info("nanchang").tiles, info("gb").tiles, info("nanchang").dead_wall
(136, 144, 34)
>>> info("gb").min_fan, info("nanchang").min_fan, info("nanchang").prevalent_wind
(8, None, False)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from majiang.engine.protocol import Ruleset

Factory = Callable[[dict[str, Any] | None], "Ruleset"]
#: a hand-json object (docs/hand-json.md) and ``explain`` in, the result (or ``{"error": …}``) out
Calculator = Callable[[Mapping[str, Any], bool], dict[str, Any]]

#: the ruleset of a hand-json object without ``rules`` (docs/hand-json.md), and of a command or room
#: that names none
DEFAULT = "gb"
#: how a bot's fault (a timeout, an illegal answer, a crash) is scored (rulesets.mcr): ``substitute`` —
#: a legal move in its place; ``botzone`` — as Botzone's judge: the hand ends, −30 / +10 each
FAULT_RULES = ("substitute", "botzone")
JUDGE_FAULTS = "botzone"  # arena's IJCAI format


def _resolve(path: str) -> Any:
    """The attribute ``path`` (``module:attribute``) names, importing its module."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """A registered ruleset: how to make it, and what the edges need of it besides the adapter."""

    name: str
    #: ``module:callable`` that makes the adapter from the room's options (None: the defaults)
    factory: str
    zh: str  # display names
    en: str
    #: ``module:function``, a :data:`Calculator` (or, with ``explains`` False, a function of the
    #: hand-json object alone, whose result is its own explanation)
    calculator: str
    #: which calculator form the web client shows for it (``calc-<form>.js``)
    form: str
    #: what :attr:`~majiang.engine.protocol.Win.points` counts, for people (zh, en)
    points: tuple[str, str]
    #: the default bots by kind (``eff``, ``fan``): the module whose ``make(seed)`` builds one, named
    #: rather than imported so that the bots may import the rulesets
    bots: Mapping[str, str] = field(default_factory=dict)
    #: the fans a win needs (起和) in a ruleset scored in fans; None: not scored in fans.  Equal to
    #: the adapter's :attr:`~majiang.engine.protocol.Ruleset.min_fan` (tests/engine/test_rulesets.py)
    min_fan: int | None = None
    #: a round has a prevalent wind (圈风) that scores: shown in a hand's header
    prevalent_wind: bool = True
    #: players change seats between rounds; equal to the adapter's
    #: :attr:`~majiang.engine.protocol.Ruleset.seat_changes`
    seat_changes: bool = True
    #: the calculator takes ``explain`` (see :attr:`calculator`)
    explains: bool = True
    #: the PettingZoo environment module that serves it (``majiang.rl.<environment>``)
    environment: str = "mcr_v0"

    def make(self, options: dict[str, Any] | None = None) -> Ruleset:
        made: Ruleset = _resolve(self.factory)(options)
        return made

    def calculate(self) -> Calculator:
        """The hand calculator (imported on the first call: only this one)."""
        got = _CALCULATORS.get(self.name)
        if got is None:
            fn = _resolve(self.calculator)
            got = fn if self.explains else _ignoring_explain(fn)
            _CALCULATORS[self.name] = got
        return got

    @property
    def tiles(self) -> int:
        """The size of the tile set (MCR 144 with the flowers, Nanchang 136)."""
        return len(self.make(None).tile_set())

    @property
    def dead_wall(self) -> int:
        """Tiles never drawn live, with the default options."""
        return self.make(None).dead_wall

    def public(self) -> dict[str, Any]:
        """What the web client is told (``GET /api/rulesets``)."""
        return {
            "name": self.name,
            "zh": self.zh,
            "en": self.en,
            "tiles": self.tiles,
            "dead_wall": self.dead_wall,
            "form": self.form,
            "points": list(self.points),
            "min_fan": self.min_fan,
            "prevalent_wind": self.prevalent_wind,
            "seat_changes": self.seat_changes,
            "default": self.name == DEFAULT,
        }


def _ignoring_explain(fn: Callable[[Mapping[str, Any]], dict[str, Any]]) -> Calculator:
    def calculate(d: Mapping[str, Any], explain: bool) -> dict[str, Any]:
        return fn(d)

    return calculate


_REGISTRY: dict[str, RulesetInfo] = {}
_CALCULATORS: dict[str, Calculator] = {}


def register(entry: RulesetInfo) -> None:
    _REGISTRY[entry.name] = entry
    _CALCULATORS.pop(entry.name, None)


MCR_BOTS = {
    "eff": "majiang.bots.efficiency",
    "fan": "majiang.bots.fan",
    "ev": "majiang.bots.ev",
    "search": "majiang.bots.search",
}
# score_dict is called directly: one frame less on every ``fan --jsonl`` line
MCR_CALCULATOR = "majiang.mcr.scorer:score_dict"
register(
    RulesetInfo(
        "gb", "majiang.rulesets.mcr:make", "国标", "MCR", MCR_CALCULATOR, "mcr", ("番", "fan"), MCR_BOTS, min_fan=8
    )
)
register(
    RulesetInfo(
        "botzone",
        "majiang.rulesets.botzone:make",
        "国标 Botzone",
        "MCR (Botzone)",
        MCR_CALCULATOR,
        "mcr",
        ("番", "fan"),
        MCR_BOTS,
        min_fan=8,
        environment="botzone_v0",
    )
)
# the jing-aware bot plays all three kinds
register(
    RulesetInfo(
        "nanchang",
        "majiang.rulesets.nanchang:Nanchang",
        "南昌",
        "Nanchang",
        "majiang.nanchang.hand_json:settle_dict",
        "nanchang",
        ("倍", "multiplier"),
        {
            "eff": "majiang.bots.nanchang",
            "fan": "majiang.bots.nanchang",
            "ev": "majiang.bots.nanchang",
            "search": "majiang.bots.nanchang",
        },
        min_fan=None,
        # the deal passes round the table and the players keep their chairs; no 圈风 scores (nanchang.md §2.2)
        prevalent_wind=False,
        seat_changes=False,
        explains=False,  # the settlement is its own explanation
        environment="nanchang_v0",
    )
)


def names() -> list[str]:
    return sorted(_REGISTRY)


def entries() -> list[RulesetInfo]:
    """Every registered ruleset, in the order registered (the default first)."""
    return list(_REGISTRY.values())


def choices() -> list[str]:
    """Every registered name in the order registered (the default first): a ``--rules`` option's choices."""
    return list(_REGISTRY)


def fan_names() -> list[str]:
    """The rulesets scored in fans (MCR's profiles): what the shanten query's 合法听, Botzone-style
    leagues (``majiang arena``) and competitions (``majiang tournament``) play."""
    return [r.name for r in _REGISTRY.values() if r.min_fan is not None]


def info(name: str) -> RulesetInfo:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}: use one of {', '.join(names())}") from None


def lookup(name: object) -> RulesetInfo | None:
    """The entry registered as ``name``, or None (not a registered name: an MCR profile such as
    ``pymahjonggb`` that the scorer knows, or a mistake it reports)."""
    return _REGISTRY.get(name) if isinstance(name, str) else None


def make_ruleset(name: str, options: dict[str, Any] | None = None) -> Ruleset:
    return info(name).make(options)


def from_header(head: dict[str, Any]) -> Ruleset:
    """The ruleset a log's ``hand_start`` event names (with its options)."""
    return make_ruleset(head["rules"], head.get("ruleset"))


def calculator(rules: object) -> Calculator:
    """The calculator for a hand-json object's ``rules``.  Anything not a registered name goes to the
    default ruleset's calculator, which reports the bad ``rules`` as the hand's error.  Only the
    calculator asked for is imported."""
    return (lookup(rules) or _REGISTRY[DEFAULT]).calculate()
