"""The expected-value MCR bot (``ev``; ``best`` is its alias): every choice is worth its chance of a
legal win times what the win pays, less what a deal-in would cost (docs/bots.md).

For each discard (and each claim, followed by its best discard) it values the 13-tile hand it keeps,
from what the seat can see (the unseen copies of each tile, the draws left):

* **ready** (听牌): the waits are scored by the fan calculator (:func:`majiang.shanten.legal.wait_fans`);
  only a wait reaching 8 fan counts — a discard-win wait for the own draw and the other players'
  discards, a self-drawn-only wait for the own draw alone — by its unseen copies.  They give a per-turn
  hazard ``h``; the chance of a win in the ``r`` draws left, the hand ending first by another win at
  ``END_RATE`` a turn, times ``WIN_BASE + WIN_FAN · fan`` (点和 and 自摸 mixed) is the value;
* **one from ready** (一向听): the exact expectation over the next useful draw and the best discard
  after it of the ready hands reached, summed over the turn the draw comes;
* **two from ready** (二向听): the same one level up, over the 一向听 values (memoised per decision);
  with ``depth=3`` (``ev@3``) **three from ready** (三向听) the same again, over the 二向听 values;
* further, or when no discard reaches a legal ready hand within ``depth`` steps: the fan bot decides
  (:class:`~majiang.bots.fan.FanBot`: pattern distance, late defence).

A ready shape under 8 fan is worth nothing, so the bot keeps legal waits.  Each discard's value is
discounted by its deal-in chance: per opponent an apparent readiness (discards, melds, wall left)
times a per-tile danger (that opponent's pond and its 筋 are safer, a tile nobody can still hold
nearly safe), the cost being the lost hand plus ``DEAL_IN_COST``.

Decisions use no randomness.  ``max_nodes`` (shanten evaluations, about 1.3 µs each) bounds the
search deterministically, far above what a decision needs (≤ 20,000 seen); ``budget_s`` (CPU
seconds) is a safety net.  Past either the remaining candidates go unsearched.

Where the compiled hand core plays, this bot (as configured by default) decides in C instead
(``_speedups/ev_core.h``, :mod:`majiang.bots.incore`): the same values in the same floating-point
order, the same node count and memo, so the same choices, about seven times faster; change the two
together (``tests/engine/test_core_equal.py`` holds them equal).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from majiang.bots.fan import FanBot, after_claim
from majiang.engine.protocol import ADDED_KONG, CHOW, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, WIN, Action
from majiang.engine.view import SeatView
from majiang.mcr.rules import get_rules
from majiang.melds import Meld, MeldKind
from majiang.shanten.efficiency import _fast, _shanten, shanten_of_counts, useful_mask_of_counts
from majiang.shanten.legal import FanContext, wait_fans

#: per own turn, a live copy of a discard-win wait wins ``(1 + RON) / unseen``: the own draw and the
#: other three players' discards (they keep some of what they hold)
RON = 1.2
#: what a win pays on average, ``WIN_BASE + WIN_FAN · fan`` (点和 24 + fan, 自摸 24 + 3·fan)
WIN_BASE = 24.0
WIN_FAN = 1.9
#: what dealing in costs beyond losing the own hand (discarder's 8 + fan, less what another win costs)
DEAL_IN_COST = 14.0
#: a tenpai opponent's chance of waiting on a given middle tile of average danger
WAIT_RATE = 0.09
#: per turn, the chance that the hand ends by another player's win first
END_RATE = 0.04
#: :meth:`EVBot.look`'s rows, and the points its values are divided by
LOOK_ROWS = 3
LOOK_SCALE = 50.0
#: a claim must be worth this much more than passing (it also shows the hand)
CLAIM_MARGIN = 1.05


class EVBot(FanBot):
    """The ``ev`` bot; ``max_nodes`` and ``budget_s`` (CPU seconds) bound one decision, ``depth`` (1, 2
    or 3) is how many steps from ready the search starts, ``defence`` weighs the deal-in risk."""

    name = "ev"

    def __init__(
        self,
        seed: int | None = None,
        budget_s: float = 0.9,
        max_nodes: int = 200_000,
        defence: bool = True,
        depth: int = 2,
    ) -> None:
        super().__init__(seed)
        if depth not in (1, 2, 3):
            raise ValueError(f"depth {depth}: the ev bot searches 1, 2 or 3 steps from ready")
        self.depth = depth
        self.budget_s = budget_s
        self.max_nodes = max_nodes
        self.defence = defence
        self._deadline = 0.0
        self._check = 0
        self._over = False
        self._nodes = 0
        self._ctx: dict[tuple[Meld, ...], FanContext] = {}
        self._memo: dict[tuple[bytes, int, int], float] = {}
        self._look: np.ndarray | None = None

    # ---- decisions ---------------------------------------------------------------------------
    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        for a in legal:
            if a.type == WIN:
                return a  # the engine offers only valid wins (≥ 8 fan)
        self._deadline = time.process_time() + self.budget_s
        self._check = 0
        self._over = False
        self._nodes = 0
        self._ctx = {}
        self._memo = {}
        self._prepare(view)
        if view.phase == "turn":
            return self.turn(view, legal)
        return self.claim(view, legal)

    def look(self, view: SeatView, legal: list[Action]) -> tuple[np.ndarray, Action]:
        """The bot's choice and its look-ahead rows, ``(LOOK_ROWS, 34)`` float32 — what it weighed, as
        inputs for a network (docs/rl.md, "Look-ahead rows"): row 0 each tile's deal-in danger; on a
        turn it values, row 1 each valued discard's value after the risk; on a claim it values, row 2's
        columns 0–6 the values of the claim codes 102–108 (pass: the hand kept).  Values are points /
        ``LOOK_SCALE``, 0 where it valued nothing.  The core's ``CompiledHand.ev_look`` is its twin."""
        rows = np.zeros((LOOK_ROWS, 34), dtype=np.float32)
        self.unseen = [view.unseen(t) for t in range(34)]
        rows[0] = self._dangers(view)
        self._look = rows
        try:
            return rows, self.choose(view, legal)
        finally:
            self._look = None

    def turn(self, view: SeatView, legal: list[Action]) -> Action:
        melds = view.melds[view.seat]
        counts = view.counts
        for a in legal:
            if a.type == ADDED_KONG:
                return a
            if a.type == CONCEALED_KONG:
                c = list(counts)
                c[a.tile] -= 4
                kong = Meld(MeldKind.KONG, (a.tile,) * 4, concealed=True)
                if self._distance(view, c, [*melds, kong]) <= self._distance(view, counts, melds, drawn=True):
                    return a
        found = self._best_discard(view, counts, melds, None if self._look is None else self._look[1])
        if found is not None:
            return Action(DISCARD, found[1])
        return super().turn(view, legal)  # far from ready: the fan bot's patterns and defence

    def claim(self, view: SeatView, legal: list[Action]) -> Action:
        melds = view.melds[view.seat]
        counts = list(view.counts)
        if shanten_of_counts(counts, len(melds)) > max(2, self.depth):  # depth 1: the bar it always had
            return super().claim(view, legal)
        pass_value = self._hand_value(view, counts, melds)
        look = None if self._look is None else self._look[2]
        if look is not None:
            look[6] = pass_value / LOOK_SCALE
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.type not in (PUNG, CHOW, KONG):
                continue
            c, after_melds = after_claim(counts, melds, a)
            if a.type == KONG:
                value = self._hand_value(view, c, after_melds)
            else:
                found = self._best_discard(view, c, after_melds)
                value = found[0] if found is not None else 0.0
            if look is not None:  # the claim codes' order: pung, kong, chow with a.tile lowest / middle / highest
                look[0 if a.type == PUNG else 1 if a.type == KONG else 2 + a.tiles.index(a.tile)] = value / LOOK_SCALE
            if value > pass_value * CLAIM_MARGIN and value > 0 and (best is None or value > best[0]):
                best = (value, a)
        if best is not None:
            return best[1]
        if pass_value > 0:
            return next(a for a in legal if a.type == PASS)
        return super().claim(view, legal)

    # ---- the table, once per decision --------------------------------------------------------
    def _prepare(self, view: SeatView) -> None:
        me = view.seat
        self.unseen = [view.unseen(t) for t in range(34)]
        self.pool = max(1, sum(self.unseen))
        self.draws = max(1, (view.wall + 3) // 4)
        self.min_fan = get_rules(view.rules).min_fan
        others = list(view.visible)
        for m in view.melds[me]:
            if not m.concealed:
                for t in m.tiles:
                    others[t] -= 1
        self.others_visible = tuple(others)
        self.danger = self._dangers(view) if self.defence else [0.0] * 34

    def _fan_ctx(self, view: SeatView, melds: Sequence[Meld]) -> FanContext:
        key = tuple(melds)
        ctx = self._ctx.get(key)
        if ctx is None:
            ctx = FanContext(
                melds=tuple(melds),
                seat_wind=view.seat_wind,
                prevalent_wind=view.prevalent,
                min_fan=self.min_fan,
                rules=view.rules,
                visible=self.others_visible,
            )
            self._ctx[key] = ctx
        return ctx

    # ---- values ------------------------------------------------------------------------------
    def _best_discard(
        self, view: SeatView, counts: Sequence[int], melds: Sequence[Meld], record: np.ndarray | None = None
    ) -> tuple[float, int] | None:
        """The best discard of a hand with one tile more, by expected value after the deal-in risk,
        among the discards that leave a hand at most one from ready; None when none has a value
        (no legal ready hand within reach).  ``record``: each valued discard's value / LOOK_SCALE
        is written to its column."""
        n = len(melds)
        c = list(counts)
        best: tuple[float, int] | None = None
        for t, after, _ in sorted(_fast.discards(c, n), key=lambda r: r[1]):
            if after > self.depth:
                continue
            c[t] -= 1
            v = self._hand_value(view, c, melds)
            c[t] += 1
            if v <= 0:
                continue
            d = self.danger[t]
            v = v * (1.0 - d) - d * DEAL_IN_COST
            if record is not None:
                record[t] = v / LOOK_SCALE
            if best is None or v > best[0]:
                best = (v, t)
        return best

    def _hand_value(self, view: SeatView, c: list[int], melds: Sequence[Meld]) -> float:
        """Expected gain of a 13-tile hand (13 − 3·melds concealed tiles) at most ``depth`` from ready;
        0 when it reaches no legal ready hand, or when the search budget is spent."""
        n = len(melds)
        s = shanten_of_counts(c, n)
        self._nodes += 1
        if s > self.depth or self._spent():
            return 0.0
        ctx = self._fan_ctx(view, melds)
        if s == 0:
            h, fan = self._ready(c, ctx, self.unseen)
            return _win_chance(h, self.draws) * (WIN_BASE + WIN_FAN * fan)
        if s == 1:
            return self._one_away(c, ctx, self.unseen, self.draws)
        return self._far(c, ctx, self.unseen, self.draws, s)

    def _spent(self) -> bool:
        """Past the node bound, or past the CPU deadline (read every 2,000 nodes: a clock read is a
        system call, and CPU time, unlike wall time, does not depend on the machine's load)."""
        if self._over:
            return True
        if self._nodes > self.max_nodes:
            self._over = True
        elif self._nodes >= self._check:
            self._check = self._nodes + 2000
            self._over = time.process_time() >= self._deadline
        return self._over

    def _ready(self, c: Sequence[int], ctx: FanContext, unseen: Sequence[int]) -> tuple[float, float]:
        """Per-turn win hazard and average fan of a ready hand: only waits worth ``min_fan`` count."""
        live_sum = 0.0
        fan_sum = 0.0
        for w in wait_fans(c, ctx):
            live = unseen[w.tile]
            if not live:
                continue
            if w.discard >= ctx.min_fan:
                weight = live * (1.0 + RON)
                fan_sum += weight * (w.discard + w.self_drawn) / 2
            elif w.self_drawn >= ctx.min_fan:
                weight = float(live)
                fan_sum += weight * w.self_drawn
            else:
                continue
            live_sum += weight
        if not live_sum:
            return 0.0, 0.0
        return min(0.95, live_sum / self.pool), fan_sum / live_sum

    def _one_away(self, c: list[int], ctx: FanContext, unseen: list[int], draws: int) -> float:
        """一向听: the exact expectation over the next draw of the legal ready hands it reaches within
        ``draws`` draws."""
        n = len(ctx.melds)
        key = (bytes(c), id(ctx), draws)
        got = self._memo.get(key)
        if got is not None:
            return got
        stages: list[tuple[float, float, float]] = []  # (chance of the draw, hazard, value of the win)
        for t in _tiles(useful_mask_of_counts(c, n)):  # only a useful draw makes the hand ready
            if not unseen[t]:
                continue
            c[t] += 1
            unseen[t] -= 1
            best = (0.0, 0.0)
            for e in range(34):
                if not c[e] or e == t:
                    continue
                c[e] -= 1
                self._nodes += 1
                if _shanten(c, n) == 0:
                    h, fan = self._ready(c, ctx, unseen)
                    if h * (WIN_BASE + WIN_FAN * fan) > best[0] * (WIN_BASE + WIN_FAN * best[1]):
                        best = (h, fan)
                c[e] += 1
            unseen[t] += 1
            c[t] -= 1
            if best[0] > 0:
                stages.append(((unseen[t]) / self.pool, best[0], WIN_BASE + WIN_FAN * best[1]))
        total = 0.0
        if stages:
            # plain left-to-right sums (not sum(), which compensates from Python 3.12): the compiled
            # core's twin (_speedups/ev_core.h) adds the same doubles in the same order
            accept = 0.0
            for p, _, _ in stages:
                accept += p
            accept = min(0.95, accept)
            stay = 1.0
            for j in range(1, draws):  # the ready hand is reached at draw j, then r − j draws to win
                stay *= 1.0 - END_RATE
                left = draws - j
                now = 0.0
                for p, h, v in stages:
                    now += p * _win_chance(h, left) * v
                total += stay * now
                stay *= 1.0 - accept
        self._memo[key] = total
        return total

    def _far(self, c: list[int], ctx: FanContext, unseen: list[int], draws: int, k: int) -> float:
        """``k`` (≥ 2) from ready (二向听, 三向听): the expectation over the next useful draw and the best
        discard after it of the value ``k − 1`` from ready, that hand reached after the expected wait
        for such a draw."""
        n = len(ctx.melds)
        if draws < k + 1:
            return 0.0
        found: list[tuple[float, list[int]]] = []
        accept = 0.0
        for t in _tiles(useful_mask_of_counts(c, n)):
            if not unseen[t]:
                continue
            accept += unseen[t] / self.pool
            c[t] += 1
            keep = []
            for e in range(34):
                if c[e] and e != t:
                    c[e] -= 1
                    if _shanten(c, n) == k - 1:
                        keep.append(e)
                    c[e] += 1
            found.append((unseen[t] / self.pool, keep))
            c[t] -= 1
        if not found:
            return 0.0
        accept = min(0.95, accept)
        delay = min(draws - k, max(1, round(1 / accept)))
        total = 0.0
        for (p, discards), t in zip(found, [t for t in _tiles(useful_mask_of_counts(c, n)) if unseen[t]], strict=True):
            c[t] += 1
            unseen[t] -= 1
            best = 0.0
            for e in discards:
                if self._spent():
                    break
                c[e] -= 1
                if k == 2:
                    best = max(best, self._one_away(c, ctx, unseen, draws - delay))
                else:
                    best = max(best, self._far(c, ctx, unseen, draws - delay, k - 1))
                c[e] += 1
            unseen[t] += 1
            c[t] -= 1
            total += p * best
        reach = 0.0
        stay = 1.0
        for _ in range(1, draws - k + 1):
            stay *= 1.0 - END_RATE
            reach += stay
            stay *= 1.0 - accept
        return total * reach

    # ---- defence -----------------------------------------------------------------------------
    def _dangers(self, view: SeatView) -> list[float]:
        """Per tile, the chance that discarding it deals in."""
        out = [0.0] * 34
        me = view.seat
        for o in range(4):
            if o == me:
                continue
            threat = _readiness(len(view.discards[o]), len(view.melds[o]), view.wall)
            if threat <= 0:
                continue
            pond = set(view.discards[o])
            for t in range(34):
                p = WAIT_RATE * threat * _tile_danger(t, pond, self.unseen)
                out[t] = 1.0 - (1.0 - out[t]) * (1.0 - p)
        return out


def _tiles(mask: int) -> list[int]:
    return [t for t in range(34) if mask >> t & 1]


def _readiness(discards: int, melds: int, wall: int) -> float:
    """A rough chance that an opponent is ready, from what anyone sees."""
    r = 0.035 * discards + 0.12 * melds + (0.15 if melds >= 3 else 0.0)
    if wall < 16:
        r += 0.1
    return min(0.9, max(0.0, r - 0.1))


def _tile_danger(t: int, pond: set[int], unseen: Sequence[int]) -> float:
    """Relative danger of ``t`` against one opponent (1 = an unremarkable middle tile)."""
    left = unseen[t]
    if t >= 27:
        base = (0.05, 0.5, 0.9, 0.7, 0.6)[min(left, 4)]
    else:
        r = t % 9
        base = 0.7 if r in (0, 8) else 0.85 if r in (1, 7) else 1.0
        if left == 0:
            base *= 0.3  # no copy left: only 边/嵌/单骑 shapes need it
        suji = (r >= 3 and t - 3 in pond) or (r <= 5 and t + 3 in pond)
        if suji:
            base *= 0.6
    if t in pond:
        base *= 0.3  # MCR has no furiten, but a discarded tile is rarely the wait
    return base


def _win_chance(h: float, draws: int) -> float:
    """The chance that a ready hand of per-turn hazard ``h`` wins within ``draws`` turns, the hand
    ending first by another win at ``END_RATE`` a turn."""
    if h <= 0:
        return 0.0
    go = (1.0 - END_RATE) * (1.0 - h)
    return h * (1.0 - END_RATE) * (1.0 - go**draws) / (1.0 - go)


def make(seed: int | None, depth: int = 2) -> EVBot:
    return EVBot(seed, depth=depth)
