"""Room options (房间规则) of Nanchang mahjong: every flag of ``docs/nanchang.md`` §2.14.

The defaults are the spec's [CORE] reading of the seed; each alternative names the app or source
that plays it.  Options are a frozen value, built from a plain ``dict`` with :func:`options_from_dict`,
which rejects unknown names and bad values with a message naming the flag.

>>> options_from_dict({"dianpao_pay": "one"}).dianpao_pay
'one'
>>> DEFAULT_OPTIONS.bawang
'x2'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any


class OptionError(ValueError):
    """An unknown option name or a value the option does not take."""


#: choice-valued flags and the values each accepts
CHOICES: dict[str, tuple[str, ...]] = {
    "xia_jing": ("none", "mai_di_lei", "shang_xia_fan"),
    "bawang": ("x2", "plus10"),
    "dianpao_pay": ("three", "one"),
    "qianggang_pay": ("as_self_draw", "konger_all"),
    "jingdiao_ron": ("forbid", "allow_without_credit"),
}

#: integer flags and their allowed range (inclusive)
INT_RANGES: dict[str, tuple[int, int]] = {
    "dead_wall_tiles": (0, 100),
    "gang_jing_bonus": (0, 1000),
    "peng_peng_hu_mult": (1, 64),
    "tian_hu_base": (0, 10000),
    "di_hu_base": (0, 10000),
}


@dataclass(frozen=True, slots=True)
class Options:
    """The §2.14 flags.  Field comments give the Chinese rule name and what the alternative does."""

    dead_wall_tiles: int = 34  # 留牌: live wall stops with this many tiles left (0 seed text, 36 CPP)
    indicator_drawable: bool = False  # 翻精牌可作补牌: the indicator may be drawn as a replacement
    xia_jing: str = "none"  # 下精: "none" 无下精, "mai_di_lei" 埋地雷, "shang_xia_fan" 上下翻
    hui_tou_yi_xiao: bool = False  # 回头一笑: previous hand's 上精 settled on the dealt hands
    count_discarded_jing: bool = False  # 打出精牌算分: discarded jing count for the discarder
    bawang: str = "x2"  # 霸王精: "x2" doubles after 冲关, "plus10" adds 10
    chongguan_baopei: bool = False  # 冲关包赔: a discarder whose jing made someone 冲关 pays it all
    gang_jing_bonus: int = 10  # 杠精: from each opponent for a kong of jing (0 = an ordinary kong)
    dianpao_pay: str = "three"  # 点炮三家付 / "one" 点炮一家付
    qianggang_pay: str = "as_self_draw"  # 抢杠: like 自摸 / "konger_all" 抢杠包赔
    discard_win_wild_allowed: bool = True  # False: 有精不可点炮胡 — a discard win must be 德国
    peng_peng_hu_mult: int = 2  # 碰碰胡 (大七对) factor (4 in JS/GZ)
    german_7pairs_extra_double: bool = False  # 德国七对 extra ×2 (JAVA/CPP)
    tian_hu_base: int = 20  # 天胡 flat base
    di_hu_base: int = 10  # 地胡 flat base
    tian_di_dealer_double: bool = True  # 天胡/地胡: the dealer factor ×2 applies
    dealer_keeps_on_draw: bool = True  # 荒庄连庄: the dealer keeps the deal after a draw
    huang_zhuang_huang_gang: bool = False  # 荒庄荒杠: kong bonuses void on a draw
    pass_hu_furiten: bool = True  # 过手胡: after passing a win, no discard win until one's next draw
    pass_hu_allows_bigger: bool = False  # 过手胡 variant: a strictly bigger hand may still win
    jingdiao_ron: str = "forbid"  # 精钓不接炮 / "allow_without_credit"
    chao_zhuang: bool = False  # 抄庄: four identical first discards → dealer pays 5 to each
    qixing_qidui: bool = False  # 七星七对: seven honour pairs recognised (seed (9) literal)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            _check(f.name, value, f.default)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def changed(self) -> dict[str, Any]:
        """The flags that differ from the defaults (for printing a room's rules)."""
        return {k: v for k, v in self.to_dict().items() if v != getattr(DEFAULT_OPTIONS, k)}


def _check(name: str, value: Any, default: Any) -> None:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise OptionError(f"option {name!r} must be true or false, got {value!r}")
    elif isinstance(default, int):
        lo, hi = INT_RANGES[name]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise OptionError(f"option {name!r} must be an integer {lo}–{hi}, got {value!r}")
    else:
        allowed = CHOICES[name]
        if value not in allowed:
            raise OptionError(f"option {name!r} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))
DEFAULT_OPTIONS = Options()


def options_from_dict(d: Mapping[str, Any] | None, base: Options = DEFAULT_OPTIONS) -> Options:
    """Build :class:`Options` from ``{"flag": value}``; missing flags keep ``base``'s values."""
    if d is None:
        return base
    if not isinstance(d, Mapping):
        raise OptionError(f"'options' must be an object of §2.14 flags, got {d!r}")
    unknown = sorted(k for k in d if k not in OPTION_NAMES)
    if unknown:
        raise OptionError(f"unknown option {unknown[0]!r}; known options: {', '.join(OPTION_NAMES)}")
    return replace(base, **dict(d))
