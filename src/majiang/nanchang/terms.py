"""Names: how a hand was won (胡牌方式) and the scoring items (胡) with Chinese and English names."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class WinMethod(StrEnum):
    """How the winning tile came (hand-json ``method``)."""

    SELF_DRAWN = "self_drawn"  # 自摸
    DISCARD = "discard"  # 点炮 / 接炮
    KONG_REPLACEMENT = "kong_replacement"  # 杠开 (杠上开花), always a self-draw
    ROBBED_KONG = "robbed_kong"  # 抢杠
    HEAVENLY = "heavenly"  # 天胡: the dealer's dealt 14 win
    EARTHLY = "earthly"  # 地胡: a non-dealer wins on the dealer's first discard

    @property
    def self_drawn(self) -> bool:
        """The winning tile is the winner's own draw, so a jing drawn is wild."""
        return self in (WinMethod.SELF_DRAWN, WinMethod.KONG_REPLACEMENT, WinMethod.HEAVENLY)

    @property
    def claimed(self) -> bool:
        """The winning tile is another player's tile (a plain tile even if it is a jing kind)."""
        return self in (WinMethod.DISCARD, WinMethod.ROBBED_KONG, WinMethod.EARTHLY)

    @property
    def zh(self) -> str:
        return _METHOD_ZH[self]

    @property
    def en(self) -> str:
        return _METHOD_EN[self]


_METHOD_ZH = {
    WinMethod.SELF_DRAWN: "自摸",
    WinMethod.DISCARD: "点炮",
    WinMethod.KONG_REPLACEMENT: "杠开",
    WinMethod.ROBBED_KONG: "抢杠",
    WinMethod.HEAVENLY: "天胡",
    WinMethod.EARTHLY: "地胡",
}
_METHOD_EN = {
    WinMethod.SELF_DRAWN: "self-drawn",
    WinMethod.DISCARD: "on a discard",
    WinMethod.KONG_REPLACEMENT: "on a kong replacement",
    WinMethod.ROBBED_KONG: "robbing a kong",
    WinMethod.HEAVENLY: "heavenly hand",
    WinMethod.EARTHLY: "earthly hand",
}


@dataclass(frozen=True, slots=True)
class Hu:
    """One scoring item of a win: its names and its factor in the multiplier ``M``."""

    zh: str
    en: str
    factor: int


def hu(key: str, factor: int) -> Hu:
    zh, en = HU_NAMES[key]
    return Hu(zh, en, factor)


#: every scoring item: key → (Chinese, English)
HU_NAMES: dict[str, tuple[str, str]] = {
    "pinghu": ("平胡", "Basic hand"),
    "pengpeng": ("碰碰胡", "All pungs"),
    "xiaoqidui": ("小七对", "Seven pairs"),
    "shisanlan": ("十三烂", "Thirteen rotten"),
    "qixing_shisanlan": ("七星十三烂", "Seven-star thirteen rotten"),
    "qixing_qidui": ("七星七对", "Seven-star seven pairs"),
    "deguo": ("德国", "German (no jing used as wild)"),
    "dezhongde": ("德中德", "German among Germans (no jing at the table)"),
    "german_7pairs": ("德国七对加倍", "German seven pairs extra double"),
    "jingdiao": ("精钓", "Jing single wait"),
    "gangkai": ("杠开", "Win on a kong replacement"),
    "tianhu": ("天胡", "Heavenly hand"),
    "dihu": ("地胡", "Earthly hand"),
}
