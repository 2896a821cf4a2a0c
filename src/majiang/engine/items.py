"""Items (道具, lobby.md §3): what each of the six does to a hand, and how it is logged and replayed.

The engine stays authoritative and the event log stays the single source of truth:

* **乾坤大挪移** (``qiankun``, before the hand starts) is a wall arrangement: :func:`qiankun_swaps`
  derives swaps of wall positions from the hand's seed, the owner's seat and the chosen pattern
  (大四喜, 大三元, 十三幺 or 清一色), and the hand is built with ``Hand(..., arrange=swaps)``.  The
  ``hand_start`` event records the swaps (``arrange``, as for any arranged hand) and the uses
  (``items: [{seat, item, pattern}]``), so :func:`majiang.engine.log.replay` reproduces the deal and
  :func:`start_problem` checks that the swaps are exactly what the seed derives.  "Close" is
  defined by :func:`pattern_distance`: the owner's start is at most :data:`CLOSE` tiles from ready
  for the pattern (11 of the 14 tiles of one complete hand of the pattern are dealt to the owner).
* **偷天换日** (``toutian``) and **移花接木** (``yihua``), on the owner's turn to discard, exchange one
  concealed tile with one tile of the live wall through the one engine hook,
  :meth:`Hand.intervene <majiang.engine.hand.Hand.intervene>`: the wall tile goes into the hand and
  the returned tile takes its place in the wall, so the tile multiset never changes.  Which copy
  (偷天换日) or which tile (移花接木) is taken is drawn from :func:`item_stream` — the hand's seed
  plus the index of the use in the log — never from an unlogged RNG.
* **千里眼** (``qianliyan``) and **顺风耳** (``shunfenger``), any time on one's turn, change nothing
  and reveal one fact about the live wall.
* **金手指** (``jinshouzhi``) is cosmetic and lives at the table (the hall), not in the hand.

Every in-hand use is one event ``{"type": "item", "seat", "item", …, "private_to": seat}``:
:func:`majiang.engine.view.event_view` gives the owner the whole event and every other seat (and
spectators) only ``{"type": "item", "seat", "item"}``.  :func:`replay_item` re-applies a logged use
(the replay derives the same random choice and must produce the identical event).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from majiang.engine import events as _events
from majiang.engine.arrange import deal_positions, swaps_for
from majiang.engine.hand import Hand, IllegalAction, Phase
from majiang.engine.wall import SeatWalls, SeedStream, Wall
from majiang.tiles import DRAGONS, NUM_KINDS, TERMINALS_AND_HONORS, WINDS, Tile, tile_str

if TYPE_CHECKING:
    from majiang.engine.protocol import Ruleset


QIANKUN, TOUTIAN, YIHUA, QIANLIYAN, SHUNFENGER, JINSHOUZHI = (
    "qiankun",
    "toutian",
    "yihua",
    "qianliyan",
    "shunfenger",
    "jinshouzhi",
)

# the moments (lobby.md §3 "when")
BEFORE_HAND, DISCARD_TURN, OWN_TURN, AT_TABLE = "before_hand", "discard_turn", "own_turn", "at_table"


@dataclass(frozen=True)
class ItemSpec:
    id: str
    zh: str
    en: str
    when: str  # one of the moments above
    kind: str  # deal | tiles | info | cosmetic
    needs: tuple[str, ...]  # parameters the use must name: "tile" (one of yours), "target" (a tile)
    optional: tuple[str, ...]  # parameters it may name ("target": 乾坤大挪移's pattern)
    effect: str  # in English
    effect_zh: str  # the same in Chinese


ITEMS: dict[str, ItemSpec] = {
    s.id: s
    for s in (
        ItemSpec(
            QIANKUN,
            "乾坤大挪移",
            "Great Shift",
            BEFORE_HAND,
            "deal",
            (),
            ("target",),
            "before the hand starts: you are dealt a start close to Big Four Winds, Big Three Dragons, "
            "Thirteen Orphans or Full Flush (at most 2 tiles from ready for that pattern); name the pattern "
            "as target, or get one at random",
            "开局前：发给你接近大四喜、大三元、十三幺或清一色的起手牌（离该牌型听牌至多 2 张）；可指定牌型，否则随机",
        ),
        ItemSpec(
            TOUTIAN,
            "偷天换日",
            "Steal the Sky",
            DISCARD_TURN,
            "tiles",
            ("tile", "target"),
            (),
            "on your turn to discard: replace one tile of your hand (tile) by a named tile (target) taken "
            "from the live wall; your tile takes its place in the wall. If no copy is left in the live wall "
            "the item is spent and your hand stays as it was",
            "轮到你出牌时：把手中一张牌换成活牌墙里指定的一张牌，你的牌放回牌墙原处；"
            "活牌墙里已没有这张牌时，道具作废，手牌不变",
        ),
        ItemSpec(
            YIHUA,
            "移花接木",
            "Graft",
            DISCARD_TURN,
            "tiles",
            ("tile",),
            (),
            "on your turn to discard: replace one tile of your hand (tile) by a random tile of the live wall; "
            "your tile takes its place in the wall",
            "轮到你出牌时：把手中一张牌换成活牌墙里随机的一张牌，你的牌放回牌墙原处",
        ),
        ItemSpec(
            QIANLIYAN,
            "千里眼",
            "Far Sight",
            OWN_TURN,
            "info",
            ("target",),
            (),
            "any time on your turn: where the nearest copy of a named tile (target) lies in the live wall, "
            "as a range of 8 draws (e.g. among the 9th-16th tiles still to be drawn)",
            "轮到你时随时可用：指定一张牌，告诉你活牌墙里最近的一张在哪 8 摸之内（例如还要摸的第 9–16 张之间）",
        ),
        ItemSpec(
            SHUNFENGER,
            "顺风耳",
            "Keen Ears",
            OWN_TURN,
            "info",
            (),
            (),
            "any time on your turn: the next tile of the wall",
            "轮到你时随时可用：看牌墙的下一张牌",
        ),
        ItemSpec(
            JINSHOUZHI,
            "金手指",
            "Golden Finger",
            AT_TABLE,
            "cosmetic",
            (),
            (),
            "at the table: your discard marker becomes a golden finger while you sit at this table",
            "在牌桌上：坐在这张牌桌期间，你出牌的标记变成金手指",
        ),
    )
}
HAND_ITEMS = (TOUTIAN, YIHUA, QIANLIYAN, SHUNFENGER)  # the ones that act inside a hand (events)

# ---- patterns for 乾坤大挪移 -----------------------------------------------------------------------------
BIG_FOUR_WINDS, BIG_THREE_DRAGONS, THIRTEEN_ORPHANS, FULL_FLUSH = (
    "big_four_winds",
    "big_three_dragons",
    "thirteen_orphans",
    "full_flush",
)
PATTERNS: dict[str, str] = {
    BIG_FOUR_WINDS: "大四喜",
    BIG_THREE_DRAGONS: "大三元",
    THIRTEEN_ORPHANS: "十三幺",
    FULL_FLUSH: "清一色",
}
PATTERNS_EN: dict[str, str] = {  # the same patterns' English fan names
    BIG_FOUR_WINDS: "Big Four Winds",
    BIG_THREE_DRAGONS: "Big Three Dragons",
    THIRTEEN_ORPHANS: "Thirteen Orphans",
    FULL_FLUSH: "Full Flush",
}
CLOSE = 2  # a 乾坤大挪移 start is at most this far from ready (pattern_distance)
GIVEN = 11  # tiles of the chosen complete hand dealt to the owner: 13 − 11 = CLOSE
NEAR_WIDTH = 8  # 千里眼 answers with a range of this many draws


class ItemRefused(IllegalAction):
    """An item may not be used now or so; ``code`` is ``item_moment`` (not its moment) or
    ``item_refused`` (bad parameters, nothing to act on).  Nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# ---- pattern distance ---------------------------------------------------------------------------------------
_NON_WINDS = tuple(t for t in range(NUM_KINDS) if t not in WINDS)
_NON_DRAGONS = tuple(t for t in range(NUM_KINDS) if t not in DRAGONS)


def _sets(tiles: Sequence[Tile]) -> list[tuple[Tile, ...]]:
    """Pungs of ``tiles`` and the chows made only of ``tiles``."""
    pool = set(tiles)
    out: list[tuple[Tile, ...]] = [(t, t, t) for t in tiles]
    out += [(t, t + 1, t + 2) for t in tiles if t < 27 and t % 9 <= 6 and {t + 1, t + 2} <= pool]
    return out


def _overlap(counts: Sequence[int], need: dict[Tile, int]) -> int:
    return sum(min(counts[t], n) for t, n in need.items())


_SUIT_SETS = _sets(range(9))  # the sets of one suit, tiles 1–9 as 0–8


@lru_cache(maxsize=1)
def _one_suit_hands() -> tuple[tuple[int, ...], ...]:
    """Every complete four-sets-and-a-pair hand of one suit, as 9 counts (tiles 1–9)."""
    found: set[tuple[int, ...]] = set()

    def rec(start: int, k: int, c: list[int]) -> None:
        if k == 4:
            for p in range(9):
                if c[p] <= 2:
                    v = list(c)
                    v[p] += 2
                    found.add(tuple(v))
            return
        for i in range(start, len(_SUIT_SETS)):
            s = _SUIT_SETS[i]
            if all(c[t] + s.count(t) <= 4 for t in set(s)):
                for t in s:
                    c[t] += 1
                rec(i, k + 1, c)
                for t in s:
                    c[t] -= 1

    rec(0, 0, [0] * 9)
    return tuple(sorted(found))


def _suit_overlap(h: Sequence[int]) -> int:
    """The most tiles of ``h`` (9 counts of one suit) that one complete hand of that suit holds —
    a branch-and-bound over four sets and a pair (the same as the maximum over
    :func:`_one_suit_hands`, which the tests check, but ~100× faster)."""
    total = sum(h)
    cap = min(total, 14)
    best = 0
    c = [0] * 9

    def rec(start: int, k: int, ov: int) -> None:
        nonlocal best
        if best == cap:
            return
        if k == 4:
            for p in range(9):
                if c[p] <= 2:
                    best = max(best, ov + min(2, max(0, h[p] - c[p])))
            return
        if ov + 3 * (4 - k) + 2 <= best:
            return
        for i in range(start, len(_SUIT_SETS)):
            s = _SUIT_SETS[i]
            gain = 0
            for t in s:
                if c[t] < h[t]:
                    gain += 1
                c[t] += 1
            if all(c[t] <= 4 for t in s):
                rec(i, k + 1, ov + gain)
            for t in s:
                c[t] -= 1

    rec(0, 0, 0)
    return best


def pattern_distance(counts: Sequence[int], pattern: str) -> int:
    """How far a concealed hand (13 or 14 tiles, no melds) is from ready for ``pattern``, by the
    pattern's own shanten: ``13 − (the most tiles it shares with one complete hand of the pattern)``.
    0 = ready (13 tiles) / one tile to exchange (14), −1 = a complete hand of the pattern (14 tiles).

    大四喜: four wind pungs and any pair; 大三元: three dragon pungs, any set and any pair; 十三幺:
    the thirteen terminals and honours and a pair of one of them (the usual 13 − kinds − pair);
    清一色: four sets and a pair all of one suit."""
    c = list(counts[:NUM_KINDS])
    if pattern == BIG_FOUR_WINDS:
        best = sum(min(c[w], 3) for w in WINDS) + max(min(c[t], 2) for t in _NON_WINDS)
    elif pattern == BIG_THREE_DRAGONS:
        rest = 0
        for s in _sets(_NON_DRAGONS):
            need_s: dict[Tile, int] = {}
            for t in s:
                need_s[t] = need_s.get(t, 0) + 1
            for p in _NON_DRAGONS:
                need = dict(need_s)
                need[p] = need.get(p, 0) + 2
                if need[p] <= 4:
                    rest = max(rest, _overlap(c, need))
        best = sum(min(c[d], 3) for d in DRAGONS) + rest
    elif pattern == THIRTEEN_ORPHANS:
        best = sum(1 for t in TERMINALS_AND_HONORS if c[t]) + any(c[t] >= 2 for t in TERMINALS_AND_HONORS)
    elif pattern == FULL_FLUSH:
        best = max(_suit_overlap(c[9 * suit : 9 * suit + 9]) for suit in range(3))
    else:
        raise ValueError(f"unknown pattern {pattern!r}: use one of {', '.join(PATTERNS)}")
    return 13 - best


# ---- 乾坤大挪移: the arranged start ---------------------------------------------------------------------------
def _target(pattern: str, rng: SeedStream) -> list[Tile]:
    """One complete hand (14 tiles) of ``pattern``, drawn from ``rng``."""
    if pattern == BIG_FOUR_WINDS:
        pair = _NON_WINDS[rng.below(len(_NON_WINDS))]
        return [w for w in WINDS for _ in range(3)] + [pair, pair]
    if pattern == THIRTEEN_ORPHANS:
        return [*TERMINALS_AND_HONORS, TERMINALS_AND_HONORS[rng.below(len(TERMINALS_AND_HONORS))]]
    if pattern == BIG_THREE_DRAGONS:
        sets = _sets(_NON_DRAGONS)
        while True:
            s = list(sets[rng.below(len(sets))])
            pair = _NON_DRAGONS[rng.below(len(_NON_DRAGONS))]
            if s.count(pair) + 2 <= 4:
                return [d for d in DRAGONS for _ in range(3)] + s + [pair, pair]
    if pattern == FULL_FLUSH:
        hands = _one_suit_hands()
        v = hands[rng.below(len(hands))]
        base = 9 * rng.below(3)
        return [base + i for i in range(9) for _ in range(v[i])]
    raise ValueError(f"unknown pattern {pattern!r}: use one of {', '.join(PATTERNS)}")


def _sample(rng: SeedStream, items: Sequence[Any], k: int) -> list[Any]:
    pool = list(items)
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def qiankun_swaps(
    rules: Ruleset, seed: bytes, dealer: int, uses: Sequence[dict[str, Any]]
) -> tuple[list[tuple[int, int]], list[dict[str, Any]]]:
    """The wall swaps for the 乾坤大挪移 ``uses`` (``{"seat", "pattern" (or None: drawn)}``, applied
    in order) of the hand that ``seed`` deals with ``dealer``; returns (swaps, the uses as logged).
    Everything is drawn from the stream of ``seed`` labelled by the seat, so it is reproducible."""
    wall = Wall.build(rules.tile_set(), seed, rules.stacks_per_wall, rules.dead_wall)
    wanted: dict[int, Tile] = {}
    logged: list[dict[str, Any]] = []
    supply = {t: wall.tiles.count(t) for t in set(wall.tiles)}
    for use in uses:
        seat = int(use["seat"])
        rng = SeedStream(seed, f"item:{QIANKUN}:{seat}".encode())
        pattern = use.get("pattern") or list(PATTERNS)[rng.below(len(PATTERNS))]
        if pattern not in PATTERNS:
            raise ItemRefused("item_refused", f"unknown pattern {pattern!r}: use one of {', '.join(PATTERNS)}")
        positions = deal_positions((seat - dealer) % 4)
        for _ in range(64):  # a later use must fit the tiles earlier uses left
            chosen = _sample(rng, _target(pattern, rng), GIVEN)
            taken = list(wanted.values()) + chosen
            if all(taken.count(t) <= supply.get(t, 0) for t in set(chosen)):
                break
        else:
            raise ItemRefused("item_refused", f"no {PATTERNS[pattern]} start fits this deal")
        for pos, t in zip(_sample(rng, positions, GIVEN), chosen, strict=True):
            wanted[pos] = t
        logged.append({"seat": seat, "item": QIANKUN, "pattern": pattern})
    return swaps_for(wall.tiles, wanted), logged


def with_qiankun(hand: Hand, uses: Sequence[dict[str, Any]]) -> Hand:
    """The same hand (rules, seed, dealer, scores, header) dealt again from its seed with the
    乾坤大挪移 ``uses`` (added to those it already records): call before any decision.  The returned
    hand's ``hand_start`` records the swaps and the uses."""
    if not all(_events.dealing(e["type"]) for e in hand.events):
        raise ItemRefused("item_moment", "乾坤大挪移 is used before the hand starts")
    head = hand.events[0]
    extra = {k: v for k, v in head.items() if k not in _events.HEADER_KEYS}
    before = list(extra.get("items", []))
    prior = [u for u in before if u.get("item") == QIANKUN]  # dealt again: all uses together
    swaps, logged = qiankun_swaps(hand.rules, hand.seed, hand.dealer, [*prior, *uses])
    extra["items"] = [u for u in before if u.get("item") != QIANKUN] + logged
    return Hand(
        hand.rules,
        hand.seed,
        dealer=hand.dealer,
        prevalent=hand.prevalent,
        scores=hand.scores_before,
        hand_no=hand.hand_no,
        extra=extra,
        arrange=swaps,
    )


def start_problem(head: dict[str, Any], rules: Ruleset) -> str | None:
    """For a ``hand_start`` that records 乾坤大挪移 uses: None when its ``arrange`` is exactly what
    the seed derives for them, else what is wrong."""
    uses = [u for u in head.get("items", []) if u.get("item") == QIANKUN]
    if not uses:
        return None
    swaps, _ = qiankun_swaps(rules, bytes.fromhex(head["seed"]), head["dealer"], uses)
    got = [tuple(p) for p in head.get("arrange", [])]
    return None if got == swaps else "the arrangement does not follow from the seed and the 乾坤大挪移 uses"


# ---- in-hand items ---------------------------------------------------------------------------------------------
def live_positions(wall: Wall | SeatWalls) -> list[int]:
    """Wall positions still to be drawn live, in draw order from the head (the dead wall and a
    reserved indicator excluded)."""
    if not isinstance(wall, Wall):
        return []  # a wall in one part per seat has no live head to draw from: no items
    out = [i for i in range(wall.head, len(wall.tiles)) if not wall.taken[i] and i not in wall.reserved]
    return out[: wall.live]


def item_stream(hand: Hand, item: str) -> SeedStream:
    """The randomness of one use: the hand's seed, the item and the index its event will have."""
    return SeedStream(hand.seed, f"item:{item}:{len(hand.events)}".encode())


def usable(hand: Hand, seat: int) -> list[str]:
    """The in-hand items whose moment it is for ``seat`` (ownership is the hall's business)."""
    if hand.phase is not Phase.TURN or hand.current != seat or not live_positions(hand.wall):
        return []
    return list(HAND_ITEMS)


def _tile(x: Any, what: str) -> Tile:
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 42:
        raise ItemRefused("item_refused", f"{what}: name a tile")
    return x


def check(hand: Hand, seat: int, item: str, tile: Tile | None = None, target: Tile | None = None) -> None:
    """Raise :class:`ItemRefused` unless ``seat`` may use ``item`` now with these parameters."""
    spec = ITEMS.get(item)
    if spec is None or item not in HAND_ITEMS:
        raise ItemRefused("item_refused", f"{item!r} is not an item used during a hand")
    if hand.over:
        raise ItemRefused("item_moment", "the hand is over")
    if hand.phase is not Phase.TURN or hand.current != seat:
        when = "on your turn to discard" if spec.when == DISCARD_TURN else "on your turn"
        raise ItemRefused("item_moment", f"{spec.zh} can only be used {when}")
    live = live_positions(hand.wall)
    if not live:
        raise ItemRefused("item_moment", "the live wall is empty")
    st = hand.seats[seat]
    if "tile" in spec.needs:
        t = _tile(tile, f"{spec.zh} needs the tile of your hand to give back")
        if t >= NUM_KINDS or not st.counts[t]:
            raise ItemRefused("item_refused", f"you hold no {tile_str(t)} in your concealed hand")
    if "target" in spec.needs:
        t = _tile(target, f"{spec.zh} needs the tile you want (target)")
        if item == TOUTIAN:
            if t >= NUM_KINDS or hand.rules.is_bonus(t):
                raise ItemRefused("item_refused", "偷天换日 takes a suit or honour tile, not a flower")
            if t == tile:
                raise ItemRefused("item_refused", "give back a different tile than the one you want")
        elif t not in set(hand.rules.tile_set()):
            raise ItemRefused("item_refused", f"this game has no {tile_str(t)}")
    if item == YIHUA and not any(not hand.rules.is_bonus(hand.wall.tiles[i]) for i in live):
        raise ItemRefused("item_moment", "no suit or honour tile is left in the live wall")


def use(hand: Hand, seat: int, item: str, tile: Tile | None = None, target: Tile | None = None) -> dict[str, Any]:
    """Use ``item`` for ``seat`` now (``tile``: the tile given back; ``target``: the tile wanted or
    sought); returns the logged event.  Raises :class:`ItemRefused` (nothing changed)."""
    check(hand, seat, item, tile, target)
    wall = hand.wall
    live = live_positions(wall)
    event: dict[str, Any] = {"type": "item", "seat": seat, "item": item}
    exchange: tuple[Tile, int] | None = None
    if item == TOUTIAN:
        assert tile is not None and target is not None
        copies = [i for i in live if wall.tiles[i] == target]
        event.update(give=tile, tile=target, found=bool(copies))
        if copies:
            exchange = (tile, copies[item_stream(hand, item).below(len(copies))])
    elif item == YIHUA:
        assert tile is not None
        pool = [i for i in live if not hand.rules.is_bonus(wall.tiles[i])]
        idx = pool[item_stream(hand, item).below(len(pool))]
        event.update(give=tile, tile=wall.tiles[idx], found=True)
        exchange = (tile, idx)
    elif item == QIANLIYAN:
        assert target is not None
        d = next((k for k, i in enumerate(live) if wall.tiles[i] == target), None)
        near = None
        if d is not None:
            lo = d // NEAR_WIDTH * NEAR_WIDTH + 1
            near = [lo, min(lo + NEAR_WIDTH - 1, len(live))]
        event.update(tile=target, found=d is not None, near=near)
    else:  # SHUNFENGER
        event.update(tile=wall.tiles[live[0]])
    event["private_to"] = seat
    hand.intervene(seat, event, exchange)
    return event


def params_of(event: dict[str, Any]) -> tuple[Tile | None, Tile | None]:
    """(tile, target) of a logged in-hand use: what the player named."""
    item = event["item"]
    if item == TOUTIAN:
        return event["give"], event["tile"]
    if item == YIHUA:
        return event["give"], None
    if item == QIANLIYAN:
        return None, event["tile"]
    return None, None


def replay_item(hand: Hand, event: dict[str, Any]) -> None:
    """Re-apply a logged use (the replay draws the same randomness, so the event comes out equal)."""
    tile, target = params_of(event)
    use(hand, event["seat"], event["item"], tile, target)
