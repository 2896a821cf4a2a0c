"""不重复 (the non-repeat principle): fans implied by a bigger fan are not counted again.

One table, read like the rulebook: *when the left fan is counted, the fans on the right are not.*
This is the only place where one fan takes another away: the fan predicates
(:mod:`majiang.mcr.families`) report every fan whose pattern is there, and the scorer — and the
compiled port, which receives these tables from :mod:`majiang.mcr.fast` — then applies
:func:`not_counted`.  ``tests/mcr/test_exclusions.py`` checks that every entry matters for some test
hand, so an inline duplicate of an entry anywhere would make that test fail.

A fan that is itself not counted excludes nothing (四暗刻 takes 不求人 away, so 不求人 does not take
自摸 away: the self-draw is still counted).  The table is applied from the biggest fan down, in
rulebook number order, which every entry respects (its fans are listed after it in the rulebook).

Exclusions that the calculation never generates in the first place are not entries (the mutation
test would find them dead): 一色四同顺 never produces 一色三同顺, 连七对 never produces 清一色, 绿一色
never produces 缺一门 (one suit and perhaps 发 is a flush, never a voided suit).
"""

from __future__ import annotations

from collections.abc import Mapping

from majiang.mcr.fans import Fan

F = Fan

NOT_COUNTED_WITH: dict[Fan, tuple[Fan, ...]] = {
    F.BIG_FOUR_WINDS: (F.ALL_PUNGS, F.PUNG_OF_TERMINALS_OR_HONORS, F.PREVALENT_WIND, F.SEAT_WIND),  # 大四喜
    F.BIG_THREE_DRAGONS: (F.DRAGON_PUNG,),  # 大三元
    F.ALL_GREEN: (F.HALF_FLUSH,),  # 绿一色 (缺一门 is never produced: its tiles are one suit, 发 or not)
    F.FOUR_KONGS: (F.ALL_PUNGS, F.SINGLE_WAIT),  # 四杠
    F.ALL_TERMINALS: (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.NO_HONORS, F.DOUBLE_PUNG),  # 清幺九
    F.LITTLE_FOUR_WINDS: (F.BIG_THREE_WINDS, F.PUNG_OF_TERMINALS_OR_HONORS),  # 小四喜
    F.LITTLE_THREE_DRAGONS: (F.TWO_DRAGON_PUNGS, F.DRAGON_PUNG),  # 小三元
    F.ALL_HONORS: (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.ONE_VOIDED_SUIT),  # 字一色
    F.FOUR_CONCEALED_PUNGS: (F.ALL_PUNGS, F.FULLY_CONCEALED_HAND, F.CONCEALED_HAND),  # 四暗刻 (自摸 stays)
    F.PURE_TERMINAL_CHOWS: (F.FULL_FLUSH, F.ALL_CHOWS, F.NO_HONORS),  # 一色双龙会
    F.QUADRUPLE_CHOW: (F.TILE_HOG,),  # 一色四同顺
    F.FOUR_PURE_SHIFTED_PUNGS: (F.ALL_PUNGS,),  # 一色四节高
    F.ALL_TERMINALS_AND_HONORS: (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS),  # 混幺九
    F.ALL_EVEN_PUNGS: (F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONORS),  # 全双刻
    F.FULL_FLUSH: (F.NO_HONORS,),  # 清一色
    F.UPPER_TILES: (F.NO_HONORS,),  # 全大
    F.MIDDLE_TILES: (F.ALL_SIMPLES, F.NO_HONORS),  # 全中
    F.LOWER_TILES: (F.NO_HONORS,),  # 全小
    F.THREE_SUITED_TERMINAL_CHOWS: (F.ALL_CHOWS, F.NO_HONORS),  # 三色双龙会
    F.ALL_FIVE: (F.ALL_SIMPLES, F.NO_HONORS),  # 全带五
    F.UPPER_FOUR: (F.NO_HONORS,),  # 大于五
    F.LOWER_FOUR: (F.NO_HONORS,),  # 小于五
    F.REVERSIBLE_TILES: (F.ONE_VOIDED_SUIT,),  # 推不倒
    F.LAST_TILE_DRAW: (F.SELF_DRAWN,),  # 妙手回春
    F.OUT_WITH_REPLACEMENT_TILE: (F.SELF_DRAWN,),  # 杠上开花
    F.MELDED_HAND: (F.SINGLE_WAIT,),  # 全求人
    F.TWO_CONCEALED_KONGS: (F.TWO_CONCEALED_PUNGS,),  # 双暗杠 (its two concealed sets are the 双暗刻)
    F.TWO_DRAGON_PUNGS: (F.DRAGON_PUNG,),  # 双箭刻
    F.FULLY_CONCEALED_HAND: (F.SELF_DRAWN,),  # 不求人
    F.ALL_CHOWS: (F.NO_HONORS,),  # 平和
    F.ALL_SIMPLES: (F.NO_HONORS,),  # 断幺
}

#: Entries that hold only under a rule switch (a field of :class:`~majiang.mcr.rules.Rules`).
NOT_COUNTED_WITH_IF: dict[str, dict[Fan, tuple[Fan, ...]]] = {
    "robbing_kong_excludes_last_tile": {F.ROBBING_THE_KONG: (F.LAST_TILE,)},  # 抢杠和 (mcr.md §5)
}

#: Fans whose own calculation already removed the 幺九刻 of their pungs, so 圈风刻/门风刻 do not.
PUNGS_ALREADY_DEDUCTED: tuple[Fan, ...] = (
    F.BIG_THREE_WINDS,
    F.ALL_TERMINALS_AND_HONORS,
    F.ALL_HONORS,
    F.LITTLE_FOUR_WINDS,
)


def table_for(switches: Mapping[str, object]) -> dict[Fan, tuple[Fan, ...]]:
    """The exclusion table under these switch values (``Rules`` fields by name), keys in the order
    they are applied."""
    table = {f: list(gs) for f, gs in NOT_COUNTED_WITH.items()}
    for switch, entries in NOT_COUNTED_WITH_IF.items():
        if switches[switch]:
            for f, gs in entries.items():
                table.setdefault(f, []).extend(gs)
    return {f: tuple(table[f]) for f in sorted(table)}


def not_counted(present: Mapping[Fan, object], table: Mapping[Fan, tuple[Fan, ...]]) -> set[Fan]:
    """The fans of ``present`` that are not counted: from the biggest fan down, each counted fan of
    the table takes its right-hand side away."""
    gone: set[Fan] = set()
    for f, gs in table.items():
        if f in present and f not in gone:
            gone.update(g for g in gs if g in present)
    return gone
