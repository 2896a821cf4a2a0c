"""Nanchang mahjong (南昌麻将): the rules core — jing (精) wilds, win detection, settlement.

Layers, each a small module:

* :mod:`~majiang.nanchang.options` — the room options (§2.14) as a frozen :class:`Options`.
* :mod:`~majiang.nanchang.jing` — 正精/副精 from the indicator, 冲关 and 霸王精.
* :mod:`~majiang.nanchang.melds` — declared sets, honour chows included.
* :mod:`~majiang.nanchang.shapes` — winning shapes with wilds on count vectors.
* :mod:`~majiang.nanchang.win` — :func:`can_win`, :func:`best_win`: interpretations, 德国, 精钓.
* :mod:`~majiang.nanchang.payment` — win payment and kong bonus.
* :mod:`~majiang.nanchang.settle` — a whole hand: :func:`settle`.
* :mod:`~majiang.nanchang.hand_json` — the hand-json contract: :func:`settle_dict`.
* :mod:`~majiang.nanchang.table` — the table rules: deal, flip the jing, chows, claims, kongs, dead wall.
* :mod:`~majiang.nanchang.render` — a settlement as text for people.
"""

from majiang.nanchang.hand_json import record_from_dict, settle_dict, settlement_to_dict
from majiang.nanchang.jing import JingPair, chongguan, jing_round_deltas, jing_round_scores, next_kind
from majiang.nanchang.melds import InvalidHandError, Meld, MeldKind, meld_from_tiles
from majiang.nanchang.options import DEFAULT_OPTIONS, OPTION_NAMES, OptionError, Options, options_from_dict
from majiang.nanchang.payment import KongBonus, kong_bonus, kong_bonuses, win_payments
from majiang.nanchang.render import render_settlement
from majiang.nanchang.settle import HandRecord, JingRound, SeatHand, Settlement, next_dealer, settle
from majiang.nanchang.shapes import Shape
from majiang.nanchang.table import (
    Claim,
    ClaimKind,
    JingFlip,
    chows,
    deal,
    flip_jing,
    is_exhaustive_draw,
    jing_dice,
    legal_claims,
    may_declare_kong,
    pass_hu_blocks,
    replacement_index,
    self_kongs,
    tile_set,
)
from majiang.nanchang.terms import Hu, WinMethod
from majiang.nanchang.win import (
    Interpretation,
    NotAWinError,
    Win,
    WinSituation,
    best_win,
    can_win,
    evaluate_win,
    interpretations,
    jingdiao_shape,
)

__all__ = [
    "DEFAULT_OPTIONS",
    "OPTION_NAMES",
    "Claim",
    "ClaimKind",
    "HandRecord",
    "Hu",
    "Interpretation",
    "InvalidHandError",
    "JingFlip",
    "JingPair",
    "JingRound",
    "KongBonus",
    "Meld",
    "MeldKind",
    "NotAWinError",
    "OptionError",
    "Options",
    "SeatHand",
    "Settlement",
    "Shape",
    "Win",
    "WinMethod",
    "WinSituation",
    "best_win",
    "can_win",
    "chongguan",
    "chows",
    "deal",
    "evaluate_win",
    "flip_jing",
    "interpretations",
    "is_exhaustive_draw",
    "jing_dice",
    "jing_round_deltas",
    "jing_round_scores",
    "jingdiao_shape",
    "kong_bonus",
    "kong_bonuses",
    "legal_claims",
    "may_declare_kong",
    "meld_from_tiles",
    "next_dealer",
    "next_kind",
    "options_from_dict",
    "pass_hu_blocks",
    "record_from_dict",
    "render_settlement",
    "replacement_index",
    "self_kongs",
    "settle",
    "settle_dict",
    "settlement_to_dict",
    "tile_set",
    "win_payments",
]
