"""``majiang play`` tells the truth: who won, every claim, kong, flower and dice throw, the
winning hand and concealed kongs at the end with the score's breakdown, false wins, the jing."""

from __future__ import annotations

import io
from argparse import Namespace

from rig import rig

from majiang.cli.play_cmd import TerminalPlayer, run
from majiang.cli.result_text import result_lines
from majiang.cli.table_text import Seating
from majiang.engine.hand import Hand, Phase
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.tiles import parse_tile as T


def play(seed: int, rules: str = "gb", hands: int = 1, keys: str = "", bots: str = "fan,eff,eff") -> str:
    out = io.StringIO()
    inp = io.StringIO(keys + "\n" * 3000)
    assert run(Namespace(bots=bots, tiles="letters", seed=seed, rules=rules, hands=hands), inp, out) == 0
    return out.getvalue()


def results(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("和 ") or line.startswith("score change")]


# ---- D1: the winner of the last hand of a round --------------------------------------------------------
def test_the_last_hand_of_a_round_names_its_real_winner() -> None:
    # seed 11: player 1 wins hand 4 on P3's discard; the seats change after that hand
    last = results(play(11, hands=4))[-2:]
    assert last[0].startswith("和 P1 (西) wins with 2p (点和 on P3 (东)'s discard)")
    assert "you (南) -8" in last[1] and "P1 (西) +37" in last[1]


def test_a_nanchang_hand_names_its_real_winner() -> None:
    last = results(play(5, rules="nanchang", hands=4))[-2:]
    assert last[0].startswith("和 you win with 3s")
    assert "you (南) +93" in last[1]


def test_players_are_named_one_way_only() -> None:
    text = play(11, hands=2)
    assert "seat " not in text and "player " not in text
    assert "opponents: P1 fan, P2 eff, P3 eff" in text and "final scores: you: " in text


# ---- D3, dice, claims: announced --------------------------------------------------------------------
def test_flowers_are_announced_and_shown() -> None:
    text = play(11)
    assert "· 补花 you (东) show flower f2, draw 7s" in text
    assert "· 补花 P2 (西) shows flower f5" in text  # another's replacement tile stays hidden
    assert any(line.startswith("  you (东)") and "花 f2" in line for line in text.splitlines())


def test_dice_and_jing_dice_are_announced() -> None:
    assert "· 掷骰 dice: you (东) throw 5 + 1 = 6, P1 (南) throws 6 + 5 = 11" in play(11)
    assert "· 翻精 jing dice 1 + 2 = 3: indicator 9p → 正精 9p, 副精 1p" in play(5, rules="nanchang")


def test_other_players_claims_are_announced() -> None:
    text = play(11)
    assert "· 吃 P3 (北) chows 5p from P2 (西): [3p 4p 5p]" in text
    assert "· 碰 you (东) pung 6s from P3 (北)" in text


# ---- D4 and the other win labels ----------------------------------------------------------------------
# seat 1 pungs the dealer's 3s, draws the fourth and adds it; seat 3 waits on 3s (边张 12s)
ROB = {0: "3s 5p SWNCFP SS WW NC", 1: "33s 123456789p E N", 2: "13579m 2468s CFP S", 3: "123456789m 12s EE"}
NAMES = ("P1", "P2", "P3", "you")


def _terminal(h: Hand, me: int, keys: str = "") -> tuple[TerminalPlayer, io.StringIO]:
    out = io.StringIO()
    player = TerminalPlayer(io.StringIO(keys), out, "letters")
    player.sit(h, Seating(NAMES, h.dealer, me))
    return player, out


def _to_added_kong(h: Hand, tail: str = "") -> None:
    h.act(0, Action("discard", T("3s")))
    for s in list(h.prompted()):
        h.act(s, Action("pung", T("3s")) if s == 1 else Action("pass"))
    h.act(1, Action("discard", T("N")))
    while not (h.current == 1 and h.phase is Phase.TURN):
        if h.phase is Phase.TURN:
            h.act(h.current, Action("discard", h.seats[h.current].drawn))
        else:
            for s in list(h.prompted()):
                h.act(s, Action("pass"))
    h.act(1, Action("added_kong", T("3s")))


def test_robbing_a_kong_is_not_shown_as_a_discard() -> None:
    h = rig(ROB, draws="CFP3s")
    _to_added_kong(h)
    me, out = _terminal(h, 3, "1\n")
    view = SeatView(h, 3)
    h.act(3, me.choose(view, view.legal))
    me.narrate()
    text = out.getvalue() + "\n".join(result_lines(h, me.seats, h.rules, me.t))
    assert "· 加杠? P2 (南) adds 3s to the pung (it may be robbed: 抢杠)" in text
    assert "P2 (南) adds 3s (三条) to a pung: rob the kong (抢杠)?" in text
    assert "offers" not in text and "discarded 3s" not in text.split("加杠?")[1]
    assert "· 抢杠 you (北) rob P2 (南)'s kong of 3s" in text
    assert "和 you win with 3s (抢杠和 robbing P2 (南)'s kong)" in text


def test_a_kong_replacement_win_is_not_labelled_self_drawn() -> None:
    h = rig(ROB, draws="CFP3s", tail="E")
    _to_added_kong(h)
    h.act(3, Action("pass"))
    h.act(1, Action("win", T("E")))
    me, _ = _terminal(h, 3)
    text = "\n".join(result_lines(h, me.seats, h.rules, me.t))
    assert "和 P2 (南) wins with E (杠上开花 self-drawn on a kong's replacement tile)" in text


def test_a_heavenly_win_is_not_labelled_self_drawn() -> None:
    h = rig({0: "123456789m 123p 55p", 1: "13579s 2468p CF 19m", 2: "13579m 2468s CFP N", 3: "2468m 1357s SWNCF"})
    assert Action("win", T("5p")) in h.legal(0)
    h.act(0, Action("win", T("5p")))
    me, _ = _terminal(h, 3)
    assert "(天和 heavenly hand" in result_lines(h, me.seats, h.rules, me.t)[0]


# ---- the end: the hand, concealed kongs, the breakdown ---------------------------------------------------
def test_concealed_kongs_are_announced_face_down_and_revealed_at_the_end() -> None:
    h = rig(
        {0: "5555p 2468m SWNC SS", 1: "13579s 2468p CF 19m", 2: "13579m 2468s CFP N", 3: "123456789m 11s 46p"},
        tail="9p",
    )
    h.act(0, Action("concealed_kong", T("5p")))
    while not h.over:
        s = h.prompted()[0]
        h.act(s, h.default_action(s))
    me, out = _terminal(h, 3)
    me.narrate()
    assert "· 暗杠 P1 (东) declares a concealed kong (face down)" in out.getvalue()
    assert "   暗杠 revealed: P1 (东) {5p 5p 5p 5p}" in result_lines(h, me.seats, h.rules, me.t)


def test_the_winning_hand_and_its_fans_add_up() -> None:
    text = play(11)
    lines = text.splitlines()
    i = lines.index("和 P2 (西) wins with F (点和 on P1 (南)'s discard) — 34 fan")
    assert lines[i + 1] == "   winning hand: 8m 8m 8m 9p 9p 9p 5s 5s 5s W W F F  + F  花 f5"
    assert lines[i + 9].split() == ["total", "34"]
    assert lines[i + 10] == ("   payment: you (东) pays 8 · P1 (南) pays 8 + 34 = 42 · P3 (北) pays 8 → P2 (西) +58")


def test_a_nanchang_result_breaks_the_score_down() -> None:
    text = play(5, rules="nanchang")
    for shown in (
        "you (东) (庄) pays M 1 × 点炮 2 × 庄 2 = 4",
        "P1 (南) receives 6",
        "杠 you (东): 明杠 exposed kong [5555s] — 1 from each opponent",
        "上精 upper jing (9p/1p): raw [0, 4, 0, 3] → bonus [0, 4, 0, 3]",
        "next dealer: P1 (南)",
    ):
        assert shown in text
    table = next(line.split() for line in text.splitlines() if line.startswith("   P1 (南)  "))
    assert table[-4:] == ["+6", "-1", "+9", "+14"]  # win + kong + jing = total
    assert "score change: you (东) -8 · P1 (南) +14 · P2 (西) -9 · P3 (北) +3" in text


# ---- false wins, the jing, Nanchang's header ---------------------------------------------------------------
def test_a_false_win_can_be_declared_and_costs_the_penalty() -> None:
    text = play(11, keys="w\n")
    assert "    w. 和? declare a win anyway" in text
    assert (
        "· 诈和 false win (not even ready): you (东) declared a win with 6s — play goes on; you (东) may not "
        "win again this hand"
    ) in text
    assert "  · penalty: you (东) -60 · P1 (南) +20 · P2 (西) +20 · P3 (北) +20" in text


def test_a_false_win_nanchang_refuses_is_explained_and_asked_again() -> None:
    text = play(5, rules="nanchang", keys="w\n")
    i = text.index("  not allowed: the hand does not win with 8s, and nanchang has no false win to declare")
    assert text.index("your choice>", i) > i  # asked again, not played for


def test_nanchang_marks_the_jing_and_shows_no_prevalent_wind() -> None:
    text = play(5, rules="nanchang", hands=4)
    assert "圈风" not in text and "— hand 1 · round 1 · 庄 dealer you (东)" in text
    marked = 0
    for line in text.splitlines():
        if line.startswith("  精 jing: "):
            jing = (line.split()[3], line.split()[6])  # 正精 X · 副精 Y
        elif line.startswith("  hand: "):
            tiles = line.split()[1:]
            marked += sum(x.endswith("*") for x in tiles)
            assert all(x.endswith("*") == (x.rstrip("*") in jing) for x in tiles if x != "drew"), line
    assert marked


def test_play_help_describes_both_rulesets() -> None:
    import argparse

    from majiang.cli.play_cmd import register

    sub = argparse.ArgumentParser().add_subparsers()
    register(sub)
    text = sub.choices["play"].format_help()
    assert "MCR session" not in text and "Nanchang" in text
