"""The AI review (majiang.review, ``majiang review``) on seeded simulated hands: one entry per
decision of the seat, the bot's choice legal there, a seat played by the reviewer itself agreed with
everywhere, the JSON schema."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from majiang.bots import make_bot
from majiang.cli import main
from majiang.engine.hand import Hand
from majiang.engine.log import write_log
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.review import SessionReview, review_hand, reviewer_spec, seat_of_player
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand

SEAT = 1


class Recording:
    """A bot that remembers every decision it was asked: the event index, the legal list, its answer."""

    def __init__(self, spec: str, seed: int) -> None:
        self.inner = make_bot(spec, seed)
        self.name = spec
        self.asked: list[tuple[int, list[Action], Action]] = []
        self.hand: Hand | None = None

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        a = self.inner.choose(view, legal)
        assert self.hand is not None
        self.asked.append((len(self.hand.events), list(legal), a))
        return a


def played(k: int, spec: str, others: tuple[str, str, str] = ("fan", "eff", "rand")) -> tuple[Hand, Recording]:
    """Hand ``k`` of a seeded run, seat 1 played by ``spec`` (seeded 0, as the review seeds its bot)."""
    hand = Hand(make_ruleset("gb"), hashlib.sha256(b"review %d" % k).digest(), dealer=k % 4)
    me = Recording(spec, 0)
    me.hand = hand
    bots: list[Any] = [make_bot(others[0], k), me, make_bot(others[1], k + 1), make_bot(others[2], k + 2)]
    play_hand(hand, bots)
    return hand, me


@pytest.mark.parametrize("k", range(4))
def test_one_entry_per_decision_with_a_legal_choice(k: int) -> None:
    hand, me = played(k, "eff")
    review = review_hand(hand.events, SEAT, "fan")
    # the count kept while playing: every time the engine asked the seat
    assert [d.event for d in review.decisions] == [i for i, _, _ in me.asked]
    assert [d.player for d in review.decisions] == [a for _, _, a in me.asked]
    for d, (_, legal, _) in zip(review.decisions, me.asked, strict=True):
        assert d.bot in legal
        assert d.loss >= 0 and (d.loss == 0 if d.agree else True)
    # and from the log alone: every action of the seat that shows in an event was a decision
    shown = sum(
        1
        for e in hand.events
        if e.get("seat") == SEAT
        and (
            e["type"] in ("discard", "chow", "pung", "add_kong_declared")
            or (e["type"] == "kong" and e["kind"] != "added")
            or (e["type"] == "win")
        )
    )
    assert shown <= len(review.decisions)
    passes = sum(1 for d in review.decisions if d.player.type == "pass")
    assert shown + passes == len(review.decisions)


def test_reviewing_the_reviewer_agrees_everywhere() -> None:
    spec = reviewer_spec()
    hands = []
    for k in range(4):
        hand, _ = played(k, spec)
        hands.append(review_hand(hand.events, SEAT, spec))
    session = SessionReview(spec, tuple(hands))
    assert session.summary.decisions > 40
    assert session.summary.agreement == 1.0 and session.summary.loss == 0.0
    assert session.mistakes(5) == []


def test_another_player_is_not_agreed_with_everywhere() -> None:
    """The agreement test above can fail: the efficiency bot does not play as the fan bot would."""
    hands = [review_hand(played(k, "eff")[0].events, SEAT, "fan") for k in range(4)]
    session = SessionReview("fan", tuple(hands))
    assert session.summary.agreement < 1.0
    assert session.summary.loss > 0
    worst = session.mistakes(3)
    assert len(worst) == 3 and worst[0][1].loss >= worst[1][1].loss >= worst[2][1].loss > 0


def test_a_passed_win_is_a_big_mistake() -> None:
    class NeverWins:
        name = "nowin"

        def __init__(self) -> None:
            self.inner = make_bot("fan", 0)

        def choose(self, view: SeatView, legal: list[Action]) -> Action:
            return self.inner.choose(view, [a for a in legal if a.type != "win"] or legal)

    for k in range(40):
        hand = Hand(make_ruleset("gb"), hashlib.sha256(b"nowin %d" % k).digest())
        play_hand(hand, [make_bot("fan", 1), NeverWins(), make_bot("fan", 2), make_bot("fan", 3)])
        review = review_hand(hand.events, SEAT, "fan")
        passed = [d for d in review.decisions if d.bot.type == "win"]
        if passed:
            assert all(not d.agree and d.loss >= 2 for d in passed)
            assert review.mistakes(1)[0].bot.type == "win"
            return
    pytest.fail("no seeded hand offered seat 1 a win")


def test_cli_json_schema(tmp_path: Any, capsys: Any) -> None:
    paths = []
    for k in range(2):
        hand, _ = played(k, "eff")
        path = tmp_path / f"h{k}.jsonl"
        write_log(hand.events, path)
        paths.append(str(path))
    assert main(["review", *paths, "--seat", str(SEAT), "--bot", "fan", "--json", "--top", "3"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d) == {"reviewer", "method", "summary", "hands", "mistakes"}
    assert d["reviewer"] == "fan" and len(d["hands"]) == 2
    assert set(d["summary"]) == {"decisions", "agreed", "agreement", "loss"}
    assert d["summary"]["decisions"] == sum(h["summary"]["decisions"] for h in d["hands"])
    h = d["hands"][0]
    assert set(h) == {"label", "hand_no", "seat", "rules", "reviewer", "summary", "decisions", "mistakes"}
    assert h["seat"] == SEAT and h["label"] == paths[0]
    x = h["decisions"][0]
    assert set(x) == {
        "event",
        "turn",
        "phase",
        "hand",
        "melds",
        "drawn",
        "offered",
        "player",
        "bot",
        "player_value",
        "bot_value",
        "player_estimate",
        "bot_estimate",
        "agree",
        "loss",
        "auto",
    }
    assert set(x["player_estimate"]) == {"value", "shanten", "useful", "ready", "danger"}
    assert x["player"]["type"] in ("discard", "chow", "pung", "kong", "added_kong", "concealed_kong", "win", "pass")
    assert len(d["mistakes"]) <= 3 and all({"hand_index", "label"} <= set(m) for m in d["mistakes"])
    assert all(
        h["mistakes"]
        == sorted(h["mistakes"], key=lambda e: -next(x["loss"] for x in h["decisions"] if x["event"] == e))
        for h in d["hands"]
    )
    # the text table: both languages in the headers, a session line
    assert main(["review", *paths, "--seat", str(SEAT), "--bot", "fan"]) == 0
    text = capsys.readouterr().out
    assert "机器人 Bot" in text and "损失 Loss" in text and "全部 session" in text


def test_cli_refuses_a_log_that_does_not_replay(tmp_path: Any, capsys: Any) -> None:
    hand, _ = played(0, "eff")
    events = list(hand.events)
    i = next(i for i, e in enumerate(events) if e["type"] == "discard")
    events[i] = {**events[i], "tile": next(t for t in range(34) if t != events[i]["tile"])}
    bad = tmp_path / "bad.jsonl"
    write_log(events, bad)
    assert main(["review", str(bad), "--seat", "0"]) == 2
    assert "does not replay" in capsys.readouterr().err
    (tmp_path / "junk.jsonl").write_text('{"type": "discard"}\n', encoding="utf-8")
    assert main(["review", str(tmp_path / "junk.jsonl")]) == 2


def test_seat_of_player() -> None:
    assert seat_of_player({"players": [3, 1, 0, 2]}, "0") == 2
    assert seat_of_player({"names": ["a", "b", "c", "d"], "players": [0, 1, 2, 3]}, "c") == 2
    with pytest.raises(ValueError):
        seat_of_player({"players": [0, 1, 2, 3]}, "zoe")


@pytest.mark.parametrize("name", ["v1-gb-02", "v1-nanchang-02", "v1-nanchang-52"])
def test_stored_logs_of_every_format_and_ruleset(name: str) -> None:
    """Logs kept by the engine's tests (format 1, Nanchang, items used between decisions) review at
    every seat; each decision is one where the seat was asked."""
    from pathlib import Path

    from majiang.engine.log import read_log

    events = read_log(Path(__file__).parent / "engine" / "logs" / f"{name}.jsonl")
    for seat in range(4):
        review = review_hand(events, seat, "fan")
        assert review.decisions
        assert sum(1 for e in events if e["type"] == "discard" and e["seat"] == seat) == sum(
            1 for d in review.decisions if d.player.type == "discard"
        )


def test_the_reviewer_is_best_once_registered(monkeypatch: Any) -> None:
    import majiang.review as rv

    real = rv.make_bot
    assert rv.reviewer_spec("eff") == "eff"
    try:
        real("best")
        registered = True
    except ValueError:
        registered = False
    assert rv.reviewer_spec() == ("best" if registered else "fan")

    def with_best(spec: str, seed: int | None = None, rules: str = "gb") -> Any:
        return real("eff" if spec == "best" else spec, seed, rules=rules)

    monkeypatch.setattr(rv, "make_bot", with_best)
    assert rv.reviewer_spec() == "best"
    hand, _ = played(0, "eff")
    review = rv.review_hand(hand.events, SEAT)
    assert review.reviewer == "best" and review.summary.agreement == 1.0  # "best" here is the eff bot
