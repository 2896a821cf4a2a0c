"""Win detection and evaluation with jing wild (胡牌判定, §2.5, §2.7–2.10).

An *interpretation* of a winning hand is what scoring needs of one (shape × wild assignment):
its shape, whether it is 德国 (every jing stands for itself) and whether it earns the 精钓 credit.
All interpretations are found on count vectors (:mod:`majiang.nanchang.shapes`), never by
enumerating wild assignments, and :func:`best_win` keeps the one with the largest win payment
(§2.9, A21).

* :func:`can_win` — the fast yes/no a game engine asks on every draw and discard.
* :func:`interpretations` — every legal interpretation (a test and explanation aid).
* :func:`best_win` / :func:`evaluate_win` — the chosen interpretation with its 胡 items, ``M`` and
  the win payment.

Jing in the concealed hand are wild, a drawn jing too; a jing taken from another player (discard,
robbed kong, 地胡) is a plain tile (§2.5).

>>> from majiang.tiles import parse_tiles, parse_tile
>>> jing = JingPair.from_indicator(parse_tile("5p"))
>>> hand = parse_tiles("1m1m 3s3s 9p9p E E C C 7m7m 5p")
>>> win = best_win(WinSituation(tuple(hand), (), parse_tile("2s"), jing, winner=1))
>>> win.hu_names, win.multiplier, win.payments       # seed example 1: 精钓小七对
(['精钓', '小七对'], 4, (-16, 32, -8, -8))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from majiang.nanchang.jing import JingPair
from majiang.nanchang.melds import InvalidHandError, Meld
from majiang.nanchang.options import DEFAULT_OPTIONS, Options
from majiang.nanchang.payment import win_payments
from majiang.nanchang.shapes import (
    Shape,
    lan_capacity,
    qixing_lan_ok,
    qixing_qidui_ok,
    sets_need,
    singles,
)
from majiang.nanchang.terms import Hu, WinMethod, hu
from majiang.tiles import NUM_KINDS, Tile, is_honor

__all__ = [
    "Interpretation",
    "NotAWinError",
    "Win",
    "WinSituation",
    "best_win",
    "can_win",
    "evaluate_win",
    "interpretations",
    "jingdiao_shape",
]


class NotAWinError(InvalidHandError):
    """The hand is not a legal win (no shape fits, or a rule forbids this way of winning)."""


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What scoring needs of one reading of a winning hand."""

    shape: Shape
    german: bool = False  # 德国: no jing used as a wild
    jingdiao: bool = False  # 精钓 credited: the winning tile pairs with the lone jing


@dataclass(frozen=True, slots=True)
class WinSituation:
    """A claimed win: the winner's tiles, how the winning tile came, and who is where.

    ``concealed`` excludes ``win_tile``; ``win_tile=None`` means ``concealed`` is already complete
    (a 天胡 given as 14 tiles, or an engine passing the hand with its draw).  ``discarder``: the
    discarder (点炮, 地胡) or the robbed konger (抢杠).  ``others_hold_jing``: whether any other
    player holds a jing tile, concealed or melded (decides 德中德).
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile | None
    jing: JingPair
    method: WinMethod = WinMethod.SELF_DRAWN
    winner: int = 0
    dealer: int = 0
    discarder: int | None = None
    others_hold_jing: bool = True


@dataclass(frozen=True, slots=True)
class Win:
    """The scored win: the chosen interpretation, its 胡 items and the payment deltas."""

    situation: WinSituation
    interpretation: Interpretation
    dezhongde: bool
    hu: tuple[Hu, ...]
    multiplier: int  # M (天胡/地胡: the 精钓 factor on the flat base)
    payments: tuple[int, ...]

    @property
    def hu_names(self) -> list[str]:
        return [h.zh for h in self.hu]

    @property
    def german(self) -> bool:
        return self.interpretation.german


# ---- counting ----------------------------------------------------------------------------------


@dataclass(slots=True)
class _View:
    naturals: list[int]  # tiles standing for themselves
    wilds: int  # jing in the concealed hand (incl. a self-drawn winning jing)
    wild_kinds: tuple[int, int]  # those wilds by kind: (正精, 副精)
    full: list[int]  # every tile as itself (the 德国 view)


def _view(concealed: Sequence[Tile], win_tile: Tile | None, jing: JingPair, win_is_wild: bool) -> _View:
    full = [0] * NUM_KINDS
    for t in concealed:
        full[t] += 1
    z, f = jing.zheng, jing.fu
    wz, wf = full[z], full[f]
    if win_tile is not None:
        full[win_tile] += 1
        if win_is_wild:
            wz += win_tile == z
            wf += win_tile == f
    naturals = full.copy()
    naturals[z] -= wz
    naturals[f] -= wf
    return _View(naturals, wz + wf, (wz, wf), full)


@dataclass(frozen=True, slots=True)
class _Melds:
    count: int
    pung_only: bool  # no chow (suit or honour) among the melds


def _meld_info(melds: Sequence[Meld]) -> _Melds:
    return _Melds(len(melds), not any(m.is_chow for m in melds))


# ---- shapes ------------------------------------------------------------------------------------


def _shapes(options: Options) -> tuple[Shape, ...]:
    base = (Shape.PINGHU, Shape.PENGPENG, Shape.QIDUI, Shape.SHISANLAN, Shape.QIXING_SHISANLAN)
    return base + (Shape.QIXING_QIDUI,) if options.qixing_qidui else base


def _shape_ok(
    shape: Shape, nat: Sequence[int], wilds: int, wild_kinds: Sequence[int], jing: JingPair, melds: _Melds
) -> bool:
    """Can ``nat`` + ``wilds`` (of which ``wild_kinds`` by jing kind) make ``shape``?"""
    if shape is Shape.PINGHU:
        return sets_need(nat, pair=True) <= wilds
    if shape is Shape.PENGPENG:
        return melds.pung_only and sets_need(nat, pair=True, chows=False) <= wilds
    if melds.count:
        return False  # the rest are fully concealed shapes
    if shape is Shape.QIDUI:
        return singles(nat) <= wilds
    if shape is Shape.SHISANLAN:
        return 0 <= wilds <= lan_capacity(nat)
    if shape is Shape.QIXING_SHISANLAN:
        return qixing_lan_ok(nat, wilds, jing.kinds, wild_kinds)
    return qixing_qidui_ok(nat, wilds, jing.kinds, wild_kinds)


def _rest_ok(shape: Shape, nat: Sequence[int], wilds: int, melds: _Melds) -> bool:
    """精钓: with the winning tile and its lone-jing partner taken out, is the rest complete?"""
    if shape is Shape.PINGHU:
        return sets_need(nat, pair=False) <= wilds
    if shape is Shape.PENGPENG:
        return melds.pung_only and sets_need(nat, pair=False, chows=False) <= wilds
    if shape is Shape.QIDUI:
        return melds.count == 0 and singles(nat) <= wilds
    return False


_PAIR_SHAPES = (Shape.PINGHU, Shape.PENGPENG, Shape.QIDUI)


def jingdiao_shape(concealed: Sequence[Tile], melds: Sequence[Meld], jing: JingPair) -> bool:
    """精钓 shape of a hand *before* its winning tile: complete except one lone jing (4 sets + J or
    6 pairs + J), so it waits on every kind."""
    v = _view(concealed, None, jing, False)
    if v.wilds == 0:
        return False
    if sets_need(v.naturals, pair=False) <= v.wilds - 1:
        return True
    return not melds and singles(v.naturals) <= v.wilds - 1


def _jingdiao_interpretations(sit: WinSituation, v: _View, melds: _Melds, options: Options) -> list[Interpretation]:
    """Interpretations with the 精钓 credit: the winning tile forms the pair with the lone jing."""
    out: list[Interpretation] = []
    jing = sit.jing
    if sit.method is WinMethod.HEAVENLY:
        candidates = [t for t in range(NUM_KINDS) if v.full[t]]  # the dealt 14: any tile may be "the" one
    elif sit.win_tile is not None:
        candidates = [sit.win_tile]
    else:
        return out
    pair_shapes = _PAIR_SHAPES + ((Shape.QIXING_QIDUI,) if options.qixing_qidui else ())
    for t in candidates:
        nat = v.naturals.copy()
        wk = list(v.wild_kinds)
        wild_t = t in jing and sit.method.self_drawn and wk[0 if t == jing.zheng else 1] > 0
        if wild_t:
            wk[0 if t == jing.zheng else 1] -= 1
        elif nat[t]:
            nat[t] -= 1
        else:
            continue
        for k in (0, 1):
            if wk[k] == 0:
                continue
            rest_wk = wk.copy()
            rest_wk[k] -= 1
            rest_w = rest_wk[0] + rest_wk[1]
            for shape in pair_shapes:
                if shape is Shape.QIXING_QIDUI:
                    if wild_t or not is_honor(t) or nat[t]:
                        continue
                    nat[t] += 2
                    ok = qixing_qidui_ok(nat, rest_w, jing.kinds, rest_wk)
                    nat[t] -= 2
                else:
                    ok = _rest_ok(shape, nat, rest_w, melds)
                if ok:
                    out.append(Interpretation(shape, german=False, jingdiao=True))
        # 德国 精钓: the lone jing's own kind completes a natural pair
        if t in jing and v.full[t] >= 2:
            rest = v.full.copy()
            rest[t] -= 2
            for shape in pair_shapes:
                if shape is Shape.QIXING_QIDUI:
                    ok = _shape_ok(shape, v.full, 0, (0, 0), jing, melds)
                else:
                    ok = _rest_ok(shape, rest, 0, melds)
                if ok:
                    out.append(Interpretation(shape, german=True, jingdiao=True))
    return out


# ---- legality ----------------------------------------------------------------------------------


def _all_interpretations(sit: WinSituation, options: Options) -> tuple[list[Interpretation], str]:
    """Every legal interpretation, and the reason when there is none."""
    v = _view(sit.concealed, sit.win_tile, sit.jing, sit.method.self_drawn)
    melds = _meld_info(sit.melds)
    out: list[Interpretation] = []
    for shape in _shapes(options):
        if v.wilds and _shape_ok(shape, v.naturals, v.wilds, v.wild_kinds, sit.jing, melds):
            out.append(Interpretation(shape))
        if _shape_ok(shape, v.full, 0, (0, 0), sit.jing, melds):
            out.append(Interpretation(shape, german=True))
    if not out:
        return out, "not a winning hand: no shape (平胡, 碰碰胡, 小七对, 十三烂) fits these tiles"
    if sit.method.self_drawn or sit.method is WinMethod.EARTHLY:
        out.extend(_jingdiao_interpretations(sit, v, melds, options))
    elif sit.method in (WinMethod.DISCARD, WinMethod.ROBBED_KONG):
        why = ""
        if options.jingdiao_ron == "forbid" and jingdiao_shape(sit.concealed, sit.melds, sit.jing):
            why = "精钓不接炮: a hand waiting with a lone jing wins only by self-draw, or 德国 on the jing's own tile"
        elif sit.method is WinMethod.DISCARD and not options.discard_win_wild_allowed:
            why = "有精不可点炮胡 (discard_win_wild_allowed=false): a discard win must be 德国"
        if why:
            out = [i for i in out if i.german]
            if not out:
                return out, why
    return out, ""


def interpretations(sit: WinSituation, options: Options = DEFAULT_OPTIONS) -> list[Interpretation]:
    """Every legal interpretation of the win (empty if it is no legal win)."""
    return _all_interpretations(sit, options)[0]


def can_win(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    jing: JingPair,
    *,
    win_tile: Tile | None = None,
    method: WinMethod = WinMethod.SELF_DRAWN,
    options: Options = DEFAULT_OPTIONS,
) -> bool:
    """Is ``concealed`` (+ ``win_tile``) with ``melds`` a legal win by ``method``?

    The fast check for an engine: a draw asks ``method=SELF_DRAWN``, a discard ``DISCARD`` (精钓 and
    ``discard_win_wild_allowed`` restrictions included; 过手胡 is the engine's to track).
    """
    v = _view(concealed, win_tile, jing, method.self_drawn)
    info = _meld_info(melds)
    restricted = method in (WinMethod.DISCARD, WinMethod.ROBBED_KONG) and (
        (options.jingdiao_ron == "forbid" and jingdiao_shape(concealed, melds, jing))
        or (method is WinMethod.DISCARD and not options.discard_win_wild_allowed)
    )
    if restricted or v.wilds == 0:
        nat, wilds, wk = v.full, 0, (0, 0)
    else:
        nat, wilds, wk = v.naturals, v.wilds, v.wild_kinds
    return any(_shape_ok(s, nat, wilds, wk, jing, info) for s in _shapes(options))


# ---- scoring -----------------------------------------------------------------------------------


def _shape_factor(shape: Shape, options: Options) -> int:
    if shape is Shape.PINGHU:
        return 1
    if shape is Shape.PENGPENG:
        return options.peng_peng_hu_mult
    if shape in (Shape.QIXING_SHISANLAN, Shape.QIXING_QIDUI):
        return 4
    return 2


def _items(interp: Interpretation, dezhongde: bool, method: WinMethod, options: Options) -> tuple[Hu, ...]:
    """The 胡 items in display order: 天胡/地胡, 杠开, 精钓, 德中德/德国, the shape."""
    items: list[Hu] = []
    if method in (WinMethod.HEAVENLY, WinMethod.EARTHLY):
        items.append(hu("tianhu" if method is WinMethod.HEAVENLY else "dihu", 1))
        if interp.jingdiao:
            items.append(hu("jingdiao", 2))
        return tuple(items)  # flat base: no other factor applies (§2.10.4)
    if method is WinMethod.KONG_REPLACEMENT:
        items.append(hu("gangkai", 2))
    if interp.jingdiao:
        items.append(hu("jingdiao", 2))
    if interp.german:
        items.append(hu("dezhongde", 4) if dezhongde else hu("deguo", 2))
        if options.german_7pairs_extra_double and interp.shape in (Shape.QIDUI, Shape.QIXING_QIDUI):
            items.append(hu("german_7pairs", 2))
    items.append(hu(interp.shape.value, _shape_factor(interp.shape, options)))
    return tuple(items)


def _score(sit: WinSituation, interp: Interpretation, options: Options) -> Win:
    dezhongde = interp.german and not sit.others_hold_jing
    items = _items(interp, dezhongde, sit.method, options)
    m = 1
    for item in items:
        m *= item.factor
    german = interp.german and sit.method not in (WinMethod.HEAVENLY, WinMethod.EARTHLY)
    pay = win_payments(sit.winner, sit.dealer, sit.method, m, german, sit.discarder, options)
    return Win(sit, interp, dezhongde, items, m, tuple(pay))


_SHAPE_RANK = {s: i for i, s in enumerate(Shape)}


def evaluate_win(sit: WinSituation, options: Options = DEFAULT_OPTIONS) -> Win:
    """The interpretation with the largest total win payment; raises :class:`NotAWinError`."""
    found, why = _all_interpretations(sit, options)
    if not found:
        raise NotAWinError(why)
    scored = [_score(sit, i, options) for i in found]
    return max(
        scored,
        key=lambda w: (
            w.payments[sit.winner],
            w.multiplier,
            w.interpretation.german,
            w.interpretation.jingdiao,
            -_SHAPE_RANK[w.interpretation.shape],
        ),
    )


def best_win(sit: WinSituation, options: Options = DEFAULT_OPTIONS) -> Win | None:
    """Like :func:`evaluate_win`, but ``None`` when the hand is no legal win."""
    try:
        return evaluate_win(sit, options)
    except NotAWinError:
        return None
