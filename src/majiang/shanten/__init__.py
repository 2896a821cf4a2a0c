"""向听数 (shanten) and tile efficiency (牌效) for MCR hands: a pure rules core, no I/O.

* :mod:`~majiang.shanten.forms` — the readable definitions, one function per winning form
  (基本和型, 七对, 十三幺, 组合龙, 全不靠), agreeing with PyMahjongGB 1.4.
* :mod:`~majiang.shanten.efficiency` — the fast functions on count vectors for bots:
  shanten, per-form shanten, useful tiles, waits, the discard table.
* :mod:`~majiang.shanten.legal` — 合法听: each wait's fans (by the project's own calculator), the legal
  waits (a discard win of at least 8 fans) and the fan-aware shanten.
* :mod:`~majiang.shanten.query` — the shanten query of ``docs/hand-json.md``.

>>> from majiang.tiles import counts_of, parse_tiles
>>> shanten_of_counts(counts_of(parse_tiles("19m19p19sESWNCFP")))  # 十三幺, waiting on all 13
0
>>> analyze_dict({"hand": ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"]})["forms"]
{'regular': 8, 'seven_pairs': 6, 'thirteen_orphans': 0, 'knitted': 9, 'honors_knitted': 4}
"""

from majiang.shanten.efficiency import (
    BACKEND,
    DiscardOption,
    FormShanten,
    discard_table,
    forms_of_counts,
    shanten_of_counts,
    tiles_of_mask,
    unseen_of,
    useful_of_counts,
    waits_of_counts,
)
from majiang.shanten.forms import FORM_EN, FORM_ZH, FORMS
from majiang.shanten.query import Analysis, analyze, analyze_dict

__all__ = [
    "BACKEND",
    "FORMS",
    "FORM_EN",
    "FORM_ZH",
    "Analysis",
    "DiscardOption",
    "FormShanten",
    "analyze",
    "analyze_dict",
    "discard_table",
    "forms_of_counts",
    "shanten_of_counts",
    "tiles_of_mask",
    "unseen_of",
    "useful_of_counts",
    "waits_of_counts",
]
