"""Win payment (胡牌分, §2.10) and kong bonus (杠分, §2.11.1); every function returns zero-sum deltas.

>>> from majiang.nanchang.terms import WinMethod
>>> win_payments(1, 0, WinMethod.SELF_DRAWN, 4, german=False)   # seed example 1
[-16, 32, -8, -8]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from majiang.nanchang.jing import JingPair
from majiang.nanchang.melds import Meld
from majiang.nanchang.options import DEFAULT_OPTIONS, Options
from majiang.nanchang.terms import WinMethod

SEATS = 4
GERMAN_BONUS = 5  # 德国 / 德中德: +5 per liable payer, never doubled


def win_payments(
    winner: int,
    dealer: int,
    method: WinMethod,
    multiplier: int,
    german: bool,
    discarder: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> list[int]:
    """Deltas of the win payment.

    Each payer ``p`` pays ``M × f_method(p) × f_dealer(p)`` (+5 if German and ``p`` is liable):
    自摸/杠开/抢杠 ×2 for all; 点炮 ×2 for the discarder only (三家付, or only the discarder with
    ``dianpao_pay="one"``); ×2 if the dealer is the winner or the payer.  天胡/地胡 pay a flat base
    × ``multiplier`` (精钓 ×2) × dealer factor, nothing else.  ``qianggang_pay="konger_all"``: the
    robbed konger pays every share.
    """
    d = [0] * SEATS
    tiandi = method in (WinMethod.HEAVENLY, WinMethod.EARTHLY)
    for p in range(SEATS):
        if p == winner:
            continue
        f_dealer = 2 if dealer in (winner, p) else 1
        if tiandi:
            base = options.tian_hu_base if method is WinMethod.HEAVENLY else options.di_hu_base
            amount = base * multiplier * (f_dealer if options.tian_di_dealer_double else 1)
        else:
            if method is WinMethod.DISCARD:
                if options.dianpao_pay == "one" and p != discarder:
                    continue
                f_method = 2 if p == discarder else 1
            else:
                f_method = 2
            amount = multiplier * f_method * f_dealer
            if german and (method is not WinMethod.DISCARD or p == discarder):
                amount += GERMAN_BONUS
        payer = p
        if method is WinMethod.ROBBED_KONG and options.qianggang_pay == "konger_all" and discarder is not None:
            payer = discarder
        d[payer] -= amount
        d[winner] += amount
    return d


@dataclass(frozen=True, slots=True)
class KongBonus:
    """One kong's bonus: ``each`` from every opponent.  ``zh``: 明杠, 暗杠 or 杠精."""

    seat: int
    meld: Meld
    zh: str
    each: int

    @property
    def en(self) -> str:
        return {"明杠": "exposed kong", "暗杠": "concealed kong", "杠精": "kong of jing"}[self.zh]


def kong_bonus(seat: int, kong: Meld, jing: JingPair, options: Options = DEFAULT_OPTIONS) -> KongBonus:
    """One kong's bonus: 明杠 (incl. 补杠) 1 and 暗杠 2 from each opponent; a kong of jing (杠精) pays
    ``gang_jing_bonus`` instead (0 = an ordinary kong)."""
    if kong.tile in jing and options.gang_jing_bonus > 0:
        return KongBonus(seat, kong, "杠精", options.gang_jing_bonus)
    return KongBonus(seat, kong, "暗杠" if kong.concealed else "明杠", 2 if kong.concealed else 1)


def kong_bonuses(
    melds_by_seat: Sequence[Sequence[Meld]], jing: JingPair, options: Options = DEFAULT_OPTIONS
) -> list[KongBonus]:
    """The bonus of every kong (:func:`kong_bonus`).  A robbed kong is given as a pung: nothing."""
    return [kong_bonus(seat, m, jing, options) for seat, melds in enumerate(melds_by_seat) for m in melds if m.is_kong]


def kong_deltas(bonuses: Sequence[KongBonus]) -> list[int]:
    d = [0] * SEATS
    for b in bonuses:
        for p in range(SEATS):
            if p != b.seat:
                d[p] -= b.each
                d[b.seat] += b.each
    return d
