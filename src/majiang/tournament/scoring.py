"""From records to points: hand entry and its checks, each hand's deltas, a table's session scores.

Session score (局分) = 500 + Σ hand scores − penalties (第十条); scores are not carried over.

>>> h = enter_hand(1, winner=0, discarder=2, fans=["清一色", "平和"])
>>> h.fan_total, hand_deltas(h)
(26, [50, -8, -34, -8])
>>> enter_hand(2, winner=1, discarder=None, points=6).penalties   # below 8: a false win (错和)
(Penalty(seat=1, code=<PenaltyCode.FALSE_WIN: 'false_win'>, points=0, note='declared 6 fan < 8'),)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from majiang.mcr.fans import FAN_INFO, Fan
from majiang.mcr.hand import WinningHand
from majiang.mcr.payment import hand_deltas as win_deltas
from majiang.mcr.rules import Rules, get_rules
from majiang.mcr.scorer import score
from majiang.tournament.errors import TournamentError
from majiang.tournament.model import HANDS_PER_SESSION, SESSION_START, HandRecord, TableRecord
from majiang.tournament.penalties import Penalty, PenaltyCode


class EntryError(TournamentError):
    """A hand or table entry the rules do not allow."""


def validate_hand(hand: HandRecord, rules: str | Rules | None = None) -> None:
    """The rules' checks beyond the record's own: the winner has the minimum fan (flowers not counted),
    a hand that a false win ended (``end_hand`` profiles) has no winner, and the transfers are zero-sum."""
    r = get_rules(rules)
    if hand.winner is not None and hand.fan_points < r.min_fan:
        raise EntryError(
            f"hand {hand.no}: {hand.fan_points} fan is below the {r.min_fan}-fan minimum; "
            "record it as a false win (enter_hand does this)"
        )
    false_wins = [p for p in hand.penalties if p.is_false_win]
    if r.false_win == "end_hand" and false_wins and hand.winner is not None:
        raise EntryError(f"hand {hand.no}: under {r.name} a false win ends the hand; nobody else wins it")
    transfers = win_deltas(hand.winner, hand.discarder, hand.fan_total)
    for p in false_wins:
        transfers = _add(transfers, p.deltas(r))
    if sum(transfers) != 0:  # cannot happen with the payment rules; guards a changed rule profile
        raise EntryError(f"hand {hand.no}: payments are not zero-sum: {transfers}")


def enter_hand(
    no: int,
    winner: int | None = None,
    discarder: int | None = None,
    *,
    fans: Iterable[str] = (),
    points: int | None = None,
    flowers: int = 0,
    penalties: Iterable[Penalty] = (),
    rules: str | Rules | None = None,
) -> HandRecord:
    """Record a hand as the referee enters it.  A declared win below the minimum fan becomes a false
    win (错和, 10 to each) by the declarer, and the hand is recorded without a winner.  When play went on
    (``play_on``) and another player won, enter that win with the false win among ``penalties``."""
    r = get_rules(rules)
    pens = list(penalties)
    fan_list = tuple(fans)
    if winner is not None:
        probe = HandRecord(no=no, winner=winner, discarder=discarder, fans=fan_list, points=points, flowers=flowers)
        if probe.fan_points < r.min_fan:
            pens.append(
                Penalty(seat=winner, code=PenaltyCode.FALSE_WIN, note=f"declared {probe.fan_points} fan < {r.min_fan}")
            )
            winner, discarder, fan_list, points, flowers = None, None, (), None, 0
    hand = HandRecord(
        no=no, winner=winner, discarder=discarder, fans=fan_list, points=points, flowers=flowers, penalties=tuple(pens)
    )
    validate_hand(hand, r)
    return hand


def hand_from_winning_hand(
    no: int,
    winner: int,
    discarder: int | None,
    hand: WinningHand,
    *,
    penalties: Iterable[Penalty] = (),
    rules: str | Rules | None = None,
) -> HandRecord:
    """Score the tiles with :func:`majiang.mcr.scorer.score` and record the fans it finds."""
    if hand.self_drawn != (discarder is None):
        raise EntryError(f"hand {no}: the tiles say self_drawn={hand.self_drawn} but the discarder is {discarder}")
    result = score(hand, rules)
    names: list[str] = []
    for fc in result.fans:
        if fc.fan is not Fan.FLOWER_TILES:
            names.extend([FAN_INFO[fc.fan].zh] * fc.count)
    return enter_hand(no, winner, discarder, fans=names, flowers=hand.flowers, penalties=penalties, rules=rules)


def _add(a: Sequence[int], b: Sequence[int]) -> list[int]:
    return [x + y for x, y in zip(a, b, strict=True)]


def hand_deltas(hand: HandRecord, rules: str | Rules | None = None) -> list[int]:
    """Each seat's score change in the hand: the win's payments plus every penalty's adjustment."""
    out = win_deltas(hand.winner, hand.discarder, hand.fan_total)
    for p in hand.penalties:
        out = _add(out, p.deltas(rules))
    return out


@dataclass(frozen=True, slots=True)
class SeatResult:
    """Who a seat's session score is credited to.  A whole-session substitute is credited with his seat
    (``ranked`` False); after a mid-session substitution the departed player keeps the score he had."""

    seat: int
    player: str
    score: int
    ranked: bool
    substitute: str | None = None
    substitute_points: int = 0  # what the mid-session substitute won or lost (counts for nobody)


@dataclass(frozen=True, slots=True)
class TableResult:
    session: int
    table: int
    players: tuple[str, ...]
    hand_deltas: tuple[tuple[int, ...], ...]
    penalty_deltas: tuple[int, ...]  # table-level penalties (not tied to a hand)
    seat_scores: tuple[int, ...]  # 500 + everything that happened at the seat, whoever sat there
    seats: tuple[SeatResult, ...]
    complete: bool  # 16 hands, quick totals, or ended by the time limit

    @property
    def session_scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self.seats)

    @property
    def places(self) -> tuple[int, ...]:
        """Places at the table by credited session score; tied seats share the better place."""
        sc = self.session_scores
        return tuple(1 + sum(1 for other in sc if other > mine) for mine in sc)


def score_table(
    table: TableRecord,
    *,
    session: int = 0,
    rules: str | Rules | None = None,
    ranked: frozenset[str] | set[str] | None = None,
) -> TableResult:
    """Validate every hand and add up the session.  ``ranked`` is the set of ranked player ids
    (default: everyone at the table)."""
    r = get_rules(rules)
    per_hand: list[tuple[int, ...]] = []
    for h in table.hands:
        validate_hand(h, r)
        per_hand.append(tuple(hand_deltas(h, r)))
    pen = [0, 0, 0, 0]
    for p in table.penalties:
        pen = _add(pen, p.deltas(r))
    if table.totals is not None:
        played = list(table.totals)
    else:
        played = [sum(d[s] for d in per_hand) for s in range(4)]
    seat_scores = tuple(SESSION_START + played[s] + pen[s] for s in range(4))
    seats: list[SeatResult] = []
    for s in range(4):
        player = table.players[s]
        is_ranked = ranked is None or player in ranked
        sub = next((x for x in table.substitutions if x.seat == s), None)
        if sub is None:
            seats.append(SeatResult(s, player, seat_scores[s], is_ranked))
            continue
        before = sum(d[s] for d in per_hand[: sub.from_hand - 1])
        after = sum(d[s] for d in per_hand[sub.from_hand - 1 :])
        seats.append(SeatResult(s, player, SESSION_START + before + pen[s], is_ranked, sub.substitute, after))
    complete = table.totals is not None or table.time_called or len(table.hands) == HANDS_PER_SESSION
    return TableResult(
        session=session,
        table=table.no,
        players=table.players,
        hand_deltas=tuple(per_hand),
        penalty_deltas=tuple(pen),
        seat_scores=seat_scores,
        seats=tuple(seats),
        complete=complete,
    )


def apply_time_limit(table: TableRecord, hands_played: int) -> TableRecord:
    """时间到: the hand in play when time is called is finished, later ones are not played; the session
    is scored as it stands.  ``hands_played`` counts the finished hand in play.  Also used when a table
    is 三缺一 and the referee scores it as it stands."""
    if not 0 <= hands_played <= len(table.hands):
        raise EntryError(f"table {table.no}: {hands_played} hands played but {len(table.hands)} recorded")
    subs = tuple(s for s in table.substitutions if s.from_hand <= hands_played)
    return replace(table, hands=table.hands[:hands_played], time_called=True, substitutions=subs)
