"""The compiled fan calculator (``majiang._speedups.fan`` via ``majiang.mcr.fast``) against the
pure-Python reference (``scorer.score_reference`` & co.): the same fans and totals on every hand the
test folder holds and on generated hands in both profiles with every rule switch flipped, the same
errors, byte-identical ``score_dict`` / ``majiang fan --jsonl`` output, and a working pure-Python
import when the extension is absent."""

from __future__ import annotations

import ast
import io
import json
import os
import pickle
import random
import subprocess
import sys
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import pytest

from majiang.mcr import InvalidHandError, Rules, WinningHand, scorer
from majiang.mcr.generate import random_winning_hand
from majiang.mcr.hand import Meld, MeldKind
from majiang.mcr.rules import PROFILES
from majiang.mcr.shapes import KNITTED_STRAIGHTS
from majiang.tiles import NUM_KINDS

FAST = scorer._FAST
needs_fast = pytest.mark.skipif(FAST is None, reason="majiang._speedups.fan not built, or MAJIANG_PURE=1")
TESTS = Path(__file__).parent
# the scoring switches: every bool field of Rules (the same list the C module checks itself against)
SWITCHES = tuple(f.name for f in fields(Rules) if isinstance(f.default, bool))
ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

Outcome = tuple[int, tuple[tuple[int, int], ...]] | None


def flipped(base: Rules, *names: str) -> Rules:
    return base.with_switches(**{n: not getattr(base, n) for n in names})


def fast_outcome(hand: WinningHand, rules: Any) -> Outcome:
    assert FAST is not None
    r = FAST.score(hand, rules)
    return None if r is None else (r.total, tuple((int(fc.fan), fc.count) for fc in r.fans))


def reference_outcome(hand: WinningHand, rules: Any) -> Outcome:
    try:
        r = scorer.score_reference(hand, rules)
    except ValueError:
        return None
    return r.total, tuple((int(fc.fan), fc.count) for fc in r.fans)


def relevant(hand: WinningHand, switch: str) -> bool:
    """Whether flipping ``switch`` can change this hand's result at all (a superset of the hands
    where it does), so the flips are spent where they test something."""
    concealed = list(hand.hand) + [hand.win_tile]
    if switch == "concealed_and_melded_kong":
        kongs = [m for m in hand.melds if m.kind is MeldKind.KONG]
        return any(m.concealed for m in kongs) and any(not m.concealed for m in kongs)
    if switch == "knitted_straight_wait_fans":
        return len(hand.melds) <= 1 and any(set(ks) <= set(concealed) for ks in KNITTED_STRAIGHTS)
    if switch == "exhausted_tile_is_wait":
        counts = [0] * NUM_KINDS
        for t in hand.all_tiles():
            counts[t] += 1
        return 4 in counts
    if switch == "last_tile_needs_visible":
        return hand.fourth_tile and hand.hand.count(hand.win_tile) > 0
    assert switch == "robbing_kong_excludes_last_tile"
    return hand.kong and not hand.self_drawn


# ---------------------------------------------------------------------------------------------
# generated hands


@needs_fast
def test_generated_hands_both_profiles_and_every_switch() -> None:
    n_hands = 50_000
    rng = random.Random(20261129)
    mismatches: list[str] = []
    flips = dict.fromkeys(SWITCHES, 0)
    changed = dict.fromkeys(SWITCHES, 0)
    for i in range(n_hands):
        profile = ("gb", "botzone")[i % 2]
        hand = random_winning_hand(rng, profile)
        ref = reference_outcome(hand, None)
        assert ref is not None, hand.to_string()  # the generator makes legal wins
        if fast_outcome(hand, None) != ref:
            mismatches.append(f"{profile} {hand.to_string()} {hand}")
        # flags that reach the switches the generator rarely sets
        perturbed = True
        if rng.random() < 0.1:
            hand = replace(hand, fourth_tile=True)
        elif rng.random() < 0.06 and not hand.self_drawn:
            hand = replace(hand, kong=True, last_tile=False, fourth_tile=rng.random() < 0.5)
        else:
            perturbed = False
        # (a fourth copy is common: that switch is flipped on a sample, to keep the test quick)
        to_flip = [
            switch
            for switch in SWITCHES
            if relevant(hand, switch) and (switch != "exhausted_tile_is_wait" or rng.random() < 0.25)
        ]
        if not to_flip:
            continue
        base_ref = reference_outcome(hand, PROFILES[profile]) if perturbed else ref
        for switch in to_flip:
            rules = flipped(PROFILES[profile], switch)
            ref = reference_outcome(hand, rules)
            flips[switch] += 1
            changed[switch] += ref != base_ref
            if fast_outcome(hand, rules) != ref:
                mismatches.append(f"{profile}+{switch} {hand.to_string()} {hand}")
    assert mismatches[:10] == []
    # every switch was flipped on hands where it matters, and did change some results
    assert min(flips.values()) >= 100, flips
    assert min(changed.values()) > 0, changed
    print("switch flips", flips, "of which changed the result", changed)


@needs_fast
def test_all_switches_flipped_at_once() -> None:
    rng = random.Random(5)
    for profile in ("gb", "botzone"):
        rules = flipped(PROFILES[profile], *SWITCHES).with_switches(min_fan=0)
        for _ in range(2_000):
            hand = random_winning_hand(rng, profile)
            if rng.random() < 0.3:
                hand = replace(
                    hand,
                    fourth_tile=rng.random() < 0.5,
                    kong=rng.random() < 0.2,
                    last_tile=rng.random() < 0.2,
                    self_drawn=rng.random() < 0.5,
                )
            assert fast_outcome(hand, rules) == reference_outcome(hand, rules), hand


@needs_fast
def test_non_winning_and_contradictory_hands() -> None:
    """Mutated hands, mostly not wins: the fast path answers exactly when the reference does."""
    rng = random.Random(11)
    wins = 0
    for _ in range(4_000):
        hand = random_winning_hand(rng, rng.choice(("gb", "botzone")))
        tiles = list(hand.hand)
        for _ in range(rng.choice((1, 1, 2))):
            j = rng.randrange(len(tiles))
            tiles[j] = (tiles[j] + rng.choice((-2, -1, 1, 2, 9))) % NUM_KINDS
        hand = replace(
            hand,
            hand=tuple(tiles),
            self_drawn=rng.random() < 0.5,
            fourth_tile=rng.random() < 0.2,
            kong=rng.random() < 0.15,
            last_tile=rng.random() < 0.15,
        )
        ref = reference_outcome(hand, None)
        wins += ref is not None
        assert fast_outcome(hand, None) == ref, hand
    assert 0 < wins < 4_000


# ---------------------------------------------------------------------------------------------
# every hand written in the test folder (tests/mcr/ included)

FLAG_KEYS = frozenset(
    ("self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "prevalent_wind", "flowers", "rules")
)


def _literal(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def harvest() -> tuple[list[tuple[str, dict[str, Any]]], list[dict[str, Any]]]:
    """(compact hand string, flags) pairs and hand-json dicts written anywhere under tests/."""
    strings: list[tuple[str, dict[str, Any]]] = []
    dicts: list[dict[str, Any]] = []
    for path in sorted(TESTS.rglob("*")):
        if path.suffix in (".json", ".jsonl") and path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    d = json.loads(line)
                except ValueError:
                    continue
                if isinstance(d, dict) and "hand" in d:
                    dicts.append(d)
        if path.suffix != ".py" or path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.append((node.value, {}))
            elif isinstance(node, ast.Dict):
                d = _literal(node)
                if isinstance(d, dict) and "hand" in d:
                    dicts.append(d)
            elif isinstance(node, ast.Call):  # case(...) / pytest.param(...): the hand with its flags
                flags: dict[str, Any] = {}
                for arg in node.args:
                    d = _literal(arg) if isinstance(arg, ast.Dict) else None
                    if isinstance(d, dict) and set(d) <= FLAG_KEYS:
                        flags.update(d)
                for kw in node.keywords:
                    if kw.arg in FLAG_KEYS:
                        flags[kw.arg] = _literal(kw.value)
                if flags:
                    strings.extend(
                        (a.value, flags) for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                    )
    return strings, dicts


@needs_fast
def test_every_hand_in_the_test_folder() -> None:
    strings, dicts = harvest()
    hands: dict[str, WinningHand] = {}
    for text, flags in strings:
        for extra in ({}, {"self_drawn": True}, {"fourth_tile": True}):
            try:
                hand = WinningHand.from_string(text, **{**flags, **extra})
            except (ValueError, TypeError):
                continue
            hands[repr((hand, hand.rules))] = hand
    for d in dicts:
        try:
            hand = WinningHand.from_dict(d)
        except (ValueError, TypeError):
            continue
        hands[repr((hand, hand.rules))] = hand
    scored = 0
    every_rules: list[Any] = [
        None,
        "gb",
        "botzone",
        flipped(PROFILES["gb"], *SWITCHES),
        flipped(PROFILES["botzone"], *SWITCHES),
    ]
    for hand in hands.values():
        for rules in every_rules:
            ref = reference_outcome(hand, rules)
            scored += ref is not None
            assert fast_outcome(hand, rules) == ref, (hand.to_string(), hand, rules)
    assert scored >= 100, f"found only {scored} scorable hands under tests/"  # the harvest works
    print(f"{len(hands)} hands from tests/, {scored} scorable (hand, rules) pairs, {len(dicts)} hand-json dicts")
    for d in dicts:
        for explain in (False, True):
            assert ENCODE(scorer.score_dict(d, explain)) == ENCODE(scorer.score_dict_reference(d, explain)), d


# ---------------------------------------------------------------------------------------------
# score_dict and the --jsonl command, byte for byte


def _mutations(rng: random.Random, d: dict[str, Any]) -> Any:
    """A hand-json object, often made wrong or unusual in one field (or not an object at all)."""
    d = json.loads(json.dumps(d))
    r = rng.random()
    if r < 0.05:
        d["hand"] = [*d["hand"], "1m"]
    elif r < 0.1:
        d["win_tile"] = rng.choice(["f1", "0m", "1z", "7z", "中", 5, None, "12m", " 5p", "e"])
    elif r < 0.15:
        d["seat_wind"] = rng.choice(["东", "北", 2, 4, True, "X", None, "e"])
    elif r < 0.2:
        d["flowers"] = rng.choice([["f1", "f2"], 9, -1, True, ["x"], ["1m"], 3.0, None, "2"])
    elif r < 0.25:
        d[rng.choice(["self_drawn", "kong", "last_tile", "fourth_tile"])] = rng.choice([1, None, "true", True])
    elif r < 0.32 and d["melds"]:
        m = d["melds"][rng.randrange(len(d["melds"]))]
        key = rng.choice(["kind", "tiles", "concealed", "claimed", "from"])
        m[key] = rng.choice(
            [
                None,
                "chow",
                "pung",
                "kong",
                "CHOW",
                ["1m", "2m", "3m"],
                ["E", "E", "E", "E"],
                ["1z", "1z", "1z"],
                True,
                False,
                0,
                1,
                3,
                5,
                -1,
                "x",
                2.0,
            ]
        )
    elif r < 0.36:
        d["rules"] = rng.choice(["botzone", "gb", "nanchang", None, 3, "strict"])
    elif r < 0.4:
        d.pop(rng.choice(["melds", "hand", "win_tile", "flowers", "rules", "seat_wind", "self_drawn"]), None)
    elif r < 0.45:
        spellings = ["1z", "2z", "5z", "6z", "7z", "12m", " 1m", "1m,", "f3", "Z"]
        d["hand"] = [rng.choice(spellings) if rng.random() < 0.15 else t for t in d["hand"]]
    elif r < 0.5:
        d["melds"] = rng.choice([None, {}, [{"kind": "pung"}], [["1m", "1m", "1m"]], "[]"])
    elif r < 0.52:
        return rng.choice([[], "hand", 3, None])
    return d


@needs_fast
def test_score_dict_byte_identical(monkeypatch: pytest.MonkeyPatch) -> None:
    # a registered profile with every switch flipped and another minimum
    monkeypatch.setitem(PROFILES, "strict", flipped(PROFILES["gb"], *SWITCHES).with_switches(name="strict", min_fan=20))
    rng = random.Random(99)
    fast_answers = 0
    for i in range(6_000):
        hand = random_winning_hand(rng, ("gb", "botzone", "strict")[i % 3])
        d = hand.to_dict()
        if i % 2:
            d = _mutations(rng, d)
        explain = rng.random() < 0.05
        assert ENCODE(scorer.score_dict(d, explain)) == ENCODE(scorer.score_dict_reference(d, explain)), d
        fast_answers += FAST is not None and FAST.score_dict(d) is not None
    assert fast_answers > 3_000  # the generated lines do take the fast path


@needs_fast
def test_the_fast_path_leaves_a_line_with_switches_to_the_reference() -> None:
    # the C side refuses a hand-json line with its own ``switches`` (even empty ones), so that
    # score_dict need not look for the key in Python on every line; the reference applies them
    assert FAST is not None
    d = WinningHand.from_string("14m258p369s789mCC 7m").to_dict()
    assert FAST.score_dict(d) is not None
    assert FAST.score_dict({**d, "switches": {}}) is None
    assert FAST.score_dict({**d, "switches": {"knitted_straight_wait_fans": False}}) is None


def _jsonl_input() -> str:
    rng = random.Random(3)
    lines = ["", "not json", "[1, 2]", '{"hand": 5}', '{"melds": [], "hand": ["1m"], "win_tile": "1m"}']
    for i in range(1_500):
        d: Any = random_winning_hand(rng, ("gb", "botzone")[i % 2]).to_dict()
        if i % 3 == 0:
            d = _mutations(rng, d)
        if i % 50 == 0:
            d = {**d, "rules": "nanchang"} if isinstance(d, dict) else d
        lines.append(json.dumps(d, ensure_ascii=bool(i % 2)))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("args", [[], ["--explain"], ["--rules", "botzone"], ["--rules", "gb"]])
def test_cli_jsonl_byte_identical(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from majiang.cli import main

    text = _jsonl_input()
    outputs = []
    for fast in (FAST, None):
        monkeypatch.setattr(scorer, "_FAST", fast)
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        assert main(["fan", "--jsonl", *args]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") == text.count("\n")


# ---------------------------------------------------------------------------------------------
# the result objects


@needs_fast
def test_results_are_the_reference_objects_with_lazy_explanations() -> None:
    rng = random.Random(17)
    for _ in range(300):
        hand = random_winning_hand(rng, rng.choice(("gb", "botzone")))
        ref = scorer.score_reference(hand)
        res = scorer.score(hand)
        assert res._explanation is not None and ref._explanation is None  # this one came from C
        # it explains from its own copy of the hand, so a result kept in hand.extra makes no cycle
        assert res._explanation.hand == hand and res._explanation.hand is not hand
        assert type(res) is scorer.ScoreResult and all(type(fc) is scorer.FanCount for fc in res.fans)
        assert res.to_dict() == ref.to_dict()
        assert res.to_dict(explain=True) == ref.to_dict(explain=True)
        res = scorer.score(hand)
        assert [fc.sources for fc in res.fans] == [fc.sources for fc in ref.fans]
        assert res.reading == ref.reading
        assert res == ref and repr(res) == repr(ref) and hash(res.fans) == hash(ref.fans)
        assert pickle.loads(pickle.dumps(scorer.score(hand))) == ref
        res = scorer.score(hand)
        assert replace(res, total=res.total) == ref
        assert {f.name: getattr(res, f.name) for f in fields(res)} == {
            f.name: getattr(ref, f.name) for f in fields(ref) if f.name != "_explanation"
        } | {"_explanation": res._explanation}
        assert (res.fan_points, res.below_minimum, res.valid) == (ref.fan_points, ref.below_minimum, ref.valid)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = res.nope  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = res.fans[0].nope  # type: ignore[attr-defined]


def test_score_many_equals_score_one_by_one() -> None:
    rng = random.Random(23)
    hands = [random_winning_hand(rng, rng.choice(("gb", "botzone"))) for _ in range(600)]
    for rules in (None, "gb", "botzone", flipped(PROFILES["gb"], *SWITCHES)):
        many = scorer.score_many(iter(hands), rules)
        assert [r.to_dict() for r in many] == [scorer.score_reference(h, rules).to_dict() for h in hands]
    bad = replace(hands[0], hand=hands[0].hand[:-1])
    with pytest.raises(InvalidHandError) as fast_error:
        scorer.score_many([*hands[:5], bad, *hands[5:10]])
    with pytest.raises(InvalidHandError) as reference_error:
        scorer.score_many_reference([*hands[:5], bad])
    assert str(fast_error.value) == str(reference_error.value)


INVALID = [
    ("123m456p789s1s 5s", {}),  # wrong count
    ("123m456p789s11s 2s", {}),  # not a win
    ("11112345678999m 1m", {}),  # five 1m
    ("123m456p789s12s 3s", {"kong": True, "last_tile": True}),  # 抢杠和 + 海底捞月
    ("123m456p789s3s 3s", {"kong": True}),  # robbing a tile the hand holds
    ("123m456p789sEEE3s 3s", {"kong": True, "self_drawn": True}),  # 杠上开花 without a kong
    ("123m456p789sEEE3s 3s", {"fourth_tile": True}),  # 和绝张 with a concealed copy
    ("123m456p789s123s3s 3s", {"flowers": 9}),
    ("123m456p789s123s3s 3s", {"rules": "nanchang"}),
    ("123m456p789s123s3s 3s", {"seat_wind": 4}),
]


@pytest.mark.parametrize(("text", "flags"), INVALID)
def test_errors_are_the_reference_messages(text: str, flags: dict[str, Any]) -> None:
    hand = WinningHand(
        **{**{f.name: getattr(WinningHand.from_string(text), f.name) for f in fields(WinningHand) if f.init}, **flags}
    )
    with pytest.raises(ValueError) as reference_error:
        scorer.score_reference(hand)
    with pytest.raises(ValueError) as fast_error:
        scorer.score(hand)
    assert (type(fast_error.value), str(fast_error.value)) == (type(reference_error.value), str(reference_error.value))
    if FAST is not None:
        assert FAST.score(hand, None) is None


@needs_fast
def test_unusual_inputs_are_handed_back_or_equal() -> None:
    class MyHand(WinningHand):
        pass

    hand = WinningHand.from_string("[123m1][EEE2]{9999s}456pC C", self_drawn=True)
    sub = MyHand(**{f.name: getattr(hand, f.name) for f in fields(WinningHand) if f.init})
    assert FAST is not None and FAST.score(sub, None) is None  # a subclass: the reference answers
    assert scorer.score(sub).to_dict() == scorer.score_reference(hand).to_dict()
    as_lists = replace(hand, hand=list(hand.hand), melds=list(hand.melds))  # type: ignore[arg-type]
    assert FAST.score(as_lists, None) is None  # mutable fields: the reference answers
    assert scorer.score(as_lists).to_dict() == scorer.score_reference(hand).to_dict()
    odd_meld = replace(hand, melds=(Meld.of(MeldKind.CHOW, 0, claimed=0), *hand.melds[1:]))
    assert scorer.score(odd_meld).to_dict() == scorer.score_reference(odd_meld).to_dict()
    truthy = replace(hand, self_drawn=1)  # type: ignore[arg-type]
    assert FAST.score(truthy, None) is None and scorer.score(truthy) == scorer.score_reference(truthy)
    custom = Rules(name="custom", concealed_and_melded_kong=True, min_fan=0)
    assert fast_outcome(hand, custom) == reference_outcome(hand, custom)
    assert fast_outcome(hand, "no-such-profile") is None
    with pytest.raises(ValueError, match="unknown MCR rules profile"):
        scorer.score(hand, "no-such-profile")


@needs_fast
def test_the_switch_contract_is_the_fields_of_rules() -> None:
    """A new Rules field the C port does not implement is refused when it is configured (so the build
    is not used), as an unknown fan number is; a Rules subclass is handed back at scoring time."""
    from majiang.mcr import fast
    from majiang.mcr.result import FanCount, ScoreResult

    assert SWITCHES == (
        "concealed_and_melded_kong",
        "knitted_straight_wait_fans",
        "exhausted_tile_is_wait",
        "last_tile_needs_visible",
        "robbing_kong_excludes_last_tile",
    )
    ext: Any = FAST
    good = fast.config(FanCount, ScoreResult, scorer._Explanation)
    try:
        with pytest.raises(ValueError, match="unknown rule switch 'pao_rule'"):
            ext.configure({**good, "rules_fields": good["rules_fields"] + ("pao_rule",)})
        with pytest.raises(ValueError, match="exhausted_tile_is_wait is not a field of Rules"):
            ext.configure(
                {**good, "rules_fields": tuple(n for n in good["rules_fields"] if n != "exhausted_tile_is_wait")}
            )
        with pytest.raises(ValueError, match="exclusions entry"):
            ext.configure({**good, "exclusions": [(1, [48], "pao_rule")]})
        with pytest.raises(ValueError, match="configure: to holds 1"):  # a fan may only exclude later fans
            ext.configure({**good, "exclusions": [(48, [1], None)]})
    finally:
        ext.configure(good)

    @dataclass(frozen=True, slots=True)
    class PaoRules(Rules):
        pao_rule: bool = True

    hand = WinningHand.from_string("[123m1][EEE2]{9999s}456pC C", self_drawn=True)
    assert FAST is not None and FAST.score(hand, PaoRules()) is None
    assert FAST.score(hand, Rules()) is not None


def test_every_reference_function_has_a_c_twin_or_is_python_only() -> None:
    """fast.TWINS names, for every private function of the scorer and every function of the fan
    families, combos and reading, its C twin in fan_core.h or why it has none; a new reference
    function must be declared there."""
    import re

    from majiang.mcr import combos, fast, reading
    from majiang.mcr.families import FAMILIES

    def functions(module: Any, private_only: bool) -> set[str]:
        short = module.__name__.rsplit(".", 1)[1]
        return {
            f"{short}.{name}"
            for name, obj in vars(module).items()
            if callable(obj)
            and not isinstance(obj, type)
            and getattr(obj, "__module__", None) == module.__name__
            and not name.startswith("__")
            and (name.startswith("_") or not private_only)
        }

    reference = functions(scorer, True) | functions(combos, False) | functions(reading, False)
    for family in FAMILIES:
        reference |= functions(family, False)
    assert set(fast.TWINS) == reference
    core = (Path(scorer.__file__).parent.parent / "_speedups" / "fan_core.h").read_text(encoding="utf-8")
    defined = set(re.findall(r"^static (?:inline )?[a-z_0-9]+ \*?([a-z_0-9]+)\(", core, re.MULTILINE))
    twins = {t for t in fast.TWINS.values() if isinstance(t, str)}
    assert twins - defined == set()
    assert all(isinstance(t, str) or (t[0] is None and t[1]) for t in fast.TWINS.values())


# ---------------------------------------------------------------------------------------------
# without the extension


def test_pure_python_import_and_scoring() -> None:
    code = (
        "import majiang._speedups as s, majiang.mcr as m\n"
        "from majiang.mcr import scorer, WinningHand\n"
        "assert s.load('fan') is None and scorer._FAST is None\n"
        "h = WinningHand.from_string('[123m1][EEE2]{9999s}456pC C')\n"
        "r = m.score(h)\n"
        "d = m.score_dict(h.to_dict())\n"
        "assert [x.total for x in m.score_many([h])] == [r.total] and d['total'] == r.total\n"
        "print(r.total, r.fans[0].sources, r.reading)\n"
    )
    env = {**os.environ, "MAJIANG_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    hand = WinningHand.from_string("[123m1][EEE2]{9999s}456pC C")
    ref = scorer.score_reference(hand)
    assert out.strip() == f"{ref.total} {ref.fans[0].sources} {ref.reading}"
