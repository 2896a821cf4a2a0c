"""The compiled hand core (majiang.engine.compiled) equals the Python engine, its reference: the same
hand logs, byte for byte, and the same answers to every question a player or a bot can ask, on
seeded hands of every bot mix and of the MCR profiles the core plays (gb, botzone, pymahjonggb) —
claims, kongs, robbing, flowers, false wins, faults and 荒牌 included.  ``scripts/core_equal.py`` runs
the same comparison on a million hands."""

from __future__ import annotations

import hashlib
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from majiang.bots.base import RandomBot, make_bot
from majiang.bots.ev import EVBot
from majiang.engine import compiled
from majiang.engine.compiled import CompiledHand, new_hand
from majiang.engine.hand import Hand, IllegalAction, Phase
from majiang.engine.log import dumps_event, verify
from majiang.engine.protocol import DISCARD, PASS_ACTION, WIN, Action
from majiang.engine.view import SeatView
from majiang.rulesets import from_header, make_ruleset
from majiang.rulesets.mcr import MCR
from majiang.sim import simulate

pytestmark = pytest.mark.skipif(compiled.core_rules(MCR("gb")) is None, reason="the compiled core is not built")

RULESETS = {
    "gb": lambda: make_ruleset("gb"),
    "botzone": lambda: make_ruleset("botzone"),
    "pymahjonggb": lambda: MCR("pymahjonggb"),
}


def _seed(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()


def _log(hand: Any) -> list[str]:
    return [dumps_event(e) for e in hand.events]


class ChaosBot:
    """Plays randomly and now and then answers wrongly: a win it does not have (错和/诈和), a tile it does
    not hold, a claim it was not offered — what the engines must refuse or penalise alike."""

    name = "chaos"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.faults = 0

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        r = self.rng.random()
        if r < 0.03:
            return Action(WIN, self.rng.randrange(-1, 34))
        if r < 0.05:
            return Action(DISCARD, self.rng.randrange(34))
        if r < 0.06:
            return Action("pung", self.rng.randrange(34))
        return self.rng.choice(legal)


# ---- hands played by bots: the core's own bots (rand, eff) and Python ones --------------------------
MIXES = [
    (["rand"] * 4, 480),
    (["eff"] * 4, 240),
    (["fan"] * 4, 240),
    (["eff", "rand", "eff", "rand"], 240),
    (["fan", "eff", "rand", "rand"], 48),
    (["ev", "rand", "eff", "fan"], 24),
]


@pytest.mark.parametrize("rules", ["gb", "botzone"])
@pytest.mark.parametrize(("bots", "hands"), MIXES, ids=[",".join(b) for b, _ in MIXES])
def test_simulated_hands_log_the_same(monkeypatch, tmp_path, rules, bots, hands):
    runs = {}
    for engine in ("python", "core"):
        monkeypatch.setenv("MAJIANG_ENGINE", engine)
        out = tmp_path / engine
        result = simulate(hands, 11, bots, rules=rules, duplicate=hands % 24 == 0, log_dir=out).to_dict()
        result.pop("hands_per_s")
        runs[engine] = (result, {p.name: p.read_bytes() for p in sorted(out.iterdir())})
    (want_stats, want_logs), (got_stats, got_logs) = runs["python"], runs["core"]
    assert len(want_logs) == hands
    differ = [name for name in want_logs if got_logs.get(name) != want_logs[name]]
    assert not differ, f"{len(differ)} hand logs differ, first {differ[0]}"
    assert got_stats == want_stats


@pytest.mark.parametrize("rules", ["gb", "botzone"])
def test_python_bots_with_wrong_answers_play_the_same(monkeypatch, tmp_path, rules):
    """Illegal answers go through the same 托管 default (gb) or fault (Botzone), false wins are penalised."""
    runs = {}
    for engine in ("python", "core"):
        monkeypatch.setenv("MAJIANG_ENGINE", engine)
        players = [ChaosBot(1), RandomBot(2), ChaosBot(3), make_bot("eff", 4, rules=rules)]
        result = simulate(96, 5, players, rules=rules, log_dir=tmp_path / engine).to_dict()
        result.pop("hands_per_s")
        runs[engine] = (result, [p.read_bytes() for p in sorted((tmp_path / engine).iterdir())])
    assert runs["core"] == runs["python"]
    stats = runs["core"][0]
    assert stats["illegal_actions"] > 0 and stats["false_wins"] > 0  # the paths were taken
    assert stats["zero_sum_violations"] == 0


def test_rand_bots_go_on_with_the_same_stream():
    """After a core run a RandomBot's own generator is where the Python engine would have left it."""
    states = {}
    for engine in ("python", "core"):
        bots = [RandomBot(7 + i) for i in range(4)]
        ruleset = make_ruleset("gb")
        for n in range(5):
            hand = Hand(ruleset, _seed("s", n)) if engine == "python" else CompiledHand(ruleset, _seed("s", n))
            from majiang.sim import play_hand

            play_hand(hand, bots)
        states[engine] = [b.rng.getstate() for b in bots]
    assert states["core"] == states["python"]


CORE_PLAYED = [("fan", "BOT_FAN", 40), ("ev", "BOT_EV", 16), ("ev@3", "BOT_EV3", 1)]  # ev@3: ≈ 6 s a hand in Python


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize(("bot", "kind", "hands"), CORE_PLAYED, ids=[b for b, _, _ in CORE_PLAYED])
def test_the_core_plays_its_bots_itself_as_python_does(rules, bot, kind, hands):
    """BOT_FAN, BOT_EV, BOT_EV3: the fan bot (majiang.bots.fan.FanBot) and the ev bot
    (majiang.bots.ev.EVBot, ``best``; ``ev@3`` searching three steps from ready) decide inside the
    core (no seat is asked in Python) and every hand's log equals the Python engine's with that bot
    at the four seats."""
    from majiang.bots.incore import core_kind
    from majiang.sim import play_hand

    assert core_kind(make_bot(bot, 1, rules="gb")) == getattr(compiled, kind)
    ruleset = RULESETS[rules]()

    def asked(seat: int) -> None:
        raise AssertionError(f"seat {seat} was asked in Python")

    def reference(seat: int) -> Any:
        player = make_bot(bot, seat, rules="gb")
        if isinstance(player, EVBot):
            player.budget_s = math.inf  # the core's ev is bounded by its node count alone
        return player

    for n in range(hands):
        ref = Hand(ruleset, _seed(bot, rules, n))
        play_hand(ref, [reference(s) for s in range(4)])
        hand = CompiledHand(ruleset, _seed(bot, rules, n))
        hand.play([getattr(compiled, kind)] * 4, [None] * 4, asked)
        assert _log(hand) == _log(ref), n


def test_the_core_plays_only_the_ev_bot_it_has():
    """An ev bot configured otherwise than the core's (depth, defence, node bound) is asked in Python."""
    from majiang.bots.incore import core_kind

    assert core_kind(EVBot(1)) == compiled.BOT_EV
    assert core_kind(make_bot("best", 1, rules="gb")) == compiled.BOT_EV
    assert core_kind(EVBot(1, depth=3)) == core_kind(make_bot("ev@3", 1, rules="gb")) == compiled.BOT_EV3
    for other in (EVBot(1, depth=1), EVBot(1, defence=False), EVBot(1, max_nodes=5000), EVBot(1, depth=3, max_nodes=9)):
        assert core_kind(other) == compiled.BOT_PYTHON
    with pytest.raises(ValueError, match="1, 2 or 3"):
        make_bot("ev@4", 1, rules="gb")


def test_the_core_s_bots_choose_as_python_does_at_every_decision():
    """CompiledHand.bot_choice (what the search bot and dataset self-play ask) equals the Python bot's
    choice at every decision of hands played by a mix, turns and claims alike."""
    from majiang.bots.incore import core_choice
    from majiang.sim import play_hand

    ruleset = make_ruleset("gb")
    twins = {compiled.BOT_EFF: "eff", compiled.BOT_FAN: "fan", compiled.BOT_EV: "ev", compiled.BOT_EV3: "ev@3"}
    reference = {kind: make_bot(name, 1, rules="gb") for kind, name in twins.items()}
    reference[compiled.BOT_EV].budget_s = reference[compiled.BOT_EV3].budget_s = math.inf
    asked = 0

    class Checking:
        name = "checking"

        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def choose(self, view: SeatView, legal: list[Action]) -> Action:
            nonlocal asked
            hand = view._hand
            for kind, bot in reference.items():
                if deep or kind != compiled.BOT_EV3:
                    assert hand.bot_choice(view.seat, kind) == bot.choose(view, legal), (twins[kind], view.phase)
            asked += 1
            return core_choice(self.bot, view, legal)

    for n in range(6):
        deep = n < 2  # ev@3 (≈ 90 ms a decision in Python) checked at every decision of two hands
        hand = CompiledHand(ruleset, _seed("choice", n))
        play_hand(hand, [Checking(make_bot(b, s, rules="gb")) for s, b in enumerate(("ev", "fan", "eff", "ev@3"))])
    assert asked > 200
    with pytest.raises(ValueError, match="bot kind"):
        hand.bot_choice(0, compiled.BOT_RAND)
    with pytest.raises(IllegalAction):
        hand.bot_choice(0, compiled.BOT_EV)  # the hand is over


def test_the_core_s_look_ahead_rows_are_python_s():
    """CompiledHand.ev_look (the look-ahead rows a network reads, docs/rl.md) equals EVBot.look at
    every decision — the rows to the bit and the choice — with valued turns and valued claims among
    them."""
    import numpy as np

    from majiang.bots.ev import LOOK_ROWS
    from majiang.sim import play_hand

    reference = make_bot("ev", 1, rules="gb")
    reference.budget_s = math.inf
    seen = {"turn": 0, "claim": 0, "danger": 0}

    class Checking:
        name = "checking"

        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def choose(self, view: SeatView, legal: list[Action]) -> Action:
            rows = np.full((LOOK_ROWS, 34), 7.0, dtype=np.float32)  # all of it written
            choice = view._hand.ev_look(view.seat, rows)
            want, want_choice = reference.look(view, legal)
            assert want.dtype == np.float32 and want.shape == (LOOK_ROWS, 34)
            assert rows.tobytes() == want.tobytes(), (view.phase, rows - want)
            assert choice == want_choice == view._hand.bot_choice(view.seat, compiled.BOT_EV)
            seen["danger"] += bool(rows[0].any())
            seen["turn"] += bool(rows[1].any())
            seen["claim"] += bool(rows[2].any())
            return self.bot.choose(view, legal)

    for n in range(4):
        hand = CompiledHand(make_ruleset("gb"), _seed("look", n))
        play_hand(hand, [Checking(make_bot(b, s, rules="gb")) for s, b in enumerate(("eff", "fan", "eff", "fan"))])
    assert min(seen.values()) > 10, seen
    with pytest.raises(IllegalAction):
        hand.ev_look(0, np.zeros((LOOK_ROWS, 34), dtype=np.float32))  # the hand is over
    with pytest.raises(ValueError, match="rows"):
        CompiledHand(make_ruleset("gb"), _seed("look", 9)).ev_look(0, np.zeros((2, 34), dtype=np.float32))


# ---- hands driven step by step: every question answered alike --------------------------------------------
def _seat_state(hand: Any, s: int) -> tuple[Any, ...]:
    st = hand.seats[s]
    return (
        list(st.counts),
        list(st.melds),
        list(st.flowers),
        list(st.discards),
        list(st.claimed),
        st.drawn,
        st.barred,
        st.passed_win,
        st.n_concealed,
        st.concealed(),
    )


def _state(hand: Any) -> tuple[Any, ...]:
    return (
        hand.phase,
        hand.over,
        hand.current,
        hand.pending,
        hand.turn_drawn,
        hand.after_kong,
        hand.first_turn,
        list(hand.deltas),
        list(hand.visible),
        hand.wall.live,
        hand.wall.remaining,
        [hand.wall.left(s) for s in range(4)],
        hand.prompted(),
        [list(hand.legal(s)) for s in range(4)],
        [_seat_state(hand, s) for s in range(4)],
    )


def _attempt(hand: Any, do: Any) -> str:
    try:
        do(hand)
    except IllegalAction:
        return "refused"
    return "ok"


def _step(rng: random.Random, ref: Hand, faults: bool) -> Any:
    """One decision for both hands (a function of the hand), chosen on the reference."""
    if faults and rng.random() < 0.004:
        seat, kind = rng.randrange(4), rng.choice(["WA", "TLE", "RE"])
        return lambda h: h.fault(seat, kind)
    r = rng.random()
    if r < 0.02:  # a win declared by anyone, the seats not asked included
        seat, tile = rng.randrange(4), rng.randrange(-1, 34)
        return lambda h: h.act(seat, Action(WIN, tile))
    if r < 0.03:  # nonsense
        seat, action = (
            rng.randrange(-1, 5),
            rng.choice(
                [Action(DISCARD, rng.randrange(40)), Action("chow", 5, (4, 5, 6)), PASS_ACTION, Action("kong", 3)]
            ),
        )
        return lambda h: h.act(seat, action)
    seat = rng.choice(ref.prompted())
    legal = ref.legal(seat)
    if r < 0.05:
        return lambda h: h.act(seat, h.default_action(seat))
    action = rng.choice(legal) if legal else PASS_ACTION
    return lambda h: h.act(seat, action)


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_step_by_step_the_same(rules):
    ruleset = RULESETS[rules]()
    for n in range(120):
        rng = random.Random(f"{rules}:{n}")
        seed = _seed(rules, n)
        kw: dict[str, Any] = {"dealer": n % 4, "prevalent": n // 4 % 4, "hand_no": n, "scores": [n, 0, -n, 0]}
        ref, core = Hand(ruleset, seed, **kw), CompiledHand(ruleset, seed, **kw)
        steps = 0
        while not ref.over:
            assert _state(core) == _state(ref), f"hand {n}, step {steps}"
            if steps % 9 == 0:
                for s in range(4):
                    assert SeatView(core, s).to_dict() == SeatView(ref, s).to_dict(), f"hand {n}, step {steps}"
            do = _step(rng, ref, faults=rules == "botzone")
            assert _attempt(core, do) == _attempt(ref, do), f"hand {n}, step {steps}"
            steps += 1
        assert core.over and _state(core) == _state(ref)
        assert _log(core) == _log(ref), f"hand {n}"
        assert (core.win is None) == (ref.win is None)
        if ref.win is not None:
            assert (core.win.seat, core.win.points, core.win.names) == (ref.win.seat, ref.win.points, ref.win.names)
        assert core.settlement == ref.settlement
        for s in range(4):
            assert SeatView(core, s).to_dict() == SeatView(ref, s).to_dict()
        if rules != "pymahjonggb":  # a profile, not a registered ruleset: no log header names it
            assert verify(core.events, from_header)[0]


def test_arranged_walls_and_the_header_extras():
    """A wall arranged by swaps (乾坤大挪移, rigged tests, Botzone's walltiles) and a session's extras."""
    ruleset = make_ruleset("gb")
    rng = random.Random(3)
    for n in range(20):
        seed = _seed("arrange", n)
        swaps = [(rng.randrange(144), rng.randrange(144)) for _ in range(rng.randrange(1, 40))]
        extra = {"round": n, "players": [1, 2, 3, 4]}
        ref = Hand(ruleset, seed, dealer=1, arrange=swaps, extra=extra)
        core = CompiledHand(ruleset, seed, dealer=1, arrange=swaps, extra=extra)
        while not ref.over:
            s = ref.prompted()[0]
            a = rng.choice(ref.legal(s))
            ref.act(s, a)
            core.act(s, a)
        assert _log(core) == _log(ref)


# ---- choosing the engine -------------------------------------------------------------------------
def test_new_hand_follows_the_ruleset_and_majiang_engine(monkeypatch):
    seed = _seed("choice")
    monkeypatch.delenv("MAJIANG_ENGINE", raising=False)
    assert isinstance(new_hand(make_ruleset("gb"), seed), CompiledHand)
    assert isinstance(new_hand(make_ruleset("botzone"), seed), CompiledHand)
    assert type(new_hand(make_ruleset("nanchang"), seed)) is Hand  # Nanchang does not opt in
    monkeypatch.setenv("MAJIANG_ENGINE", "python")
    assert type(new_hand(make_ruleset("gb"), seed)) is Hand
    monkeypatch.setenv("MAJIANG_ENGINE", "core")
    with pytest.raises(ValueError, match="cannot play"):
        new_hand(make_ruleset("nanchang"), seed)
    monkeypatch.setenv("MAJIANG_ENGINE", "fast")
    with pytest.raises(ValueError, match="MAJIANG_ENGINE"):
        new_hand(make_ruleset("gb"), seed)


def test_a_subclass_of_a_ruleset_plays_on_the_reference():
    class Custom(MCR):
        pass

    assert Custom().core() is None
    assert type(new_hand(Custom(), _seed("custom"))) is Hand


def test_items_need_the_python_engine():
    hand = CompiledHand(make_ruleset("gb"), _seed("items"))
    with pytest.raises(IllegalAction, match="Python engine"):
        hand.intervene(hand.current, {"type": "item", "seat": hand.current, "item": "x"})


def test_core_logs_replay_on_the_reference(tmp_path):
    """A log written from the core replays exactly on the Python engine (``majiang replay --verify``)."""
    hand = CompiledHand(make_ruleset("botzone"), _seed("replay"))
    rng = random.Random(1)
    while not hand.over:
        s = hand.prompted()[0]
        hand.act(s, rng.choice(hand.legal(s)))
    path = Path(tmp_path / "hand.jsonl")
    path.write_text("".join(dumps_event(e) + "\n" for e in hand.events), encoding="utf-8")
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    from majiang.engine.log import events_from_json

    assert verify(events_from_json(events), from_header)[0]
    assert hand.phase is Phase.OVER


class FlakyBot:
    """A bot program as a runner sees it: now and then its answer is late, unreadable or missing (it
    crashed), and it reports the fault it replaced by a legal move (``last_fault``) as the Botzone and
    external bots do."""

    name = "flaky"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.faults = 0
        self.last_fault: str | None = None

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        self.last_fault = None
        r = self.rng.random()
        if r < 0.06:
            self.faults += 1
            self.last_fault = ("TLE", "WA", "RE")[int(r / 0.02)]
            return next((a for a in legal if a.type == "pass"), legal[-1])
        return self.rng.choice(legal)


@pytest.mark.parametrize(("rules", "faults"), [("botzone", None), ("gb", "botzone"), ("botzone", "substitute")])
def test_faulting_bots_are_scored_the_same_on_both_engines(monkeypatch, tmp_path, rules, faults):
    """A bot's reported fault ends the hand Botzone's way (−30 / +10 each) where the ruleset scores
    faults, and is replaced by a legal move where it does not, alike on both engines."""
    runs = {}
    for engine in ("python", "core"):
        monkeypatch.setenv("MAJIANG_ENGINE", engine)
        players = [FlakyBot(1), make_bot("eff", 2, rules=rules), FlakyBot(3), RandomBot(4)]
        result = simulate(48, 7, players, rules=rules, faults=faults, log_dir=tmp_path / engine).to_dict()
        result.pop("hands_per_s")
        runs[engine] = (result, [p.read_bytes() for p in sorted((tmp_path / engine).iterdir())])
    assert runs["core"] == runs["python"]
    stats, logs = runs["core"]
    ended = [json.loads(raw.splitlines()[-1]) for raw in logs]
    by_fault = [e for e in ended if e["result"] == "fault"]
    counted = {
        k: stats["seats"][0]["faults"][k] + stats["seats"][2]["faults"][k] for k in ("timeout", "illegal", "crash")
    }
    assert all(counted.values()), counted  # every kind was taken
    assert stats["seats"][1]["faults"] == stats["seats"][3]["faults"] == {"timeout": 0, "illegal": 0, "crash": 0}
    if faults == "substitute":
        assert not by_fault
    else:
        assert len(by_fault) == sum(counted.values())  # each fault ended its hand
        assert all(sorted(e["deltas"]) == [-30, 10, 10, 10] for e in by_fault)
