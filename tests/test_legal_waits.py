"""合法听 (majiang.shanten.legal): the waits' fans and the legal waits equal PyMahjongGB 1.4 scoring all 34
tiles one by one, on random ready hands; concrete hands; the fan-aware shanten; the query and the CLI.

Oracle and profiles: PyMahjongGB is exactly the ``pymahjonggb`` profile (tests/test_oracle.py; the
``botzone`` profile is the judge's, which differs on the 组合龙 wait), so that profile is compared on
every hand.  ``gb`` differs from it only by 明暗杠 (a concealed and a melded kong in the same hand),
which a ready hand's win cannot create, so ``gb`` is compared on every hand whose melds are not one
concealed and one exposed kong.  Flowers are never counted (flowerCount=0)."""

import doctest
import io
import json
import random
import sys

import pytest

from majiang.cli import main
from majiang.mcr import MeldKind, WinningHand
from majiang.mcr.generate import random_winning_hand
from majiang.shanten import analyze, analyze_dict, legal
from majiang.shanten.efficiency import shanten_of_counts
from majiang.shanten.legal import FanContext, fan_shanten, wait_fans
from majiang.tiles import NUM_KINDS, counts_of, parse_tiles, tile_str

N_HANDS = 400


def _ready_hands(seed: int, n: int):
    """Random ready hands nobody wrote: a random MCR win (majiang.mcr.generate) less one concealed tile,
    with random winds and, for about a third of the tiles not in the hand, copies seen on the table (so
    that 和绝张 and the unseen counts vary)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        win = random_winning_hand(rng)
        tiles = [*win.hand, win.win_tile]
        tiles.pop(rng.randrange(len(tiles)))
        in_melds = counts_of([t for m in win.melds for t in m.tiles])
        counts = counts_of(tiles)
        visible = []
        for t in range(NUM_KINDS):
            free = 4 - counts[t] - in_melds[t]
            if free > 0 and rng.random() < 0.3:
                # mostly exactly the number that makes a win on it 和绝张, sometimes fewer
                k = (
                    3 - in_melds[t]
                    if counts[t] == 0 and 0 <= 3 - in_melds[t] <= free and rng.random() < 0.7
                    else rng.randrange(free + 1)
                )
                visible += [t] * k
        out.append((win.melds, tiles, visible, rng.randrange(4), rng.randrange(4)))
    return out


def _oracle(melds, tiles, visible, seat, prevalent, rules):
    """{tile: (discard fans, self-drawn fans)} from PyMahjongGB, one call per tile of the 34."""
    pmgb = pytest.importorskip("pmgb")
    mahjong_gb = pytest.importorskip("MahjongGB")
    held = counts_of([*tiles, *(t for m in melds for t in m.tiles)])
    meld_tiles = [t for m in melds for t in m.tiles]
    out = {}
    for w in range(NUM_KINDS):
        if held[w] >= 4:
            continue  # no fifth copy
        fourth = tiles.count(w) == 0 and visible.count(w) + meld_tiles.count(w) == 3
        fans = []
        for self_drawn in (False, True):
            hand = WinningHand(
                melds=tuple(melds),
                hand=tuple(tiles),
                win_tile=w,
                self_drawn=self_drawn,
                fourth_tile=fourth,
                seat_wind=seat,
                prevalent_wind=prevalent,
            )
            try:
                res = mahjong_gb.MahjongFanCalculator(**pmgb.kwargs(hand), verbose=True)
            except TypeError:  # ERROR_NOT_WIN
                break
            fans.append(sum(pts * cnt for pts, cnt, _zh, _en in res))
        else:
            out[w] = tuple(fans)
    return out


def _mixed_kongs(melds) -> bool:
    kongs = [m for m in melds if m.kind is MeldKind.KONG]
    return any(m.concealed for m in kongs) and any(not m.concealed for m in kongs)


@pytest.mark.parametrize("rules", ["pymahjonggb", "gb"])
def test_wait_fans_equal_pymahjonggb_tile_by_tile(rules):
    pytest.importorskip("MahjongGB")
    compared = with_legal = with_illegal = fourth = 0
    mismatches = []
    for melds, tiles, visible, seat, prevalent in _ready_hands(20261201 if rules == "gb" else 15, N_HANDS):
        if rules == "gb" and _mixed_kongs(melds):
            continue
        r = analyze_dict(
            {
                "melds": [m.hand_json() for m in melds],
                "hand": [tile_str(t) for t in tiles],
                "visible": [tile_str(t) for t in visible],
                "seat_wind": "ESWN"[seat],
                "prevalent_wind": "ESWN"[prevalent],
                "rules": rules,
            }
        )
        expected = _oracle(melds, tiles, visible, seat, prevalent, rules)
        ours = {w["tile"]: (w["discard"], w["self_drawn"]) for w in r["wait_fans"]}
        want = {tile_str(t): v for t, v in expected.items()}
        legal = [tile_str(t) for t, (d, _s) in sorted(expected.items()) if d >= 8]
        if ours != want or r["legal_waits"] != legal:
            mismatches.append((tiles, melds, ours, want))
        compared += 1
        with_legal += bool(legal)
        with_illegal += len(legal) < len(want)
        fourth += any(
            tiles.count(t) == 0 and visible.count(t) + sum(m.tiles.count(t) for m in melds) == 3 for t in expected
        )
    assert mismatches == []
    assert compared >= 350 and with_legal > 100 and with_illegal > 50 and fourth > 20, (
        compared,
        with_legal,
        with_illegal,
        fourth,
    )


def test_discard_rows_equal_pymahjonggb():
    """A hand with one tile more: every ready row's waits and fans are those of the oracle."""
    pytest.importorskip("MahjongGB")
    rng = random.Random(99)
    rows_checked = 0
    for melds, tiles, visible, seat, prevalent in _ready_hands(77, 60):
        held = counts_of([*tiles, *visible, *(t for m in melds for t in m.tiles)])
        extra = rng.choice([t for t in range(NUM_KINDS) if held[t] < 4])
        r = analyze_dict(
            {
                "melds": [m.hand_json() for m in melds],
                "hand": [tile_str(t) for t in [*tiles, extra]],
                "visible": [tile_str(t) for t in visible],
                "seat_wind": "ESWN"[seat],
                "prevalent_wind": "ESWN"[prevalent],
                "rules": "pymahjonggb",
            }
        )
        assert [row["discard"] for row in r["fan_discards"]] != []
        for row in r["fan_discards"]:
            if row["shanten"] != 0:
                assert "wait_fans" not in row
                continue
            rest = [*tiles, extra]
            rest.remove(parse_tiles(row["discard"])[0])
            # the discarded tile lies in the river: seen, but the 和绝张 of the scorer needs it visible too
            want = _oracle(melds, rest, visible, seat, prevalent, "pymahjonggb")
            assert {w["tile"]: (w["discard"], w["self_drawn"]) for w in row["wait_fans"]} == {
                tile_str(t): v for t, v in want.items()
            }
            assert row["legal_waits"] == [tile_str(t) for t, (d, _s) in sorted(want.items()) if d >= 8]
            assert (row["fan_shanten"] == 0) == bool(row["legal_waits"])
            rows_checked += 1
    assert rows_checked > 60


# ---- concrete hands -------------------------------------------------------------------------------------


def q(hand: str, **options):
    return analyze_dict({"hand": hand, **options})


def test_one_wait_over_eight_one_under():
    # 23m 123p 456p 789s 11s: 1m makes 123m, a 花龙 (Mixed Straight, 8) with 456p 789s; 4m (234m) does not
    r = q("23m123p456p789s11s")
    assert r["waits"] == ["1m", "4m"]
    assert r["wait_fans"] == [
        {"tile": "1m", "discard": 13, "self_drawn": 15},
        {"tile": "4m", "discard": 5, "self_drawn": 7},
    ]
    assert r["legal_waits"] == ["1m"] and r["self_drawn_waits"] == [] and r["fan_shanten"] == 0


def test_self_drawn_only_waits_are_not_legal():
    # 456p 789s 11s 78m EEE: 6m 6 fans by discard, 8 self-drawn; 9m 7 and 9 — neither may be claimed
    r = q("456p789s11s78mEEE")
    assert [(w["tile"], w["discard"], w["self_drawn"]) for w in r["wait_fans"]] == [("6m", 6, 8), ("9m", 7, 9)]
    assert r["legal_waits"] == [] and r["self_drawn_waits"] == ["6m", "9m"]
    assert r["fan_shanten"] == 1 and r["fan_shanten_exact"] is True


def test_tile_held_four_times_is_not_a_wait():
    # 12367777889s 99p: the shapes wait on 9p and 7s, but all four 7s are in the hand
    r = q("12367777889s99p")
    assert r["waits"] == ["9p", "7s"]  # the plain shanten waits keep it (mcr.md §4: no unique-wait fan)
    assert r["wait_fans"] == [{"tile": "9p", "discard": 8, "self_drawn": 10}]
    assert r["legal_waits"] == ["9p"]
    # four counted with a meld: a pung of 1m declared, the fourth 1m concealed
    melded = analyze_dict(
        {
            "melds": [{"kind": "pung", "tiles": ["1m"] * 3, "from": 1}],
            "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9p"],
        }
    )
    assert "1m" not in [w["tile"] for w in melded["wait_fans"]]


def test_fourteen_tile_input_ranks_discards_by_fan_shanten():
    r = q("23m123p456p789s11sE")
    best = r["fan_discards"][0]
    assert best == {
        "discard": "E",
        "fan_shanten": 0,
        "exact": True,
        "shanten": 0,
        "unseen": 8,
        "legal_unseen": 4,
        "wait_fans": [{"tile": "1m", "discard": 13, "self_drawn": 15}, {"tile": "4m", "discard": 5, "self_drawn": 7}],
        "legal_waits": ["1m"],
    }
    assert r["fan_shanten"] == 0
    keys = [(row["fan_shanten"], not row["exact"], row["shanten"]) for row in r["fan_discards"]]
    assert keys == sorted(keys)
    assert "wait_fans" not in r and r["discards"][0]["discard"] == "E"  # the plain table stays as it was
    r = q("111m222p33s4567s8sE")
    assert r["fan_discards"][0]["fan_shanten"] == r["fan_shanten"] == 1


def test_query_options_and_errors():
    base = q("123m456p789s11s56m")
    assert base["min_fan"] == 8 and base["legal_waits"] == ["4m", "7m"] and base["fan_shanten"] == 0
    high = q("123m456p789s11s56m", min_fan=14)
    assert high["legal_waits"] == [] and high["self_drawn_waits"] == ["4m", "7m"] and high["fan_shanten"] > 0
    assert q("123m456p789s11s56m", flowers=3)["wait_fans"] == base["wait_fans"]  # flowers never count
    plain = q("123m456p789s11s56m", fans=False)
    assert list(plain) == ["shanten", "forms", "useful", "unseen", "waits"]
    for bad, needle in [
        ({"min_fan": "8"}, "'min_fan'"),
        ({"seat_wind": "X"}, "'seat_wind'"),
        ({"prevalent_wind": 9}, "'prevalent_wind'"),
        ({"rules": "nanchang"}, "'rules'"),
        ({"rules": {}}, "'rules'"),
        ({"flowers": 12}, "'flowers'"),
        ({"fans": 1}, "'fans'"),
    ]:
        r = q("123m456p789s11s56m", **bad)
        assert list(r) == ["error"] and needle in r["error"], r


def test_winds_change_the_fans():
    # EEE with seat and prevalent East: 圈风刻 + 门风刻 (2 + 2); SSS for the South seat 门风刻 (2); for East 幺九刻 (1)
    assert q("EEE123m456p789s5p")["wait_fans"][0]["discard"] == 15
    assert q("SSS123m456p789s5p", seat_wind="S")["wait_fans"][0]["discard"] == 13
    assert q("SSS123m456p789s5p", seat_wind="E")["wait_fans"][0]["discard"] == 12
    assert q("SSS123m456p789s5p", seat_wind="S", prevalent_wind="S")["wait_fans"][0]["discard"] == 15


def test_fourth_tile_from_visible():
    base = q("23m123p456p789s11s")["wait_fans"]
    two = q("23m123p456p789s11s", visible=["1m", "1m"])["wait_fans"]
    three = q("23m123p456p789s11s", visible=["1m", "1m", "1m"])["wait_fans"]
    assert two == base
    assert three[0] == {"tile": "1m", "discard": 17, "self_drawn": 19}  # 和绝张 (4)
    assert three[1] == base[1]


# ---- fan-aware shanten -------------------------------------------------------------------------------------


def _with_broken(hands, seed):
    """Each ready hand, then a copy with one tile swapped at random (mostly one from ready): there the
    search draws only useful tiles, the pruning the brute force below checks."""
    rng = random.Random(seed)
    for melds, tiles, visible, seat, prevalent in hands:
        yield melds, tiles, visible, seat, prevalent
        held = counts_of([*tiles, *visible, *(t for m in melds for t in m.tiles)])
        broken = list(tiles)
        broken[rng.randrange(len(broken))] = rng.choice([t for t in range(NUM_KINDS) if held[t] < 4])
        yield melds, broken, visible, seat, prevalent


def test_fan_shanten_bounds_and_monotony():
    checked = 0
    for melds, tiles, visible, seat, prevalent in _with_broken(_ready_hands(5, 120), 6):
        ctx = FanContext(
            melds=tuple(melds), seat_wind=seat, prevalent_wind=prevalent, visible=tuple(counts_of(visible))
        )
        c = counts_of(tiles)
        value, exact = fan_shanten(c, ctx)
        legal = ctx.legal(wait_fans(c, ctx))
        assert value >= shanten_of_counts(c, len(melds))
        assert (value == 0) == bool(legal)
        if exact and value >= 1:
            # brute force over every single exchange, no pruning: one reaches a legal wait iff the value is 1
            found = False
            for t in range(NUM_KINDS):
                for d in range(NUM_KINDS):
                    if t == d or not c[d] or c[t] + ctx.in_melds[t] + ctx.visible[t] >= 4:
                        continue
                    c2 = list(c)
                    c2[t] += 1
                    c2[d] -= 1
                    found = found or bool(ctx.legal(wait_fans(c2, ctx)))
            assert found == (value == 1), (tiles, melds)
            checked += 1
    assert checked > 60


def test_fourteen_tiles_bounded_rows_keep_the_best_exact():
    """The discard table's branch and bound: its best value is the minimum of every discard's own
    unbounded fan shanten, and every row's value is a true lower bound of that discard's."""
    checked = 0
    for melds, tiles, visible, seat, prevalent in _ready_hands(31, 40):
        held = counts_of([*tiles, *visible, *(t for m in melds for t in m.tiles)])
        extra = next(t for t in (tiles[0] + 1, tiles[-1] - 1, 27, 33, 0) if 0 <= t < NUM_KINDS and held[t] < 4)
        ctx = FanContext(
            melds=tuple(melds), seat_wind=seat, prevalent_wind=prevalent, visible=tuple(counts_of(visible))
        )
        hand = counts_of([*tiles, extra])
        rep = legal.report(hand, ctx)
        own = {}
        for d in range(NUM_KINDS):
            if hand[d]:
                c = list(hand)
                c[d] -= 1
                own[d] = fan_shanten(
                    c,
                    FanContext(
                        melds=tuple(melds), seat_wind=seat, prevalent_wind=prevalent, visible=tuple(counts_of(visible))
                    ),
                )
        assert rep.discards is not None
        for row in rep.discards:
            value, _exact = own[row.discard]
            assert row.fan_shanten <= value if not row.exact else row.fan_shanten == value
        exact_values = [v for v, e in own.values() if e]
        if exact_values and rep.exact:
            assert rep.fan_shanten == min(exact_values)
        checked += 1
    assert checked == 40
    r = q("23m123p456p789s11sE")
    assert all(not row["exact"] and row["fan_shanten"] >= 1 for row in r["fan_discards"][1:] if row["shanten"] > 0)


def test_fan_shanten_far_hand_is_a_lower_bound():
    r = q("159m159p159s1234z")  # far from ready
    assert r["fan_shanten"] >= r["shanten"]
    a = analyze(parse_tiles("159m159p258sESWN"))
    assert a.fan is not None and a.fan.fan_shanten >= a.shanten


# ---- CLI ---------------------------------------------------------------------------------------------------


def test_cli_table_shows_wait_fans(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["shanten", "111m222p33s4567s8s", "--min-fan", "8", "--seat-wind", "S"]) == 0
    out = capsys.readouterr().out
    assert "点和 discard" in out and "自摸 self-drawn" in out and "仅自摸 self-drawn" in out
    assert "no legal wait 无合法听 (self-drawn only: 3s 6s 9s)" in out
    assert main(["shanten", "23m123p456p789s11s"]) == 0
    out = capsys.readouterr().out
    assert "legal waits 合法听: 1m" in out and "不够番" in out
    assert main(["shanten", "23m123p456p789s11sE"]) == 0
    assert "按番向听" in capsys.readouterr().out
    assert main(["shanten", "23m123p456p789s11s", "--seat-wind", "X"]) == 1


def test_cli_jsonl_passes_options(monkeypatch, capsys):
    lines = ['{"hand": "123m456p789s11s56m", "min_fan": 14}', '{"hand": "123m456p789s11s56m"}']
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["shanten", "--jsonl"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0]["legal_waits"] == [] and out[1]["legal_waits"] == ["4m", "7m"]
    assert out[1]["wait_fans"] == [
        {"tile": "4m", "discard": 13, "self_drawn": 15},
        {"tile": "7m", "discard": 12, "self_drawn": 14},
    ]
    # the flags give defaults; a line's own keys win
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["shanten", "--jsonl", "--min-fan", "13"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0]["legal_waits"] == [] and out[1]["legal_waits"] == ["4m"] and out[1]["min_fan"] == 13
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["shanten", "--jsonl", "--no-fans"]) == 0
    assert ["wait_fans" in json.loads(x) for x in capsys.readouterr().out.splitlines()] == [False, False]


def test_doctests():
    assert doctest.testmod(legal).failed == 0


def test_benchmark_runs_and_agrees(capsys):
    """benchmarks/waits_bench.py on a few hands: every contender gives the same answer (exit 0)."""
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    try:
        import waits_bench
    finally:
        sys.path.pop(0)
    assert waits_bench.main(["--hands", "20", "--repeat", "1", "--chunk", "10"]) == 0
    assert "| yes |" in capsys.readouterr().out
