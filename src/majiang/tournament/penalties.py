"""Penalties (罚则, mcr.md §6) as codes with an allowed scale; each becomes a signed per-seat adjustment.

False wins are transfers between the four players (zero-sum, :func:`majiang.mcr.payment.false_win_deltas`);
every other penalty is a deduction (扣分) from the offender alone, taken off his session score.

>>> Penalty(seat=2, code=PenaltyCode.FALSE_WIN).deltas()
[10, 10, -30, 10]
>>> Penalty(seat=1, code=PenaltyCode.MISCONDUCT, points=20).deltas()
[0, -20, 0, 0]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from majiang.mcr.payment import FalseWin, false_win_deltas
from majiang.mcr.rules import Rules
from majiang.tournament.errors import TournamentError


class PenaltyCode(StrEnum):
    FALSE_WIN = "false_win"  # 错和: < 8 fan or a wrong tile; pays 10 to each, plays on without the right to win
    DECEPTIVE_WIN = "deceptive_win"  # 诈和: one tile short of ready; pays 20 to each, plays on
    DELIBERATE_FALSE_WIN = "deliberate_false_win"  # 故意诈和 (two or more short on purpose): disqualified
    WARNING = "warning"  # 警告: no points, marked × on the score sheet
    LATE = "late"  # 迟到: warning, −10, −20, then forfeit of the session
    EMPTY_CALL = "empty_call"  # 空叫 (calling chow/pung/kong/win without the tiles): warning, −5, −10, −20
    MISCONDUCT = "misconduct"  # 其他违例: a deduction on the 1998 scale


#: Chinese names, as written on the score sheet.
PENALTY_ZH: dict[PenaltyCode, str] = {
    PenaltyCode.FALSE_WIN: "错和",
    PenaltyCode.DECEPTIVE_WIN: "诈和",
    PenaltyCode.DELIBERATE_FALSE_WIN: "故意诈和",
    PenaltyCode.WARNING: "警告",
    PenaltyCode.LATE: "迟到",
    PenaltyCode.EMPTY_CALL: "空叫",
    PenaltyCode.MISCONDUCT: "违例",
}

#: The deduction scale of mcr.md §6.
SCALE: tuple[int, ...] = (5, 10, 20, 30, 40, 50, 60)

#: Points a deduction of each code may take (0 = a warning).
ALLOWED: dict[PenaltyCode, frozenset[int]] = {
    PenaltyCode.FALSE_WIN: frozenset({0}),
    PenaltyCode.DECEPTIVE_WIN: frozenset({0}),
    PenaltyCode.DELIBERATE_FALSE_WIN: frozenset({0}),
    PenaltyCode.WARNING: frozenset({0}),
    PenaltyCode.LATE: frozenset({0, 10, 20}),
    PenaltyCode.EMPTY_CALL: frozenset({0, 5, 10, 20}),
    PenaltyCode.MISCONDUCT: frozenset(SCALE),
}

#: Escalation ladders: the n-th offence of the kind (1-based) costs this much; past the end, the last.
LADDER: dict[PenaltyCode, tuple[int, ...]] = {
    PenaltyCode.LATE: (0, 10, 20),  # the 4th is a forfeit, which is an absence, not a deduction
    PenaltyCode.EMPTY_CALL: (0, 5, 10, 20),
}

FALSE_WIN_CODES = frozenset({PenaltyCode.FALSE_WIN, PenaltyCode.DECEPTIVE_WIN, PenaltyCode.DELIBERATE_FALSE_WIN})


class PenaltyError(TournamentError):
    """A penalty outside the 1998 scale or on a seat that does not exist."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """One penalty on ``seat`` (0–3, the index in the table's players).  ``points`` is the deduction
    for deduction codes; false wins derive their transfers from the rules profile."""

    seat: int
    code: PenaltyCode
    points: int = 0
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", PenaltyCode(self.code))
        if self.seat not in (0, 1, 2, 3):
            raise PenaltyError(f"a penalty's seat is 0–3, got {self.seat!r}")
        if self.points not in ALLOWED[self.code]:
            raise PenaltyError(
                f"{self.code.value} ({PENALTY_ZH[self.code]}) may deduct {sorted(ALLOWED[self.code])}, "
                f"not {self.points}"
            )

    @property
    def is_false_win(self) -> bool:
        return self.code in FALSE_WIN_CODES

    @property
    def is_warning(self) -> bool:
        """A warning on the sheet (×): a plain warning, or the first step of a ladder."""
        return not self.is_false_win and self.points == 0

    @property
    def disqualifies(self) -> bool:
        return self.code is PenaltyCode.DELIBERATE_FALSE_WIN

    def deltas(self, rules: str | Rules | None = None) -> list[int]:
        """The signed adjustment per seat."""
        if self.code is PenaltyCode.FALSE_WIN:
            return false_win_deltas(self.seat, FalseWin.WRONG, rules)
        if self.is_false_win:  # a deliberate one pays as a 诈和 and disqualifies besides
            return false_win_deltas(self.seat, FalseWin.SHORT, rules)
        out = [0, 0, 0, 0]
        out[self.seat] = -self.points
        return out

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "code": self.code.value}
        if self.points:
            d["points"] = self.points
        if self.note:
            d["note"] = self.note
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Penalty:
        return cls(
            seat=int(d["seat"]),
            code=PenaltyCode(d["code"]),
            points=int(d.get("points", 0)),
            note=str(d.get("note", "")),
        )


def escalated(code: PenaltyCode, offence: int) -> int:
    """Points for the ``offence``-th (1-based) late arrival or empty call.

    >>> [escalated(PenaltyCode.EMPTY_CALL, n) for n in (1, 2, 3, 4, 5)]
    [0, 5, 10, 20, 20]
    """
    ladder = LADDER.get(code)
    if ladder is None:
        raise PenaltyError(f"{code.value} has no escalation ladder")
    if offence < 1:
        raise PenaltyError("offences are counted from 1")
    return ladder[min(offence, len(ladder)) - 1]
