"""不重复 (the non-repeat principle): fans implied by a bigger fan are not counted again.

One table, read like the rulebook: *when the left fan is counted, the fans on the right are not.*
It covers what the decomposition-level calculation can still produce; exclusions that the
calculation never generates in the first place (e.g. 一色四同顺 never produces 一色三同顺) are
documented in ``docs/rules.md``.
"""

from __future__ import annotations

from majiang.mcr.fans import Fan

F = Fan

NOT_COUNTED_WITH: dict[Fan, tuple[Fan, ...]] = {
    F.BIG_FOUR_WINDS: (F.ALL_PUNGS, F.PUNG_OF_TERMINALS_OR_HONORS),  # 大四喜 (winds handled apart)
    F.BIG_THREE_DRAGONS: (F.DRAGON_PUNG,),  # 大三元
    F.ALL_GREEN: (F.HALF_FLUSH, F.ONE_VOIDED_SUIT),  # 绿一色
    F.FOUR_KONGS: (F.SINGLE_WAIT,),  # 四杠
    F.ALL_TERMINALS: (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.NO_HONORS,
                      F.DOUBLE_PUNG),  # 清幺九
    F.LITTLE_FOUR_WINDS: (F.PUNG_OF_TERMINALS_OR_HONORS,),  # 小四喜
    F.LITTLE_THREE_DRAGONS: (F.DRAGON_PUNG,),  # 小三元
    F.ALL_HONORS: (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.ONE_VOIDED_SUIT),  # 字一色
    F.FOUR_CONCEALED_PUNGS: (F.ALL_PUNGS, F.CONCEALED_HAND),  # 四暗刻 (不求人 becomes 自摸)
    F.PURE_TERMINAL_CHOWS: (F.FULL_FLUSH, F.ALL_CHOWS, F.NO_HONORS),  # 一色双龙会
    F.FOUR_PURE_SHIFTED_PUNGS: (F.ALL_PUNGS,),  # 一色四节高
    F.ALL_TERMINALS_AND_HONORS: (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS),  # 混幺九
    F.ALL_EVEN_PUNGS: (F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONORS),  # 全双刻
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
    F.TWO_DRAGON_PUNGS: (F.DRAGON_PUNG,),  # 双箭刻
    F.FULLY_CONCEALED_HAND: (F.SELF_DRAWN,),  # 不求人
    F.ALL_CHOWS: (F.NO_HONORS,),  # 平和
    F.ALL_SIMPLES: (F.NO_HONORS,),  # 断幺
}

#: Fans whose own calculation already removed the 幺九刻 of their pungs, so 圈风刻/门风刻 do not.
PUNGS_ALREADY_DEDUCTED: tuple[Fan, ...] = (F.BIG_THREE_WINDS, F.ALL_TERMINALS_AND_HONORS, F.ALL_HONORS,
                                           F.LITTLE_FOUR_WINDS)
