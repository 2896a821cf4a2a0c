"""No ruleset is asked for by name at the edges: every question the CLI, the hall, the bots, the RL
environments and the web client have of a ruleset is answered by its registry entry
(:mod:`majiang.rulesets`), so a new ruleset is one entry, not a hunt through ``if rules == …``.

This test reads the sources: a registered name compared (``==``, ``in``, a set or dict of names,
``case``, ``choices=``) anywhere outside the registry and the rules cores fails it, in Python and in
the web client's JavaScript.  A name as a default value (``rules: str = "gb"``) is no comparison."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from majiang.rulesets import names

SRC = Path(__file__).resolve().parents[1] / "src" / "majiang"
#: where ruleset names belong: the registry (the rulebook) and the adapters, and the rules cores they adapt
ALLOWED = ("rulebook.py", "rulesets", "mcr", "nanchang", "shanten", "_speedups")
NAMES = frozenset(names())


def _named(node: ast.AST) -> bool:
    """A literal ruleset name, or a literal collection holding one."""
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_named(e) for e in node.elts)
    return False


def python_comparisons(path: Path, root: Path = SRC) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        hit = False
        if isinstance(node, ast.Compare):
            hit = any(_named(x) for x in (node.left, *node.comparators))
        elif isinstance(node, ast.Set):
            hit = _named(node)
        elif isinstance(node, ast.Dict):
            hit = any(k is not None and _named(k) for k in node.keys)
        elif isinstance(node, ast.MatchValue) or (isinstance(node, ast.keyword) and node.arg == "choices"):
            hit = _named(node.value)
        if hit:
            found.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}")
    return found


_QUOTED = "|".join(re.escape(n) for n in sorted(NAMES))
_JS_PATTERNS = [
    re.compile(rf"""(===?|!==?)\s*(["'`])({_QUOTED})\2"""),  # x === "gb"
    re.compile(rf"""(["'`])({_QUOTED})\1\s*(===?|!==?)"""),  # "gb" === x
    re.compile(rf"""\b(includes|has|indexOf)\([^)]*(["'`])({_QUOTED})\2"""),  # names.includes("gb")
    re.compile(rf"""new Set\(\[[^\]]*(["'`])({_QUOTED})\1"""),  # new Set(["gb", …])
    re.compile(rf"""\bcase\s+(["'`])({_QUOTED})\1"""),  # case "gb":
]


def js_comparisons(path: Path, root: Path = SRC) -> list[str]:
    found = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("//", 1)[0]
        if any(p.search(code) for p in _JS_PATTERNS):
            found.append(f"{path.relative_to(root)}:{no}")
    return found


def edge_comparisons(src: Path = SRC) -> list[str]:
    found = []
    for path in sorted(src.rglob("*.py")):
        if path.relative_to(src).parts[0] not in ALLOWED:
            found += python_comparisons(path, src)
    for path in sorted(src.rglob("*.js")):
        found += js_comparisons(path, src)
    return found


def test_no_ruleset_name_is_compared_at_the_edges() -> None:
    found = edge_comparisons()
    assert not found, (
        "a ruleset asked for by name outside majiang.rulesets and the rules cores: "
        + ", ".join(found)
        + " — add what the code needs to know to RulesetInfo (src/majiang/rulebook.py) and read "
        "it there (the web client: GET /api/rulesets, hall/web/js/rulesets.js)"
    )


def test_the_scan_sees_each_kind_of_comparison(tmp_path: Path) -> None:
    py = tmp_path / "edge.py"
    py.write_text(
        'a = rules == "gb"\nb = rules in ("nanchang", "x")\nc = {"botzone": 1}\nd = frozenset({"gb"})\n'
        'e = f(choices=("gb", "botzone"))\ng: str = "gb"  # a default, no comparison\n',
        encoding="utf-8",
    )
    js = tmp_path / "edge.js"
    js.write_text(
        'const A = new Set(["gb", "botzone"]);\nif (names.includes("gb")) x();\nif (r === "nanchang") y();\n'
        'let rules = arg || "gb"; // a default, no comparison\n',
        encoding="utf-8",
    )
    assert python_comparisons(py, tmp_path) == [f"edge.py:{n}" for n in (1, 2, 3, 4, 5)]
    assert js_comparisons(js, tmp_path) == ["edge.js:1", "edge.js:2", "edge.js:3"]
