import pytest
from hypothesis import given
from hypothesis import strategies as st

from majiang.tiles import (
    FLOWERS,
    NotationError,
    format_compact,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_en,
    tile_glyph,
    tile_str,
    tile_zh,
    wind_index,
)

tiles = st.lists(st.integers(0, 41), max_size=20)


def test_tokens_and_forms_agree():
    assert parse_tiles("1m 2m 3m") == parse_tiles("123m") == [0, 1, 2]
    assert parse_tiles("1z2z3z4z5z6z7z") == parse_tiles("ESWNPFC")
    assert parse_tiles("5p f3, C") == [13, 36, 31]
    assert parse_tile("9s") == 26


@pytest.mark.parametrize(
    ("text", "token"),
    [("0m", "0m"), ("10m", "0m"), ("8z", "8z"), ("1x", "1x"), ("123", "123"), ("f9", "f9"), ("Q", "Q")],
)
def test_malformed_input_names_the_token(text, token):
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert repr(token) in str(e.value)


def test_names_and_glyphs():
    assert [tile_zh(t) for t in parse_tiles("1m 5p 9s E C F P f1 f5")] == [
        "一万",
        "五饼",
        "九条",
        "东",
        "中",
        "发",
        "白",
        "春",
        "梅",
    ]
    assert tile_en(parse_tile("C")) == "Red Dragon"
    assert tile_glyph(parse_tile("1m")) == "\U0001f007"
    assert tile_glyph(parse_tile("1s")) == "\U0001f010"
    assert tile_glyph(parse_tile("1p")) == "\U0001f019"
    assert tile_glyph(parse_tile("C")) == "\U0001f004"
    assert tile_glyph(parse_tile("P")) == "\U0001f006"
    assert tile_glyph(FLOWERS[0]) == "\U0001f026"
    assert len({tile_glyph(t) for t in range(42)}) == 42


def test_winds():
    assert wind_index("S") == 1 and wind_index("北") == 3 and wind_index(2) == 2
    with pytest.raises(NotationError):
        wind_index("X")


@given(tiles)
def test_round_trip_tokens(ts):
    assert parse_tiles(format_tiles(ts)) == ts


@given(tiles)
def test_round_trip_compact(ts):
    assert parse_tiles(format_compact(ts)) == ts


@given(st.integers(0, 41))
def test_single_tile_round_trip(t):
    assert parse_tile(tile_str(t)) == t


def test_one_exception_type_for_bad_input_naming_the_bad_token():
    from majiang.mcr import InvalidHandError, WinningHand, score

    assert issubclass(InvalidHandError, NotationError)
    for text in ("[12m1]456p789s123s1p 1p", "[EEE5]123m456p789s1p1p 1p", "123m x 1p", "1m1m1m1m1m 1m"):
        with pytest.raises(NotationError):
            score(WinningHand.from_string(text))  # a bad token, or a hand that cannot be scored
    with pytest.raises(NotationError, match="'x' is not a suit"):
        parse_tiles("12x3m")
    with pytest.raises(NotationError, match="flowers are f1–f8"):
        parse_tiles("f9")
    with pytest.raises(NotationError, match="need a suit letter"):
        parse_tiles("123")
