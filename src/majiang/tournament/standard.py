"""Standard scores (标准分): turning one session's scores into ranking points.  A scheme is a small
protocol with two implementations, chosen by name (mcr.md §7):

* ``1998`` — :class:`GroupRanking1998`, 第十条: the session is ranked across the whole group of N
  players; 1st gets N and the k-th gets N − k (16 players: 16, 14, 13 … 1, 0).
* ``4210`` — :class:`TablePlaces`: each table separately, 4 / 2 / 1 / 0 (club and EMA practice).

Ties (a ruling; the 1998 text is silent): tied players share the **average** of the points of the
places they occupy, in both schemes, so a session always hands out the same total.  The 1998
scheme can instead give every tied player the points of their best place (``tie_split="top"``,
the 1, 2, 2, 4 custom).

>>> values_1998(16)[:4], values_1998(16)[-1]
([16, 14, 13, 12], 0)
>>> shared_places({"a": 510, "b": 510, "c": 490, "d": 490}, [4, 2, 1, 0])
{'a': Fraction(3, 1), 'b': Fraction(3, 1), 'c': Fraction(1, 2), 'd': Fraction(1, 2)}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol

from majiang.tournament.scoring import TableResult

TieSplit = Literal["average", "top"]


def values_1998(n: int) -> list[int]:
    """The 1998 points for places 1…n of a group of n: n, then n − k for the k-th."""
    return [n if k == 1 else n - k for k in range(1, n + 1)]


def shared_places(
    scores: Mapping[str, int], values: Sequence[int], tie_split: TieSplit = "average"
) -> dict[str, Fraction]:
    """Rank ``scores`` (higher first) and give each the ``values`` of its place; places past the end
    of ``values`` are worth 0.  Tied players share the average of their places' values (``average``)
    or all take the best of them (``top``)."""
    order = sorted(scores, key=lambda p: -scores[p])
    out: dict[str, Fraction] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        vals = [values[k] if k < len(values) else 0 for k in range(i, j + 1)]
        share = Fraction(sum(vals), len(vals)) if tie_split == "average" else Fraction(vals[0])
        for p in order[i : j + 1]:
            out[p] = share
        i = j + 1
    return out


class StandardScheme(Protocol):
    """Turns a session's scored tables into standard scores for the ranked players who played it;
    a ranked player not in the result (absent) gets 0."""

    @property
    def name(self) -> str: ...

    def session_standard(self, tables: Sequence[TableResult], field_size: int) -> dict[str, Fraction]: ...


@dataclass(frozen=True, slots=True)
class GroupRanking1998:
    """第十条: ``field_size`` N is the number of ranked players in the group, reserves not counted; substitutes take no
    place, absentees get 0 (as if last)."""

    tie_split: TieSplit = "average"
    name: str = "1998"

    def __post_init__(self) -> None:
        if self.tie_split not in ("average", "top"):
            raise ValueError(f"tie_split is 'average' or 'top', not {self.tie_split!r}")

    def session_standard(self, tables: Sequence[TableResult], field_size: int) -> dict[str, Fraction]:
        scores = {s.player: s.score for t in tables for s in t.seats if s.ranked}
        return shared_places(scores, values_1998(field_size), self.tie_split)


@dataclass(frozen=True, slots=True)
class TablePlaces:
    """Per table 4/2/1/0.  All four seats take places (a whole-session substitute holds his place, so
    the others score as against a real opponent); the substitute's points are credited to nobody."""

    points: tuple[int, ...] = (4, 2, 1, 0)
    name: str = "4210"

    def session_standard(self, tables: Sequence[TableResult], field_size: int) -> dict[str, Fraction]:
        out: dict[str, Fraction] = {}
        for t in tables:
            keyed = {f"{s.seat}": s.score for s in t.seats}
            shares = shared_places(keyed, self.points, "average")
            for s in t.seats:
                if s.ranked:
                    out[s.player] = shares[f"{s.seat}"]
        return out


SCHEMES = ("1998", "4210")


def get_scheme(name: str | StandardScheme, tie_split: TieSplit = "average") -> StandardScheme:
    """``1998`` or ``4210`` (or a scheme object, passed through)."""
    if not isinstance(name, str):
        return name
    if name == "1998":
        return GroupRanking1998(tie_split)
    if name == "4210":
        return TablePlaces()
    raise ValueError(f"unknown standard-score scheme {name!r}: use one of {SCHEMES}")
