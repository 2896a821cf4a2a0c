"""Hand payments (mcr.md §6): base 8 (底分), zero-sum, seats 0–3.

>>> hand_deltas(winner=0, discarder=None, fan=10)   # self-draw: each pays 8+10
[54, -18, -18, -18]
>>> hand_deltas(winner=0, discarder=2, fan=10)      # discard: discarder 8+10, others 8
[34, -8, -18, -8]
"""

from __future__ import annotations

from enum import StrEnum

from majiang.mcr.rules import Rules, get_rules

BASE = 8  # 底分


class FalseWin(StrEnum):
    WRONG = "wrong"  # 错和: fewer than 8 fan, or a tile that does not complete the hand
    SHORT = "short"  # 诈和: one tile short of ready


def hand_deltas(winner: int | None, discarder: int | None, fan: int, base: int = BASE) -> list[int]:
    """Score changes for one hand.  ``fan`` includes flowers; ``winner`` None = exhaustive draw (荒牌).

    A robbed kong (抢杠和) is a discard win with the robbed player as ``discarder``."""
    deltas = [0, 0, 0, 0]
    if fan < 0:
        raise ValueError(f"a fan total cannot be negative, got {fan}")
    if winner is None:
        if discarder is not None:
            raise ValueError("an exhaustive draw has no discarder; give winner= for a win")
        return deltas
    _seat(winner)
    if discarder is None:
        for s in range(4):
            if s != winner:
                deltas[s] = -(base + fan)
                deltas[winner] += base + fan
        return deltas
    _seat(discarder)
    if discarder == winner:
        raise ValueError("the discarder cannot be the winner; use discarder=None for a self-draw")
    for s in range(4):
        if s == winner:
            continue
        pay = base + fan if s == discarder else base
        deltas[s] = -pay
        deltas[winner] += pay
    return deltas


def false_win_deltas(
    offender: int, kind: FalseWin | str = FalseWin.WRONG, rules: str | Rules | None = None
) -> list[int]:
    """Penalty for a false win.  ``play_on`` (1998): 错和 pays 10 to each, 诈和 20 to each;
    ``end_hand`` (Botzone): offender −30, others +10 whatever the kind."""
    r = get_rules(rules)
    _seat(offender)
    try:
        kind = FalseWin(kind)
    except ValueError:
        raise ValueError(f"unknown false-win kind {kind!r}: use 'wrong' (错和) or 'short' (诈和)") from None
    each = 10
    if r.false_win == "play_on" and kind is FalseWin.SHORT:
        each = 20
    deltas = [each] * 4
    deltas[offender] = -3 * each
    return deltas


def _seat(s: int) -> None:
    if s not in (0, 1, 2, 3):
        raise ValueError(f"seats are 0–3, got {s!r}")
