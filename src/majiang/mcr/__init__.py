"""Chinese Official Mahjong (国标麻将, MCR): hands, the 81-fan calculator, profiles and payments.

>>> from majiang.mcr import WinningHand, score
>>> r = score(WinningHand.from_string("[123m1][EEE2]{9999s}456pC C"))
>>> r.total
14
"""

from majiang.mcr.fans import FAN_INFO, Fan, FanInfo, fan_by_name
from majiang.mcr.hand import InvalidHandError, Meld, MeldKind, WinningHand
from majiang.mcr.result import FanCount, ScoreResult
from majiang.mcr.rules import PROFILES, Rules, get_rules
from majiang.mcr.scorer import score, score_dict, score_many

__all__ = [
    "FAN_INFO",
    "PROFILES",
    "Fan",
    "FanCount",
    "FanInfo",
    "InvalidHandError",
    "Meld",
    "MeldKind",
    "Rules",
    "ScoreResult",
    "WinningHand",
    "fan_by_name",
    "get_rules",
    "score",
    "score_dict",
    "score_many",
]
