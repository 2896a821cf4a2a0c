"""Shanten (向听数) and tile efficiency: hand-computed hands for every form, the fast paths equal to the
readable definitions, agreement with PyMahjongGB 1.4, waits, the discard table, the JSON query and
the CLI."""

import io
import json
import os
import random
import subprocess
import sys
from itertools import permutations

import pytest

from majiang._speedups import load
from majiang.cli import main
from majiang.mcr.generate import random_winning_hand
from majiang.mcr.shapes import THIRTEEN_ORPHANS, is_regular_win, regular_and_pairs_waits
from majiang.shanten import (
    FORMS,
    _tables,
    analyze_dict,
    discard_table,
    forms_of_counts,
    shanten_of_counts,
    tiles_of_mask,
    useful_of_counts,
    waits_of_counts,
)
from majiang.shanten import forms as ref
from majiang.tiles import HONORS, counts_of, format_tiles, parse_tiles

COMPILED = load("shanten")
FAST = [pytest.param(_tables, id="python")]
if COMPILED is not None:
    FAST.append(pytest.param(COMPILED, id="c"))

# tile pools that make hard hands: one suit (many blocks), two suits, honours, knitted and orphan tiles
POOLS = [
    list(range(34)),
    list(range(9)),
    list(range(9, 27)),
    list(range(18, 27)) + list(range(27, 34)),
    [0, 3, 6, 10, 13, 16, 20, 23, 26, 8, 9, 17, 18, *range(27, 34)],
]


def deal(rng: random.Random, extra: int | None = None) -> tuple[list[int], list[list[int]]]:
    """A random hand: concealed tiles (13 − 3·melds, plus ``extra`` or a coin flip) and the melds' tiles,
    all drawn from one set of 136 so that no tile has five copies."""
    pool = rng.choice(POOLS)
    wall = [t for t in pool for _ in range(4)]
    rng.shuffle(wall)
    left = counts_of(wall)
    melds: list[list[int]] = []
    for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3, 4))):
        for _try in range(20):
            t = rng.choice(pool)
            tiles = [t, t, t] if t >= 27 or rng.random() < 0.5 else [t, t + 1, t + 2]
            if all(left[x] >= tiles.count(x) for x in tiles) and (tiles[0] == tiles[1] or t % 9 <= 6):
                for x in tiles:
                    left[x] -= 1
                    wall.remove(x)
                melds.append(tiles)
                break
    n = 13 - 3 * len(melds) + (rng.randint(0, 1) if extra is None else extra)
    return sorted(wall[:n]), melds


def hands(seed: int, n: int, extra: int | None = None) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hand, melds = deal(rng, extra)
        out.append((counts_of(hand), len(melds)))
    return out


def c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


# ---- hand-computed hands, every form ----------------------------------------------------------------------

R, P7, T13, K, HK = FORMS  # regular, seven_pairs, thirteen_orphans, knitted, honors_knitted


@pytest.mark.parametrize(
    ("text", "melds", "forms", "waits"),
    [
        # 4 sets + pair: three sets, 11s pair, 56m two-sided
        ("123m456p789s11s56m", 0, {R: 0, P7: 5, T13: 9}, "4m 7m"),
        # three sets and four lone tiles: a pair and a set to make, 2 from ready
        ("123m456p789s1s5m8pE", 0, {R: 2, P7: 6, T13: 9}, None),
        # complete with one tile more
        ("123m456p789s11s567m", 0, {R: -1, P7: 5, T13: 9}, None),
        # 十三幺: all thirteen, no pair → waits on each of them; with a pair → waits on the missing one
        ("19m19p19sESWNCFP", 0, {R: 8, P7: 6, T13: 0, K: 9, HK: 4}, "1m 9m 1p 9p 1s 9s E S W N C F P"),
        ("19m19p19sESWNCFF", 0, {P7: 5, T13: 0}, "P"),
        # 七对: six pairs and E; as 4 sets + pair only partners fit: pair + 4 partners = 3
        ("1122m3344p5566sE", 0, {R: 3, P7: 0, T13: 10}, "E"),
        ("1122m3344p5566sEE", 0, {P7: -1}, None),
        ("1111m2233p4455sE", 0, {P7: 0}, "E"),  # four of a kind is two pairs
        # 全不靠: 13 different knitted tiles and honours → waits on the three honours missing
        ("147m258p369sESWN", 0, {R: 8, P7: 6, T13: 7, K: 2, HK: 0}, "C F P"),
        # 组合龙 + set + pair: the straight and EEE, waiting on C for the pair
        ("147m258p369sEEEC", 0, {R: 6, P7: 5, T13: 8, K: 0, HK: 2}, "C"),
        # 组合龙 with one declared set: the straight and C
        ("147m258p369sC", 1, {R: 6, P7: None, T13: None, K: 0, HK: None}, "C"),
        # four declared sets: a lone tile waits on itself; two of it are complete
        ("E", 4, {R: 0, P7: None, T13: None, K: None, HK: None}, "E"),
        ("EE", 4, {R: -1, P7: None, T13: None, K: None, HK: None}, None),
        # the fifth copy of a tile held four times still counts as a wait (mcr.md §4)
        ("1111m", 3, {R: 0, K: None}, "1m"),
    ],
)
def test_known_hands(text, melds, forms, waits):
    counts = c(text)
    got = forms_of_counts(counts, melds)._asdict()
    assert {name: got[name] for name in forms} == forms
    assert tuple(got.values()) == ref.form_shanten(counts, melds)
    if waits is not None:
        assert shanten_of_counts(counts, melds) == 0
        assert format_tiles(waits_of_counts(counts, melds)) == waits
    elif sum(counts) + 3 * melds == 13:
        assert waits_of_counts(counts, melds) == []


def test_forms_that_do_not_apply_are_none():
    counts = c("123m456p789s1s5m8pE")
    assert forms_of_counts(counts, 0).knitted is not None
    # with melds the concealed forms disappear: 10 tiles keep 组合龙, 7 tiles only the regular form
    got = forms_of_counts(c("456p789s1s5m8pE2m"), 1)
    assert (got.seven_pairs, got.thirteen_orphans, got.honors_knitted) == (None, None, None)
    assert got.knitted is not None
    assert forms_of_counts(c("789s1s5m8pE"), 2)[1:] == (None, None, None, None)


def test_useful_tiles_of_a_simple_hand():
    # 1 from ready: three sets, the pair 11s and lone 5m, 8p; a partner for 5m or 8p (3p too: 345p + 68p),
    # or a third 1s
    counts = c("123m456p789s11s5m8p")
    assert shanten_of_counts(counts) == 1
    assert format_tiles(useful_of_counts(counts)) == "3m 4m 5m 6m 7m 3p 6p 7p 8p 9p 1s"
    # seven pairs: any single tile pairs up
    assert format_tiles(useful_of_counts(counts, form="seven_pairs")) == "1m 2m 3m 5m 4p 5p 6p 8p 7s 8s 9s"
    with pytest.raises(ValueError, match="unknown form"):
        useful_of_counts(counts, form="pairs")


def test_useful_skips_a_fifth_copy_unless_ready():
    for counts, melds in hands(11, 400, extra=0):
        s = shanten_of_counts(counts, melds)
        for t in useful_of_counts(counts, melds):
            assert counts[t] < 4 or s == 0


def test_knitted_useful_tiles_leave_out_a_fifth_copy():
    # 组合龙 missing 9s; the rest EEEE + 1p is ready (EEE and a lone 1p).  PyMahjongGB also lists E,
    # which would be a fifth copy: a deliberate difference
    counts = c("147m258p36sEEEE1p")
    assert forms_of_counts(counts).knitted == 1
    assert format_tiles(useful_of_counts(counts, form="knitted")) == "1p 9s"


def test_bad_counts_raise():
    for fast in (_tables, COMPILED):
        if fast is None:
            continue
        with pytest.raises(ValueError):
            fast.shanten([0] * 34, 0)
        with pytest.raises(ValueError):
            fast.shanten([5] + [0] * 33, 3)
        with pytest.raises(ValueError):
            fast.shanten([1] * 13 + [0] * 20, 0)
        with pytest.raises(ValueError):
            fast.useful(c("123m456p789s11s567m"), 0, -1)  # useful tiles are for 13-tile hands
        with pytest.raises(ValueError):
            fast.discards(c("123m456p789s11s56m"), 0)  # the discard table for 14


# ---- the fast paths equal the definitions -------------------------------------------------------------


@pytest.mark.parametrize("fast", FAST)
def test_fast_forms_equal_reference(fast):
    for counts, melds in hands(1, 1500):
        want = ref.form_shanten(counts, melds)
        assert fast.forms(counts, melds) == want, (counts, melds)
        assert fast.shanten(counts, melds) == min(s for s in want if s is not None), (counts, melds)


@pytest.mark.parametrize("fast", FAST)
def test_fast_useful_equals_reference(fast):
    for counts, melds in hands(2, 150, extra=0):
        assert tiles_of_mask(fast.useful(counts, melds, -1)) == ref.useful_tiles(counts, melds), (counts, melds)
        for form in range(5):
            assert tiles_of_mask(fast.useful(counts, melds, form)) == ref.useful_tiles(counts, melds, form)


@pytest.mark.skipif(COMPILED is None, reason="compiled fast path not built")
def test_compiled_equals_python_tables():
    for counts, melds in hands(3, 1500, extra=0):
        for form in range(-1, 5):
            assert COMPILED.useful(counts, melds, form) == _tables.useful(counts, melds, form), (counts, melds, form)
    for counts, melds in hands(4, 200, extra=1):
        assert COMPILED.discards(counts, melds) == _tables.discards(counts, melds), (counts, melds)


KNITTED_RUNS = [[9 * s + o[s] + 3 * r for s in range(3) for r in range(3)] for o in permutations(range(3))]


def _special_minded_hand(rng: random.Random, size: int) -> list[int]:
    """A 14 − 3·melds-tile hand drawn towards a special form (pairs, knitted tiles and honours,
    orphans) or at random: where the discard choice's shortcuts must still give exact numbers."""
    kind = rng.randrange(4)
    if kind == 0:
        tiles = [t for k in rng.sample(range(34), 9) for t in [k] * rng.choice([1, 2, 2, 3])]
    elif kind == 1:
        pool = rng.choice(KNITTED_RUNS) + list(HONORS) + rng.sample(range(27), 6)
        tiles = [rng.choice(pool) for _ in range(size)]
    elif kind == 2:
        pool = list(THIRTEEN_ORPHANS) + rng.sample(range(34), 5)
        tiles = [rng.choice(pool) for _ in range(size)]
    else:
        tiles = rng.sample([t for t in range(34) for _ in range(4)], size)
    counts = [min(tiles.count(t), 4) for t in range(34)]
    while sum(counts) > size:
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
    while sum(counts) < size:
        t = rng.randrange(34)
        counts[t] += counts[t] < 4
    return counts


@pytest.mark.skipif(COMPILED is None, reason="compiled fast path not built")
def test_compiled_best_discards_equal_the_definition():
    """The bots' discard choice (shanten_core.h best_discard_rows, whose shortcuts skip forms and tiles
    that cannot matter) gives what the definition gives: each discard's shanten by the tables, the
    lowest kept, each with the unseen copies of the useful tiles of what is left."""
    rng = random.Random(7)
    for _ in range(3000):
        melds = rng.choice([0, 0, 0, 1, 1, 2, 3])
        counts = _special_minded_hand(rng, 14 - 3 * melds)
        unseen = [rng.randint(0, 4) for _ in range(34)]
        after = {
            t: _tables.shanten([c - (u == t) for u, c in enumerate(counts)], melds) for t in range(34) if counts[t]
        }
        low = min(after.values())
        want = []
        for t in sorted(after):
            if after[t] == low:
                rest = [c - (u == t) for u, c in enumerate(counts)]
                mask = _tables.useful(rest, melds, -1)
                want.append((low, sum(unseen[u] for u in range(34) if mask >> u & 1), t))
        assert sorted(COMPILED.best_discards(counts, melds, unseen)) == sorted(want), (counts, melds)


# ---- agreement with PyMahjongGB 1.4 -----------------------------------------------------------------------


def test_pymahjonggb_agrees():
    pmgb = pytest.importorskip("pmgb")
    mgb = pytest.importorskip("MahjongGB")
    per_form = [
        mgb.RegularShanten,
        mgb.SevenPairsShanten,
        mgb.ThirteenOrphansShanten,
        mgb.KnittedStraightShanten,
        mgb.HonorsAndKnittedTilesShanten,
    ]
    rng = random.Random(5)
    for _ in range(2500):
        hand, melds = deal(rng, extra=0)
        counts = counts_of(hand)
        packs = tuple(("PENG" if m[0] == m[1] else "CHI", pmgb.code(m[1]), 1) for m in melds)
        codes = tuple(pmgb.code(t) for t in hand)
        assert shanten_of_counts(counts, len(melds)) == mgb.MahjongShanten(packs, codes), hand
        ours = forms_of_counts(counts, len(melds))
        for index, f in enumerate(per_form):
            try:
                theirs, useful = f(codes)
            except TypeError:  # the form does not apply to this many tiles
                theirs, useful = None, ()
            assert ours[index] == theirs, (hand, FORMS[index])
            if theirs is None:
                continue
            want = set(useful)
            if index == 3 and theirs > 0:
                # PyMahjongGB lists a fifth copy for 组合龙 when the rest is ready; it cannot be drawn
                want -= {pmgb.code(t) for t in range(34) if counts[t] == 4}
            got = {pmgb.code(t) for t in useful_of_counts(counts, len(melds), FORMS[index])}
            assert got == want, (hand, FORMS[index])


# ---- waits ----------------------------------------------------------------------------------------------


def _complete(counts: list[int], melds: int) -> bool:
    """An independent test of a complete hand (14 tiles, melds as three) in any form."""
    sets = 4 - melds
    if is_regular_win(list(counts), sets):
        return True
    if melds == 0:
        if all(n % 2 == 0 for n in counts):
            return True
        if all(counts[t] for t in THIRTEEN_ORPHANS) and sum(counts[t] for t in THIRTEEN_ORPHANS) == 14:
            return True
    if melds > 1:
        return False
    for pattern in permutations(range(3)):
        knit = [9 * suit + r for suit, start in enumerate(pattern) for r in range(start, 9, 3)]
        if melds == 0 and max(counts) == 1 and all(t in knit or t in HONORS for t in range(34) if counts[t]):
            return True  # 全不靠
        if all(counts[t] for t in knit):
            rest = list(counts)
            for t in knit:
                rest[t] -= 1
            if is_regular_win(rest, 1 - melds):
                return True
    return False


def test_waits_complete_the_hand():
    rng = random.Random(6)
    for _ in range(1500):
        h = random_winning_hand(rng)
        counts, melds = counts_of(h.hand), len(h.melds)
        waits = waits_of_counts(counts, melds)
        assert h.win_tile in waits, h.to_string()
        brute = []
        for t in range(34):
            counts[t] += 1
            if _complete(counts, melds):
                brute.append(t)
            counts[t] -= 1
        assert waits == brute, h.to_string()
        # the regular and seven-pairs waits are exactly the tiles the scorer's shapes accept
        both = set(waits_of_counts(counts, melds, "regular")) | set(waits_of_counts(counts, melds, "seven_pairs"))
        assert both == set(regular_and_pairs_waits(list(counts), len(h.hand))), h.to_string()


# ---- the discard table ---------------------------------------------------------------------------------


def test_discard_table_invariants():
    rng = random.Random(7)
    for _ in range(300):
        hand, melds = deal(rng, extra=1)
        counts, n = counts_of(hand), len(melds)
        visible = [0] * 34
        for m in melds:
            for t in m:
                visible[t] += 1
        for t in rng.sample(range(34), 8):
            visible[t] = min(4 - counts[t], visible[t] + rng.randint(0, 2))
        rows = discard_table(counts, n, visible)
        assert sorted(r.discard for r in rows) == [t for t in range(34) if counts[t]]
        assert rows == sorted(rows, key=lambda r: (r.shanten, -r.unseen, -len(r.useful), r.discard))
        whole = shanten_of_counts(counts, n)
        assert rows[0].shanten == max(whole, 0)
        for r in rows:
            after = list(counts)
            after[r.discard] -= 1
            assert r.shanten == shanten_of_counts(after, n)
            assert list(r.useful) == useful_of_counts(after, n)
            assert r.unseen == sum(max(0, 4 - counts[t] - visible[t]) for t in r.useful)
            if r.discard in r.useful:  # drawing it back undoes the discard, so the discard lost ground
                assert whole < r.shanten


def test_discard_table_example():
    rows = discard_table(c("123m456p789s11s56mE"), 0, c("4m4m"))
    assert (format_tiles([rows[0].discard]), rows[0].shanten, format_tiles(rows[0].useful), rows[0].unseen) == (
        "E",
        0,
        "4m 7m",
        6,
    )


# ---- the JSON query ---------------------------------------------------------------------------------------


def test_query_shape():
    r = analyze_dict({"hand": parse_and_str("123m456p789s11s5m8p")})
    assert list(r) == ["shanten", "forms", "useful", "unseen", "min_fan", "fan_shanten", "fan_shanten_exact"]
    assert r["shanten"] == 1 and list(r["forms"]) == list(FORMS)
    assert r["useful"] == ["3m", "4m", "5m", "6m", "7m", "3p", "6p", "7p", "8p", "9p", "1s"]
    assert r["unseen"] == 4 * 11 - 6  # less our own 3m 5m 6p 8p and two 1s
    ready = analyze_dict({"hand": "123m456p789s11s56m", "visible": ["4m"]})
    assert ready["waits"] == ["4m", "7m"] and ready["unseen"] == 7
    r14 = analyze_dict({"hand": "123m456p789s11s56mE"})
    assert r14["shanten"] == 0 and r14["waits"] == ["4m", "7m"] and r14["discards"][0]["discard"] == "E"
    assert set(r14["discards"][0]) == {"discard", "shanten", "useful", "unseen"}
    assert r14["fan_discards"][0]["discard"] == "E"  # 合法听: tests/test_legal_waits.py
    melded = analyze_dict(
        {
            "melds": [
                {"kind": "pung", "tiles": ["E", "E", "E"], "from": 2},
                {"kind": "kong", "tiles": ["9s"] * 4, "concealed": True},
            ],
            "hand": ["1m", "2m", "3m", "5p", "5p", "7p", "8p"],
        }
    )
    assert melded["shanten"] == 0 and melded["waits"] == ["6p", "9p"]
    assert melded["forms"]["seven_pairs"] is None and melded["forms"]["knitted"] is None
    assert json.loads(json.dumps(melded)) == melded


def parse_and_str(text: str) -> list[str]:
    return format_tiles(parse_tiles(text)).split()


@pytest.mark.parametrize(
    ("query", "needle"),
    [
        ({"hand": ["1m", "2m", "x9"]}, "'x9'"),
        ({"hand": "123m456p789s11s5"}, "'5'"),
        ({"hand": ["1m"] * 5 + ["2m"] * 8}, "5 copies of 1m"),
        ({"hand": "123m456p789s11s5m"}, "wrong tile count"),
        ({"hand": "123m456p789s11s5mf1"}, "flowers"),
        ({"hand": "123m456p789s11s56m", "visible": "1s1s1s"}, "visible: 5 copies of 1s"),
        ({"hand": "123m456p789s11s56m", "visible": ["zz"]}, "visible: unknown tile 'zz'"),
        ({"hand": "456p789s11s56m", "melds": [{"kind": "chow", "tiles": ["1m", "2m", "4m"]}]}, "melds[0]"),
        ({"hand": "456p789s11s56m", "melds": "123m"}, "'melds' must be a list"),
        ({"hand": 7}, "'hand' must be a list"),
        ({"melds": []}, "'hand' is missing"),
        ({"hand": "1111m", "melds": [{"kind": "pung", "tiles": ["1m"] * 3}] * 3}, "copies of 1m"),
    ],
)
def test_query_errors(query, needle):
    r = analyze_dict(query)
    assert list(r) == ["error"] and needle in r["error"], r


# ---- CLI -----------------------------------------------------------------------------------------------------


def test_cli_jsonl_continues_after_bad_lines(monkeypatch, capsys):
    lines = [
        '{"hand": "123m456p789s11s56m"}',
        "not json",
        '{"hand": ["1m", "q"]}',
        "[]",
        '{"hand": "19m19p19sESWNCFP"}',
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["shanten", "--jsonl"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(out) == 5
    assert out[0]["waits"] == ["4m", "7m"]
    assert out[1]["error"].startswith("line 2:")
    assert "'q'" in out[2]["error"] and out[2]["error"].startswith("line 3:")
    assert out[3]["error"].startswith("line 4:")
    assert out[4]["forms"]["thirteen_orphans"] == 0 and len(out[4]["waits"]) == 13


def test_cli_table(capsys):
    assert main(["shanten", "123m456p789s11s56mE", "--visible", "4m"]) == 0
    out = capsys.readouterr().out
    for text in ("向听数", "基本和型", "Seven Pairs", "四万", "discards", "七万"):
        assert text in out
    assert main(["shanten", "[EEE2]123m456p11s5m8p"]) == 0
    out = capsys.readouterr().out
    assert "useful tiles" in out and "—" in out
    assert main(["shanten", "123m456p789s11s5m8p", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shanten"] == 1
    assert main(["shanten", "123m"]) == 1
    assert "wrong tile count" in capsys.readouterr().err


# ---- module hygiene ----------------------------------------------------------------------------------------


def test_pure_python_fallback_and_import_time():
    code = (
        "import time; t = time.perf_counter(); import majiang.shanten as s; print(s.BACKEND, time.perf_counter() - t)"
    )
    env = {**os.environ, "MAJIANG_PURE": "1"}
    backend, seconds = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert backend == "python" and float(seconds) < 1.0
