"""不重复: the exclusion table (:mod:`majiang.mcr.exclusions`) is the only place one fan removes another.

Mutation test: take any single entry (one fan off one right-hand side) out of the table and some test
hand scores differently — in the reference and in the compiled port, which is configured with the
mutated table.  If the same removal were also coded inline anywhere (as 四杠 → 单钓将 once was in the
wait fans), taking the entry out would change nothing and this test would name it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from typing import Any

import pytest

from majiang.mcr import WinningHand, exclusions, fast, scorer
from majiang.mcr.exclusions import NOT_COUNTED_WITH, NOT_COUNTED_WITH_IF, not_counted, table_for
from majiang.mcr.fans import Fan
from majiang.mcr.result import FanCount, ScoreResult
from majiang.mcr.rules import PROFILES, Rules
from test_fan_fast import harvest

from .test_coverage import ALL_CASES

Entry = tuple[str | None, Fan, Fan]  # (switch or None, the counted fan, the fan it takes away)
Outcome = tuple[tuple[int, int], ...] | None


def entries() -> Iterator[Entry]:
    for f, gs in NOT_COUNTED_WITH.items():
        for g in gs:
            yield None, f, g
    for switch, table in NOT_COUNTED_WITH_IF.items():
        for f, gs in table.items():
            for g in gs:
                yield switch, f, g


def _hands() -> list[tuple[WinningHand, Rules]]:
    seen: dict[str, tuple[WinningHand, Rules]] = {}

    def add(hand: WinningHand, rules: Rules) -> None:
        seen.setdefault(repr((hand, rules)), (hand, rules))

    for p in ALL_CASES:
        text, flags, _expected, _total, profiles, _removed = p.values
        for profile in profiles:
            add(WinningHand.from_string(text, **flags), PROFILES[profile])
    strings, dicts = harvest()
    for text, flags in strings:
        try:
            hand = WinningHand.from_string(text, **flags)
        except (ValueError, TypeError):
            continue
        for rules in PROFILES.values():
            add(hand, rules)
    for d in dicts:
        try:
            add(WinningHand.from_dict(d), PROFILES["gb"])
        except (ValueError, TypeError):
            continue
    return list(seen.values())


HANDS = _hands()


def outcome(fn: Callable[[WinningHand, Rules], ScoreResult], hand: WinningHand, rules: Rules) -> Outcome:
    try:
        r = fn(hand, rules)
    except ValueError:
        return None
    return tuple((int(fc.fan), fc.count) for fc in r.fans)


def configure_fast() -> None:
    if scorer._FAST is not None:
        scorer._FAST.configure(fast.config(FanCount, ScoreResult, scorer._Explanation))  # type: ignore[attr-defined]


SCORERS: list[tuple[str, Callable[[WinningHand, Rules], ScoreResult]]] = [("reference", scorer.score_reference)]
if scorer._FAST is not None:
    SCORERS.append(("compiled", scorer.score))
BASELINE = {name: [outcome(fn, h, r) for h, r in HANDS] for name, fn in SCORERS}


@pytest.fixture
def mutable_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(exclusions, "NOT_COUNTED_WITH", dict(NOT_COUNTED_WITH))
    monkeypatch.setattr(exclusions, "NOT_COUNTED_WITH_IF", {k: dict(v) for k, v in NOT_COUNTED_WITH_IF.items()})
    monkeypatch.setattr(fast, "NOT_COUNTED_WITH", exclusions.NOT_COUNTED_WITH)
    monkeypatch.setattr(fast, "NOT_COUNTED_WITH_IF", exclusions.NOT_COUNTED_WITH_IF)
    yield
    monkeypatch.undo()
    scorer._exclusions.cache_clear()
    configure_fast()


def _id(e: Entry) -> str:
    return f"{e[1].name}-{e[2].name}" + (f"-if-{e[0]}" if e[0] else "")


@pytest.mark.parametrize("entry", list(entries()), ids=_id)
def test_every_entry_matters(entry: Entry, mutable_tables: Any) -> None:
    switch, f, g = entry
    table = exclusions.NOT_COUNTED_WITH if switch is None else exclusions.NOT_COUNTED_WITH_IF[switch]
    table[f] = tuple(x for x in table[f] if x is not g)
    scorer._exclusions.cache_clear()
    configure_fast()
    for name, fn in SCORERS:
        changed = [
            h.to_string() for (h, r), before in zip(HANDS, BASELINE[name], strict=True) if outcome(fn, h, r) != before
        ]
        assert changed, f"{name}: without {f.name} → {g.name} no test hand scores differently (coded inline too?)"


def test_the_table_is_applied_from_the_biggest_fan_down() -> None:
    # each entry only takes away fans listed after it in the rulebook, so applying the table in number
    # order is well defined: a fan is either counted or not before it takes anything away
    assert all(g > f for _, f, g in entries())
    every = table_for({s: True for s in NOT_COUNTED_WITH_IF})
    assert list(every) == sorted(every)


def test_a_fan_that_is_not_counted_excludes_nothing() -> None:
    # 四暗刻 takes 不求人 away; 不求人 then does not take 自摸 away
    present = {Fan.FOUR_CONCEALED_PUNGS: 1, Fan.FULLY_CONCEALED_HAND: 1, Fan.SELF_DRAWN: 1}
    assert not_counted(present, table_for({s: True for s in NOT_COUNTED_WITH_IF})) == {Fan.FULLY_CONCEALED_HAND}


def test_switched_entries_name_rule_switches() -> None:
    switches = {f.name for f in fields(Rules) if isinstance(f.default, bool)}
    assert set(NOT_COUNTED_WITH_IF) <= switches
