import copy

import pytest
import rig as rigging
from rig import rig

from majiang.engine.hand import IllegalAction, Phase
from majiang.engine.log import verify
from majiang.engine.protocol import Action
from majiang.rulesets import from_header
from majiang.tiles import parse_tile as T

DEALER_JUNK = "5p ESWNCFP EE SS WW"  # 14 tiles, discards 5p first
WIN_CLEAR = "123456789m 11s 46p"  # waits on 5p (嵌张, 清龙)
WIN_FLUSH = "123p 46p 789p 22p 999p"  # waits on 5p, 清一色
PUNG_5P = "55p 13579s 2468m EN"


@pytest.fixture(autouse=True, params=["python", "core"])
def engine(request, monkeypatch):
    """Every scenario on the Python engine and on the compiled core (tests/engine/test_core_equal.py)."""
    if request.param == "core" and not rigging.CORE:
        pytest.skip("the compiled core is not built (or MAJIANG_PURE=1)")
    monkeypatch.setattr(rigging, "ENGINE", request.param)
    return request.param


def _pass_all(h):
    for s in list(h.prompted()):
        h.act(s, Action("pass"))


def test_deal_gives_fourteen_and_thirteen():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR})
    assert [st.n_concealed for st in h.seats] == [14, 13, 13, 13]
    assert h.phase is Phase.TURN and h.current == 0
    assert sum(len(st.flowers) for st in h.seats) == 0


def test_win_beats_pung_and_chow_and_first_seat_after_discarder_wins():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR})
    h.act(0, Action("discard", T("5p")))
    assert h.phase is Phase.CLAIM
    types = {s: {a.type for a in h.legal(s)} for s in (1, 2, 3)}
    assert types[1] == {"win", "chow", "pass"} and types[2] == {"pung", "pass"} and types[3] == {"win", "pass"}
    h.act(2, Action("pung", T("5p")))
    h.act(3, Action("win", T("5p")))
    h.act(1, Action("win", T("5p")))
    assert h.over and h.win.seat == 1 and h.win.discarder == 0
    assert sum(h.deltas) == 0 and h.deltas[1] == 24 + h.win.points and h.deltas[0] == -(8 + h.win.points)
    assert verify(h.events, from_header)[0]


def test_pung_beats_chow():
    h = rig({0: DEALER_JUNK, 1: "46p 123456789s 1m 2m", 2: PUNG_5P, 3: "13579m 2468s CFPP"})
    h.act(0, Action("discard", T("5p")))
    h.act(1, Action("chow", T("5p"), (T("4p"), T("5p"), T("6p"))))
    h.act(2, Action("pung", T("5p")))
    assert h.current == 2 and h.phase is Phase.TURN and not h.turn_drawn
    assert h.seats[2].melds[0].kind == "pung" and h.seats[2].melds[0].source == 2  # from 对家
    # no kong and no self-draw in the turn of a pung: discards only
    assert {a.type for a in h.legal(2)} == {"discard"}


def test_illegal_actions_are_refused_and_change_nothing():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR})
    before = (copy.deepcopy(h.events), [list(st.counts) for st in h.seats], h.phase)
    for seat, action, reason in [
        (1, Action("discard", T("1p")), "not to act"),
        (0, Action("discard", T("9s")), "holds no 9s"),
        (0, Action("pung", T("E")), "not a legal choice"),
        (5, Action("discard", T("5p")), "no seat"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            h.act(seat, action)
    assert (h.events, [list(st.counts) for st in h.seats], h.phase) == before


def test_claim_window_refuses_other_players_actions():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR})
    h.act(0, Action("discard", T("5p")))
    with pytest.raises(IllegalAction):
        h.act(3, Action("pung", T("5p")))  # seat 3 holds no pair of 5p
    with pytest.raises(IllegalAction):
        h.act(0, Action("pass"))  # the discarder is not asked
    h.act(2, Action("pass"))
    with pytest.raises(IllegalAction):
        h.act(2, Action("pung", T("5p")))  # already answered


def test_false_win_gb_pays_and_plays_on():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR})
    h.act(0, Action("discard", T("5p")))
    h.act(2, Action("win", T("5p")))  # seat 2 is far from ready: 诈和
    fw = next(e for e in h.events if e["type"] == "false_win")
    assert fw["kind"] == "short" and not fw["ends_hand"]
    assert h.deltas == [20, 20, -60, 20]
    assert h.seats[2].barred and not h.over
    assert Action("win", T("5p")) not in h.legal(2) and Action("pung", T("5p")) in h.legal(2)
    _pass_all(h)
    assert h.current == 1 and h.phase is Phase.TURN
    assert verify(h.events, from_header)[0]


def test_false_win_below_eight_is_wrong_win():
    # seat 3 completes 234m 456p 456s 789s 11m with 5p: 平和 门前清 连六 喜相逢 坎张 = 7 < 8 — not offered, and
    # declaring it anyway is 错和
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: "234m 456s 789s 11m 46p"})
    h.act(0, Action("discard", T("5p")))
    assert 3 not in h.prompted()
    h.act(3, Action("win", T("5p")))
    fw = next(e for e in h.events if e["type"] == "false_win")
    assert fw["kind"] == "wrong" and h.deltas == [10, 10, 10, -30] and h.seats[3].barred
    assert verify(h.events, from_header)[0]


def test_false_win_botzone_ends_the_hand():
    h = rig({0: DEALER_JUNK, 1: WIN_FLUSH, 2: PUNG_5P, 3: WIN_CLEAR}, rules="botzone")
    h.act(0, Action("discard", T("5p")))
    h.act(2, Action("win", T("5p")))
    assert h.over and h.deltas == [10, 10, -30, 10]
    assert verify(h.events, from_header)[0]


# seat 1 pungs the dealer's 3s, later draws the fourth 3s and adds it; seat 3 waits on 3s (边张 12s)
ROB = {0: "3s 5p SWNCFP SS WW NC", 1: "33s 123456789p E N", 2: "13579m 2468s CFP S", 3: "123456789m 12s EE"}


def _to_added_kong(h):
    h.act(0, Action("discard", T("3s")))
    for s in list(h.prompted()):
        h.act(s, Action("pung", T("3s")) if s == 1 else Action("pass"))
    h.act(1, Action("discard", T("N")))
    while not (h.current == 1 and h.phase is Phase.TURN):
        if h.phase is Phase.TURN:
            h.act(h.current, Action("discard", h.seats[h.current].drawn))
        else:
            _pass_all(h)
    assert Action("added_kong", T("3s")) in h.legal(1)
    h.act(1, Action("added_kong", T("3s")))


def test_robbing_an_added_kong():
    h = rig(ROB, draws="CFP3s")
    _to_added_kong(h)
    assert h.phase is Phase.ROB and h.prompted() == [3]
    h.act(3, Action("win", T("3s")))
    assert h.over and h.win.seat == 3 and h.win.discarder == 1
    names = {f["name"] for f in h.win.names}
    assert "Robbing the Kong" in names and "Last Tile" not in names  # 抢杠和 excludes 和绝张
    assert h.seats[1].melds[0].kind == "pung"  # the kong failed
    assert sum(h.deltas) == 0 and h.deltas[1] == -(8 + h.win.points)
    assert verify(h.events, from_header)[0]


def test_unrobbed_kong_draws_a_replacement_from_the_tail():
    h = rig(ROB, draws="CFP3s", tail="9s")
    _to_added_kong(h)
    h.act(3, Action("pass"))
    assert h.seats[1].melds[0].kind == "kong" and h.seats[1].melds[0].added
    kong = next(e for e in h.events if e["type"] == "kong")
    draw = h.events[h.events.index(kong) + 1]
    assert draw["type"] == "draw" and draw["tail"] and draw["tile"] == T("9s")
    assert h.after_kong and h.turn_drawn
    assert verify(h.events, from_header)[0]


def test_kong_replacement_win_is_out_with_replacement_tile():
    h = rig(ROB, draws="CFP3s", tail="E")
    _to_added_kong(h)
    h.act(3, Action("pass"))
    assert Action("win", T("E")) in h.legal(1)
    h.act(1, Action("win", T("E")))
    names = {f["name"] for f in h.win.names}
    assert "Out with Replacement Tile" in names and "Self-Drawn" not in names
    assert h.deltas[1] == 3 * (8 + h.win.points)
    assert verify(h.events, from_header)[0]


def test_last_tile_fourth_copy_and_no_claims_on_the_last_discard():
    import random

    from majiang.engine import Hand
    from majiang.rulesets import make_ruleset

    rng = random.Random(11)
    h = Hand(make_ruleset("gb"), rng.randbytes(32))
    while h.wall.live > 0 or h.phase is not Phase.TURN:
        if h.over:
            return
        s = h.prompted()[0]
        opts = [a for a in h.legal(s) if a.type in ("discard", "pass")]
        h.act(s, opts[0])
    # the last tile was drawn: the discard now can only be won, never claimed otherwise
    h.act(h.current, next(a for a in h.legal(h.current) if a.type == "discard"))
    for s in h.prompted():
        assert {a.type for a in h.legal(s)} <= {"win", "pass"}


def test_exhaustive_draw_scores_nothing_and_replays():
    import random

    from majiang.engine import Hand
    from majiang.rulesets import make_ruleset

    rng = random.Random(5)
    for i in range(30):
        h = Hand(make_ruleset("gb"), rng.randbytes(32), dealer=i % 4)
        while not h.over:
            s = h.prompted()[0]
            opts = [a for a in h.legal(s) if a.type != "win"]
            h.act(s, rng.choice(opts))
        assert h.win is None and h.deltas == [0, 0, 0, 0]
        assert h.wall.live == 0
        assert verify(h.events, from_header)[0]
