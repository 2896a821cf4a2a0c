"""What the fan calculator answers: :class:`ScoreResult` (a scored hand) and :class:`FanCount` (one fan,
how many times, from which sets).

Both the reference (:mod:`majiang.mcr.scorer`) and the compiled port (:mod:`majiang.mcr.fast`) build
these; they live apart from both so neither imports the other for them.  A fast-path result counts fans
but does not say where they come from: it carries an :class:`Explanation`, which the first time a fan's
``sources`` or the result's ``reading`` is asked for scores the hand once more with the reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from majiang.mcr.fans import FAN_INFO, Fan
from majiang.mcr.hand import WinningHand
from majiang.mcr.rules import Rules


class Explanation:
    """The hand behind a result of the compiled fast path (made by the C module, which sets ``hand``
    and ``rules``).  :meth:`score` is the reference calculator; :mod:`majiang.mcr.scorer` supplies it
    in a subclass, so this module needs no import of the scorer."""

    __slots__ = ("_result", "hand", "rules")
    hand: WinningHand
    rules: Rules
    _result: ScoreResult

    def __init__(self, hand: WinningHand, rules: Rules) -> None:
        self.hand = hand
        self.rules = rules

    def score(self, hand: WinningHand, rules: Rules) -> ScoreResult:
        raise NotImplementedError

    def result(self) -> ScoreResult:
        try:
            return self._result
        except AttributeError:
            self._result = self.score(self.hand, self.rules)
            return self._result

    def sources(self, fan: Fan) -> tuple[tuple[str, ...], ...]:
        for fc in self.result().fans:
            if fc.fan is fan:
                return fc.sources
        return ()

    def reading(self) -> str:
        return self.result().reading


def _fill_lazy(obj: FanCount | ScoreResult, name: str) -> Any:
    """``__getattr__`` of the result classes, reached only for an attribute that is not set: a
    fast-path result leaves ``FanCount.sources`` and ``ScoreResult.reading`` empty until first use."""
    lazy = "sources" if isinstance(obj, FanCount) else "reading"
    if name == lazy:
        explanation = obj._explanation
        if explanation is not None:
            value: Any = explanation.sources(obj.fan) if isinstance(obj, FanCount) else explanation.reading()
            object.__setattr__(obj, name, value)
            return value
    raise AttributeError(f"{type(obj).__name__!r} object has no attribute {name!r}")


@dataclass(frozen=True, slots=True)
class FanCount:
    fan: Fan
    count: int
    sources: tuple[tuple[str, ...], ...] = ()
    #: set on fast-path results, whose ``sources`` is filled on first access (see :class:`Explanation`)
    _explanation: Explanation | None = field(default=None, init=False, repr=False, compare=False)

    if not TYPE_CHECKING:

        def __getattr__(self, name):
            return _fill_lazy(self, name)

    @property
    def points(self) -> int:
        return FAN_INFO[self.fan].points

    @property
    def zh(self) -> str:
        return FAN_INFO[self.fan].zh

    @property
    def name(self) -> str:
        return FAN_INFO[self.fan].en

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "zh": self.zh, "points": self.points, "count": self.count}
        if explain:
            d["from"] = [list(s) for s in self.sources]
        return d


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """A scored hand.  ``total`` includes flowers; ``below_minimum`` compares the rest with 8."""

    total: int
    fans: tuple[FanCount, ...]
    rules: Rules
    reading: str = ""  # the chosen decomposition, in compact notation
    explain_text: tuple[str, ...] = field(default=())
    #: set on fast-path results, whose ``reading`` is filled on first access (see :class:`Explanation`)
    _explanation: Explanation | None = field(default=None, init=False, repr=False, compare=False)

    if not TYPE_CHECKING:

        def __getattr__(self, name):
            return _fill_lazy(self, name)

    @property
    def fan_points(self) -> int:
        """Points not counting flowers (what the 8-fan minimum looks at)."""
        return self.total - sum(fc.points * fc.count for fc in self.fans if fc.fan is Fan.FLOWER_TILES)

    @property
    def below_minimum(self) -> bool:
        return self.fan_points < self.rules.min_fan

    @property
    def valid(self) -> bool:
        return not self.below_minimum

    def count(self, fan: Fan) -> int:
        return sum(fc.count for fc in self.fans if fc.fan is fan)

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "total": self.total,
            "fans": [fc.to_dict(explain) for fc in self.fans],
            "valid": self.valid,
            "below_minimum": self.below_minimum,
        }
        if explain:
            d["reading"] = self.reading
        return d
