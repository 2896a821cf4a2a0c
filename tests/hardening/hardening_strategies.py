"""Hypothesis strategies for hostile WebSocket frames (client → server), docs/protocol.md.

Every strategy yields the text of one frame.  Most frames are JSON objects shaped like protocol
messages with one thing wrong (a field missing, of the wrong type, out of range, an extra field, an
unknown or non-string type); the rest are non-objects, non-JSON, unicode junk, frames over the 4 KB
limit, deeply nested or numerically extreme JSON.  The strategies are built from few draws each
(a draw costs tens of microseconds and the suite sends over 100,000 frames): the structure is
chosen by Hypothesis, the wrong values come from pools of known-nasty values or from small text and
integer strategies.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

TYPES = [
    "hello",
    "lobby",
    "tables",
    "quick_join",
    "create",
    "join",
    "spectate",
    "stand",
    "add_bots",
    "action",
    "auto",
    "chat",
    "mute",
    "ping",
]
ODD_TYPES = ["fly", "", "ACTION", "Ping", "welcome", "error", "prompt", "ping ", "action\u0000", "キ", "__class__"]
ACTION_TYPES = ["discard", "chow", "pung", "kong", "added_kong", "concealed_kong", "win", "pass"]
TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP") + [f"f{i}" for i in range(1, 9)]
BAD_TILES = [
    "0m",
    "10",
    "f9",
    "f0",
    "1z",
    "8z",
    "x",
    "",
    " ",
    "mm",
    "1M",
    "５m",
    "E ",
    "12m",
    "\u0000",
    "🀄",
    "-1",
    "1m1",
    "e",
    "c",
    "9s9",
]
NASTY: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    3,
    4,
    255,
    1.5,
    -0.0,
    1e308,
    -1e308,
    2**31,
    2**31 + 1,
    2**53 + 1,
    2**63,
    -(2**63),
    10**30,
    "",
    " ",
    "x",
    "0",
    "1",
    "true",
    "null",
    "NaN",
    "\u0000",
    "\u202e",
    "🀄",
    "é" * 50,
    "x" * 401,
    "a.b",
    "<script>alert(1)</script>",
    "'; DROP TABLE accounts; --",
    "%s%n%x",
    "../../etc/passwd",
    "${jndi:ldap://x}",
    "\\u0000",
    "\ud7ff\ue000",
    [],
    [None],
    [1, 2, 3],
    ["1m", "2m", "3m"],
    [[[]]],
    {},
    {"type": "pass"},
    {"a": 1},
    {"__proto__": {"admin": True}},
    ["x"] * 50,
]
JUNK_TEXT = [
    "not json",
    "{",
    "}",
    "{{}}",
    "[1,",
    "'single'",
    "{'type': 'ping'}",
    "\x00\x01\x02",
    "ÿþ",
    "🀄🀅🀆",
    "\u202etxet",
    "<xml/>",
    "type=ping",
    '{"type":"ping"}garbage',
    '"ping"',
    '{"type"}',
    '{"type":}',
    "{,}",
    "\t\n\r ",
    "1e999",
    "-",
    "[" * 30,
    '{"a":' * 30,
]

nasty = st.sampled_from(NASTY)
small_text = st.text(max_size=10)
unicode_junk = st.one_of(st.text(max_size=30), st.sampled_from(JUNK_TEXT))


def _dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False)


VALID: dict[str, st.SearchStrategy[Any]] = {
    "token": st.one_of(st.sampled_from(["", "a.b", "x" * 600, "eyJhIjoxfQ.00", "Bearer x"]), small_text),
    "room": st.one_of(st.sampled_from(["nope", "T", "x" * 41, "../t", "t "]), small_text),
    "private": st.booleans(),
    "table": st.one_of(st.sampled_from(["00000000", "deadbeef", "x" * 41, "../../", "*"]), small_text),
    "code": st.one_of(st.sampled_from(["000000", "123456", "999999", "1" * 13, "abc"]), small_text),
    "seat": st.integers(-2, 6),
    "seq": st.one_of(st.integers(-3, 2**31 + 3), st.sampled_from([2**31, 2**31 + 1, -1, 0])),
    "on": st.booleans(),
    "text": st.one_of(unicode_junk, st.sampled_from(["", "     ", "x" * 199, "x" * 200, "x" * 201, "中" * 201])),
    "scope": st.sampled_from(["table", "lobby", "all", "", "TABLE"]),
    "account": st.one_of(st.integers(-5, 10**6), st.sampled_from([2**63, -(2**63), 10**40])),
}
FIELDS = {
    "hello": ["token"],
    "lobby": [],
    "tables": ["room"],
    "quick_join": ["room"],
    "create": ["room", "private"],
    "join": ["table", "code", "seat"],
    "spectate": ["table"],
    "stand": [],
    "add_bots": [],
    "action": ["seq", "action"],
    "auto": ["on"],
    "chat": ["text", "scope"],
    "mute": ["account", "on"],
    "ping": [],
}


ACTION_TYPE = st.sampled_from(ACTION_TYPES)
ODD_VALUE = st.one_of(nasty, small_text)
A_TILE = st.sampled_from(TILES)
BAD_TILE = st.one_of(st.sampled_from(BAD_TILES), nasty)
CHOW_TILES = st.lists(A_TILE, min_size=3, max_size=3)
BAD_CHOW = st.one_of(st.lists(st.sampled_from(BAD_TILES + TILES), max_size=5), nasty)
ACTION_EXTRA = st.sampled_from(["seat", "extra", "tile2", "seq"])
KIND = st.sampled_from(TYPES + TYPES + ODD_TYPES)
HOW = st.sampled_from(["missing", "wrong", "wrong", "valid", "extra", "no_type", "type_not_str"])
EXTRA_KEY = st.sampled_from(["extra", "seat", "table", "account", "seq", "admin", "token", "type "])
BROKEN = {n: st.integers(-1, n - 1) for n in range(1, 4)}


@st.composite
def action_body(draw: st.DrawFn, shape_ok: bool = False) -> Any:
    """An action object: well-shaped with arbitrary (usually not legal) contents, or broken."""
    how = 0 if shape_ok else draw(st.integers(0, 5))
    if how == 5:
        return draw(nasty)
    a: dict[str, Any] = {"type": draw(ACTION_TYPE) if how != 4 else draw(ODD_VALUE)}
    k = draw(st.integers(0, 3))
    if k in (1, 3):
        a["tile"] = draw(A_TILE) if how != 1 else draw(BAD_TILE)
    if k >= 2:
        a["tiles"] = draw(CHOW_TILES) if how != 2 else draw(BAD_CHOW)
    if how == 3:
        a[draw(ACTION_EXTRA)] = draw(nasty)
    return a


ACTION_OK = action_body(shape_ok=True)
ACTION_ANY = action_body()


@st.composite
def message_object(draw: st.DrawFn) -> Any:
    """A protocol-shaped object with (usually) one thing wrong."""
    kind = draw(KIND)
    msg: dict[str, Any] = {"type": kind}
    fields = FIELDS.get(kind, [])
    broken = draw(BROKEN[len(fields)]) if fields else -1
    how = draw(HOW)
    for i, f in enumerate(fields):
        if i == broken and how == "missing":
            continue
        if i == broken and how == "wrong":
            msg[f] = draw(nasty)
        elif f == "action":
            msg[f] = draw(ACTION_ANY)
        elif f == "code" and "table" in msg and draw(st.booleans()):
            continue
        else:
            msg[f] = draw(VALID[f])
    if how == "extra":
        msg[draw(EXTRA_KEY)] = draw(nasty)
    elif how == "no_type":
        del msg["type"]
    elif how == "type_not_str":
        msg["type"] = draw(nasty)
    return msg


@st.composite
def oversized(draw: st.DrawFn) -> str:
    """A frame over the 4 KB limit (but under the server's 16 KB WebSocket maximum)."""
    size = draw(st.integers(4097, 12_000))
    how = draw(st.integers(0, 3))
    if how == 0:
        return _dumps({"type": "chat", "text": "x" * size})
    if how == 1:
        return '{"type": "ping"' + " " * size + "}"
    if how == 2:
        return _dumps({"type": "action", "seq": 1, "action": {"type": "pass"}, "pad": ["y"] * (size // 5)})
    return "中" * (size // 3 + 1)  # 4 KB in bytes, fewer characters


WEIRD = [
    '{"type": "ping", "type": "chat"}',
    '{"type": "chat", "type": "ping", "text": "x"}',
    '{"type": "action", "seq": 1e400, "action": {"type": "pass"}}',
    '{"type": "action", "seq": NaN, "action": {"type": "pass"}}',
    '{"type": "action", "seq": Infinity, "action": {"type": "pass"}}',
    '{"type": "chat", "text": "\\ud800\\udc00\\ud800"}',
    '{"type": "chat", "text": "\\udfff"}',
    '{"type": "chat", "text": "\\u0000\\u0000"}',
    "\ufeff" + '{"type": "ping"}',
    '{"type": "ping"}\x00',
    '{"type": "ping"} {"type": "ping"}',
    '{"type": "ping"',
    '{"type": "\\u0070ing"}',
    "null",
    "[]",
    "0",
    '""',
    "true",
    "",
    "   ",
]
DEEP = [
    lambda d: "[" * d + "]" * d,
    lambda d: '{"type":' * min(d, 400) + '"ping"' + "}" * min(d, 400),
    lambda d: '{"type": "action", "seq": ' + "9" * min(d, 3900) + ', "action": {"type": "pass"}}',
    lambda d: '{"type": "mute", "account": ' + "9" * min(d, 3900) + "}",
    lambda d: '{"type": "mute", "account": 1' + "0" * min(d, 3000) + ".0}",
]
DEPTH = st.integers(20, 2000)
WEIRD_PICK = st.integers(0, len(WEIRD) + len(DEEP) - 1)


@st.composite
def weird_json(draw: st.DrawFn) -> str:
    """Syntactically odd or extreme JSON (deep nesting, huge numbers, NaN, duplicate keys, BOM …)."""
    i = draw(WEIRD_PICK)
    return WEIRD[i] if i < len(WEIRD) else DEEP[i - len(WEIRD)](draw(DEPTH))


def hostile_frame() -> st.SearchStrategy[str]:
    """Any hostile frame (what idle, unauthenticated and seated connections are fuzzed with)."""
    return st.one_of(
        message_object().map(_dumps),
        message_object().map(_dumps),
        message_object().map(_dumps),
        message_object().map(_dumps),
        nasty.map(_dumps),
        unicode_junk,
        oversized(),
        weird_json(),
    )


@st.composite
def wrong_seq_action(draw: st.DrawFn) -> tuple[int, int, Any]:
    """A well-formed action with a wrong seq, as (how, n, action) — :func:`realize_seq` makes the seq
    from the live state (stale, replayed, another seat's or another table's), so that what Hypothesis
    draws does not depend on the server."""
    return draw(st.integers(0, 3)), draw(st.integers(0, 2**31)), draw(ACTION_OK if draw(st.booleans()) else ACTION_ANY)


def realize_seq(how: int, n: int, action: Any, seq: int, others: list[int]) -> dict[str, Any]:
    others = [s for s in others if s != seq]
    if how == 1 and others:
        bad = others[n % len(others)]  # another seat's or another table's open prompt
    elif how >= 2:
        bad = max(0, seq - 1 - n % 5)  # an old prompt of this table (replayed)
    else:
        bad = n
    if bad == seq:
        bad = seq + 1
    return {"type": "action", "seq": bad, "action": action}


@st.composite
def table_bound(draw: st.DrawFn, rooms: tuple[str, ...]) -> str:
    """A well-formed message that a seated player or a spectator routes to its table runner (where
    it must be refused): an action with any seq, add_bots, a sit (join / quick_join / create)."""
    k = draw(st.integers(0, 6))
    if k <= 2:
        return _dumps({"type": "action", "seq": draw(st.integers(0, 3000)), "action": draw(ACTION_OK)})
    if k == 3:
        return _dumps({"type": "add_bots"})
    if k == 4:
        return _dumps(
            {
                "type": draw(st.sampled_from(["quick_join", "create"])),
                "room": draw(st.sampled_from(rooms)),
                "private": draw(st.booleans()),
            }
        )
    if k == 5:
        return _dumps({"type": "join", "seat": draw(st.integers(0, 3))})
    return _dumps({"type": "action", "seq": draw(st.integers(0, 3000)), "action": draw(ACTION_ANY)})
