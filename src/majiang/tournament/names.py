"""Family and given names (pure): what the EMA results file and the registration lists need.

A player's ``name`` is what is printed; ``family`` and ``given`` may be registered explicitly (the only
sure way: ``María José García-López`` is family ``García-López``, given ``María José``), else
:func:`split_name` guesses:

* ``Family, Given`` — at the comma;
* a name in Chinese characters (汉字) — the family name is its first character, or the first two for a
  compound surname (欧阳, 司马 …): ``欧阳娜娜`` → ``欧阳`` + ``娜娜``; never the whole name;
* words in capitals are the family name (``María José GARCÍA-LÓPEZ``);
* a player from China (CN, TW, HK, MO) written in Latin letters: family name first (``Zhang Wei``);
* otherwise the last word is the family name, with its particles (``Jan de Vries`` → ``de Vries``).

``romanised`` (optional) is the name in Latin letters, family name first (``Zhang Wei``; a comma when a
part has spaces: ``García-López, María José``): the EMA file prints it for a name not in Latin letters.

>>> split_name("María José García-López", family="García-López", given="María José")
('García-López', 'María José')
>>> split_name("王芳"), split_name("欧阳娜娜"), split_name("Zhang Wei", country="CN")
(('王', '芳'), ('欧阳', '娜娜'), ('Zhang', 'Wei'))
>>> split_name("María José GARCÍA-LÓPEZ"), split_name("Jan de Vries"), split_name("Smith, John")
(('GARCÍA-LÓPEZ', 'María José'), ('de Vries', 'Jan'), ('Smith', 'John'))
"""

from __future__ import annotations

import unicodedata

COMPOUND_SURNAMES = frozenset(
    {
        "欧阳",
        "司马",
        "诸葛",
        "上官",
        "东方",
        "皇甫",
        "令狐",
        "慕容",
        "尉迟",
        "公孙",
        "夏侯",
        "长孙",
        "宇文",
        "司徒",
        "端木",
        "独孤",
        "南宫",
        "西门",
        "轩辕",
        "澹台",
        "申屠",
        "太史",
        "闻人",
        "呼延",
        "赫连",
        "钟离",
        "濮阳",
        "淳于",
        "万俟",
        "司空",
        "歐陽",
        "諸葛",
        "東方",
        "長孫",
        "鍾離",
    }
)
FAMILY_FIRST_COUNTRIES = frozenset({"CN", "TW", "HK", "MO", "CHN", "TWN", "HKG", "MAC"})
PARTICLES = frozenset(
    {"de", "da", "del", "della", "der", "den", "di", "du", "la", "le", "van", "von", "ten", "ter", "y"}
)


def is_cjk(ch: str) -> bool:
    """A Chinese, Japanese or Korean character (not a letter of a Latin alphabet)."""
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK UNIFIED", "CJK COMPATIBILITY", "HANGUL", "HIRAGANA", "KATAKANA"))


def is_latin(text: str) -> bool:
    """Every letter of ``text`` is a Latin one (with or without diacritics)."""
    return all(not c.isalpha() or "LATIN" in unicodedata.name(c, "") for c in text)


def split_name(name: str, *, family: str = "", given: str = "", country: str = "") -> tuple[str, str]:
    """(family, given): as registered when ``family`` or ``given`` is given, else the guess above."""
    if family or given:
        return family.strip(), given.strip()
    name = " ".join(name.split())
    if not name:
        return "", ""
    if "," in name:
        last, first = name.split(",", 1)
        return last.strip(), first.strip()
    compact = name.replace(" ", "")
    if all(is_cjk(c) for c in compact):
        if len(compact) == 1:
            return compact, ""
        k = 2 if len(compact) > 2 and compact[:2] in COMPOUND_SURNAMES else 1
        return compact[:k], compact[k:]
    words = name.split(" ")
    if len(words) == 1:
        return name, ""
    caps = [w for w in words if sum(c.isalpha() for c in w) > 1 and w == w.upper() and w != w.lower()]
    if caps and len(caps) < len(words):
        return " ".join(caps), " ".join(w for w in words if w not in caps)
    if country.strip().upper() in FAMILY_FIRST_COUNTRIES:
        return words[0], " ".join(words[1:])
    i = len(words) - 1
    while i > 1 and words[i - 1].lower() in PARTICLES:
        i -= 1
    return " ".join(words[i:]), " ".join(words[:i])


def full_name(family: str, given: str) -> str:
    """The printed name from its parts: 王芳 (Chinese characters, no space), else ``Given Family``."""
    if family and all(is_cjk(c) for c in (family + given).replace(" ", "")):
        return family + given
    return " ".join(x for x in (given, family) if x)


def latin_parts(
    name: str, *, family: str = "", given: str = "", romanised: str = "", country: str = ""
) -> tuple[str, str]:
    """(last, first) in Latin letters for the EMA file: the romanisation (family name first) when there is
    one, else the registered or guessed parts."""
    if romanised.strip():
        r = " ".join(romanised.split())
        if "," in r:
            last, first = r.split(",", 1)
            return last.strip(), first.strip()
        words = r.split(" ")
        return words[0], " ".join(words[1:])
    return split_name(name, family=family, given=given, country=country)


def pinyin_keys(name: str) -> tuple[str, str]:
    """(pinyin, initials) of a name's Chinese characters, lower case without tones or spaces, for a
    search by pinyin (``zhaolei`` or ``zl`` finds 赵磊); a name without Chinese characters has none.

    >>> pinyin_keys("赵磊"), pinyin_keys("欧阳娜娜"), pinyin_keys("Hans Müller")
    (('zhaolei', 'zl'), ('ouyangnana', 'oynn'), ('', ''))
    """
    from pypinyin import Style, lazy_pinyin  # type: ignore[import-untyped]

    syllables = [lazy_pinyin(ch, style=Style.NORMAL)[0] for ch in name if is_cjk(ch)]
    return "".join(syllables).replace("ü", "v"), "".join(s[0] for s in syllables)
