"""The one meld type (``majiang.melds``): the engine, the MCR scorer and Nanchang share it, and the
input checks moved to the parsers (``mcr.hand.meld`` / ``meld_from_dict``, ``nanchang.melds``) with
their error messages unchanged."""

from __future__ import annotations

import pytest

import majiang.mcr as mcr
import majiang.nanchang as nanchang
from majiang.engine import protocol
from majiang.mcr import InvalidHandError, WinningHand, scorer
from majiang.mcr.hand import meld, meld_from_dict
from majiang.melds import FACE_DOWN, Meld, MeldKind
from majiang.nanchang.melds import meld_from_dict as nanchang_meld_from_dict
from majiang.tiles import parse_tile, parse_tiles


def test_one_type_everywhere() -> None:
    assert mcr.Meld is Meld and nanchang.Meld is Meld and protocol.Meld is Meld
    assert mcr.MeldKind is MeldKind and nanchang.MeldKind is MeldKind


def test_table_melds_score_without_conversion() -> None:
    # melds built as the engine builds them (engine.hand: claimed chow, pung from the 对家, 暗杠)
    chow = Meld(MeldKind.CHOW, tuple(parse_tiles("123m")), claimed=0)
    pung = Meld(MeldKind.PUNG, (parse_tile("E"),) * 3, source=2)
    kong = Meld(MeldKind.KONG, (parse_tile("9s"),) * 4, concealed=True)
    table = WinningHand(
        melds=(chow, pung, kong),
        hand=tuple(parse_tiles("456pC")),
        win_tile=parse_tile("C"),
        self_drawn=True,
    )
    parsed = WinningHand.from_string("[123m1][EEE2]{9999s}456pC C", self_drawn=True)
    assert table.melds == parsed.melds
    assert scorer.score(table).to_dict() == scorer.score_reference(parsed).to_dict()
    assert scorer.score(table).total == mcr.score(parsed).total


def test_tile_is_a_stored_lowest_tile() -> None:
    m = Meld(MeldKind.CHOW, tuple(parse_tiles("ESW")), claimed=2)
    assert m.tile == parse_tile("E") and m.tiles == tuple(parse_tiles("ESW"))
    assert Meld.of(MeldKind.KONG, 5) == Meld(MeldKind.KONG, (5,) * 4)
    assert "tile" in Meld.__slots__  # the C fan port reads it as a slot
    assert Meld.of(MeldKind.KONG, 5, concealed=True).face_down().tile == FACE_DOWN


def test_log_and_hand_json_forms() -> None:
    k = Meld(MeldKind.KONG, (5,) * 4, source=3, added=True)
    assert k.to_dict() == {"kind": "kong", "concealed": False, "tiles": [5] * 4, "from": 3, "added": True}
    assert k.hand_json() == {"kind": "kong", "tiles": ["6m"] * 4, "concealed": False, "from": 3}
    assert k.compact() == "[6666m]" and k.compact(with_source=True) == "[6666m3]"
    hidden = Meld(MeldKind.KONG, (5,) * 4, concealed=True)
    assert hidden.to_dict(hide=True)["tiles"] == [None] * 4 and hidden.to_dict()["tiles"] == [5] * 4


def test_provider_and_claimed_tile() -> None:
    chow = Meld(MeldKind.CHOW, (0, 1, 2), claimed=1)
    assert chow.provider(0) == 3 and chow.claimed_tile() == 1 and chow.is_chow and chow.exposed
    pung = Meld(MeldKind.PUNG, (27,) * 3, source=2)
    assert pung.provider(1) == 3 and pung.claimed_tile() == 27 and not pung.is_kong
    assert Meld(MeldKind.KONG, (27,) * 4, concealed=True).provider(1) is None


@pytest.mark.parametrize(
    ("kind", "tile", "kw", "message"),
    [
        (MeldKind.CHOW, "8m", {}, "a chow starts at 1–7 of a suit, not 8m"),
        (MeldKind.CHOW, "E", {}, "a chow starts at 1–7 of a suit, not E"),
        (MeldKind.CHOW, "1m", {"concealed": True}, "only a kong can be declared concealed; leave concealed chows"),
        (MeldKind.CHOW, "1m", {"claimed": 3}, "chow 'claimed' must be 0, 1 or 2, got 3"),
        (MeldKind.PUNG, "E", {"concealed": True}, "only a kong can be declared concealed; leave concealed pungs"),
        (MeldKind.KONG, "E", {"source": 4}, r"'from' must be 1 \(上家\), 2 \(对家\) or 3 \(下家\), got 4"),
    ],
)
def test_mcr_meld_checks(kind: MeldKind, tile: str, kw: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        meld(kind, parse_tile(tile), **kw)  # type: ignore[arg-type]


def test_mcr_meld_checks_out_of_range_tile() -> None:
    with pytest.raises(InvalidHandError, match="not a meld tile: 34"):
        meld(MeldKind.PUNG, 34)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([1], "a meld must be an object with 'kind' and 'tiles'"),
        ({"kind": "gang", "tiles": []}, "unknown meld kind 'gang': use chow, pung or kong"),
        ({"kind": "pung", "tiles": "EEE"}, "meld 'tiles' must be a list of tile strings"),
        ({"kind": "pung", "tiles": ["E"] * 3, "concealed": "yes"}, "'concealed' must be true or false"),
        ({"kind": "chow", "tiles": ["1m", "2m", "3m"], "claimed": True}, "meld 'claimed' must be an integer"),
        ({"kind": "chow", "tiles": ["E", "S", "W"]}, "meld 'ESW' is not a chow, pung or kong"),
        ({"kind": "chow", "tiles": ["E", "E", "E"]}, "meld 'EEE' is a pung, not a chow"),
        ({"kind": "chow", "tiles": ["1m", "2m", "3m"], "claimed": 5}, "chow 'claimed' must be 0, 1 or 2, got 5"),
        ({"kind": "pung", "tiles": ["E"] * 3, "from": 0}, r"'from' must be 1 \(上家\)"),
    ],
)
def test_hand_json_meld_errors(raw: object, message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        meld_from_dict(raw)  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match=message):
        WinningHand.from_dict({"melds": [raw], "hand": ["1m"] * 10, "win_tile": "1m"})


def test_nanchang_accepts_honour_chows_and_keeps_its_errors() -> None:
    m = nanchang_meld_from_dict({"kind": "chow", "tiles": ["W", "E", "S"], "claimed": 0})
    assert m == Meld(MeldKind.CHOW, tuple(parse_tiles("ESW")), claimed=0) and type(m) is Meld
    with pytest.raises(InvalidHandError, match="meld 'ESW' is a chow, not a pung"):
        nanchang_meld_from_dict({"kind": "pung", "tiles": ["E", "S", "W"]})
    with pytest.raises(InvalidHandError, match="meld 'CFP': only a kong can be concealed"):
        nanchang_meld_from_dict({"kind": "chow", "tiles": ["C", "F", "P"], "concealed": True})
    with pytest.raises(InvalidHandError, match="meld 'concealed' must be true or false"):
        nanchang_meld_from_dict({"tiles": ["E", "S", "W"], "concealed": 1})
