"""The settlement text shows every number of the seed's four worked examples (spec §3): each
payer's 胡分 as its factors, the +5 of 德国, the 天胡/地胡 flat base, kong bonuses and the jing
round with 霸王精 — and they add up to the totals."""

from __future__ import annotations

from typing import Any

import pytest
from nc_helpers import kong, table

from majiang.nanchang import record_from_dict, render_settlement, settle

EXAMPLES: list[tuple[dict[str, Any], list[str]]] = [
    (
        table("5p", {1: {"concealed": "1m1m 3s3s 9p9p EE CC 7m7m 5p"}}, winner=1, win_tile="2s", method="self_drawn"),
        [
            "seat 0 (庄) pays M 4 × 自摸 2 × 庄 2 = 16",
            "seat 2 pays M 4 × 自摸 2 = 8",
            "seat 1 receives 32",
            "霸王精 seat 1",
            "+32         +0        +12    +44",
        ],
    ),  # played live: +44, the 12 being 霸王精
    (
        table(
            "5p",
            {0: {"concealed": "123m 456m 789p E", "melds": [kong("9s", concealed=True)]}, 2: {"concealed": "6p"}},
            winner=0,
            win_tile="E",
            method="kong_replacement",
        ),
        [
            "seat 1 pays M 4 × 杠开 2 × 庄 2 + 德国 5 = 21",
            "seat 0 receives 63",
            "暗杠 concealed kong {9999s} — 2 from each",
        ],
    ),
    (
        table(
            "5p", {1: {"concealed": "123m 456m 789m 123s 5p"}}, winner=1, win_tile="7s", method="earthly", discarder=0
        ),
        [
            "seat 0 (庄) pays 地胡 base 10 × 精钓 2 × 庄 2 = 40",
            "seat 2 pays 地胡 base 10 × 精钓 2 = 20",
            "seat 1 receives 80",
        ],
    ),
    (
        table(
            "9s",
            {0: {"concealed": "E S W N C F P 1m 4m 7m 2p 5p 8p"}, 2: {"concealed": "1s"}},
            winner=0,
            win_tile="3s",
            method="self_drawn",
        ),
        ["seat 1 pays M 8 × 自摸 2 × 庄 2 + 德国 5 = 37", "seat 0 receives 111"],
    ),
]


@pytest.mark.parametrize(("hand", "shown"), EXAMPLES, ids=["ex1", "ex2", "ex3", "ex4"])
def test_the_settlement_text_shows_each_payers_factors(hand: dict[str, Any], shown: list[str]) -> None:
    rec, options = record_from_dict(hand)
    s = settle(rec, options)
    text = render_settlement(rec, s, options)
    for line in shown:
        assert line in text
    paid = [int(line.rsplit("= ", 1)[1]) for line in text.splitlines() if " pays " in line]
    assert s.win is not None and sum(paid) == s.win.payments[rec.winner or 0]  # the shares add up


def test_seats_can_be_named() -> None:
    rec, options = record_from_dict(EXAMPLES[0][0])
    names = ["you (东)", "P1 (南)", "P2 (西)", "P3 (北)"]
    text = render_settlement(rec, settle(rec, options), options, names)
    assert "P1 (南) wins 自摸" in text and "霸王精 P1 (南)" in text and "next dealer: P1 (南)" in text
    assert "seat " not in text.replace("seat  ", "")  # only the table's header says "seat"
