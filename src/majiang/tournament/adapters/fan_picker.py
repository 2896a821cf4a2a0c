"""The 81 MCR fans for the phones' fan search: each fan's Chinese name, its pinyin and pinyin initials
(computed here with pypinyin, 和 read hú as at the table), English name and value, from the one fan
table (:data:`majiang.mcr.fans.FAN_INFO`, ``fans.tsv``), and the match rule the phone page uses.

>>> row = next(r for r in fan_rows() if r["zh"] == "清一色")
>>> row["initials"], row["pinyin"], row["en"], row["points"]
('qys', 'qingyise', 'Full Flush', 24)
>>> [r["zh"] for r in search("qys")][:1], [r["zh"] for r in search("full flush")]
(['清一色'], ['清一色'])
>>> [r["zh"] for r in search("ph")][:1]
['平和']
"""

from __future__ import annotations

from functools import cache
from typing import Any

from majiang.mcr.fans import FAN_INFO, Fan

MCR_FANS = 81  # rows 1–81 of the table; row 82 is the Botzone / PyMahjongGB extra
READINGS = {"和": "hu"}  # the table's reading: 平和 pínghú, 碰碰和 pèngpènghú, 和绝张 hújuézhāng


@cache
def fan_rows() -> tuple[dict[str, Any], ...]:
    """``{"no", "zh", "pinyin", "initials", "en", "points", "flowers"}`` per fan, in rulebook order;
    ``flowers`` marks 花牌, which the entry form counts in its flowers field (it does not reach the
    8-fan minimum)."""
    from pypinyin import Style, lazy_pinyin  # type: ignore[import-untyped]

    rows = []
    for fan, info in FAN_INFO.items():
        if int(fan) > MCR_FANS:
            continue
        syllables = [READINGS.get(ch) or lazy_pinyin(ch, style=Style.NORMAL)[0] for ch in info.zh]
        rows.append(
            {
                "no": int(fan),
                "zh": info.zh,
                "pinyin": "".join(syllables).replace("ü", "v"),
                "initials": "".join(s[0] for s in syllables),
                "en": info.en,
                "points": info.points,
                "flowers": fan is Fan.FLOWER_TILES,
            }
        )
    return tuple(sorted(rows, key=lambda r: r["no"]))


def _fold(text: str) -> str:
    return "".join(text.lower().split())


def search(query: str) -> list[dict[str, Any]]:
    """The fans a query matches (the phone page's rule): its Chinese name contains the query, or the
    pinyin initials or the pinyin start with it, or the English name contains it (spaces and case
    ignored); those whose initials or Chinese name match exactly come first."""
    q = _fold(query)
    if not q:
        return []
    hits = [
        r
        for r in fan_rows()
        if q in r["zh"] or r["initials"].startswith(q) or r["pinyin"].startswith(q) or q in _fold(r["en"])
    ]
    return sorted(hits, key=lambda r: (q not in (r["initials"], r["zh"], r["pinyin"]), r["no"]))
