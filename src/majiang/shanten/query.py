"""The shanten query of ``docs/hand-json.md``: a hand in, its shanten, forms, useful tiles, waits
and (one tile more) its discard table out.

>>> r = analyze_dict({"hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "1s", "5m", "6m"]})
>>> r["shanten"], r["waits"]
(0, ['4m', '7m'])
>>> r["legal_waits"], r["wait_fans"][0]  # 合法听: both waits reach 8 fans (花龙 among them)
(['4m', '7m'], {'tile': '4m', 'discard': 13, 'self_drawn': 15})
>>> analyze_dict({"hand": ["1m", "9z"]})["error"]
"hand: unknown tile '9z' in '9z': honours are 1z–7z"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from majiang.shanten.efficiency import (
    DiscardOption,
    FormShanten,
    discard_table,
    forms_of_counts,
    useful_of_counts,
)
from majiang.tiles import (
    NUM_KINDS,
    NotationError,
    Tile,
    counts_of,
    is_flower,
    parse_tile,
    parse_tiles,
    tile_str,
    wind_index,
)

if TYPE_CHECKING:
    from majiang.melds import Meld
    from majiang.shanten.legal import FanReport


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything the query reports about one hand."""

    hand: tuple[Tile, ...]  # concealed tiles
    melds: tuple[Meld, ...]
    visible: tuple[Tile, ...]  # tiles seen elsewhere (discards, other players' melds)
    shanten: int  # -1 = complete (a hand with one tile more only)
    forms: FormShanten
    useful: tuple[Tile, ...]  # 13 tiles: tiles that lower the shanten; 14: those of the best discards
    waits: tuple[Tile, ...] | None  # when the shanten is 0
    discards: tuple[DiscardOption, ...] | None  # a hand with one tile more
    fan: FanReport | None = None  # 合法听 (majiang.shanten.legal), unless asked not to

    def unseen(self, tile: Tile) -> int:
        """Copies of ``tile`` not in this hand, its melds or the visible tiles."""
        held = sum(1 for t in self.hand if t == tile) + sum(1 for m in self.melds for t in m.tiles if t == tile)
        return max(0, 4 - held - sum(1 for t in self.visible if t == tile))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "shanten": self.shanten,
            "forms": self.forms._asdict(),
            "useful": [tile_str(t) for t in self.useful],
        }
        if self.discards is None:
            d["unseen"] = sum(self.unseen(t) for t in self.useful)
        if self.waits is not None:
            d["waits"] = [tile_str(t) for t in self.waits]
        if self.discards is not None:
            d["discards"] = [
                {
                    "discard": tile_str(r.discard),
                    "shanten": r.shanten,
                    "useful": [tile_str(t) for t in r.useful],
                    "unseen": r.unseen,
                }
                for r in self.discards
            ]
        if self.fan is not None:
            d.update(self.fan.to_dict())
        return d


def analyze(
    hand: Sequence[Tile],
    melds: Sequence[Meld] = (),
    visible: Sequence[Tile] = (),
    *,
    fans: bool = True,
    min_fan: int = 8,
    seat_wind: int = 0,
    prevalent_wind: int = 0,
    rules: str = "gb",
) -> Analysis:
    """Analyse concealed ``hand`` after declared ``melds``: 13 − 3·len(melds) tiles, or one more
    (then with the discard table).  Raises ValueError with the reason when the hand is impossible.

    With ``fans`` (the default) the result also has :attr:`Analysis.fan`, the 合法听 report of
    :mod:`majiang.shanten.legal`: the waits' fans under these winds and rules profile, the legal waits
    (a discard win reaching ``min_fan``, flowers never counted) and the fan-aware shanten."""
    if len(melds) > 4:
        raise ValueError(f"at most 4 melds, got {len(melds)}")
    need = 13 - 3 * len(melds)
    if len(hand) not in (need, need + 1):
        raise ValueError(
            f"wrong tile count: with {len(melds)} meld(s) the hand holds {need} concealed tiles "
            f"(or {need + 1} before a discard), got {len(hand)} (kongs count as 3)"
        )
    if any(not 0 <= t < NUM_KINDS for t in hand):
        raise ValueError("flowers do not belong in the hand")
    counts = counts_of(hand)
    seen = counts_of([t for m in melds for t in m.tiles])
    for t in range(NUM_KINDS):
        if counts[t] + seen[t] > 4:
            raise ValueError(f"{counts[t] + seen[t]} copies of {tile_str(t)} in the hand and melds: a set has only 4")
    for t in visible:
        if 0 <= t < NUM_KINDS:
            seen[t] += 1
    for t in range(NUM_KINDS):
        if counts[t] + seen[t] > 4:
            raise ValueError(f"visible: {counts[t] + seen[t]} copies of {tile_str(t)} counting the hand and melds")
    n_melds = len(melds)
    fan: FanReport | None = None
    if fans:
        # imported here: it loads the fan calculator, which a plain shanten query does not need
        from majiang.shanten.legal import FanContext, report

        seen_elsewhere = counts_of([t for t in visible if 0 <= t < NUM_KINDS])
        ctx = FanContext(
            melds=tuple(melds),
            seat_wind=seat_wind,
            prevalent_wind=prevalent_wind,
            min_fan=min_fan,
            rules=rules,
            visible=tuple(seen_elsewhere),
        )
    forms = forms_of_counts(counts, n_melds)
    shanten = forms.best()
    waits: tuple[Tile, ...] | None = None
    if len(hand) == need:
        useful = tuple(useful_of_counts(counts, n_melds))
        if shanten == 0:
            waits = useful
        if fans:
            fan = report(counts, ctx)
        return Analysis(tuple(hand), tuple(melds), tuple(visible), shanten, forms, useful, waits, None, fan)
    rows = discard_table(counts, n_melds, seen)
    best_after = min(r.shanten for r in rows)
    useful = tuple(sorted({t for r in rows if r.shanten == best_after for t in r.useful})) if shanten >= 0 else ()
    if shanten == 0:
        waits = useful
    if fans:
        fan = report(counts, ctx, {r.discard: r.unseen for r in rows})
    return Analysis(tuple(hand), tuple(melds), tuple(visible), shanten, forms, useful, waits, tuple(rows), fan)


def _tiles(d: Mapping[str, Any], key: str, required: bool) -> list[Tile]:
    raw = d.get(key)
    if raw is None and not required:
        return []
    try:
        if isinstance(raw, str):
            return parse_tiles(raw)
        if isinstance(raw, list):
            return [parse_tile(t) for t in raw]
    except NotationError as e:
        raise ValueError(f"{key}: {e}") from None
    raise ValueError(f'\'{key}\' must be a list of tile strings such as ["1m", "E"], got {raw!r}')


def fan_options(d: Mapping[str, Any]) -> dict[str, Any]:
    """The 合法听 options of a query: ``min_fan`` (8), ``seat_wind`` / ``prevalent_wind`` (E), ``rules``
    (gb) and ``flowers``, which is checked but never counted (the minimum does not count flowers)."""
    min_fan = d.get("min_fan", 8)
    if not isinstance(min_fan, int) or isinstance(min_fan, bool) or not 0 <= min_fan <= 400:
        raise ValueError(f"'min_fan' must be a whole number of fans 0–400, got {min_fan!r}")
    winds = {}
    for key in ("seat_wind", "prevalent_wind"):
        raw = d.get(key, "E")
        try:
            winds[key] = wind_index(raw)
        except NotationError:
            raise ValueError(f"'{key}' must be E, S, W or N (or 0–3), got {raw!r}") from None
    rules = d.get("rules", "gb")
    from majiang.mcr import PROFILES

    if not isinstance(rules, str) or rules not in PROFILES:
        raise ValueError(f"'rules' must be one of {sorted(PROFILES)} for a shanten query, got {rules!r}")
    flowers = d.get("flowers", 0)
    if isinstance(flowers, list):
        flowers = len(flowers)
    if not isinstance(flowers, int) or isinstance(flowers, bool) or not 0 <= flowers <= 8:
        raise ValueError(f"'flowers' must be a count 0–8 or a list of flower tiles, got {d.get('flowers')!r}")
    fans = d.get("fans", True)
    if not isinstance(fans, bool):
        raise ValueError(f"'fans' must be true or false, got {fans!r}")
    return {"fans": fans, "min_fan": min_fan, "rules": rules, **winds}


def analyze_dict(d: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON shanten query: ``{"melds": [...], "hand": [...], "visible": [...]}`` → result dict,
    or ``{"error": reason}`` for bad input (the reason names the bad token or field).

    The 合法听 options ``min_fan``, ``seat_wind``, ``prevalent_wind``, ``rules`` (and ``flowers``, never
    counted) add ``min_fan``, ``fan_shanten``, ``fan_shanten_exact`` and, for a ready 13-tile hand,
    ``wait_fans``, ``legal_waits``, ``self_drawn_waits``, or for a hand with one tile more
    ``fan_discards`` (see :mod:`majiang.shanten.legal` and docs/hand-json.md).  ``"fans": false``
    leaves them out (the plain query, some ten times cheaper)."""
    try:
        if not isinstance(d, Mapping):
            raise ValueError("a shanten query must be a JSON object with 'hand' (see docs/hand-json.md)")
        if "hand" not in d:
            raise ValueError("'hand' is missing")
        hand = _tiles(d, "hand", True)
        if any(is_flower(t) for t in hand):
            raise ValueError("hand: flowers do not belong in the hand")
        visible = [t for t in _tiles(d, "visible", False) if not is_flower(t)]
        melds_raw = d.get("melds", [])
        if not isinstance(melds_raw, list):
            raise ValueError("'melds' must be a list")
        melds = []
        if melds_raw:
            from majiang.mcr.hand import meld_from_dict

            for i, m in enumerate(melds_raw):
                try:
                    melds.append(meld_from_dict(m))
                except ValueError as e:
                    raise ValueError(f"melds[{i}]: {e}") from None
        options = fan_options(d)
        return analyze(hand, melds, visible, **options).to_dict()
    except ValueError as e:
        return {"error": str(e)}
