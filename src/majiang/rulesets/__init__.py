"""The rulesets: adapters of the rules cores (:mod:`majiang.mcr`, :mod:`majiang.nanchang`) to the
engine's :class:`~majiang.engine.protocol.Ruleset`, one module each, and their registry by name
(:mod:`majiang.rulebook`, re-exported here).

* :mod:`~majiang.rulesets.mcr` — MCR (profile ``gb``); :mod:`~majiang.rulesets.botzone` — Botzone's game
  (the judge's 136-tile wall in quarters, the ``botzone`` fan profile) and its match records.
* :mod:`~majiang.rulesets.nanchang` — Nanchang (南昌麻将) with its room options.

Importing this package imports every adapter, and so declares every ruleset's events and fields
(:mod:`majiang.engine.events`): a stored log of any ruleset reads wherever the rulesets are used,
before any ruleset is made.  What needs only the registry's answers (a parser's ``--rules``
choices, ``majiang fan --jsonl``) imports :mod:`majiang.rulebook` instead.
"""

from __future__ import annotations

from majiang.rulebook import (
    DEFAULT,
    Calculator,
    Factory,
    RulesetInfo,
    calculator,
    choices,
    entries,
    fan_names,
    from_header,
    info,
    lookup,
    make_ruleset,
    names,
    register,
)
from majiang.rulesets import botzone, mcr, nanchang

__all__ = [
    "DEFAULT",
    "Calculator",
    "Factory",
    "RulesetInfo",
    "botzone",
    "calculator",
    "choices",
    "entries",
    "fan_names",
    "from_header",
    "info",
    "lookup",
    "make_ruleset",
    "mcr",
    "names",
    "nanchang",
    "register",
]
