"""Shared helpers for the per-fan MCR tests.

A case is a compact hand string, its flags, the COMPLETE expected fan list as ``{English name: count}``
and the total, all written literally in the test modules and derived from the rules (mcr.md §5,
mcr-fans.tsv).  ``removed`` names the fans the case shows being taken away by an exclusion (不计) or a
principle (不重复, 不拆移, 不得相同, 就高不就低, 套算一次); ``profiles`` the rule profiles the
expectation holds in (both unless the hand has one concealed and one melded kong).
"""

from __future__ import annotations

from typing import Any

import pytest

from majiang.mcr import FAN_INFO, WinningHand, score, scorer

# score() may answer from the compiled calculator; the pure-Python reference must agree with the same
# literal expectations (checked too whenever the reference entry point exists).
_REFERENCE = getattr(scorer, "score_reference", None)

BOTH = ("gb", "botzone")
PARAMS = ("hand", "flags", "expected", "total", "profiles", "removed")
NAMES = frozenset(info.en for info in FAN_INFO.values())


def case(
    id_: str,
    hand: str,
    expected: dict[str, int],
    total: int,
    *,
    removed: tuple[str, ...] = (),
    profiles: tuple[str, ...] = BOTH,
    **flags: Any,
) -> Any:
    return pytest.param(hand, flags, expected, total, profiles, tuple(removed), id=id_)


def fans_of(hand: str, flags: dict[str, Any], profile: str, scorer_fn: Any = score) -> tuple[dict[str, int], int]:
    r = scorer_fn(WinningHand.from_string(hand, **flags), profile)
    return {fc.name: fc.count for fc in r.fans}, r.total


def check(
    hand: str,
    flags: dict[str, Any],
    expected: dict[str, int],
    total: int,
    profiles: tuple[str, ...],
    removed: tuple[str, ...],
) -> None:
    unknown = (set(expected) | set(removed)) - NAMES
    assert not unknown, f"typo in a fan name: {sorted(unknown)}"
    assert not set(removed) & set(expected), "a removed fan cannot also be expected"
    scorers = [("score", score)] + ([("reference", _REFERENCE)] if _REFERENCE is not None else [])
    for profile in profiles:
        for which, fn in scorers:
            got, got_total = fans_of(hand, flags, profile, fn)
            assert (profile, which, got) == (profile, which, expected)
            assert (profile, which, got_total) == (profile, which, total)
