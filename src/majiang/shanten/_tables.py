"""Table-driven shanten in pure Python: the fast path when the compiled one is not built.

The regular form is scored per *group* (each suit, the honours): a group's worth is summed up in a
*profile*, ``best[pair][k]`` for k = 0…4 blocks (see ``forms._group_best``).  Profiles are few (fewer
than a hundred kinds turn up), so each is interned as a small int; combining two groups' profiles is
a table lookup, and a suit's profile and the other per-suit facts the special forms need are
memoised by the suit's count vector (as ``bytes``).  A suit splits further into *components* — runs
of tiles with no gap of two empty ranks, which cannot share a block — so a new suit costs a few
lookups.  The memo tables are emptied if they ever pass ``MAX_CACHED`` entries, which bounds memory.

Everything here is equal to the readable definitions in ``forms.py`` (tested on every test hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from majiang.shanten.forms import KNITTED_PATTERNS as _PATTERNS
from majiang.tiles import NUM_KINDS

_NONE = -99
_BLOCKS = 4
MAX_CACHED = 100_000  # suits remembered (each table) before the memo tables start afresh
Profile = tuple[int, ...]  # best[0][0..4] + best[1][0..4]; best[1] includes the pair's 1
Counts = Sequence[int]

# ids start at 1 so that a found id is always true (``table.get(key) or build(key)``)
_profiles: list[Profile] = [()]
_profile_id: dict[Profile, int] = {}
#: per profile id of a whole hand: its regular shanten after 0…4 finished sets
_shanten_after: list[tuple[int, ...]] = [()]


def _intern(p: Profile) -> int:
    pid = _profile_id.get(p)
    if pid is None:
        pid = len(_profiles)
        _profiles.append(p)
        _profile_id[p] = pid
        _shanten_after.append(tuple(8 - 2 * f - max(p[_BLOCKS - f], p[5 + _BLOCKS - f]) for f in range(5)))
    return pid


EMPTY = _intern((0, 0, 0, 0, 0) + (_NONE,) * 5)


# ---- profiles of tile patterns ---------------------------------------------------------------------

_pattern_pid: dict[bytes, int] = {b"": EMPTY}


def _add_block(best: list[int], rest: Profile, value: int, block: int) -> None:
    for k in range(block, 5):
        j = k - block
        if rest[j] > _NONE and rest[j] + value > best[k]:
            best[k] = rest[j] + value
        if rest[5 + j] > _NONE and rest[5 + j] + value > best[5 + k]:
            best[5 + k] = rest[5 + j] + value


def _add_pair(best: list[int], rest: Profile) -> None:
    for k in range(5):
        if rest[k] > _NONE and rest[k] + 1 > best[5 + k]:
            best[5 + k] = rest[k] + 1


def _rest(pattern: bytearray, take: Sequence[tuple[int, int]]) -> Profile:
    p = bytearray(pattern)
    for j, n in take:
        p[j] -= n
    return _profiles[_pattern(bytes(p).strip(b"\0"))]


def _pattern(p: bytes) -> int:
    """Profile id of a suited pattern (no leading or trailing empty ranks)."""
    pid = _pattern_pid.get(p)
    if pid is not None:
        return pid
    pattern = bytearray(p)
    size = len(pattern)
    # the lowest tile stays isolated or starts a block (as in forms._cuts)
    best = list(_rest(pattern, ((0, 1),)))
    if pattern[0] >= 3:
        _add_block(best, _rest(pattern, ((0, 3),)), 2, 1)
    if pattern[0] >= 2:
        rest = _rest(pattern, ((0, 2),))
        _add_block(best, rest, 1, 1)
        _add_pair(best, rest)
    nxt = pattern[1] if size > 1 else 0
    nxt2 = pattern[2] if size > 2 else 0
    if nxt and nxt2:
        _add_block(best, _rest(pattern, ((0, 1), (1, 1), (2, 1))), 2, 1)
    if nxt:
        _add_block(best, _rest(pattern, ((0, 1), (1, 1))), 1, 1)
    if nxt2:
        _add_block(best, _rest(pattern, ((0, 1), (2, 1))), 1, 1)
    pid = _pattern_pid[p] = _intern(tuple(best))
    return pid


_combined: dict[int, int] = {}


def combine(a: int, b: int) -> int:
    """Profile id of two independent groups together."""
    key = a << 16 | b
    pid = _combined.get(key)
    if pid is not None:
        return pid
    pa, pb = _profiles[a], _profiles[b]
    out = [_NONE] * 10
    for k in range(5):
        for i in range(k + 1):
            j = k - i
            if pa[i] > _NONE and pb[j] > _NONE:
                out[k] = max(out[k], pa[i] + pb[j])
                if pb[5 + j] > _NONE:
                    out[5 + k] = max(out[5 + k], pa[i] + pb[5 + j])
            if pa[5 + i] > _NONE and pb[j] > _NONE:
                out[5 + k] = max(out[5 + k], pa[5 + i] + pb[j])
    pid = _combined[key] = _combined[b << 16 | a] = _intern(tuple(out))
    return pid


def _group_pid(group: bytes, suited: bool) -> int:
    """Profile id of a suit (components split at two empty ranks) or of the honours (each tile alone)."""
    pid = EMPTY
    if not suited:
        for n in group:
            if n:
                pid = combine(pid, _pattern(bytes((n,))))
        return pid
    for part in group.split(b"\0\0"):
        part = part.strip(b"\0")
        if part:
            pid = combine(pid, _pattern(part))
    return pid


# ---- per-group facts, memoised -----------------------------------------------------------------------

# A suit's facts: (profile id, tiles, pairs, terminal kinds, terminal pair, how many of its 147 / 258 /
# 369 tiles it holds (three counts)).
# The honours' facts: (profile id, tiles, pairs, kinds, pair).
GroupInfo = tuple[int, ...]
_suits: dict[bytes, GroupInfo] = {}
_honors: dict[bytes, GroupInfo] = {}
#: suit bytes → profile ids of the suit without one of each of its 147 / 258 / 369 tiles (组合龙)
_suits_unknit: dict[bytes, tuple[int, int, int]] = {}


def _forget_if_full(table: dict[bytes, Any]) -> None:
    if len(table) >= MAX_CACHED:
        table.clear()
        _pattern_pid.clear()
        _pattern_pid[b""] = EMPTY


def _suit(key: bytes) -> GroupInfo:
    info = _suits.get(key)
    if info is None:
        _forget_if_full(_suits)
        held = [sum(1 for t in range(r, 9, 3) if key[t]) for r in range(3)]
        info = _suits[key] = (
            _group_pid(key, True),
            sum(key),
            sum(n // 2 for n in key),
            (key[0] > 0) + (key[8] > 0),
            int(key[0] >= 2 or key[8] >= 2),
            *held,
        )
    return info


def _unknit(key: bytes) -> tuple[int, int, int]:
    ids = _suits_unknit.get(key)
    if ids is None:
        _forget_if_full(_suits_unknit)
        out = []
        for r in range(3):
            rest = bytearray(key)
            for t in range(r, 9, 3):
                rest[t] -= rest[t] > 0
            out.append(_group_pid(bytes(rest), True))
        ids = _suits_unknit[key] = (out[0], out[1], out[2])
    return ids


def _honor(key: bytes) -> GroupInfo:
    info = _honors.get(key)
    if info is None:
        _forget_if_full(_honors)
        info = _honors[key] = (
            _group_pid(key, False),
            sum(key),
            sum(n // 2 for n in key),
            sum(1 for n in key if n),
            int(any(n >= 2 for n in key)),
        )
    return info


# ---- the forms -------------------------------------------------------------------------------------------


def _most_knitted(m: GroupInfo, p: GroupInfo, s: GroupInfo) -> int:
    """The most tiles of one 组合龙 the suits hold, over the six straights."""
    m0, m1, m2 = m[5], m[6], m[7]
    p0, p1, p2 = p[5], p[6], p[7]
    s0, s1, s2 = s[5], s[6], s[7]
    return max(m0 + p1 + s2, m0 + p2 + s1, m1 + p0 + s2, m1 + p2 + s0, m2 + p0 + s1, m2 + p1 + s0)


def _bad(counts: Counts, melds: int) -> ValueError:
    if len(counts) != NUM_KINDS:
        return ValueError(f"expected 34 tile counts, got {len(counts)}")
    if not 0 <= melds <= _BLOCKS:
        return ValueError(f"melds must be 0–4, got {melds}")
    for t, n in enumerate(counts):
        if not isinstance(n, int) or not 0 <= n <= 4:
            return ValueError(f"tile {t}: {n} copies (0–4 allowed)")
    return ValueError(
        f"not a hand: {sum(counts)} concealed tiles with {melds} melds (need 13 or 14 in all, kongs as three)"
    )


def _knitted(b: bytes, m: GroupInfo, p: GroupInfo, s: GroupInfo, h: GroupInfo, melds: int, best: int) -> int:
    """组合龙 shanten, or ``best`` if no straight beats it.

    A straight missing ``9 - held`` tiles scores that plus the regular shanten of the other tiles
    after three more sets; those tiles are part of the hand, so the whole hand's regular shanten
    after three more sets is a floor that spares most straights a closer look."""
    sets = melds + 3
    floor = _shanten_after[combine(combine(m[0], p[0]), combine(s[0], h[0]))][sets]
    for a, c, d in _PATTERNS:
        held = m[5 + a] + p[5 + c] + s[5 + d]
        if 9 - held + floor < best:
            rest = combine(combine(_unknit(b[0:9])[a], _unknit(b[9:18])[c]), combine(_unknit(b[18:27])[d], h[0]))
            best = min(best, 9 - held + _shanten_after[rest][sets])
    return best


def _forms(b: bytes, melds: int) -> tuple[int | None, int | None, int | None, int | None, int | None]:
    m = _suits.get(b[0:9]) or _suit(b[0:9])
    p = _suits.get(b[9:18]) or _suit(b[9:18])
    s = _suits.get(b[18:27]) or _suit(b[18:27])
    h = _honors.get(b[27:34]) or _honor(b[27:34])
    regular: int = _shanten_after[combine(combine(m[0], p[0]), combine(s[0], h[0]))][melds]
    if melds > 1:
        return regular, None, None, None, None
    knitted = _knitted(b, m, p, s, h, melds, 99)
    if melds:
        return regular, None, None, knitted, None
    pairs = 6 - m[2] - p[2] - s[2] - h[2]
    orphans = 13 - m[3] - p[3] - s[3] - h[3] - (m[4] | p[4] | s[4] | h[4])
    return regular, pairs, orphans, knitted, 13 - h[3] - _most_knitted(m, p, s)


def _shanten(b: bytes, melds: int) -> int:
    suits, combined = _suits, _combined
    m = suits.get(b[0:9]) or _suit(b[0:9])
    p = suits.get(b[9:18]) or _suit(b[9:18])
    s = suits.get(b[18:27]) or _suit(b[18:27])
    h = _honors.get(b[27:34]) or _honor(b[27:34])
    mp = combined.get(m[0] << 16 | p[0]) or combine(m[0], p[0])
    sh = combined.get(s[0] << 16 | h[0]) or combine(s[0], h[0])
    hand = combined.get(mp << 16 | sh) or combine(mp, sh)
    best: int = _shanten_after[hand][melds]
    if melds > 1 or best < 0:
        return best
    knit = _most_knitted(m, p, s)
    if not melds:
        pairs = 6 - m[2] - p[2] - s[2] - h[2]
        orphans = 13 - m[3] - p[3] - s[3] - h[3] - (m[4] | p[4] | s[4] | h[4])
        best = min(best, pairs, orphans, 13 - h[3] - knit)
    if 9 - knit + _shanten_after[hand][melds + 3] < best:
        best = _knitted(b, m, p, s, h, melds, best)
    return best


def _hand(counts: Counts, melds: int, sizes: tuple[int, ...] = (13, 14)) -> bytes:
    """The counts as bytes, checked: 34 counts of 0–4 making a hand of one of ``sizes`` tiles."""
    b = bytes(counts) if all(isinstance(n, int) and 0 <= n <= 4 for n in counts) else b""
    if len(b) != NUM_KINDS or max(b) > 4 or not 0 <= melds <= _BLOCKS or sum(b) + 3 * melds not in sizes:
        raise _bad(counts, melds)
    return b


def shanten(counts: Counts, melds: int = 0) -> int:
    """The lowest shanten over all forms; the special forms only where they can beat the regular one."""
    try:
        b = bytes(counts)
    except (TypeError, ValueError):
        raise _bad(counts, melds) from None
    if len(b) != NUM_KINDS or max(b) > 4 or not 0 <= melds <= _BLOCKS or (sum(b) + 3 * melds) not in (13, 14):
        raise _bad(counts, melds)
    return _shanten(b, melds)


def forms(counts: Counts, melds: int = 0) -> tuple[int | None, int | None, int | None, int | None, int | None]:
    """Shanten per form (forms.FORMS order); ``None`` where a form does not apply."""
    return _forms(_hand(counts, melds), melds)


def _form_value(b: bytes, melds: int, form: int) -> int | None:
    return _shanten(b, melds) if form < 0 else _forms(b, melds)[form]


def _useful(c: bytearray, melds: int, form: int) -> int:
    now = _form_value(bytes(c), melds, form)
    if now is None:
        return 0
    mask = 0
    for t in range(NUM_KINDS):
        if c[t] >= 4 and now > 0:
            continue  # no fifth copy to draw, unless as the wait of a ready hand
        c[t] += 1
        after = _form_value(bytes(c), melds, form)
        c[t] -= 1
        if after is not None and after < now:
            mask |= 1 << t
    return mask


def useful(counts: Counts, melds: int = 0, form: int = -1) -> int:
    """Bit mask of the tiles that lower the shanten of a 13-tile hand (one form, or -1: overall)."""
    if not -1 <= form <= 4:
        raise ValueError(f"form must be -1 (all) or 0–4, got {form}")
    return _useful(bytearray(_hand(counts, melds, (13,))), melds, form)


def discards(counts: Counts, melds: int = 0) -> list[tuple[int, int, int]]:
    """For each tile of a 14-tile hand: (tile, shanten after discarding it, useful mask after)."""
    c = bytearray(_hand(counts, melds, (14,)))
    out = []
    for t in range(NUM_KINDS):
        if c[t]:
            c[t] -= 1
            out.append((t, _shanten(bytes(c), melds), _useful(c, melds, -1)))
            c[t] += 1
    return out
