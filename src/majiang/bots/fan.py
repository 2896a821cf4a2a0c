"""The fan-aware MCR bot: it plays for hands that can reach 8 fan, not just for speed.

For every candidate discard it measures how far the rest of the hand is from each reachable pattern
— a flush in one suit (混一色/清一色), all pungs (碰碰和), seven pairs (七对), the knitted hands
(全不靠/组合龙), thirteen orphans (十三幺) — and from a plain hand, which is only worth keeping when
its fans are likely to reach 8.  A ready hand whose every wait scores under 8 counts as one step
further away.  It claims only when a claim brings its pattern nearer, never declares an invalid
win (the engine offers only valid ones), and when the wall runs low while it is still far from
ready it discards the safest tile instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from majiang.bots.base import TurnOrClaim
from majiang.bots.efficiency import seen_counts
from majiang.engine.protocol import ADDED_KONG, CHOW, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, Action
from majiang.engine.view import SeatView
from majiang.mcr.hand import InvalidHandError, WinningHand
from majiang.mcr.scorer import score
from majiang.melds import Meld, MeldKind
from majiang.shanten import forms_of_counts, shanten_of_counts, useful_of_counts, waits_of_counts

# isolated stand-ins for the off-suit tiles when measuring a flush: far apart, never a pair
_FILLERS = {0: (9, 12, 15, 18, 21, 24), 1: (0, 3, 6, 18, 21, 24), 2: (0, 3, 6, 9, 12, 15)}
PLAIN_PENALTY = 0.25  # a plain hand often falls short of 8 fan (tuned in duplicate play)
FLUSH_PENALTY = 0.5  # 混一色 (6) needs a little more; 清一色 needs nothing
PUNGS_PENALTY = 0.5  # 碰碰和 (6) likewise
DEFENCE_WALL = 20  # late in the hand…
DEFENCE_SHANTEN = 2.0  # …and still this far away: play safe


def after_claim(counts: Sequence[int], melds: Sequence[Meld], a: Action) -> tuple[list[int], list[Meld]]:
    """The concealed counts and the melds after the claim ``a`` (a chow, pung or exposed kong of the
    discard ``a.tile``), before the discard that follows it (the core's ``mj_claimed``)."""
    c = list(counts)
    if a.type == CHOW:
        for t in a.tiles:
            if t != a.tile:
                c[t] -= 1
        meld = Meld(MeldKind.CHOW, a.tiles, claimed=a.tiles.index(a.tile))
    else:
        c[a.tile] -= 2 if a.type == PUNG else 3
        meld = Meld(MeldKind(a.type), (a.tile,) * (3 if a.type == PUNG else 4), source=1)
    return c, [*melds, meld]


class FanBot(TurnOrClaim):
    name = "fan"

    def turn(self, view: SeatView, legal: list[Action]) -> Action:
        melds = view.melds[view.seat]
        counts = view.counts
        for a in legal:
            if a.type == ADDED_KONG:
                return a  # 明杠 and a free draw; the pung was already exposed
            if a.type == CONCEALED_KONG:
                c = list(counts)
                c[a.tile] -= 4
                kong = Meld(MeldKind.KONG, (a.tile,) * 4, concealed=True)
                if self._distance(view, c, [*melds, kong]) <= self._distance(view, counts, melds, drawn=True):
                    return a
        seen = seen_counts(view)
        unseen = [4 - a - b for a, b in zip(counts, seen, strict=True)]
        choices = []
        for t in range(34):
            if counts[t]:
                c = list(counts)
                c[t] -= 1
                choices.append((self._distance(view, c, melds), t))
        low = min(d for d, _ in choices)
        # among the discards that keep the pattern nearest, keep the most unseen useful tiles
        ranked: list[tuple[float, int, int]] = []
        for d, t in choices:
            extra = 0
            if d == low:
                c = list(counts)
                c[t] -= 1
                extra = -sum(unseen[u] for u in useful_of_counts(c, len(melds)))
            ranked.append((d, extra, t))
        ranked.sort()
        best = ranked[0]
        if view.wall < DEFENCE_WALL and best[0] >= DEFENCE_SHANTEN:
            safe = min(ranked, key=lambda ch: (self._danger(view, ch[2]), ch[0]))
            return Action(DISCARD, safe[2])
        return Action(DISCARD, best[2])

    def claim(self, view: SeatView, legal: list[Action]) -> Action:
        melds = view.melds[view.seat]
        now = self._distance(view, view.counts, melds)
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.type not in (PUNG, CHOW, KONG):
                continue
            c, after_melds = after_claim(view.counts, melds, a)
            if a.type == KONG:
                after = self._distance(view, c, after_melds)
            else:
                after = min(self._distance(view, _minus(c, t), after_melds) for t in range(34) if c[t])
            # a claim gives up 门前清/不求人: it must bring the hand at least a step nearer
            if after <= now - 1 and (best is None or after < best[0]):
                best = (after, a)
        return best[1] if best is not None else next(a for a in legal if a.type == PASS)

    # ---- measuring ---------------------------------------------------------------------------
    def _distance(self, view: SeatView, counts: Sequence[int], melds: Sequence[Meld], drawn: bool = False) -> float:
        """How far a 13-tile hand (or a 14-tile one, ``drawn``) is from a win worth 8 fan."""
        n = len(melds)
        if drawn:
            return min(self._distance(view, _minus(counts, t), melds) for t in range(34) if counts[t])
        forms = forms_of_counts(counts, n)
        options: list[float] = []
        plain = forms.regular
        if plain is not None:
            options.append(plain + PLAIN_PENALTY)
        for special in (forms.seven_pairs, forms.thirteen_orphans, forms.knitted, forms.honors_knitted):
            if special is not None:
                options.append(float(special))
        for suit in range(3):
            flush = self._flush(counts, melds, suit)
            if flush is not None:
                honours = any(counts[t] for t in range(27, 34)) or any(m.tiles[0] >= 27 for m in melds)
                options.append(flush + (FLUSH_PENALTY if honours else 0.0))
        pungs = _pungs_shanten(counts, melds)
        if pungs is not None:
            options.append(pungs + PUNGS_PENALTY)
        d = min(options)
        if d < 1 and not self._ready_worth_eight(view, counts, melds):
            d += 1  # ready, but no wait is worth 8 fan
        return d

    def _flush(self, counts: Sequence[int], melds: Sequence[Meld], suit: int) -> int | None:
        if any(m.tiles[0] < 27 and m.tiles[0] // 9 != suit for m in melds):
            return None
        lo = 9 * suit
        off = sum(counts[:27]) - sum(counts[lo : lo + 9])
        if off > len(_FILLERS[suit]):
            return None
        c = [0] * 34
        c[lo : lo + 9] = counts[lo : lo + 9]
        c[27:] = counts[27:]
        for t in _FILLERS[suit][:off]:
            c[t] = 1
        return shanten_of_counts(c, len(melds))

    def _ready_worth_eight(self, view: SeatView, counts: Sequence[int], melds: Sequence[Meld]) -> bool:
        waits = waits_of_counts(counts, len(melds))
        hand_tiles = tuple(t for t in range(34) for _ in range(counts[t]))
        scored = tuple(melds)
        for w in waits:
            if view.unseen(w) <= 0:
                continue
            for self_drawn in (False, True):
                try:
                    r = score(
                        WinningHand(
                            melds=scored,
                            hand=hand_tiles,
                            win_tile=w,
                            self_drawn=self_drawn,
                            seat_wind=view.seat_wind,
                            prevalent_wind=view.prevalent,
                        ),
                        view.rules,
                    )
                except InvalidHandError:
                    continue
                if not r.below_minimum:
                    return True
        return False

    def _danger(self, view: SeatView, tile: int) -> float:
        """A rough risk that ``tile`` completes another player's hand: tiles others have thrown
        are safest, then honours and terminals with few unseen copies."""
        if any(tile in view.discards[s] for s in range(4) if s != view.seat):
            return 0.0
        unseen = view.unseen(tile)
        if tile >= 27:
            return 0.3 * unseen
        r = tile % 9
        return unseen * (0.6 if r in (0, 8) else 0.8 if r in (1, 7) else 1.0)


def _minus(counts: Sequence[int], t: int) -> list[int]:
    c = list(counts)
    c[t] -= 1
    return c


def _pungs_shanten(counts: Sequence[int], melds: Sequence[Meld]) -> int | None:
    """碰碰和: 4 pungs/kongs + a pair; None when a chow is already declared."""
    if any(m.kind == "chow" for m in melds):
        return None
    pungs = len(melds) + sum(1 for c in counts if c >= 3)
    pairs = sum(1 for c in counts if c == 2)
    pungs = min(pungs, 4)
    return 8 - 2 * pungs - min(pairs, 5 - pungs)


def make(seed: int | None) -> FanBot:
    return FanBot(seed)
