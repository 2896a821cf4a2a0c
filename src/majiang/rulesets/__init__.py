"""The rulesets: adapters of the rules cores (:mod:`majiang.mcr`, :mod:`majiang.nanchang`) to the
engine's :class:`~majiang.engine.protocol.Ruleset`, one module each, and their registry by name — the
edge where a name (from a CLI flag, a room config or a log header) becomes a ruleset.

* :mod:`~majiang.rulesets.mcr` — MCR (profile ``gb``); :mod:`~majiang.rulesets.botzone` — Botzone's game
  (the judge's 136-tile wall in quarters, the ``botzone`` fan profile) and its match records.
* :mod:`~majiang.rulesets.nanchang` — Nanchang (南昌麻将) with its room options.

Each entry (:class:`RulesetInfo`) also carries what the edges need, so that none of them asks for a
ruleset by name: the hand calculator behind ``/api/fan`` and ``majiang fan --jsonl``, the default
bots, the display names and what the web client shows.

>>> info("nanchang").tiles, info("gb").tiles, info("nanchang").dead_wall
(136, 144, 34)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from majiang.engine.protocol import Ruleset
from majiang.mcr.scorer import score_dict
from majiang.nanchang.hand_json import settle_dict
from majiang.rulesets.botzone import Botzone
from majiang.rulesets.mcr import MCR
from majiang.rulesets.nanchang import Nanchang

Factory = Callable[[dict[str, Any] | None], Ruleset]
#: a hand-json object (docs/hand-json.md) and ``explain`` in, the result (or ``{"error": …}``) out
Calculator = Callable[[Mapping[str, Any], bool], dict[str, Any]]

#: the ruleset of a hand-json object without ``rules`` (docs/hand-json.md)
DEFAULT = "gb"


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """A registered ruleset: how to make it, and what the edges need of it besides the adapter."""

    name: str
    factory: Factory
    zh: str  # display names
    en: str
    calculator: Calculator
    #: which calculator form the web client shows for it (``calc-<form>.js``)
    form: str
    #: what :attr:`~majiang.engine.protocol.Win.points` counts, for people (zh, en)
    points: tuple[str, str]
    #: the default bots by kind (``eff``, ``fan``): the module whose ``make(seed)`` builds one, named
    #: rather than imported so that the bots may import the rulesets
    bots: Mapping[str, str] = field(default_factory=dict)

    def make(self, options: dict[str, Any] | None = None) -> Ruleset:
        return self.factory(options)

    @property
    def tiles(self) -> int:
        """The size of the tile set (MCR 144 with the flowers, Nanchang 136)."""
        return len(self.factory(None).tile_set())

    @property
    def dead_wall(self) -> int:
        """Tiles never drawn live, with the default options."""
        return self.factory(None).dead_wall

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
        }


_REGISTRY: dict[str, RulesetInfo] = {}


def register(entry: RulesetInfo) -> None:
    _REGISTRY[entry.name] = entry


def _nanchang_calculator(d: Mapping[str, Any], explain: bool) -> dict[str, Any]:
    return settle_dict(d)  # the settlement is its own explanation


MCR_BOTS = {
    "eff": "majiang.bots.efficiency",
    "fan": "majiang.bots.fan",
    "ev": "majiang.bots.ev",
    "search": "majiang.bots.search",
}


def _faults(opts: dict[str, Any] | None) -> str | None:
    """The ``faults`` option (a log header's ``ruleset`` carries it when it is not the default)."""
    value = (opts or {}).get("faults")
    return None if value is None else str(value)


register(
    RulesetInfo("gb", lambda opts: MCR("gb", _faults(opts)), "国标", "MCR", score_dict, "mcr", ("番", "fan"), MCR_BOTS)
)
register(
    RulesetInfo(
        "botzone",
        lambda opts: Botzone(_faults(opts)),
        "国标 Botzone",
        "MCR (Botzone)",
        score_dict,  # called directly: one frame less on every ``fan --jsonl`` line
        "mcr",
        ("番", "fan"),
        MCR_BOTS,
    )
)
# the jing-aware bot plays both kinds
register(
    RulesetInfo(
        "nanchang",
        Nanchang,
        "南昌",
        "Nanchang",
        _nanchang_calculator,
        "nanchang",
        ("倍", "multiplier"),
        {
            "eff": "majiang.bots.nanchang",
            "fan": "majiang.bots.nanchang",
            "ev": "majiang.bots.nanchang",
            "search": "majiang.bots.nanchang",
        },
    )
)


def names() -> list[str]:
    return sorted(_REGISTRY)


def entries() -> list[RulesetInfo]:
    """Every registered ruleset, in the order registered (the default first)."""
    return list(_REGISTRY.values())


def info(name: str) -> RulesetInfo:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}: use one of {', '.join(names())}") from None


def make_ruleset(name: str, options: dict[str, Any] | None = None) -> Ruleset:
    return info(name).make(options)


def from_header(head: dict[str, Any]) -> Ruleset:
    """The ruleset a log's ``hand_start`` event names (with its options)."""
    return make_ruleset(head["rules"], head.get("ruleset"))


def calculator(rules: object) -> Calculator:
    """The calculator for a hand-json object's ``rules``.  Anything not a registered name goes to the
    default ruleset's calculator, which reports the bad ``rules`` as the hand's error."""
    entry = _REGISTRY.get(rules) if isinstance(rules, str) else None
    return (entry or _REGISTRY[DEFAULT]).calculator
