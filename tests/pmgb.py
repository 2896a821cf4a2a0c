"""Adapter to PyMahjongGB 1.4 (the Botzone judge's calculator), used only as a test oracle."""

from __future__ import annotations

from typing import Any

from majiang.mcr.hand import MeldKind, WinningHand
from majiang.tiles import Tile

try:
    import MahjongGB  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - the dev extra installs it
    MahjongGB = None

_SUIT = {0: "W", 1: "B", 2: "T"}
_HONOR = ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def code(t: Tile) -> str:
    if t < 27:
        return f"{_SUIT[t // 9]}{t % 9 + 1}"
    return _HONOR[t - 27]


def packs(hand: WinningHand) -> tuple[tuple[str, str, int], ...]:
    out = []
    for m in hand.melds:
        if m.kind is MeldKind.CHOW:
            out.append(("CHI", code(m.tile + 1), (m.claimed or 0) + 1))
        elif m.kind is MeldKind.PUNG:
            out.append(("PENG", code(m.tile), m.source or 1))
        else:
            out.append(("GANG", code(m.tile), 0 if m.concealed else (m.source or 1)))
    return tuple(out)


def kwargs(hand: WinningHand) -> dict[str, Any]:
    return dict(
        pack=packs(hand),
        hand=tuple(code(t) for t in hand.hand),
        winTile=code(hand.win_tile),
        flowerCount=hand.flowers,
        isSelfDrawn=hand.self_drawn,
        is4thTile=hand.fourth_tile,
        isAboutKong=hand.kong,
        isWallLast=hand.last_tile,
        seatWind=hand.seat_wind,
        prevalentWind=hand.prevalent_wind,
    )


_EN_ALIASES = {"Robbing The Kong": "Robbing the Kong", "Two Dragons Pungs": "Two Dragon Pungs"}


def fans(hand: WinningHand) -> dict[str, int] | None:
    """{English fan name as in mcr-fans.tsv: count}, or None when the oracle says it is not a win."""
    try:
        res = MahjongGB.MahjongFanCalculator(**kwargs(hand), verbose=True)
    except TypeError:
        return None
    return {_EN_ALIASES.get(en, en): cnt for _pts, cnt, _zh, en in res}


def shanten(melds: tuple[tuple[str, str, int], ...], hand: list[Tile]) -> int:
    return int(MahjongGB.MahjongShanten(pack=melds, hand=tuple(code(t) for t in hand)))
