"""Settling a finished hand (结算, §2.10–2.13): win payment, kong bonus, jing rounds, penalties.

Order (§2.13): opening jing rounds (上下翻's 下精, 回头一笑) → kong bonuses → win payment → end jing
rounds (上精, then 埋地雷's 下精) → 抄庄.  Every part is zero-sum, so the four deltas sum to 0.

A :class:`HandRecord` is the finished hand as data: the four seats' holdings, the jing indicator(s),
the dealer, and the winner with how they won (or ``winner=None`` for an exhaustive draw, 荒庄).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from majiang.nanchang.jing import JingPair, jing_round_deltas, jing_round_scores
from majiang.nanchang.melds import InvalidHandError, Meld, MeldKind
from majiang.nanchang.options import DEFAULT_OPTIONS, Options
from majiang.nanchang.payment import SEATS, KongBonus, kong_bonuses, kong_deltas
from majiang.nanchang.terms import WinMethod
from majiang.nanchang.win import Win, WinSituation, evaluate_win
from majiang.tiles import NUM_KINDS, Tile, tile_str

CHAO_ZHUANG_PENALTY = 5  # 抄庄: the dealer pays 5 to each player


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat at the end of the hand.

    ``concealed``: the concealed tiles (the winner's without the winning tile).  ``discards``: its
    discards still in the river (only read with ``count_discarded_jing``).  ``dealt``: the tiles dealt
    to it (dealer 14, others 13; only read by the opening jing rounds).
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    discards: tuple[Tile, ...] = ()
    dealt: tuple[Tile, ...] | None = None

    def held(self) -> list[Tile]:
        """Concealed and melded tiles (kongs as four)."""
        return [*self.concealed, *(t for m in self.melds for t in m.tiles)]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand.  Seats 0–3 in turn order; ``discarder`` is the discarder (点炮, 地胡) or the
    robbed konger (抢杠).  ``xia_jing_indicator`` (the tile under the 上精 indicator) feeds the 下精
    options, ``previous_jing_indicator`` 回头一笑, ``first_discards`` (the four first discards) 抄庄."""

    jing_indicator: Tile
    hands: tuple[SeatHand, ...]
    dealer: int = 0
    winner: int | None = None
    win_tile: Tile | None = None
    method: WinMethod | None = None
    discarder: int | None = None
    xia_jing_indicator: Tile | None = None
    previous_jing_indicator: Tile | None = None
    first_discards: tuple[Tile, ...] | None = None

    @property
    def jing(self) -> JingPair:
        return JingPair.from_indicator(self.jing_indicator)


@dataclass(frozen=True, slots=True)
class JingRound:
    """One jing settlement: its pair, each seat's raw points, bonus ``s_i`` and deltas."""

    zh: str
    en: str
    pair: JingPair
    raw: tuple[int, ...]
    scores: tuple[int, ...]
    bawang: int | None  # the 霸王 seat, if one seat alone holds jing
    deltas: tuple[int, ...]
    baopei: tuple[tuple[int, int], ...] = ()  # 冲关包赔: (seat that 冲关, seat that pays it all)


@dataclass(frozen=True, slots=True)
class Settlement:
    """The settled hand: each part's deltas and their sum."""

    win: Win | None
    win_deltas: tuple[int, ...]
    kongs: tuple[KongBonus, ...]
    kong_deltas: tuple[int, ...]
    jing_rounds: tuple[JingRound, ...]
    jing_deltas: tuple[int, ...]
    penalty_deltas: tuple[int, ...]
    deltas: tuple[int, ...]
    next_dealer: int
    chao_zhuang: bool = False
    notes: tuple[str, ...] = field(default=())


def _add(*parts: Sequence[int]) -> tuple[int, ...]:
    return tuple(sum(p[i] for p in parts) for i in range(SEATS))


# ---- validation -------------------------------------------------------------------------------


def check_record(rec: HandRecord, options: Options = DEFAULT_OPTIONS) -> None:
    """Tile counts, copies and the roles of the seats; raises :class:`InvalidHandError`."""
    if len(rec.hands) != SEATS:
        raise InvalidHandError(f"'hands' must list the 4 seats, got {len(rec.hands)}")
    for key, seat in (("dealer", rec.dealer), ("winner", rec.winner), ("discarder", rec.discarder)):
        if seat is not None and seat not in range(SEATS):
            raise InvalidHandError(f"'{key}' must be a seat 0–3, got {seat!r}")
    all_tiles: list[Tile] = []
    for seat, h in enumerate(rec.hands):
        if len(h.melds) > 4:
            raise InvalidHandError(f"seat {seat}: at most 4 melds, got {len(h.melds)}")
        need = 13 - 3 * len(h.melds)
        if seat == rec.winner and rec.win_tile is None:
            need += 1
        if len(h.concealed) != need:
            extra = " plus the winning tile" if seat == rec.winner and rec.win_tile is not None else ""
            raise InvalidHandError(
                f"wrong tile count: seat {seat} with {len(h.melds)} meld(s) holds {need} concealed tiles{extra}, "
                f"got {len(h.concealed)} (kongs count as 3)"
            )
        all_tiles += h.held() + list(h.discards)
        if h.dealt is not None:
            want = 14 if seat == rec.dealer else 13
            if len(h.dealt) != want:
                raise InvalidHandError(f"seat {seat}: 'dealt' must hold {want} tiles, got {len(h.dealt)}")
    if rec.win_tile is not None:
        all_tiles.append(rec.win_tile)
    if not options.indicator_drawable:
        all_tiles.append(rec.jing_indicator)  # face up in the dead wall, never drawn (§2.4)
    _check_copies(all_tiles, "in the hands" + ("" if options.indicator_drawable else " and the jing indicator"))
    dealt = [t for h in rec.hands if h.dealt is not None for t in h.dealt]
    _check_copies(dealt + [rec.jing_indicator], "in the dealt hands and the jing indicator")
    _check_win(rec)


def _check_copies(tiles: Sequence[Tile], where: str) -> None:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    for t, c in enumerate(counts):
        if c > 4:
            raise InvalidHandError(f"{c} copies of {tile_str(t)} {where}: a set has only 4")


def _check_win(rec: HandRecord) -> None:
    w, m, d = rec.winner, rec.method, rec.discarder
    if w is None:
        if m is not None or rec.win_tile is not None or d is not None:
            raise InvalidHandError("an exhaustive draw ('winner': null) has no method, win_tile or discarder")
        return
    if m is None:
        raise InvalidHandError(
            "'method' is missing: self_drawn, discard, kong_replacement, robbed_kong, heavenly or earthly"
        )
    if rec.win_tile is None and m is not WinMethod.HEAVENLY:
        raise InvalidHandError("'win_tile' is missing")
    melds = rec.hands[w].melds
    if m in (WinMethod.DISCARD, WinMethod.ROBBED_KONG, WinMethod.EARTHLY):
        if d is None or d == w:
            raise InvalidHandError(f"method {m.value!r} needs a 'discarder' other than the winner")
    elif d is not None:
        raise InvalidHandError(f"method {m.value!r} has no discarder (got {d})")
    if m is WinMethod.KONG_REPLACEMENT and not any(x.is_kong for x in melds):
        raise InvalidHandError("kong_replacement (杠开): the winner has declared no kong")
    if m is WinMethod.ROBBED_KONG:
        assert d is not None
        if not any(x.kind is MeldKind.PUNG and x.tile == rec.win_tile for x in rec.hands[d].melds):
            raise InvalidHandError(
                f"robbed_kong (抢杠): seat {d} has no exposed pung of "
                f"{tile_str(rec.win_tile or 0)} to add the robbed tile to"
            )
    if m is WinMethod.HEAVENLY:
        if w != rec.dealer:
            raise InvalidHandError("heavenly (天胡): only the dealer can win on the dealt hand")
        if melds:
            raise InvalidHandError("heavenly (天胡): the dealer has no melds before the first discard")
    if m is WinMethod.EARTHLY:
        if w == rec.dealer or d != rec.dealer:
            raise InvalidHandError(
                "earthly (地胡): a non-dealer wins on the dealer's first discard ('discarder' = the dealer)"
            )
        if melds:
            raise InvalidHandError("earthly (地胡): the winner has no melds before its first draw")


# ---- parts --------------------------------------------------------------------------------------


def _holdings(rec: HandRecord, options: Options) -> list[list[Tile]]:
    out = []
    for seat, h in enumerate(rec.hands):
        tiles = h.held()
        if seat == rec.winner and rec.win_tile is not None:
            tiles.append(rec.win_tile)
        if options.count_discarded_jing:
            tiles += h.discards
        out.append(tiles)
    return out


def _claimed_jing(rec: HandRecord, seat: int, pair: JingPair) -> dict[int, int]:
    """Jing points ``seat`` took from other players' discards, by the seat that gave them."""
    got: dict[int, int] = {}
    for m in rec.hands[seat].melds:
        t, p = m.claimed_tile(), m.provider(seat)
        if t is not None and p is not None and t in pair:
            got[p] = got.get(p, 0) + pair.points([t])
    if (
        seat == rec.winner
        and rec.method is not None
        and rec.method.claimed
        and rec.discarder is not None
        and rec.win_tile in pair
    ):
        assert rec.win_tile is not None
        got[rec.discarder] = got.get(rec.discarder, 0) + pair.points([rec.win_tile])
    return got


def jing_round(
    zh: str,
    en: str,
    pair: JingPair,
    holdings: Sequence[Sequence[Tile]],
    options: Options,
    claimed: Sequence[dict[int, int]] | None = None,
) -> JingRound:
    """One jing settlement (§2.11.2): raw ``2·正 + 副``, 冲关, 霸王, each seat paid ``s_i`` by all.

    ``claimed[i]``: jing points seat ``i`` took from each discarder; with ``chongguan_baopei`` a
    seat that reaches 冲关 only thanks to them is paid all of ``3·s_i`` by that discarder.
    """
    raw = tuple(pair.points(h) for h in holdings)
    scores = jing_round_scores(raw, options.bawang)
    deltas = jing_round_deltas(scores)
    holders = [i for i, r in enumerate(raw) if r > 0]
    baopei: list[tuple[int, int]] = []
    if options.chongguan_baopei and claimed is not None:
        for i, r in enumerate(raw):
            got = claimed[i]
            if r < 5 or not got or r - sum(got.values()) >= 5:
                continue
            # several givers: the one who gave the most points, ties to the first after i in turn
            liable = max(got, key=lambda p: (got[p], -((p - i) % SEATS)))
            for j in range(SEATS):
                if j not in (i, liable):
                    deltas[j] += scores[i]
                    deltas[liable] -= scores[i]
            baopei.append((i, liable))
    return JingRound(zh, en, pair, raw, scores, holders[0] if len(holders) == 1 else None, tuple(deltas), tuple(baopei))


def _opening_rounds(rec: HandRecord, options: Options) -> list[JingRound]:
    rounds: list[JingRound] = []
    want_xia = options.xia_jing == "shang_xia_fan"
    want_prev = options.hui_tou_yi_xiao and rec.previous_jing_indicator is not None
    if not (want_xia or want_prev):
        return rounds
    if any(h.dealt is None for h in rec.hands):
        need = "xia_jing=shang_xia_fan (上下翻)" if want_xia else "hui_tou_yi_xiao (回头一笑)"
        raise InvalidHandError(f"{need} settles the dealt hands: give each seat's 'dealt' tiles")
    dealt = [list(h.dealt or ()) for h in rec.hands]
    if want_prev:
        assert rec.previous_jing_indicator is not None
        pair = JingPair.from_indicator(rec.previous_jing_indicator)
        rounds.append(jing_round("回头一笑", "previous hand's jing on the dealt hands", pair, dealt, options))
    if want_xia:
        if rec.xia_jing_indicator is None:
            raise InvalidHandError("xia_jing=shang_xia_fan (上下翻) needs 'xia_jing_indicator'")
        pair = JingPair.from_indicator(rec.xia_jing_indicator)
        rounds.append(jing_round("下精 (开局)", "lower jing on the dealt hands", pair, dealt, options))
    return rounds


def _end_rounds(rec: HandRecord, options: Options) -> list[JingRound]:
    holdings = _holdings(rec, options)
    pair = rec.jing
    claimed = [_claimed_jing(rec, i, pair) for i in range(SEATS)]
    rounds = [jing_round("上精", "upper jing", pair, holdings, options, claimed)]
    if options.xia_jing == "mai_di_lei":
        if rec.xia_jing_indicator is None:
            raise InvalidHandError(
                "xia_jing=mai_di_lei (埋地雷) needs 'xia_jing_indicator' (the tile under the 上精 indicator)"
            )
        xia = JingPair.from_indicator(rec.xia_jing_indicator)
        claimed = [_claimed_jing(rec, i, xia) for i in range(SEATS)]
        rounds.append(jing_round("下精 (埋地雷)", "lower jing", xia, holdings, options, claimed))
    return rounds


def _win(rec: HandRecord, options: Options) -> Win:
    w = rec.winner
    assert w is not None and rec.method is not None
    pair = rec.jing
    others = any(t in pair for seat, h in enumerate(rec.hands) if seat != w for t in h.held())
    h = rec.hands[w]
    sit = WinSituation(h.concealed, h.melds, rec.win_tile, pair, rec.method, w, rec.dealer, rec.discarder, others)
    return evaluate_win(sit, options)


def is_chao_zhuang(first_discards: Sequence[Tile] | None) -> bool:
    """抄庄: the four first discards are the same tile."""
    return first_discards is not None and len(first_discards) == SEATS and len(set(first_discards)) == 1


def next_dealer(dealer: int, winner: int | None, options: Options = DEFAULT_OPTIONS, chao_zhuang: bool = False) -> int:
    """连庄 after a dealer win (and, by default, a draw); otherwise the dealer's 下家 deals."""
    if chao_zhuang:
        return (dealer + 1) % SEATS
    if winner is None:
        return dealer if options.dealer_keeps_on_draw else (dealer + 1) % SEATS
    return dealer if winner == dealer else (dealer + 1) % SEATS


def settle(rec: HandRecord, options: Options = DEFAULT_OPTIONS) -> Settlement:
    """Settle a finished hand; raises :class:`InvalidHandError` (or its ``NotAWinError``)."""
    check_record(rec, options)
    zero = (0,) * SEATS
    opening = _opening_rounds(rec, options)
    kongs = tuple(kong_bonuses([h.melds for h in rec.hands], rec.jing, options))
    notes: list[str] = []
    if rec.winner is None and options.huang_zhuang_huang_gang and kongs:
        kongs = ()
        notes.append("荒庄荒杠: kong bonuses void on a draw")
    win = _win(rec, options) if rec.winner is not None else None
    win_deltas = win.payments if win is not None else zero
    rounds = opening + _end_rounds(rec, options)
    chao = options.chao_zhuang and is_chao_zhuang(rec.first_discards)
    penalty = zero
    if chao:
        penalty = tuple(
            -CHAO_ZHUANG_PENALTY * (SEATS - 1) if i == rec.dealer else CHAO_ZHUANG_PENALTY for i in range(SEATS)
        )
    kd = tuple(kong_deltas(kongs))
    jd = _add(zero, *(r.deltas for r in rounds))
    total = _add(win_deltas, kd, jd, penalty)
    return Settlement(
        win,
        tuple(win_deltas),
        kongs,
        kd,
        tuple(rounds),
        jd,
        penalty,
        total,
        next_dealer(rec.dealer, rec.winner, options, chao),
        chao,
        tuple(notes),
    )
