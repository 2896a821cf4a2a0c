"""The web client's string catalogues (src/majiang/hall/web/js/lang/zh.js and en.js, docs/web-client.md,
Languages) read as text, without a browser: the same keys in both, each in its own language, and every
key the modules name literally (``L("…")``, ``tr("…")``, ``msg("…")``, ``pair("…")``, ``i18n: {…: "…"}``)
in them.  tests/web/test_language_walk.py checks the pages themselves."""

from __future__ import annotations

import json
import re
from pathlib import Path

JS = Path(__file__).resolve().parents[1] / "src" / "majiang" / "hall" / "web" / "js"
ENTRY = re.compile(r'^  "([^"]+)": ("(?:[^"\\]|\\.)*"),$', re.M)
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
#: Latin words a Chinese string may hold: names written so in Chinese too (the language walk's list)
ALLOWED_LATIN = {"MCR", "Botzone", "Elo"}
USED = re.compile(r"""(?<![\w.])(?:L|tr|msg|pair)\("([\w.-]+)"|(?:placeholder|title): "([\w.-]+\.[\w.-]+)\"""")


def catalogue(lang: str) -> dict[str, str]:
    text = (JS / "lang" / f"{lang}.js").read_text(encoding="utf-8")
    entries = ENTRY.findall(text)
    assert len(entries) == text.count('\n  "'), f"lang/{lang}.js: a line that is not one entry"
    keys = [k for k, _ in entries]
    assert len(keys) == len(set(keys)), f"lang/{lang}.js: a key twice"
    return {k: json.loads(v) for k, v in entries}


def test_both_catalogues_have_the_same_keys() -> None:
    zh, en = catalogue("zh"), catalogue("en")
    assert sorted(set(zh) - set(en)) == [] and sorted(set(en) - set(zh)) == []
    for key in zh:  # the same placeholders in both
        assert set(re.findall(r"\{\w+\}", zh[key])) == set(re.findall(r"\{\w+\}", en[key])), key


def test_each_catalogue_is_in_its_own_language() -> None:
    assert [k for k, v in catalogue("en").items() if CJK.search(v)] == []
    bare = {k: re.sub(r"\{\w+\}", " ", v) for k, v in catalogue("zh").items()}
    assert [k for k, v in bare.items() if set(LATIN_WORD.findall(v)) - ALLOWED_LATIN] == []


def test_every_key_the_modules_name_is_in_the_catalogues() -> None:
    keys = set(catalogue("zh"))
    missing = []
    for path in sorted(JS.glob("*.js")):
        for m in USED.finditer(path.read_text(encoding="utf-8")):
            key = m.group(1) or m.group(2)
            if key not in keys:
                missing.append(f"{path.name}: {key}")
    assert missing == []
