"""就高不就低 (take the highest reading): which decomposition of a hand is scored.

Every reading of the tiles (each regular decomposition, and the special shape when there is one) is
scored and the one with the most points is kept.  Readings with *equal* points may still report
different fans — 一色三同顺 read as three chows or 一色三节高 read as three pungs of the same tiles,
七对 or the sets of the same pairs — and the rulebook (mcr.md §5) does not say which to report.  The
rule here is the one PyMahjongGB 1.4 (the Botzone judge) follows, so the ``botzone`` profile agrees
with the judge fan by fan, not only in points (``tests/mcr/test_highest.py`` shows hands where it does
and where the other choice would not):

* readings are tried in the order of :func:`majiang.mcr.shapes.regular_divisions` (the special shape
  first);
* a later reading with equal points replaces the kept one when it counts one of :data:`TIE_BREAK_FANS`
  (the chow reading of 一色三同顺, the pung reading of 三同刻), or whenever the hand is also a 七对
  (so a regular reading of the same pairs worth as much is reported as sets, the last such one; kept
  from the first version of the calculator — no generated hand has been found where it decides).

The compiled port applies the same rule: it receives :data:`TIE_BREAK_FANS` from
:mod:`majiang.mcr.fast` and compares readings in the same order (``tests/mcr/test_highest.py``).
"""

from __future__ import annotations

from collections.abc import Container

from majiang.mcr.fans import Fan

TIE_BREAK_FANS: tuple[Fan, ...] = (Fan.PURE_TRIPLE_CHOW, Fan.TRIPLE_PUNG)


def replaces(points: int, best_points: int, fans: Container[Fan], seven_pairs: bool) -> bool:
    """Whether a reading worth ``points`` with these ``fans`` replaces the best one so far
    (``seven_pairs``: the hand is also read as 七对)."""
    if points != best_points:
        return points > best_points
    return seven_pairs or any(f in fans for f in TIE_BREAK_FANS)
