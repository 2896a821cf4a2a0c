"""The MCR table rules of mcr.md §2–§3 on the engine: the deal with 跳牌, 补花, kongs, robbing, 荒牌."""

import pytest
import rig as rigging
from rig import rig

from majiang.engine import Hand
from majiang.engine.hand import Phase
from majiang.engine.log import verify
from majiang.engine.protocol import Action
from majiang.engine.wall import Wall
from majiang.rulesets import from_header, make_ruleset
from majiang.tiles import parse_tile as T
from majiang.tiles import parse_tiles

GB = make_ruleset("gb")
DEALER = "5p 2468m 99s SWNCFP S"  # discards 5p first; the 14th tile (the last) is S
KONG_5P = "5555p 2468m SWNC SS"
N_TILES = 144
LAST_STACK_TOP = N_TILES - 2  # the first replacement tile: the top of the last stack


@pytest.fixture(autouse=True, params=["python", "core"])
def engine(request, monkeypatch):
    """The rigged scenarios on the Python engine and on the compiled core (tests/engine/test_core_equal.py)."""
    if request.param == "core" and not rigging.CORE:
        pytest.skip("the compiled core is not built (or MAJIANG_PURE=1)")
    monkeypatch.setattr(rigging, "ENGINE", request.param)
    return request.param


def _wall(seed: bytes) -> Wall:
    return Wall.build(GB.tile_set(), seed, GB.stacks_per_wall, GB.dead_wall)


def _pass_all(h: Hand) -> None:
    """Every seat still asked about a discard passes."""
    if h.phase is Phase.TURN:
        return
    for s in list(h.prompted()):
        h.act(s, Action("pass"))


def _play_on_until(h: Hand, done) -> None:
    """Discard the drawn tile (else the last one) and pass every claim, until ``done(h)``."""
    while not done(h):
        assert not h.over
        if h.phase is Phase.TURN:
            h.act(h.current, h.default_action(h.current))
        else:
            _pass_all(h)


# ---- §2 the deal: 4-4-4 by stacks, then 跳牌 ----------------------------------------------------------
def test_deal_takes_three_rounds_of_two_stacks_then_the_jump_tiles():
    for dealer in range(4):
        seed = bytes([dealer + 7]) * 32
        wall = _wall(seed).tiles
        h = Hand(GB, seed, dealer=dealer)
        dealt = next(e for e in h.events if e["type"] == "deal")["hands"]
        for k in range(4):
            rounds = [wall[16 * r + 4 * k + i] for r in range(3) for i in range(4)]
            # 跳牌: the dealer the tops of the 1st and 3rd next stacks (48, 52); 下家 the bottom of
            # the 1st (49), 对家 the top (50) and 上家 the bottom (51) of the 2nd
            jump = {0: [wall[48], wall[52]], 1: [wall[49]], 2: [wall[50]], 3: [wall[51]]}[k]
            assert dealt[(dealer + k) % 4] == sorted(rounds + jump), (dealer, k)
        assert [len(x) for x in dealt] == [14 if s == dealer else 13 for s in range(4)]


def test_live_draws_start_after_the_jump_tiles_at_the_bottom_of_the_third_stack():
    seed = bytes(range(3, 35))
    wall = _wall(seed).tiles
    h = Hand(GB, seed)
    _play_on_until(h, lambda h: any(e["type"] == "draw" and not e["tail"] for e in h.events))
    first = next(e for e in h.events if e["type"] == "draw" and not e["tail"])
    assert first["tile"] == wall[53] and first["seat"] == 1


def test_dealer_starts_with_the_fourteenth_tile_as_drawn():
    h = rig({0: DEALER})
    assert h.seats[0].drawn == T("S")  # the 14th tile, the top of the 3rd next stack
    assert h.turn_drawn and {a.type for a in h.legal(0)} >= {"discard"}


# ---- §2 flowers: dealer first, from the tail, repeated while a replacement is a flower -------------------
def test_flower_replacement_dealer_first_from_the_tail_repeating_for_flowers():
    dealer = 2
    h = rig(
        {0: "f1 f2 2468m 99s SWNCF S", 1: "f3 13579s 2468p CF 1m", 2: "13579m 2468s CFP W", 3: "f4 1357m 2468s NNN P"},
        tail="f5 1p 2p 3p 4p",
        dealer=dealer,
    )
    flowers = [(e["seat"], e["tile"], e["replacement"]) for e in h.events if e["type"] == "flower"]
    dealer_flowers = sorted(parse_tiles("f1 f2"))
    assert flowers == [
        (2, dealer_flowers[0], T("f5")),  # the first tail tile is a flower: replaced again
        (2, T("f5"), T("1p")),
        (2, dealer_flowers[1], T("2p")),
        (3, T("f3"), T("3p")),  # then 下家 (South)
        (1, T("f4"), T("4p")),  # 对家 holds none; 上家 (North) last
    ]
    assert sorted(h.seats[2].flowers) == sorted(parse_tiles("f1 f2 f5"))
    assert h.seats[2].counts[T("1p")] == 1 and h.seats[2].counts[T("2p")] == 1
    assert [st.n_concealed for st in h.seats] == [13, 13, 14, 13]
    assert all(h.wall.taken[LAST_STACK_TOP - 2 * (i // 2) + i % 2] for i in range(5))
    assert not h.wall.taken[53]  # the head is untouched by 补花
    assert verify(h.events, from_header)[0]


# ---- §3 no kong in the turn of a chow or pung --------------------------------------------------------


def test_no_kong_in_the_turn_right_after_a_chow_but_on_the_next_own_draw():
    h = rig({0: DEALER, 1: "EEEE 46p 13579s 19m", 2: "13579m 2468s CFP N", 3: "1379p 1357m WWW 37s"})
    h.act(0, Action("discard", T("5p")))
    h.act(1, Action("chow", T("5p"), tuple(parse_tiles("456p"))))
    _pass_all(h)
    assert h.current == 1 and h.seats[1].counts[T("E")] == 4
    assert {a.type for a in h.legal(1)} == {"discard"}
    h.act(1, Action("discard", T("9m")))
    _play_on_until(h, lambda h: h.current == 1 and h.phase is Phase.TURN and h.turn_drawn)
    assert Action("concealed_kong", T("E")) in h.legal(1)


def test_no_kong_in_the_turn_right_after_a_pung():
    h = rig({0: DEALER, 1: "13579s 2468p CF 19m", 2: "55p EEEE 1357m 88s P", 3: "1379p 1357m WWW 37s"})
    h.act(0, Action("discard", T("5p")))
    h.act(2, Action("pung", T("5p")))
    _pass_all(h)
    assert h.current == 2 and h.seats[2].counts[T("E")] == 4 and h.seats[2].melds[0].kind == "pung"
    assert {a.type for a in h.legal(2)} == {"discard"}


# ---- §3 robbing a kong: an added kong only ---------------------------------------------------------------
WAITS_5P = "123456789m 11s 46p"  # 清龙, waits on 5p (嵌张)


def test_the_waiting_hand_would_win_on_a_discarded_5p():
    h = rig({0: KONG_5P, 1: "13579s 2468p CF 19m", 2: "13579m 2468s CFP N", 3: WAITS_5P})
    h.act(0, Action("discard", T("5p")))
    assert Action("win", T("5p")) in h.legal(3)


def test_a_concealed_kong_cannot_be_robbed():
    h = rig({0: KONG_5P, 1: "13579s 2468p CF 19m", 2: "13579m 2468s CFP N", 3: WAITS_5P}, tail="9p")
    h.act(0, Action("concealed_kong", T("5p")))
    assert h.phase is Phase.TURN and h.current == 0 and h.prompted() == [0]
    assert not any(e["type"] in ("add_kong_declared", "robbed") for e in h.events)
    kong = next(e for e in h.events if e["type"] == "kong")
    assert kong["kind"] == "concealed" and h.seats[0].melds[0].concealed


# seat 1 pungs the dealer's 3s, draws the fourth and adds it; seat 3 waits on 3s (边张 12s)
ROB = {0: "3s 5p SWNCFP SS WW NC", 1: "33s 123456789p E N", 2: "13579m 2468s CFP S", 3: "123456789m 12s EE"}


def _declare_added_kong(h: Hand) -> None:
    h.act(0, Action("discard", T("3s")))
    for s in list(h.prompted()):
        h.act(s, Action("pung", T("3s")) if s == 1 else Action("pass"))
    h.act(1, Action("discard", T("N")))
    _play_on_until(h, lambda h: h.current == 1 and h.phase is Phase.TURN and h.turn_drawn)
    h.act(1, Action("added_kong", T("3s")))


def test_an_added_kong_can_be_robbed_and_the_robbed_player_pays_as_discarder():
    h = rig(ROB, draws="CFP3s")
    _declare_added_kong(h)
    assert h.phase is Phase.ROB and h.prompted() == [3] and h.legal(3) == [Action("win", T("3s")), Action("pass")]
    h.act(3, Action("win", T("3s")))
    assert h.over and h.win.seat == 3 and h.win.discarder == 1
    assert any(e["type"] == "robbed" and e["from"] == 1 for e in h.events)
    assert h.deltas[1] == -(8 + h.win.points) and sum(h.deltas) == 0


# ---- §2 kong replacement tiles come from the tail --------------------------------------------------------
def test_a_kong_replacement_is_drawn_from_the_tail():
    h = rig({0: KONG_5P, 1: "13579s 2468p CF 19m", 2: "13579m 2468s CFP N", 3: WAITS_5P}, draws="1m", tail="9p")
    live = h.wall.live
    h.act(0, Action("concealed_kong", T("5p")))
    draw = h.events[-1]
    assert draw == {"type": "draw", "seat": 0, "tile": T("9p"), "tail": True}
    assert h.wall.taken[LAST_STACK_TOP] and not h.wall.taken[53]  # the head still holds 1m
    assert h.wall.live == live - 1 and h.seats[0].drawn == T("9p") and h.after_kong
    assert verify(h.events, from_header)[0]


# ---- §2 荒牌: the live wall runs out ---------------------------------------------------------------------------
def test_exhausted_wall_ends_the_hand_without_score():
    seed = bytes(range(100, 132))
    h = Hand(GB, seed, dealer=1)
    _play_on_until(h, lambda h: h.wall.live == 0 and h.phase is Phase.TURN)
    assert not h.over  # the last tile drawn is still played: its discard may be won
    _play_on_until(h, lambda h: h.over)
    assert h.win is None and h.deltas == [0, 0, 0, 0]
    assert all(h.wall.taken)  # every one of the 144 tiles was dealt or drawn
    assert [e["type"] for e in h.events[-3:]] == ["exhausted", "payment", "hand_end"]
    assert h.events[-1]["result"] == "draw"
    held = sum(
        st.n_concealed + len(st.flowers) + len(st.discards) - sum(st.claimed) + sum(len(m.tiles) for m in st.melds)
        for st in h.seats
    )
    assert held == N_TILES
    assert verify(h.events, from_header)[0]
