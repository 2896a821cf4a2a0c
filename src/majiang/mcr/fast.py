"""Glue to the compiled fan calculator ``majiang._speedups.fan`` (``src/majiang/_speedups/fan.c``).

Design
------
* :mod:`majiang.mcr.scorer` stays the reference: readable, and it explains every fan.  The C module
  is a function-by-function port of it that only *counts* fans (which fans, how many times).
* :func:`bind` hands the C module the data that has one source of truth in Python — fan numbers,
  names and points, the report order, the 不重复 table (:mod:`majiang.mcr.exclusions`), the tie-break
  between equal readings (:mod:`majiang.mcr.highest`), the green /
  reversible / thirteen-orphans tile sets, the knitted straights, the reference tile order, the rule
  profiles — and the classes its results are made of.  A build that disagrees with the fan numbers
  is refused (with a warning) and the pure-Python path is used.
* Every C entry point returns the answer or ``None``; ``None`` means "let the reference answer".
  That covers every error (wrong tile count, a fifth copy, contradictory flags, not a win — the
  reference then raises with its own message) and every input the C side does not read itself
  (subclasses, unusual tile spellings, non-bool flags …), so validation and messages are the
  reference's by construction.
* Results are the reference's own classes (:mod:`majiang.mcr.result`), built directly in C:
  :class:`~majiang.mcr.result.ScoreResult` and :class:`~majiang.mcr.result.FanCount` with the same
  ``total``, ``fans`` and counts.  What the C side does not compute — each fan's ``sources`` and the
  result's ``reading`` — is left unset and is filled on first access by running the reference once on
  the same hand (:class:`majiang.mcr.result.Explanation`, which keeps its own copy of the hand).
  These objects can hold no reference cycle, so C leaves them out of the cycle collector: a list of
  many results costs the collector nothing.
* ``score_dict`` (what one ``majiang fan --jsonl`` line does): C reads the hand-json dict itself
  (canonical tile spellings: ``1m``…``9s``, ``E S W N C F P``, ``1z``–``7z``, ``f1``–``f8``) and builds
  the result dict; ``explain=True`` and anything unusual go to the reference.
* The switch contract is ``dataclasses.fields(Rules)``: :func:`config` sends the field names and the C
  module refuses any it does not implement (its ``SWITCH_LIST``), so a new switch cannot be silently
  ignored; the switches are read from the Rules object (cached per object), a Rules *subclass* is
  handed back to the reference; ``min_fan`` is read for ``valid`` / ``below_minimum``.
* :data:`TWINS` names the C twin of every reference function, or why it has none (checked by a test).
* ``MAJIANG_PURE=1`` or no compiled module: :func:`bind` returns ``None`` and everything is Python.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from typing import Any, Protocol, cast

from majiang._speedups import load
from majiang.mcr.exclusions import NOT_COUNTED_WITH, NOT_COUNTED_WITH_IF, PUNGS_ALREADY_DEDUCTED
from majiang.mcr.fans import FAN_INFO, POINTS, REPORT_ORDER, Fan
from majiang.mcr.hand import Meld, MeldKind, WinningHand
from majiang.mcr.highest import TIE_BREAK_FANS
from majiang.mcr.result import ScoreResult
from majiang.mcr.rules import PROFILES, Rules
from majiang.mcr.shapes import KNITTED_STRAIGHTS, REF_ORDER, THIRTEEN_ORPHANS
from majiang.tiles import GREEN_TILES, REVERSIBLE_TILES

RulesArg = str | Rules | None


class Calculator(Protocol):
    """What ``majiang._speedups.fan`` offers once configured (``None`` = ask the reference)."""

    def score(self, hand: WinningHand, rules: RulesArg, /) -> ScoreResult | None: ...

    def score_many(
        self,
        hands: Iterable[WinningHand],
        rules: RulesArg,
        reference: Callable[[WinningHand, RulesArg], ScoreResult],
        /,
    ) -> list[ScoreResult]: ...

    def score_dict(self, d: Mapping[str, Any], /) -> dict[str, Any] | None: ...


#: The reference's functions (``module.function``: the scorer's private ones, and every function of
#: the fan families, combos and reading) and their C twins in ``_speedups/fan_core.h``; a pair
#: ``(None, reason)`` marks one that stays Python-only.  Checked both ways by ``tests/test_fan_fast.py``:
#: a new function of the reference needs a line here.
TWINS: dict[str, str | tuple[None, str]] = {
    "scorer._fixed_packs": "compute",
    "scorer._check_flags": "compute",
    "scorer._win": "win_flags",
    "scorer._tiles": "kind_traits",
    "scorer._regular": "regular_fans",
    "scorer._points": "points_of",
    "scorer._exclusions": (None, "the table is configured once, switches read per hand"),
    "scorer._final_adjust": "final_adjust",
    "scorer._special": "special",
    "scorer._seven_shifted_pairs": "special",
    "scorer._knitted_straight": "knitted_straight",
    "scorer._fixed_count": "knitted_straight",
    "scorer._nine_gates": "nine_gates",
    "scorer._waits": "count_waits",
    "scorer._best_reading": "best_reading",
    "scorer._result": (None, "results are built by the glue, fan.c make_score_result"),
    "scorer._reading": (None, "explanations come from the reference, lazily"),
    "scorer._switched": (None, "hand-json switches: score_dict sends such hands to the reference"),
    "scorer._inst_names": (None, "explanations come from the reference, lazily"),
    "reading.add": (None, "fan tables are counts in C"),
    "reading.put": (None, "fan tables are counts in C"),
    "fans_88_64.tiles": "kind_traits",
    "fans_88_64.sets": "regular_fans",
    "fans_88_64.win": "win_flags",
    "fans_88_64.pure_terminal_chows": "regular_fans",
    "fans_48_24.tiles": "kind_traits",
    "fans_48_24.sets": "regular_fans",
    "fans_48_24.win": "win_flags",
    "fans_16_12.tiles": "kind_traits",
    "fans_16_12.sets": "regular_fans",
    "fans_16_12.win": "win_flags",
    "fans_16_12.three_suited_terminal_chows": "regular_fans",
    "fans_8_6.tiles": "kind_traits",
    "fans_8_6.sets": "regular_fans",
    "fans_8_6.win": "win_flags",
    "fans_4_1.tiles": "kind_traits",
    "fans_4_1.sets": "regular_fans",
    "fans_4_1.win": "win_flags",
    "fans_4_1._has_terminal_or_honor": "regular_fans",
    "fans_4_1.tile_hog": "regular_fans",
    "fans_4_1.winds": "winds",
    "fans_4_1.wind_pungs": "regular_fans",
    "fans_4_1.waiting_form": "waiting_form",
    "combos._suit": (None, "a macro, SUIT"),
    "combos._rank": (None, "a macro, RANK"),
    "combos._shifted": "three_chows_fan",
    "combos._mixed": "mixed3",
    "combos._shifted_any_order": "shifted_any_order",
    "combos._trim": "trim_add",
    "combos.four_chows_fan": "four_chows_fan",
    "combos.three_chows_fan": "three_chows_fan",
    "combos.two_chows_fan": "two_chows_fan",
    "combos.four_pungs_fan": "four_pungs_fan",
    "combos.three_pungs_fan": "three_pungs_fan",
    "combos.two_pungs_fan": "two_pungs_fan",
    "combos.chow_fans": "chow_fans",
    "combos.pung_fans": "pung_fans",
}


def exclusions() -> list[tuple[int, list[int], str | None]]:
    """The 不重复 tables as the C module takes them: (fan, the fans it excludes, the switch it needs or
    None), sorted by fan — the order in which :func:`majiang.mcr.exclusions.not_counted` applies them."""
    entries: list[tuple[int, list[int], str | None]] = [
        (int(f), [int(g) for g in gs], None) for f, gs in NOT_COUNTED_WITH.items()
    ]
    entries += [
        (int(f), [int(g) for g in gs], switch)
        for switch, table in NOT_COUNTED_WITH_IF.items()
        for f, gs in table.items()
    ]
    return sorted(entries, key=lambda e: e[0])


def config(fan_count: type, score_result: type, explanation: type) -> dict[str, Any]:
    """The data and classes the C module is configured with."""
    n = max(Fan) + 1
    members: list[Any] = [None] * n
    en: list[Any] = [None] * n
    zh: list[Any] = [None] * n
    for fan, info in FAN_INFO.items():
        members[fan], en[fan], zh[fan] = fan, info.en, info.zh
    return {
        "fan_numbers": {f.name: int(f) for f in Fan},
        "fan_members": members,
        "names_en": en,
        "names_zh": zh,
        "points": list(POINTS),
        "report_order": [int(f) for f in REPORT_ORDER],
        "exclusions": exclusions(),
        "pungs_already_deducted": [int(f) for f in PUNGS_ALREADY_DEDUCTED],
        "tie_break_fans": [int(f) for f in TIE_BREAK_FANS],
        "green": sorted(GREEN_TILES),
        "reversible": sorted(REVERSIBLE_TILES),
        "thirteen_orphans": list(THIRTEEN_ORPHANS),
        "knitted_straights": [list(k) for k in KNITTED_STRAIGHTS],
        "ref_order": list(REF_ORDER),
        "fan_count": fan_count,
        "score_result": score_result,
        "explanation": explanation,
        "winning_hand": WinningHand,
        "winning_hand_fields": tuple(f.name for f in fields(WinningHand)),
        "meld": Meld,
        "meld_kinds": (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG),
        "rules_type": Rules,
        "rules_fields": tuple(f.name for f in fields(Rules)),
        "profiles": PROFILES,
    }


def bind(fan_count: type, score_result: type, explanation: type) -> Calculator | None:
    """The configured compiled calculator, or None (not built, ``MAJIANG_PURE=1``, or a stale build)."""
    ext = load("fan")
    if ext is None:
        return None
    try:
        ext.configure(config(fan_count, score_result, explanation))
    except Exception as e:  # a build from another version of the sources: stay correct, go slow
        warnings.warn(f"majiang._speedups.fan not used ({e}); scoring in pure Python", RuntimeWarning, stacklevel=2)
        return None
    return cast(Calculator, ext)
