"""Items in the engine (majiang.engine.items): each effect and refusal, tile conservation, exact
replays, what each seat sees, and what "close to a pattern" means for 乾坤大挪移."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from majiang.engine import items as I
from majiang.engine.arrange import arranged, layout
from majiang.engine.hand import Hand, IllegalAction, Phase
from majiang.engine.log import dumps_event, loads_events, replay, verify
from majiang.engine.protocol import Action
from majiang.engine.view import event_view, tiles_to_json
from majiang.rulesets import from_header, make_ruleset
from majiang.shanten.forms import thirteen_orphans_shanten
from majiang.tiles import counts_of, parse_tile, parse_tiles

T = parse_tile
SEED = bytes(range(32))


def rig(hands: dict[int, str], draws: str = "", rules: str = "gb", seed: bytes = SEED) -> Hand:
    r = make_ruleset(rules)
    wanted = layout({k: parse_tiles(v) for k, v in hands.items()}, parse_tiles(draws), n_tiles=len(r.tile_set()))
    return Hand(r, seed, arrange=arranged(r.tile_set(), seed, r.stacks_per_wall, wanted))


def tiles_everywhere(h: Hand) -> Counter[int]:
    """Every tile of the hand, wherever it is: concealed, in melds, in the ponds (unclaimed), set
    aside as flowers, still in the wall.  Always the ruleset's tile set while the hand runs."""
    c: Counter[int] = Counter()
    for st in h.seats:
        c.update(st.concealed())
        for m in st.melds:
            c.update(m.tiles)
        c.update(t for t, taken in zip(st.discards, st.claimed, strict=True) if not taken)
        c.update(st.flowers)
    c.update(t for i, t in enumerate(h.wall.tiles) if not h.wall.taken[i])
    return c


def live_tiles(h: Hand) -> list[int]:
    return [h.wall.tiles[i] for i in I.live_positions(h.wall)]


def first_held(h: Hand, seat: int, not_: int | None = None) -> int:
    return next(t for t in range(34) if h.seats[seat].counts[t] and t != not_)


def check_replay(h: Hand) -> None:
    ok, why = verify(h.events, from_header)
    assert ok, why
    # and through the JSON-lines log, as stored
    back = loads_events(dumps_event(e) for e in h.events)
    ok, why = verify(back, from_header)
    assert ok, why


# ---- each item's effect ------------------------------------------------------------------------------
def test_toutian_takes_the_named_tile_from_the_live_wall_and_returns_the_given_one():
    h = Hand(make_ruleset("gb"), SEED)
    s = h.current
    full = tiles_everywhere(h)
    give = first_held(h, s)
    want = next(t for t in range(34) if t != give and t in live_tiles(h))
    wall_before = Counter(live_tiles(h))
    counts = list(h.seats[s].counts)
    e = I.use(h, s, I.TOUTIAN, tile=give, target=want)
    assert e == {
        "type": "item",
        "seat": s,
        "item": "toutian",
        "give": give,
        "tile": want,
        "found": True,
        "private_to": s,
    }
    assert h.seats[s].counts[want] == counts[want] + 1 and h.seats[s].counts[give] == counts[give] - 1
    after = Counter(live_tiles(h))
    assert after[want] == wall_before[want] - 1 and after[give] == wall_before[give] + 1
    assert len(live_tiles(h)) == sum(wall_before.values())  # the same positions, one tile exchanged
    assert tiles_everywhere(h) == full
    assert h.phase is Phase.TURN and h.current == s
    assert Action("discard", want) in h.legal(s) and (
        h.seats[s].counts[give] or Action("discard", give) not in h.legal(s)
    )
    check_replay(h)


def test_toutian_without_a_copy_in_the_live_wall_is_spent_and_changes_nothing():
    h = Hand(make_ruleset("gb"), SEED)
    s = h.current
    missing = next((t for t in range(34) if t not in live_tiles(h)), None)
    if missing is None:  # make one: take every live copy of 1m out by exchanges with the wall's own tiles
        pytest.skip("every kind is in the live wall at the start")
    before = ([list(st.counts) for st in h.seats], list(h.wall.tiles))
    give = first_held(h, s, not_=missing)
    e = I.use(h, s, I.TOUTIAN, tile=give, target=missing)
    assert e["found"] is False
    assert ([list(st.counts) for st in h.seats], list(h.wall.tiles)) == before
    check_replay(h)


def test_toutian_found_false_when_all_copies_are_out_of_the_wall():
    # the dealer holds 1m×4 … no: 4 copies of E are spread over the deals, so none is in the wall
    h = rig({0: "EE 123456789m 123p", 1: "EE 123456789s 12p", 2: "SSS 11223344p 56s"})
    assert T("E") not in live_tiles(h)
    e = I.use(h, 0, I.TOUTIAN, tile=T("1m"), target=T("E"))
    assert e["found"] is False and h.seats[0].counts[T("1m")] == 1
    check_replay(h)


def test_yihua_takes_a_random_live_tile_derived_from_the_seed_and_the_use():
    results = []
    for _ in range(2):
        h = Hand(make_ruleset("gb"), SEED)
        s = h.current
        full = tiles_everywhere(h)
        give = first_held(h, s)
        e = I.use(h, s, I.YIHUA, tile=give)
        got = e["tile"]
        assert 0 <= got < 34  # never a flower
        assert tiles_everywhere(h) == full
        results.append(e)
        check_replay(h)
    assert results[0] == results[1]  # deterministic: seed + the use, no hidden RNG
    # another seed (another hand) gives other tiles now and then
    others = set()
    for k in range(12):
        h = Hand(make_ruleset("gb"), bytes([k]) * 32)
        others.add(I.use(h, h.current, I.YIHUA, tile=first_held(h, h.current))["tile"])
    assert len(others) > 2


def test_yihua_of_the_drawn_tile_makes_the_new_tile_the_drawn_one():
    h = rig({0: "5p ESWNCFP EE SS WW", 1: "13579m 13579p 135s"}, draws="7s")
    h.act(0, Action("discard", T("5p")))
    while h.phase is not Phase.TURN:
        for s in list(h.prompted()):
            h.act(s, Action("pass"))
    assert h.current == 1 and h.seats[1].drawn == T("7s") and h.seats[1].counts[T("7s")] == 1
    e = I.use(h, 1, I.YIHUA, tile=T("7s"))
    assert h.seats[1].drawn == e["tile"] and h.seats[1].counts[e["tile"]] >= 1
    check_replay(h)


def test_toutian_can_complete_a_hand_and_the_win_is_offered_at_once():
    h = rig({0: "123456789m 11s 46p E"}, draws="5p")
    assert not any(a.type == "win" for a in h.legal(0))
    e = I.use(h, 0, I.TOUTIAN, tile=T("E"), target=T("5p"))
    assert e["found"] and any(a.type == "win" for a in h.legal(0))
    h.act(0, next(a for a in h.legal(0) if a.type == "win"))
    assert h.over and h.win is not None and h.win.seat == 0 and h.win.discarder is None
    check_replay(h)


def test_qianliyan_gives_the_range_of_the_nearest_copy():
    for k in range(20):
        h = Hand(make_ruleset("gb"), bytes([k]) * 32)
        s = h.current
        live = live_tiles(h)
        target = live[(k * 7) % len(live)]
        e = I.use(h, s, I.QIANLIYAN, target=target)
        d = live.index(target) + 1  # 1 = the next tile drawn
        lo, hi = e["near"]
        assert e["found"] and lo <= d <= hi and hi - lo < I.NEAR_WIDTH and (lo - 1) % I.NEAR_WIDTH == 0
        assert all(live[i] != target for i in range(lo - 1))  # it is the nearest copy
    h = rig({0: "EE 123456789m 123p", 1: "EE 123456789s 12p"})
    e = I.use(h, 0, I.QIANLIYAN, target=T("E"))
    assert e == {
        "type": "item",
        "seat": 0,
        "item": "qianliyan",
        "tile": T("E"),
        "found": False,
        "near": None,
        "private_to": 0,
    }
    check_replay(h)


def test_shunfenger_shows_the_next_tile_which_is_then_drawn():
    h = rig(
        {0: "5p ESWNCFP EE SS WW", 1: "13579m 13579p 135s", 2: "2468m 2468p 2468s C", 3: "3579m 3579p 3579s P"},
        draws="7s 8s",
    )
    e = I.use(h, 0, I.SHUNFENGER)
    assert e["tile"] == T("7s") and h.wall.peek_head() == T("7s")
    h.act(0, Action("discard", T("5p")))
    while h.phase is not Phase.TURN:
        for s in list(h.prompted()):
            h.act(s, Action("pass"))
    assert h.current == 1 and h.seats[1].drawn == T("7s")
    assert I.use(h, 1, I.SHUNFENGER)["tile"] == T("8s")
    check_replay(h)


def test_information_items_change_nothing_but_the_log():
    h = Hand(make_ruleset("gb"), SEED)
    s = h.current
    state = (copy.deepcopy([st.counts for st in h.seats]), list(h.wall.tiles), list(h.wall.taken), h.legal(s))
    I.use(h, s, I.SHUNFENGER)
    I.use(h, s, I.QIANLIYAN, target=T("5m"))
    assert (copy.deepcopy([st.counts for st in h.seats]), list(h.wall.tiles), list(h.wall.taken), h.legal(s)) == state
    assert [e["type"] for e in h.events[-2:]] == ["item", "item"]


# ---- refusals -----------------------------------------------------------------------------------------
def test_wrong_moments_and_bad_parameters_are_refused_and_change_nothing():
    h = rig({0: "5p ESWNCFP EE SS WW", 2: "55p 13579s 2468m EN"})
    for seat, item, tile, target, code, words in [
        (1, I.TOUTIAN, T("1m"), T("2m"), "item_moment", "turn to discard"),
        (2, I.SHUNFENGER, None, None, "item_moment", "on your turn"),
        (0, I.TOUTIAN, T("9s"), T("1m"), "item_refused", "hold no 9s"),
        (0, I.TOUTIAN, T("E"), T("E"), "item_refused", "different"),
        (0, I.TOUTIAN, T("E"), T("f1"), "item_refused", "flower"),
        (0, I.TOUTIAN, T("E"), None, "item_refused", "target"),
        (0, I.YIHUA, None, None, "item_refused", "tile of your hand"),
        (0, I.QIANLIYAN, None, None, "item_refused", "target"),
        (0, I.QIANKUN, None, None, "item_refused", "not an item used during a hand"),
        (0, I.JINSHOUZHI, None, None, "item_refused", "not an item used during a hand"),
    ]:
        before = (len(h.events), [list(st.counts) for st in h.seats], list(h.wall.tiles))
        with pytest.raises(I.ItemRefused, match=words) as err:
            I.use(h, seat, item, tile, target)
        assert err.value.code == code
        assert (len(h.events), [list(st.counts) for st in h.seats], list(h.wall.tiles)) == before
    # in a claim window nobody is on its turn
    h.act(0, Action("discard", T("5p")))
    assert h.phase is Phase.CLAIM
    with pytest.raises(I.ItemRefused, match="turn") as err:
        I.use(h, 2, I.YIHUA, tile=T("5p"))
    assert err.value.code == "item_moment" and I.usable(h, 2) == []
    # after a pung the claimer is on its turn to discard: items are usable again
    h.act(2, Action("pung", T("5p")))
    for s in list(h.prompted()):
        if s != 2:
            h.act(s, Action("pass"))
    assert h.phase is Phase.TURN and h.current == 2 and I.usable(h, 2) == list(I.HAND_ITEMS)
    I.use(h, 2, I.YIHUA, tile=T("E"))
    assert {a.type for a in h.legal(2)} == {"discard"}  # still no self-draw or kong after a pung
    check_replay(h)


def test_nothing_is_usable_once_the_hand_is_over_or_the_wall_is_empty():
    h = Hand(make_ruleset("gb"), SEED)
    while not h.over:
        for s in list(h.prompted()):
            if not h.over:
                h.act(s, h.default_action(s))
    assert I.usable(h, 0) == []
    with pytest.raises(I.ItemRefused, match="over"):
        I.use(h, h.current, I.SHUNFENGER)


def test_the_engine_hook_refuses_out_of_turn_and_bad_exchanges():
    h = Hand(make_ruleset("gb"), SEED)
    s = h.current
    with pytest.raises(IllegalAction):
        h.intervene((s + 1) % 4, {"type": "item"})
    with pytest.raises(IllegalAction, match="holds no"):
        h.intervene(s, {"type": "item"}, (next(t for t in range(34) if not h.seats[s].counts[t]), 100))
    with pytest.raises(IllegalAction, match="cannot be exchanged"):
        h.intervene(s, {"type": "item"}, (first_held(h, s), 0))  # position 0 was dealt
    flower_pos = next((i for i in I.live_positions(h.wall) if h.wall.tiles[i] >= 34), None)
    if flower_pos is not None:
        with pytest.raises(IllegalAction, match="bonus"):
            h.intervene(s, {"type": "item"}, (first_held(h, s), flower_pos))
    assert all(e["type"] != "item" for e in h.events)


# ---- conservation and exact replay after every item, in many random hands ------------------------------
def test_no_items_in_botzones_game():
    """Botzone's wall in quarters has no live head: the in-hand items are never usable."""
    h = Hand(make_ruleset("botzone"), bytes(32))
    while not h.over:
        s = h.prompted()[0]
        assert not I.usable(h, s)
        h.act(s, h.default_action(s))


@pytest.mark.parametrize("rules", ["gb", "nanchang"])
def test_random_hands_with_items_conserve_tiles_and_replay_exactly(rules):
    rng = random.Random(rules)
    used = Counter()
    for k in range(12):
        h = Hand(make_ruleset(rules), rng.randbytes(32), dealer=k % 4)
        full = tiles_everywhere(h)
        assert sorted(full.elements()) == sorted(h.rules.tile_set())
        steps = 0
        while not h.over:
            steps += 1
            s = h.prompted()[0]
            if I.usable(h, s) and rng.random() < 0.4:
                item = rng.choice(I.HAND_ITEMS)
                give = rng.choice(h.seats[s].concealed())
                target = rng.randrange(34)
                try:
                    I.use(h, s, item, give, target)
                    used[item] += 1
                except I.ItemRefused as e:
                    assert item == I.TOUTIAN and give == target, e
                assert tiles_everywhere(h) == full
                assert len(h.legal(s)) > 0 and all(h.seats[s].counts[a.tile] for a in h.legal(s) if a.type == "discard")
            legal = h.legal(s)
            h.act(s, rng.choice(legal))
            if not h.over:
                assert tiles_everywhere(h) == full
        check_replay(h)
    assert min(used.values()) > 5


def test_a_replay_of_a_tampered_item_event_fails():
    h = Hand(make_ruleset("gb"), SEED)
    s = h.current
    I.use(h, s, I.YIHUA, tile=first_held(h, s))
    h.act(s, h.default_action(s))
    events = json.loads(json.dumps(tiles_to_json(h.events)))
    forged = loads_events(json.dumps(e) for e in events)
    i = next(i for i, e in enumerate(forged) if e["type"] == "item")
    forged[i]["tile"] = (forged[i]["tile"] + 1) % 34  # claim another tile than the seed gives
    ok, why = verify(forged, from_header)
    assert not ok and f"event {i}" in why


# ---- what each seat sees ---------------------------------------------------------------------------------
def test_other_seats_and_spectators_see_only_who_used_which_item():
    h = Hand(make_ruleset("gb"), SEED)
    s = h.current
    I.use(h, s, I.SHUNFENGER)
    I.use(h, s, I.QIANLIYAN, target=T("5m"))
    I.use(h, s, I.TOUTIAN, tile=first_held(h, s), target=T("9p"))
    I.use(h, s, I.YIHUA, tile=first_held(h, s))
    for e in h.events:
        if e["type"] != "item":
            continue
        assert event_view(e, s) == e
        for other in (-1, *(x for x in range(4) if x != s)):
            assert event_view(e, other) == {"type": "item", "seat": s, "item": e["item"]}


def test_hand_start_hides_the_arrangement_and_the_pattern_from_the_others():
    h = I.with_qiankun(Hand(make_ruleset("gb"), SEED, dealer=1), [{"seat": 3, "pattern": "big_three_dragons"}])
    head = h.events[0]
    assert head["items"] == [{"seat": 3, "item": "qiankun", "pattern": "big_three_dragons"}] and head["arrange"]
    for seat in (-1, 0, 1, 2, 3):
        v = event_view(head, seat)
        assert "arrange" not in v and "seed" not in v
        want = head["items"] if seat == 3 else [{"seat": 3, "item": "qiankun"}]
        assert v["items"] == want


# ---- 乾坤大挪移 and "close" --------------------------------------------------------------------------------
def test_pattern_distance_by_the_patterns_own_shanten():
    c = counts_of
    assert I.pattern_distance(c(parse_tiles("EEE SSS WWW NN 55m")), "big_four_winds") == 0
    assert I.pattern_distance(c(parse_tiles("EEE SSS WWW NNN 55m")), "big_four_winds") == -1
    assert I.pattern_distance(c(parse_tiles("EEE SSS WW 123456m")), "big_four_winds") == 4  # W NNN + a pair tile
    assert I.pattern_distance(c(parse_tiles("CCC FFF PP 123m 55p")), "big_three_dragons") == 0
    assert I.pattern_distance(c(parse_tiles("CC FF PP 123m 55p 9s")), "big_three_dragons") == 2
    assert I.pattern_distance(c(parse_tiles("19m19p19sESWNCF 5m")), "thirteen_orphans") == 1
    assert I.pattern_distance(c(parse_tiles("11123455678999m")), "full_flush") == -1
    assert I.pattern_distance(c(parse_tiles("1112345678999m")), "full_flush") == 0  # 九莲宝灯, ready
    assert I.pattern_distance(c(parse_tiles("111234567m 99p 1s")), "full_flush") == 4
    with pytest.raises(ValueError, match="unknown pattern"):
        I.pattern_distance([0] * 34, "seven_stars")
    rng = random.Random(5)
    pool = [t for t in range(34) for _ in range(4)]
    for _ in range(200):
        hand = c(rng.sample(pool, 13))
        assert I.pattern_distance(hand, "thirteen_orphans") == thirteen_orphans_shanten(hand)


def test_full_flush_distance_agrees_with_the_brute_force_over_every_one_suit_hand():
    rng = random.Random(7)
    hands = I._one_suit_hands()
    assert len(hands) == len(set(hands)) > 10_000
    for n in range(16):  # a suit's tiles drawn from a mixed hand, then from a one-suit hand
        pool = list(range(9)) * 4 + ([] if n % 2 else [9] * 40)
        drawn = Counter(rng.sample(pool, 13 + n % 2))
        h = [drawn[t] for t in range(9)]
        brute = max(sum(min(a, b) for a, b in zip(h, v, strict=True)) for v in hands)
        assert I._suit_overlap(h) == brute
        full = h + [0] * 25
        assert I.pattern_distance(full, "full_flush") == 13 - brute


def _start(h: Hand, seat: int) -> list[int]:
    """``seat``'s concealed counts right after the deal and 补花 (before any draw or discard)."""
    events = h.events
    k = next(i for i, e in enumerate(events) if e["type"] in ("draw", "discard", "item", "win"))
    return replay(events[:k], from_header).seats[seat].counts if k < len(events) else h.seats[seat].counts


@pytest.mark.parametrize("pattern", list(I.PATTERNS))
def test_qiankun_deals_a_start_close_to_the_pattern_and_replays(pattern):
    far = []
    for k in range(16):
        seed = bytes([k, 1]) * 16
        dealer, seat = k % 4, (k * 3) % 4
        plain = Hand(make_ruleset("gb"), seed, dealer=dealer)
        far.append(I.pattern_distance(plain.seats[seat].counts, pattern))
        h = I.with_qiankun(plain, [{"seat": seat, "pattern": pattern}])
        assert I.pattern_distance(h.seats[seat].counts, pattern) <= I.CLOSE
        assert h.seed == plain.seed and h.events[0]["seed_hash"] == plain.events[0]["seed_hash"]
        assert sorted(tiles_everywhere(h).elements()) == sorted(h.rules.tile_set())
        again = I.with_qiankun(Hand(make_ruleset("gb"), seed, dealer=dealer), [{"seat": seat, "pattern": pattern}])
        assert again.events == h.events  # derived from the seed: reproducible
        while not h.over:
            s = h.prompted()[0]
            h.act(s, h.default_action(s))
        check_replay(h)
    assert sum(far) / len(far) > I.CLOSE + 2  # a plain deal is usually far from it


def test_qiankun_without_a_pattern_draws_one_and_two_uses_fit_together():
    h = I.with_qiankun(Hand(make_ruleset("gb"), SEED), [{"seat": 1, "pattern": None}])
    p = h.events[0]["items"][0]["pattern"]
    assert p in I.PATTERNS and I.pattern_distance(h.seats[1].counts, p) <= I.CLOSE
    h = I.with_qiankun(
        Hand(make_ruleset("gb"), SEED),
        [{"seat": 0, "pattern": "big_four_winds"}, {"seat": 2, "pattern": "big_three_dragons"}],
    )
    assert I.pattern_distance(h.seats[0].counts, "big_four_winds") <= I.CLOSE
    assert I.pattern_distance(h.seats[2].counts, "big_three_dragons") <= I.CLOSE
    assert verify(h.events, from_header)[0]
    with pytest.raises(I.ItemRefused, match="fits"):  # 16 winds cannot make two starts close to 大四喜
        I.qiankun_swaps(
            h.rules, SEED, 0, [{"seat": 0, "pattern": "big_four_winds"}, {"seat": 2, "pattern": "big_four_winds"}]
        )
    with pytest.raises(I.ItemRefused, match="unknown pattern"):
        I.qiankun_swaps(h.rules, SEED, 0, [{"seat": 0, "pattern": "nine_gates"}])


def test_qiankun_in_nanchang_and_only_before_the_hand():
    h = I.with_qiankun(Hand(make_ruleset("nanchang"), SEED), [{"seat": 0, "pattern": "full_flush"}])
    assert I.pattern_distance(h.seats[0].counts, "full_flush") <= I.CLOSE
    assert verify(h.events, from_header)[0]
    h.act(0, h.default_action(0))
    with pytest.raises(I.ItemRefused, match="before the hand"):
        I.with_qiankun(h, [{"seat": 1, "pattern": "full_flush"}])


def test_verify_catches_an_arrangement_that_does_not_follow_from_the_seed():
    h = I.with_qiankun(Hand(make_ruleset("gb"), SEED), [{"seat": 2, "pattern": "thirteen_orphans"}])
    forged = copy.deepcopy(h.events)
    forged[0]["items"][0]["pattern"] = "full_flush"  # says one pattern, was dealt another
    ok, why = verify(forged, from_header)
    assert not ok and "乾坤大挪移" in why


def test_qiankun_dealt_again_keeps_the_earlier_uses():
    once = I.with_qiankun(Hand(make_ruleset("gb"), SEED), [{"seat": 1, "pattern": "full_flush"}])
    twice = I.with_qiankun(once, [{"seat": 3, "pattern": "big_three_dragons"}])
    both = I.with_qiankun(
        Hand(make_ruleset("gb"), SEED),
        [{"seat": 1, "pattern": "full_flush"}, {"seat": 3, "pattern": "big_three_dragons"}],
    )
    assert twice.events == both.events and verify(twice.events, from_header)[0]
    assert I.pattern_distance(twice.seats[1].counts, "full_flush") <= I.CLOSE
    assert I.pattern_distance(twice.seats[3].counts, "big_three_dragons") <= I.CLOSE
