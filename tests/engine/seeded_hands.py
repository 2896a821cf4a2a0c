"""Seeded hands of every ruleset, with items, for the log-format tests: the same seeds must give the
same games.  ``python tests/engine/seeded_hands.py DIR`` writes each hand's log (``NAME.jsonl``)
and every seat's view of its events (``NAME.views.json``), to compare two versions of the code."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from majiang.bots.base import make_bot
from majiang.engine import items
from majiang.engine.hand import Hand, IllegalAction, Phase
from majiang.engine.protocol import ADDED_KONG, CONCEALED_KONG, KONG, WIN, Action
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset

RULES = ("gb", "botzone", "nanchang")
BOTS = ("eff", "fan", "rand")
KONG_ACTIONS = (KONG, ADDED_KONG, CONCEALED_KONG)


def seeded_hand(rules: str, n: int, options: dict[str, Any] | None = None) -> Hand:
    """Hand ``n`` of ``rules``: bots by ``n``, an in-hand item now and then, 乾坤大挪移 on every
    third hand; the same ``(rules, n)`` always plays the same game."""
    seed = hashlib.sha256(f"{rules}:{n}".encode()).digest()
    rng = random.Random(f"{rules}:{n}")
    ruleset = make_ruleset(rules, options)
    hand = Hand(ruleset, seed, dealer=n % 4, hand_no=n, scores=[100, 100, 100, 100])
    if n % 3 == 2:
        hand = items.with_qiankun(hand, [{"seat": (n + 1) % 4, "pattern": list(items.PATTERNS)[n % 4]}])
    bots = [make_bot(BOTS[(n + k) % len(BOTS)], seed=n * 4 + k, rules=rules) for k in range(4)]
    while not hand.over:
        for s in hand.prompted():
            if hand.phase is Phase.TURN and items.usable(hand, s) and rng.random() < 0.06:
                _use_item(hand, s, rng)
                if hand.over or s not in hand.prompted():
                    break
            if hand.phase is Phase.TURN and rng.random() < 0.01 and _false_win(hand, s):
                break
            view = SeatView(hand, s)
            if view.legal:
                kongs = [a for a in view.legal if a.type in KONG_ACTIONS]  # kongs are where faces could leak
                hand.act(s, kongs[0] if kongs and rng.random() < 0.8 else bots[s].choose(view, view.legal))
            if hand.over:
                break
    return hand


def _false_win(hand: Hand, seat: int) -> bool:
    """Declare a win the hand does not have (错和/诈和, where the ruleset rules on it)."""
    if any(a.type == WIN for a in hand.legal(seat)):
        return False
    st = hand.seats[seat]
    tile = st.drawn if st.drawn is not None else st.concealed()[-1]
    try:
        hand.act(seat, Action(WIN, tile))
    except IllegalAction:
        return False
    return True


def _use_item(hand: Hand, seat: int, rng: random.Random) -> None:
    item = rng.choice(items.HAND_ITEMS)
    held = hand.seats[seat].concealed()
    tile = rng.choice(held)
    target = rng.choice([t for t in range(34) if t != tile])
    with contextlib.suppress(items.ItemRefused):
        items.use(hand, seat, item, tile=tile, target=target)


#: later seeds with what the first ones lack (Nanchang's kong bonuses: exposed, added, concealed)
EXTRA = {"nanchang": (18, 51, 52)}


def seeded_hands(per_rules: int = 16) -> Iterator[tuple[str, Hand]]:
    for rules in RULES:
        for n in (*range(per_rules), *EXTRA.get(rules, ())):
            yield f"{rules}-{n:02d}", seeded_hand(rules, n)


def main(out: Path) -> None:
    from majiang.engine.log import dumps_event
    from majiang.engine.view import event_view, tiles_to_json

    out.mkdir(parents=True, exist_ok=True)
    for name, hand in seeded_hands(int(sys.argv[2]) if len(sys.argv) > 2 else 16):
        (out / f"{name}.jsonl").write_text("".join(dumps_event(e) + "\n" for e in hand.events), encoding="utf-8")
        views = {
            s: [tiles_to_json(v) for e in hand.events if (v := event_view(e, s)) is not None] for s in (-1, 0, 1, 2, 3)
        }
        (out / f"{name}.views.json").write_text(json.dumps(views, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
