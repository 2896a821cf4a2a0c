"""Rule profiles: the disputed MCR rulings as named switches (data, not code forks).

``gb`` (default) is the seeds' 81 fans as the community-standard calculators read them;
``botzone`` is exactly what the Botzone judge's fan calculator computes (ailab-pku's
Chinese-Standard-Mahjong ``judge/main.cpp``): 明暗杠, and no 边张/坎张/单钓将 for a winning tile
inside the 组合龙; the false-win policy differs too (mcr.md §6).  ``pymahjonggb`` is what
PyMahjongGB 1.4 computes: the ``botzone`` profile with the other 组合龙 wait reading.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

FalseWinPolicy = Literal["play_on", "end_hand"]


@dataclass(frozen=True, slots=True)
class Rules:
    name: str = "gb"
    #: One concealed + one melded kong scores 明暗杠 (5) instead of 暗杠 (2) + 明杠 (1).
    concealed_and_melded_kong: bool = False
    #: A winning tile inside a 组合龙 may also be read as 边张/坎张/单钓将 (mcr.md §5).  True: the
    #: community calculators and PyMahjongGB 1.4; False: the Botzone judge's fan calculator.
    knitted_straight_wait_fans: bool = True
    #: A tile of which the hand already holds all four still counts as a wait (so no unique-wait fan).
    exhausted_tile_is_wait: bool = True
    #: 和绝张 requires the other three copies visible (discards and melds), never one's own concealed tiles.
    last_tile_needs_visible: bool = True
    #: 抢杠和 excludes 和绝张.
    robbing_kong_excludes_last_tile: bool = True
    #: Fans needed to win, flowers not counted (起和分).
    min_fan: int = 8
    #: ``play_on`` (1998): a false win pays 10 to each (错和) or 20 (诈和), the offender may not win
    #: that hand and play continues.  ``end_hand`` (Botzone): the hand ends, offender −30, others +10.
    false_win: FalseWinPolicy = "play_on"

    def with_switches(self, **switches: Any) -> Rules:
        """A copy with some switches changed; an unknown name or a value of the wrong kind is a clear
        error."""
        known = {f.name for f in fields(self)}
        unknown = set(switches) - known
        if unknown:
            raise ValueError(f"unknown rule switch(es) {sorted(unknown)}; known: {sorted(known - {'name'})}")
        for name, value in switches.items():
            default = getattr(self, name)
            if name == "name":
                ok = isinstance(value, str)
            elif name == "false_win":
                ok = value in ("play_on", "end_hand")
            elif isinstance(default, bool):
                ok = isinstance(value, bool)
            else:
                ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            if not ok:
                want = "'play_on' or 'end_hand'" if name == "false_win" else type(default).__name__
                raise ValueError(f"rule switch {name!r} takes {want}, got {value!r}")
        return replace(self, **switches)


PROFILES: dict[str, Rules] = {
    "gb": Rules(name="gb"),
    "botzone": Rules(
        name="botzone", concealed_and_melded_kong=True, knitted_straight_wait_fans=False, false_win="end_hand"
    ),
    "pymahjonggb": Rules(name="pymahjonggb", concealed_and_melded_kong=True, false_win="end_hand"),
}


def get_rules(rules: str | Rules | None) -> Rules:
    """Resolve a profile name (``gb``, ``botzone``) or pass a :class:`Rules` through."""
    if rules is None:
        return PROFILES["gb"]
    if isinstance(rules, Rules):
        return rules
    try:
        return PROFILES[rules]
    except KeyError:
        raise ValueError(f"unknown MCR rules profile {rules!r}: use one of {sorted(PROFILES)}") from None
