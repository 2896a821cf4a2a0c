"""The registry of rulesets by name — the edge where a name (from a CLI flag, a room config or
a log header) becomes a :class:`~majiang.engine.protocol.Ruleset`."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from majiang.engine import events
from majiang.engine.protocol import Ruleset

Factory = Callable[[dict[str, Any] | None], Ruleset]
_REGISTRY: dict[str, Factory] = {}


def register(name: str, factory: Factory) -> None:
    _REGISTRY[name] = factory


def _builtin() -> None:
    from majiang.mcr.ruleset import MCR

    register("gb", lambda opts: MCR("gb"))
    register("botzone", lambda opts: MCR("botzone"))
    try:
        nanchang = importlib.import_module("majiang.nanchang.game")
    except ImportError:  # the Nanchang ruleset is optional while it is being built
        return
    register("nanchang", lambda opts: nanchang.Nanchang(opts))


# a log may name an event type of a ruleset not imported yet: loading the rulesets declares it
events.add_loader(_builtin)


def names() -> list[str]:
    if not _REGISTRY:
        _builtin()
    return sorted(_REGISTRY)


def make_ruleset(name: str, options: dict[str, Any] | None = None) -> Ruleset:
    if not _REGISTRY:
        _builtin()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}: use one of {', '.join(names())}") from None
    return factory(options)


def from_header(head: dict[str, Any]) -> Ruleset:
    """The ruleset a log's ``hand_start`` event names (with its options)."""
    return make_ruleset(head["rules"], head.get("ruleset"))
