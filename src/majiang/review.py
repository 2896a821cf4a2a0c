"""AI review (复盘) of one seat's decisions in hand logs, as mjai-reviewer does for riichi.

Each hand is replayed through the engine from its log; at every decision of the reviewed seat — a
turn (discard, kong, self-drawn win) or an answer to a discard or added kong (chow, pung, kong,
win, pass) — the reviewer bot is asked what it would do from exactly that seat's
:class:`~majiang.engine.view.SeatView`, and both the player's action and the bot's are valued by
one estimate (:func:`action_estimate`, in "steps to a legal win", higher is better):

* after the action the seat holds a 13-tile hand (kongs as three); its **fan-aware shanten**
  (合法听, :func:`majiang.shanten.legal.fan_shanten`: exchanges to a wait worth the 8-fan minimum)
  counts −1 a step;
* plus :data:`USEFUL_WEIGHT` for each unseen copy of the tiles that lower the shanten (for a hand
  that is legally ready: of its legal waits; for one a step from a legal wait but plainly nearer:
  of the draws that bring a legal wait nearer), capped at :data:`USEFUL_CAP` copies, so breadth
  never outweighs a whole step;
* minus a **deal-in danger** term for the tile discarded (:func:`danger`): up to
  :data:`DANGER_WEIGHT`, growing as the wall empties;
* a claim is valued at its best following discard; a win is :data:`WIN_VALUE`, a false win
  (诈和) :data:`FALSE_WIN_VALUE`.

The loss of a decision is how much the bot's action is valued above the player's (0 when they
agree, or when the estimate prefers the player's); a review sums the losses and lists the largest.
Only the seat's view enters the estimate, so the advice is what the player could have followed.
Rulesets without fans (Nanchang) use the plain shanten (jing not counted).  Everything here is a
pure function of a log: the CLI (``majiang review``) and the hall (``GET /api/hands/{id}/review``)
only format it (docs/review.md).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from majiang.bots.base import Bot, make_bot
from majiang.engine.hand import Hand
from majiang.engine.log import hand_at_start, verify, walk
from majiang.engine.protocol import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    WIN,
    Action,
    Ruleset,
)
from majiang.engine.view import SeatView, action_json
from majiang.melds import Meld, MeldKind
from majiang.rulesets import from_header
from majiang.shanten import shanten_of_counts, useful_of_counts
from majiang.tiles import NUM_KINDS, Tile, tile_str

#: the reviewer asked for by default, and the bot used while ``best`` is not registered
REVIEWER, FALLBACK = "best", "fan"
WIN_VALUE = 3.0
FALSE_WIN_VALUE = -3.0
USEFUL_WEIGHT = 0.02
USEFUL_CAP = 40
DANGER_WEIGHT = 0.3
#: the fan-aware useful draws are searched for hands at most this far from a legal wait
FAN_USEFUL_MAX = 1
#: live wall at which the danger term is at its full weight… and the wall of a fresh MCR hand
DANGER_LATE, WALL_START = 0, 80
METHOD = (
    "value = −(fan-aware shanten after the action) + 0.02·min(unseen useful copies, 40) − danger "
    "(≤ 0.3, the discard's deal-in risk, growing as the wall empties); a claim is valued at its best "
    "following discard, a win at +3, a false win at −3; loss = bot value − player value when they differ"
)


def reviewer_spec(requested: str | None = None, rules: str = "gb") -> str:
    """The bot to review with: ``requested``, else ``best`` when :func:`make_bot` knows it (for
    ``rules``), else ``fan`` — chosen when asked, so ``best`` is used as soon as it is registered."""
    if requested:
        return requested
    try:
        bot = make_bot(REVIEWER, rules=rules)
    except ValueError:
        return FALLBACK
    close = getattr(bot, "close", None)
    if close is not None:
        close()
    return REVIEWER


# ---- the estimate -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Estimate:
    """The value of one action and what it is made of."""

    value: float
    shanten: int | None = None  # fan-aware shanten of the hand after the action (None: a win)
    useful: int = 0  # unseen useful copies (legal waits when legally ready)
    ready: bool = False  # 合法听 after the action
    danger: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": round(self.value, 3),
            "shanten": self.shanten,
            "useful": self.useful,
            "ready": self.ready,
            "danger": round(self.danger, 3),
        }


class _Position:
    """What the estimate needs of one decision, read once from the seat's view."""

    def __init__(self, view: SeatView, rules: Ruleset) -> None:
        self.view = view
        self.counts = list(view.counts)
        self.melds = list(view.melds[view.seat])
        self.min_fan = rules.min_fan  # None: a ruleset without fans
        self.profile = rules.name  # a ruleset scored in fans is named by its fan profile
        self.pending = view.pending
        # copies on the table outside this seat's melds: ponds (the pending discard included) and others' melds
        elsewhere = list(view.visible)
        for m in self.melds:
            if not m.concealed:
                for t in m.tiles:
                    elsewhere[t] -= 1
        self.elsewhere = elsewhere
        self._memo: dict[tuple[bytes, tuple[Any, ...], bool], tuple[int, int, bool]] = {}

    def hand13(self, counts: Sequence[int], melds: Sequence[Meld], claimed: bool) -> tuple[int, int, bool]:
        """(fan-aware shanten, unseen useful copies, legally ready) of a 13-tile hand; ``claimed``: the
        pending discard moved from the pond into this seat's melds."""
        key = (bytes(counts), tuple(melds), claimed)
        got = self._memo.get(key)
        if got is None:
            got = self._measure(counts, melds, claimed)
            self._memo[key] = got
        return got

    def _measure(self, counts: Sequence[int], melds: Sequence[Meld], claimed: bool) -> tuple[int, int, bool]:
        elsewhere = list(self.elsewhere)
        if claimed and self.pending is not None:
            elsewhere[self.pending[1]] -= 1
        in_melds = [0] * NUM_KINDS
        for m in melds:
            for t in m.tiles:
                if t is not None:
                    in_melds[t] += 1

        def unseen(t: Tile) -> int:
            return max(0, 4 - counts[t] - in_melds[t] - elsewhere[t])

        n = len(melds)
        plain = shanten_of_counts(counts, n)
        if self.min_fan is None:
            return plain, sum(unseen(t) for t in useful_of_counts(counts, n)), plain == 0
        from majiang.shanten.legal import FanContext, fan_shanten, wait_fans

        ctx = FanContext(
            melds=tuple(melds),
            seat_wind=self.view.seat_wind,
            prevalent_wind=self.view.prevalent,
            min_fan=self.min_fan,
            rules=self.profile,
            visible=tuple(max(0, x) for x in elsewhere),
        )
        fs, exact = fan_shanten(counts, ctx)
        if plain == 0 and fs == 0:
            return 0, sum(unseen(t) for t in ctx.legal(wait_fans(counts, ctx))), True
        if fs == plain or not exact or fs > FAN_USEFUL_MAX:
            return fs, sum(unseen(t) for t in useful_of_counts(counts, n)), False
        # short of the minimum where the plain shanten is not: the useful draws are those that bring a
        # legal wait nearer, which the plain useful tiles (often the non-legal waits themselves) are not
        c = list(counts)
        useful = 0
        for t in range(NUM_KINDS):
            if not unseen(t):
                continue
            c[t] += 1
            for d in range(NUM_KINDS):
                if c[d] and d != t:
                    c[d] -= 1
                    got, ok = fan_shanten(c, ctx, fs - 1)
                    c[d] += 1
                    if ok and got < fs:
                        useful += unseen(t)
                        break
            c[t] -= 1
        return fs, useful, False

    def after_discard(self, counts: list[int], melds: Sequence[Meld], tile: Tile, claimed: bool) -> Estimate:
        counts[tile] -= 1
        fs, useful, ready = self.hand13(counts, melds, claimed)
        counts[tile] += 1
        d = danger(self.view, tile)
        return Estimate(-fs + USEFUL_WEIGHT * min(useful, USEFUL_CAP) - d, fs, useful, ready, d)

    def held(self, counts: Sequence[int], melds: Sequence[Meld], claimed: bool = False) -> Estimate:
        fs, useful, ready = self.hand13(counts, melds, claimed)
        return Estimate(-fs + USEFUL_WEIGHT * min(useful, USEFUL_CAP), fs, useful, ready)


def danger(view: SeatView, tile: Tile) -> float:
    """The deal-in danger of discarding ``tile`` (0 to :data:`DANGER_WEIGHT`): the copies others may
    still hold (tiles others have already discarded count a fifth: they let them go), honours and
    terminals being wanted by fewer hands, scaled by how far the wall has run down."""
    late = min(1.0, max(0.0, (WALL_START - view.wall) / (WALL_START - DANGER_LATE)))
    if not late:
        return 0.0
    risk = view.unseen(tile) / 4
    if tile >= 27:
        risk *= 0.3
    elif tile % 9 in (0, 8):
        risk *= 0.6
    elif tile % 9 in (1, 7):
        risk *= 0.8
    if any(tile in view.discards[s] for s in range(4) if s != view.seat):
        risk *= 0.2
    return DANGER_WEIGHT * late * risk


def action_estimate(view: SeatView, rules: Ruleset, action: Action, position: _Position | None = None) -> Estimate:
    """The value of ``action`` for the seat of ``view`` (see the module docstring)."""
    p = position or _Position(view, rules)
    counts, melds = list(p.counts), p.melds
    t = action.type
    if t == WIN:
        return Estimate(WIN_VALUE if action in view.legal else FALSE_WIN_VALUE)
    if t == DISCARD:
        return p.after_discard(counts, melds, action.tile, False)
    if t == PASS:
        return p.held(counts, melds)
    if t == CONCEALED_KONG:
        counts[action.tile] -= 4
        return p.held(counts, [*melds, Meld(MeldKind.KONG, (action.tile,) * 4, concealed=True)])
    if t == ADDED_KONG:
        counts[action.tile] -= 1
        kept = [m for m in melds if not (m.kind == "pung" and m.tile == action.tile)]
        return p.held(counts, [*kept, Meld(MeldKind.KONG, (action.tile,) * 4, added=True)])
    if t == KONG:
        counts[action.tile] -= 3
        return p.held(counts, [*melds, Meld(MeldKind.KONG, (action.tile,) * 4, source=1)], claimed=True)
    if t == PUNG:
        counts[action.tile] -= 2
        meld = Meld(MeldKind.PUNG, (action.tile,) * 3, source=1)
    elif t == CHOW:
        for x in action.tiles:
            if x != action.tile:
                counts[x] -= 1
        meld = Meld(MeldKind.CHOW, action.tiles, claimed=action.tiles.index(action.tile))
    else:
        raise ValueError(f"cannot value a {t!r}")
    after = [*melds, meld]
    return max((p.after_discard(counts, after, d, True) for d in range(NUM_KINDS) if counts[d]), key=lambda e: e.value)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat: the log's next event index (the replay position showing the
    table as the player saw it), the seat's turn (巡: its discards so far + 1), the phase, the hand."""

    event: int
    turn: int
    phase: str
    hand: tuple[Tile, ...]  # concealed, the drawn tile apart
    melds: tuple[tuple[Tile, ...], ...]  # the seat's declared sets
    drawn: Tile | None
    offered: Tile | None  # the discard or added-kong tile answered
    player: Action
    bot: Action
    player_estimate: Estimate
    bot_estimate: Estimate
    auto: bool = False  # taken by 托管 for the player (a timeout, 托管 on): shown, never counted as his

    @property
    def agree(self) -> bool:
        return self.player == self.bot

    @property
    def loss(self) -> float:
        return 0.0 if self.agree else max(0.0, self.bot_estimate.value - self.player_estimate.value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "turn": self.turn,
            "phase": self.phase,
            "hand": [tile_str(t) for t in self.hand],
            "melds": [[tile_str(t) for t in m if t is not None] for m in self.melds],
            "drawn": tile_str(self.drawn) if self.drawn is not None else None,
            "offered": tile_str(self.offered) if self.offered is not None else None,
            "player": action_json(self.player),
            "bot": action_json(self.bot),
            "player_value": round(self.player_estimate.value, 3),
            "bot_value": round(self.bot_estimate.value, 3),
            "player_estimate": self.player_estimate.to_dict(),
            "bot_estimate": self.bot_estimate.to_dict(),
            "agree": self.agree,
            "loss": round(self.loss, 3),
            "auto": self.auto,
        }


@dataclass(frozen=True, slots=True)
class Summary:
    decisions: int
    agreed: int
    loss: float

    @property
    def agreement(self) -> float:
        return self.agreed / self.decisions if self.decisions else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "agreed": self.agreed,
            "agreement": round(self.agreement, 4),
            "loss": round(self.loss, 3),
        }


def summarize(decisions: Sequence[Decision]) -> Summary:
    """The player's own decisions' agreement and loss (托管's are left out)."""
    own = [d for d in decisions if not d.auto]
    return Summary(len(own), sum(d.agree for d in own), sum(d.loss for d in own))


@dataclass(frozen=True, slots=True)
class HandReview:
    hand_no: int
    seat: int
    rules: str
    reviewer: str
    decisions: tuple[Decision, ...]
    label: str = ""  # where the hand came from (a file name, a hall hand id)

    @property
    def summary(self) -> Summary:
        return summarize(self.decisions)

    def mistakes(self, top: int) -> list[Decision]:
        """The ``top`` decisions with the largest loss (ties: earlier first), losses only."""
        return sorted((d for d in self.decisions if d.loss > 0 and not d.auto), key=lambda d: (-d.loss, d.event))[:top]

    def to_dict(self, top: int = 5) -> dict[str, Any]:
        return {
            "label": self.label,
            "hand_no": self.hand_no,
            "seat": self.seat,
            "rules": self.rules,
            "reviewer": self.reviewer,
            "summary": self.summary.to_dict(),
            "decisions": [d.to_dict() for d in self.decisions],
            "mistakes": [d.event for d in self.mistakes(top)],
        }


@dataclass(frozen=True, slots=True)
class SessionReview:
    reviewer: str
    hands: tuple[HandReview, ...] = field(default_factory=tuple)

    @property
    def summary(self) -> Summary:
        return summarize([d for h in self.hands for d in h.decisions])

    def mistakes(self, top: int) -> list[tuple[int, Decision]]:
        """The ``top`` largest losses of the session: (index of the hand, decision)."""
        every = [(i, d) for i, h in enumerate(self.hands) for d in h.decisions if d.loss > 0 and not d.auto]
        return sorted(every, key=lambda x: (-x[1].loss, x[0], x[1].event))[:top]

    def to_dict(self, top: int = 5) -> dict[str, Any]:
        return {
            "reviewer": self.reviewer,
            "method": METHOD,
            "summary": self.summary.to_dict(),
            "hands": [h.to_dict(top) for h in self.hands],
            "mistakes": [{**d.to_dict(), "hand_index": i, "label": self.hands[i].label} for i, d in self.mistakes(top)],
        }


def review_hand(
    events: list[dict[str, Any]],
    seat: int,
    bot: str | None = None,
    *,
    make_rules: Callable[[dict[str, Any]], Ruleset] = from_header,
    seed: int = 0,
    label: str = "",
    auto_events: Collection[int] = (),
) -> HandReview:
    """Review ``seat``'s decisions in one hand log (engine events, :func:`majiang.engine.log.read_log`).
    ``bot``: the reviewer spec (default :func:`reviewer_spec`); a fresh one per hand, seeded ``seed``.
    ``auto_events``: the event indices at which 托管 decided for the seat (the hall's ``result.auto``):
    those decisions are marked ``auto`` and left out of the summary and the mistakes.
    Raises ValueError when the log does not replay exactly."""
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat is 0 to 3, got {seat!r}")
    ok, msg = verify(events, make_rules)
    if not ok:
        raise ValueError(f"the log does not replay: {msg}")
    head = events[0]
    spec = reviewer_spec(bot, head["rules"])
    hand = hand_at_start(events, make_rules)
    rules = hand.rules
    reviewer: Bot = make_bot(spec, seed, rules=head["rules"])
    out: list[Decision] = []
    try:
        for s, taken in walk(hand, events):
            if s == seat and (hand.legal(seat) or taken.type == WIN):
                d = _decision(hand, seat, taken, reviewer, rules)
                out.append(replace(d, auto=True) if d.event in auto_events else d)
    finally:
        close = getattr(reviewer, "close", None)
        if close is not None:
            close()
    return HandReview(hand.hand_no, seat, head["rules"], spec, tuple(out), label)


def _decision(hand: Hand, seat: int, taken: Action, reviewer: Bot, rules: Ruleset) -> Decision:
    view = SeatView(hand, seat)
    legal = list(view.legal)
    position = _Position(view, rules)
    choice = reviewer.choose(SeatView(hand, seat), list(legal)) if legal else taken
    if choice not in legal:
        choice = hand.default_action(seat)  # a bot that answered off the list: the engine's 托管
    player_est = action_estimate(view, rules, taken, position)
    bot_est = player_est if choice == taken else action_estimate(view, rules, choice, position)
    tiles = view.concealed()
    if view.drawn is not None and view.drawn in tiles:
        tiles.remove(view.drawn)  # shown apart, as the table shows it
    return Decision(
        event=len(hand.events),
        turn=len(hand.seats[seat].discards) + 1,
        phase=view.phase,
        hand=tuple(tiles),
        melds=tuple(tuple(m.tiles) for m in view.melds[seat]),
        drawn=view.drawn,
        offered=view.pending[1] if view.pending else None,
        player=taken,
        bot=choice,
        player_estimate=player_est,
        bot_estimate=bot_est,
    )


def seat_of_player(head: dict[str, Any], player: str) -> int:
    """The seat whose header entry (``names``, else ``players``) is ``player``."""
    for key in ("names", "players"):
        entries = head.get(key)
        if isinstance(entries, list):
            for s, name in enumerate(entries):
                if name is not None and str(name) == player:
                    return s
    raise ValueError(f"no player {player!r} in hand {head.get('hand_no', 0)}")
