"""The rulesets: adapters of the rules cores (:mod:`majiang.mcr`, :mod:`majiang.nanchang`) to the
engine's :class:`~majiang.engine.protocol.Ruleset`, one module each, and their registry by name — the
edge where a name (from a CLI flag, a room config or a log header) becomes a ruleset.

* :mod:`~majiang.rulesets.mcr` — MCR, profiles ``gb`` and ``botzone``.
* :mod:`~majiang.rulesets.nanchang` — Nanchang (南昌麻将) with its room options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from majiang.engine.protocol import Ruleset
from majiang.rulesets.mcr import MCR
from majiang.rulesets.nanchang import Nanchang

Factory = Callable[[dict[str, Any] | None], Ruleset]
_REGISTRY: dict[str, Factory] = {}


def register(name: str, factory: Factory) -> None:
    _REGISTRY[name] = factory


register("gb", lambda opts: MCR("gb"))
register("botzone", lambda opts: MCR("botzone"))
register("nanchang", Nanchang)


def names() -> list[str]:
    return sorted(_REGISTRY)


def make_ruleset(name: str, options: dict[str, Any] | None = None) -> Ruleset:
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}: use one of {', '.join(names())}") from None
    return factory(options)


def from_header(head: dict[str, Any]) -> Ruleset:
    """The ruleset a log's ``hand_start`` event names (with its options)."""
    return make_ruleset(head["rules"], head.get("ruleset"))
