"""The fan predicates, one module per family of the fan table as the tests are
(``tests/mcr/test_fans_88_64.py`` … ``test_fans_4_1.py``): :mod:`.fans_88_64`, :mod:`.fans_48_24`,
:mod:`.fans_16_12`, :mod:`.fans_8_6`, :mod:`.fans_4_1`.

Each module offers the same few hooks, each of which adds every fan of its family whose pattern is
there — and removes none (that is :mod:`majiang.mcr.exclusions`):

* ``tiles(t, unique)`` — fans of the set of kinds present (any reading, 七对 too);
* ``sets(t, r)`` — fans of one regular reading (:class:`~majiang.mcr.reading.Reading`);
* ``win(t, h)`` — fans of how the hand was won.

What combines sets with sets (一般高, 三同刻, 三风刻 …) is :mod:`majiang.mcr.combos` (不拆移, 套算一次);
the special shapes (七对, 十三幺, 全不靠, 组合龙, 九莲宝灯) are readings of their own in the scorer.
"""

from majiang.mcr.families import fans_4_1, fans_8_6, fans_16_12, fans_48_24, fans_88_64

#: biggest first: a family may look at what a bigger one counted (小三元 at 双箭刻 from the combos;
#: 圈风刻/门风刻 at the fans that already deducted their 幺九刻)
FAMILIES = (fans_88_64, fans_48_24, fans_16_12, fans_8_6, fans_4_1)

__all__ = ["FAMILIES", "fans_4_1", "fans_8_6", "fans_16_12", "fans_48_24", "fans_88_64"]
