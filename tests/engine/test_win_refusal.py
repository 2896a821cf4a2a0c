"""Why a complete hand is no win (the hall's prompt says it: docs/protocol.md, ``no_win``).  The hall plays
on the Python engine, which answers it."""

from __future__ import annotations

from typing import Any

import pytest
import rig as rigging
from rig import rig

OTHERS = {1: "1112223334445z", 2: "111s999s111p999p1m", 3: "2468m2468p2468s1z"}


@pytest.fixture(autouse=True)
def python_engine(monkeypatch: Any) -> None:
    monkeypatch.setattr(rigging, "ENGINE", "python")


def test_a_complete_hand_under_the_minimum_says_why_it_is_no_win() -> None:
    """Was: with a hand complete but under 8 fan at your turn, nothing said why there was no 和 button
    unless you thought of pressing 听.  The engine names the shortfall; a winning hand has none."""
    short = rig({0: "123m345m789p234s55p", **OTHERS})
    assert all(a.type != "win" for a in short.legal(0))
    assert short.win_refusal(0) == {"fan": 7, "min": 8}
    assert short.win_refusal(1) is None  # not its turn
    full = rig({0: "234m345m678p345s55m", **OTHERS})
    assert any(a.type == "win" for a in full.legal(0)) and full.win_refusal(0) is None
    assert rig({0: "123m345m789p234s55p", **OTHERS}, rules="nanchang").win_refusal(0) is None
