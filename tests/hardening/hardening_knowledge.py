"""What one seat may legitimately know at each point of a hand, rebuilt from the hand's full log
(``GET /api/hands/{id}``: every event, every tile, the seed) independently of the server's own
filter (``majiang.engine.view``) — and the checks of every message a seat received against it.

Rules (docs/protocol.md, mcr.md): a seat knows its own dealt tiles, draws, flower replacements and
concealed kongs; everyone knows discards, claims (chow/pung/exposed and added kongs), flowers, an
added kong's tile, a robbed tile and a falsely declared tile.  Nobody knows another seat's concealed
tiles, another seat's draws or replacements, the face of another seat's concealed kong, any tile
still in the wall, or the seed — until the hand ends (the win / exhausted / hand_end event).
Spectators (seat -1) know only the public part.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hardening_harness import FLOWERS, tile_strings

TERMINAL = {"win", "exhausted", "hand_end"}
PUBLIC_EVENTS = {
    "dice",
    "discard",
    "chow",
    "pung",
    "add_kong_declared",
    "robbed",
    "payment",
    "false_win",
    "win",
    "exhausted",
    "hand_end",
}
VIEW_KEYS = {
    "seat",
    "rules",
    "hand_no",
    "dealer",
    "prevalent",
    "seat_wind",
    "phase",
    "current",
    "wall",
    "scores",
    "hand",
    "drawn",
    "seats",
    "pending",
    "legal",
    "seed_hash",
    "public",
}
# a spectator's public view (majiang.engine.view.public_view): no seat, so every seat's wind; the dice
PUBLIC_VIEW_KEYS = VIEW_KEYS | {"seat_winds", "dice"}
SEAT_KEYS = {"seat", "melds", "discards", "claimed", "moqie", "flowers", "concealed_count"}
# keys whose strings are words, not tiles (E/S/W/N as winds, people's names and chat)
NOT_TILES = frozenset(
    {
        "chat",
        "name",
        "text",
        "from",
        "prevalent",
        "seat_wind",
        "seat_winds",
        "table",
        "room",
        "rooms",
        "fans",
        "zh",
        "account",
        "reason",
        "message",
    }
)


class Violation(AssertionError):
    pass


def fail(ctx: str, why: str, msg: Any) -> None:
    raise Violation(f"{ctx}: {why}\n  message: {json.dumps(msg, ensure_ascii=False)[:1500]}")


class Replay:
    """The true state after the first ``k`` events of a hand, advanced event by event."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.events = events
        self.k = 0
        self.conc = [Counter[str]() for _ in range(4)]  # concealed tiles (the truth)
        self.flowers: list[list[str]] = [[] for _ in range(4)]
        self.discards: list[list[str]] = [[] for _ in range(4)]
        self.moqie: list[list[bool]] = [[] for _ in range(4)]  # public: the tile just drawn thrown
        self.melds: list[list[dict[str, Any]]] = [[] for _ in range(4)]
        self.public: set[str] = set()  # tile kinds everyone has seen
        self.held: list[set[str]] = [set() for _ in range(4)]  # kinds each seat ever held itself
        self.pending: tuple[int, str] | None = None
        self.end = next((i for i, e in enumerate(events) if e["type"] in TERMINAL), len(events))

    def _take(self, seat: int, tile: str) -> None:
        self.held[seat].add(tile)
        if tile in FLOWERS:
            self.flowers[seat].append(tile)
        else:
            self.conc[seat][tile] += 1

    def _drop(self, seat: int, tile: str, n: int = 1) -> None:
        self.conc[seat][tile] -= n
        assert self.conc[seat][tile] >= 0, f"replay: seat {seat} drops a {tile} it does not hold"

    def advance(self, k: int) -> None:
        assert k >= self.k, "replay cannot go back"
        while self.k < k:
            self._apply(self.events[self.k])
            self.k += 1

    def _apply(self, e: dict[str, Any]) -> None:
        t, s = e["type"], e.get("seat")
        if t == "deal":
            for seat, hand in enumerate(e["hands"]):
                for x in hand:
                    self._take(seat, x)
        elif t == "draw":
            self._take(s, e["tile"])
        elif t == "flower":
            self.public.add(e["tile"])
            if e.get("replacement") is not None:
                self._take(s, e["replacement"])
        elif t == "discard":
            self._drop(s, e["tile"])
            self.discards[s].append(e["tile"])
            self.moqie[s].append(e["moqie"])
            self.public.add(e["tile"])
            self.pending = (s, e["tile"])
        elif t == "chow":
            rest = list(e["tiles"])
            rest.remove(e["tile"])
            for x in rest:
                self._drop(s, x)
            self.melds[s].append({"kind": "chow", "tiles": list(e["tiles"]), "concealed": False})
            self.public.update(e["tiles"])
            self.pending = None
        elif t == "pung":
            self._drop(s, e["tile"], 2)
            self.melds[s].append({"kind": "pung", "tiles": [e["tile"]] * 3, "concealed": False})
            self.public.add(e["tile"])
            self.pending = None
        elif t == "kong":
            kind, tile = e["kind"], e["tile"]
            if kind == "exposed":
                self._drop(s, tile, 3)
                self.melds[s].append({"kind": "kong", "tiles": [tile] * 4, "concealed": False})
                self.public.add(tile)
            elif kind == "added":
                self._drop(s, tile)
                for m in self.melds[s]:
                    if m["kind"] == "pung" and m["tiles"][0] == tile:
                        m["kind"], m["tiles"] = "kong", [tile] * 4
                        break
                else:
                    raise AssertionError(f"replay: added kong of {tile} without a pung")
                self.public.add(tile)
            else:
                self._drop(s, tile, 4)
                self.melds[s].append({"kind": "kong", "tiles": [tile] * 4, "concealed": True})
            self.pending = None
        elif t == "add_kong_declared":
            self.public.add(e["tile"])
            self.pending = (s, e["tile"])
        elif t == "robbed":
            self._drop(e["from"], e["tile"])
        elif t == "false_win":
            self.public.add(e["tile"])

    # ---- what a seat may know ------------------------------------------------------------------
    def knowable(self, seat: int) -> set[str]:
        return self.public | (self.held[seat] if 0 <= seat < 4 else set())


def check_event(sent: dict[str, Any], full: dict[str, Any], seat: int, pre_end: bool, ctx: str) -> None:
    """One event as ``seat`` received it against the log's event: nothing invented, nothing hidden."""
    t = full["type"]
    if sent.get("type") != t:
        fail(ctx, f"event type {sent.get('type')!r} where the log has {t!r}", sent)
    owner = full.get("seat")
    mine = 0 <= seat < 4 and owner == seat
    for k, v in sent.items():
        if k == "counts" and t == "deal":
            if v != [len(h) for h in full["hands"]]:
                fail(ctx, "deal counts differ from the log", sent)
            continue
        if k == "hands" and t == "deal":
            continue
        if k not in full:
            fail(ctx, f"event field {k!r} that the log does not have", sent)
        if v != full[k]:
            fail(ctx, f"event field {k!r} differs from the log", sent)
    if not pre_end:
        return
    if t == "hand_start":
        if "seed" in sent:
            fail(ctx, "the seed in hand_start", sent)
    elif t == "deal":
        for s, h in enumerate(sent.get("hands", [])):
            if s != seat and h:
                fail(ctx, f"seat {s}'s dealt tiles sent to seat {seat}", sent)
            if s == seat and sorted(h) != sorted(full["hands"][s]):
                fail(ctx, "own dealt tiles differ from the log", sent)
    elif t == "draw":
        if not mine and "tile" in sent:
            fail(ctx, f"seat {owner}'s draw sent to seat {seat}", sent)
    elif t == "flower":
        if not mine and "replacement" in sent:
            fail(ctx, f"seat {owner}'s flower replacement sent to seat {seat}", sent)
    elif t == "kong":
        if full.get("kind") == "concealed" and not mine and "tile" in sent:
            fail(ctx, f"the face of seat {owner}'s concealed kong sent to seat {seat}", sent)
    elif t not in PUBLIC_EVENTS:
        fail(ctx, f"an event type this scan does not know ({t}): review what it reveals", sent)


def check_view(view: dict[str, Any], rp: Replay, seat: int, ctx: str, msg: Any) -> None:
    """A SeatView as sent to ``seat`` while the hand is in play, against the replayed truth; a
    spectator (seat -1) gets the public view: no seat, no hand, no drawn tile, nothing legal."""
    extra = set(view) - (PUBLIC_VIEW_KEYS if seat < 0 else VIEW_KEYS)
    if extra:
        fail(ctx, f"view fields beyond the documented ones: {sorted(extra)} (seed/result/hidden tiles?)", msg)
    if view.get("seat") != (None if seat < 0 else seat):
        fail(ctx, f"a view of seat {view.get('seat')} sent to seat {seat}", msg)
    if not isinstance(view.get("wall"), int) or isinstance(view.get("wall"), bool):
        fail(ctx, "the wall is not a count", msg)
    if seat < 0:
        if view["hand"] or view.get("drawn") is not None or view.get("legal"):
            fail(ctx, "a spectator's view holds a hand, a drawn tile or legal actions", msg)
    elif Counter(view["hand"]) != +rp.conc[seat]:
        fail(ctx, f"own hand {sorted(view['hand'])} differs from the log's {sorted((+rp.conc[seat]).elements())}", msg)
    if seat >= 0 and view.get("drawn") is not None and rp.conc[seat][view["drawn"]] < 1:
        fail(ctx, "the drawn tile is not in the seat's hand", msg)
    for sv in view["seats"]:
        o = sv["seat"]
        extra = set(sv) - SEAT_KEYS
        if extra:
            fail(ctx, f"seat {o} in the view has undocumented fields {sorted(extra)}", msg)
        if sv["discards"] != rp.discards[o] or sv["moqie"] != rp.moqie[o]:
            fail(ctx, f"seat {o}'s discards (or their 摸切 flags) differ from the log", msg)
        if sorted(sv["flowers"]) != sorted(rp.flowers[o]):
            fail(ctx, f"seat {o}'s flowers differ from the log", msg)
        if sv["concealed_count"] != sum(rp.conc[o].values()):
            fail(ctx, f"seat {o}'s concealed count differs from the log", msg)
        truth = rp.melds[o]
        if len(sv["melds"]) != len(truth):
            fail(ctx, f"seat {o} shows {len(sv['melds'])} melds, the log has {len(truth)}", msg)
        for m, tm in zip(sv["melds"], truth, strict=True):
            if m["concealed"] != tm["concealed"]:
                fail(ctx, f"seat {o}'s meld concealment differs from the log", msg)
            if tm["concealed"] and o != seat:
                if m["tiles"] != [None] * 4:
                    fail(ctx, f"the face of seat {o}'s concealed kong sent to seat {seat}", msg)
            elif sorted(m["tiles"]) != sorted(tm["tiles"]):
                fail(ctx, f"seat {o}'s meld tiles differ from the log", msg)
    pend = view.get("pending")
    if pend is not None and (rp.pending is None or [pend["seat"], pend["tile"]] != list(rp.pending)):
        fail(ctx, f"pending {pend} is not the tile on offer in the log ({rp.pending})", msg)
    own = (set(+rp.conc[seat]) if seat >= 0 else set()) | ({rp.pending[1]} if rp.pending else set())
    for a in view.get("legal", []):
        for x in [a.get("tile"), *(a.get("tiles") or [])]:
            if x is not None and x not in own:
                fail(ctx, f"a legal action with {x}, neither held nor on offer", msg)


def scan_tiles(msg: Any, rp: Replay, seat: int, ctx: str) -> None:
    """Every tile string anywhere in a message must be one the seat may know at this point."""
    known = rp.knowable(seat)
    for x in tile_strings(msg, NOT_TILES):
        if x not in known:
            fail(ctx, f"tile {x} appears although seat {seat} cannot know any {x} yet", msg)


class SeatStream:
    """Checks the messages one seat (or a spectator, seat -1) received during one hand, in order."""

    def __init__(self, log: dict[str, Any], seat: int, who: str) -> None:
        self.log = log
        self.seat = seat
        self.rp = Replay(log["events"])
        self.k = 0  # events of this hand the seat has received so far
        self.seed = log["seed"]
        self.who = who
        self.messages = 0
        self.ended = False

    def ctx(self, i: int | None = None) -> str:
        return f"hand {self.log['id']} · {self.who} (seat {self.seat})" + (f" · event {i}" if i is not None else "")

    def _pre_end_common(self, m: dict[str, Any]) -> None:
        if self.seed in json.dumps(m):
            fail(self.ctx(), "the seed before the hand ended", m)
        scan_tiles(m, self.rp, self.seat, self.ctx())

    def feed(self, m: dict[str, Any]) -> None:
        self.messages += 1
        t = m["type"]
        events = self.log["events"]
        if t == "events":
            f = m["from"]
            if f != self.k and not m.get("delayed"):
                fail(self.ctx(), f"events from {f} after {self.k} events (a gap or a repeat)", m)
            for j, ev in enumerate(m["events"]):
                i = f + j
                if i >= len(events):
                    fail(self.ctx(i), "more events than the log has", m)
                if i < self.rp.end:
                    self.rp.advance(i)
                    check_event(ev, events[i], self.seat, True, self.ctx(i))
                    if self.seed in json.dumps(ev):
                        fail(self.ctx(i), "the seed before the hand ended", ev)
                    self.rp.advance(i + 1)
                    scan_tiles(ev, self.rp, self.seat, self.ctx(i))
                else:
                    check_event(ev, events[i], self.seat, False, self.ctx(i))
                    self.ended = True
            self.k = f + len(m["events"])
            self.rp.advance(min(self.k, self.rp.end))
        elif t == "table" and "events" in m:  # (every table message names its hand: null between hands)
            self.k = len(m["events"])
            for i, ev in enumerate(m["events"]):
                check_event(ev, events[i], self.seat, i < self.rp.end, self.ctx(i))
            if self.k <= self.rp.end:
                self.rp.advance(self.k)
                if "view" in m:
                    check_view(m["view"], self.rp, self.seat, self.ctx(), m)
                self._pre_end_common(m)
        elif t == "prompt":
            if self.ended or self.k > self.rp.end:
                fail(self.ctx(), "a prompt after the hand ended", m)
            self.rp.advance(self.k)
            check_view(m["view"], self.rp, self.seat, self.ctx(), m)
            if m["legal"] != m["view"]["legal"]:
                fail(self.ctx(), "the prompt's legal differs from its view's", m)
            self._pre_end_common(m)
        elif t == "hand_end":
            self.ended = True
            if m["seed"] != self.seed:
                fail(self.ctx(), "hand_end reveals another seed than the log's", m)
            # seat_names: the bots' names as the table showed them; auto: where 托管 decided (both public)
            if set(m["result"]) - {"deltas", "win", "parts", "seat_names", "auto"}:
                fail(self.ctx(), f"result has undocumented fields {sorted(set(m['result']))}", m)
        elif not self.ended:
            self._pre_end_common(m)
