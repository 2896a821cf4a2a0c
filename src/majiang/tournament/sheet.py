"""The score sheet (比赛成绩记录表) of one table and session, as data for the renderers.

Sixteen hand columns; per player the hand name, each hand's points, points won and lost, penalty
deductions, session total (局分), place at the table, standard score and a signature column.
Marks in a hand cell: ▲ dealer, — dealt in (点炮), + self-draw (自摸), ○ exhaustive draw (荒牌),
√ false win (错和/诈和), × warning (警告).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from majiang.mcr.rules import Rules, get_rules
from majiang.tournament.model import HANDS_PER_SESSION, HandRecord, TableRecord
from majiang.tournament.penalties import PENALTY_ZH
from majiang.tournament.ranking import GroupResult
from majiang.tournament.scoring import TableResult
from majiang.tournament.seating import ROTATION_1998, WINDS_ZH, SeatChange, dealer

DEALER, DEALT_IN, SELF_DRAW, DRAW, FALSE_WIN, WARNING = "▲", "—", "+", "○", "√", "×"
MARKS = {
    DEALER: "庄家 dealer",
    DEALT_IN: "点和 dealt in",
    SELF_DRAW: "自摸 self-draw",
    DRAW: "荒牌 exhaustive draw",
    FALSE_WIN: "错和 false win",
    WARNING: "警告 warning",
}


@dataclass(frozen=True, slots=True)
class SheetCell:
    marks: str = ""
    points: int | None = None  # None: hand not played
    hand_name: str = ""  # the winner's cell: the hand's highest fan
    fan: int | None = None  # the winner's cell: fan total with flowers

    @property
    def text(self) -> str:
        """One-line form: marks, signed points, and for the winner the hand name and fan."""
        if self.points is None:
            return ""
        parts = [self.marks] if self.marks else []
        parts.append(f"{self.points:+d}" if self.points else "0")
        if self.hand_name:
            parts.append(f"{self.hand_name} {self.fan}番")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class SheetRow:
    seat: int
    player: str
    name: str
    cells: tuple[SheetCell, ...]
    won: int | None  # None on a blank sheet (nothing entered yet)
    lost: int | None
    deductions: int | None
    total: int | None
    place: int | None
    standard: Fraction | None
    note: str = ""

    @property
    def start_wind(self) -> str:
        return WINDS_ZH[self.seat]


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    event: str
    group: str
    session: int
    table: int
    rows: tuple[SheetRow, ...]
    hands_played: int
    time_called: bool
    notes: tuple[str, ...]
    entry: str  # "hands" or "totals"


def _cell(hand: HandRecord, seat: int, delta: int, rotation: Sequence[SeatChange]) -> SheetCell:
    marks = ""
    if dealer(hand.no, rotation) == seat:
        marks += DEALER
    if hand.discarder == seat:
        marks += DEALT_IN
    if hand.winner == seat and hand.self_drawn:
        marks += SELF_DRAW
    if hand.is_draw:
        marks += DRAW
    for p in hand.penalties:
        if p.seat == seat and p.is_false_win:
            marks += FALSE_WIN
        elif p.seat == seat and p.is_warning:
            marks += WARNING
    won = hand.winner == seat
    return SheetCell(
        marks=marks,
        points=delta,
        hand_name=(hand.hand_name or "和") if won else "",
        fan=hand.fan_total if won else None,
    )


def _row(
    record: TableRecord,
    tr: TableResult,
    standard: Mapping[str, Fraction],
    seat: int,
    names: Mapping[str, str],
    rules: Rules,
    rotation: Sequence[SeatChange],
    entered: bool,
) -> SheetRow:
    """One player's row.  得分 and 失分 add up the hands' points (wins and false-win payments); 罚分 is
    every other penalty once, given in a hand or to the table; so 局分 = 500 + 得分 − 失分 − 罚分.
    A player who left mid-session (第十二条) has only her own hands; a table with nothing entered
    yet prints as a blank sheet."""
    pid = record.players[seat]
    seat_res = tr.seats[seat]
    sub = next((x for x in record.substitutions if x.seat == seat), None)
    own = len(record.hands) if sub is None else sub.from_hand - 1
    cells: list[SheetCell] = []
    won = lost = 0
    deductions = -tr.penalty_deltas[seat]
    for h, d in zip(record.hands[:own], tr.hand_deltas[:own], strict=True):
        penalty = sum(-p.deltas(rules)[seat] for p in h.penalties if not p.is_false_win)
        points = d[seat] + penalty
        deductions += penalty
        cells.append(_cell(h, seat, points, rotation))
        won += max(points, 0)
        lost += max(-points, 0)
    cells += [SheetCell()] * (HANDS_PER_SESSION - len(cells))
    if record.totals is not None:
        won, lost = max(record.totals[seat], 0), max(-record.totals[seat], 0)
    note = ""
    if seat_res.substitute:
        note = f"第{own + 1}盘起 {names[seat_res.substitute]} {seat_res.substitute_points:+d}"
    if not seat_res.ranked:
        note = "替补 (不计名次)"
    if not entered:
        return SheetRow(
            seat=seat,
            player=pid,
            name=names[pid],
            cells=tuple(cells),
            won=None,
            lost=None,
            deductions=None,
            total=None,
            place=None,
            standard=None,
        )
    return SheetRow(
        seat=seat,
        player=pid,
        name=names[pid],
        cells=tuple(cells),
        won=won,
        lost=lost,
        deductions=deductions,
        total=seat_res.score,
        place=tr.places[seat],
        standard=standard.get(pid) if seat_res.ranked else None,
        note=note,
    )


def score_sheet(
    result: GroupResult,
    session: int,
    table: int,
    *,
    event: str = "",
    rules: str | Rules | None = None,
    rotation: Sequence[SeatChange] = ROTATION_1998,
) -> ScoreSheet:
    """Build the sheet of table ``table`` in session ``session`` from an evaluated group."""
    r = get_rules(rules)
    group = result.group
    record = group.sessions[session - 1].tables[table - 1]
    sr = result.sessions[session - 1]
    tr = sr.tables[table - 1]
    names = {p.id: p.name or p.id for p in group.players}
    notes: list[str] = []
    for h in record.hands:
        for p in h.penalties:
            what = PENALTY_ZH[p.code] + (f" −{p.points}" if p.points else "")
            who = record.substitute_at(p.seat, h.no) or record.players[p.seat]  # the substitute's own hands
            notes.append(f"第{h.no}盘 {names[who]}: {what}" + (f" ({p.note})" if p.note else ""))
    for p in record.penalties:
        what = PENALTY_ZH[p.code] + (f" −{p.points}" if p.points else "")
        notes.append(f"{names[record.players[p.seat]]}: {what}" + (f" ({p.note})" if p.note else ""))
    for sub in record.substitutions:
        notes.append(f"第{sub.from_hand}盘起 {names[sub.substitute]} 替补 {names[record.players[sub.seat]]} (不计名次)")
    if record.time_called:
        notes.append(f"时间到: {len(record.hands)} 盘后结束 (time limit)")
    entered = bool(record.hands or record.totals is not None or record.penalties or record.time_called)
    rows = [_row(record, tr, sr.standard, seat, names, r, rotation, entered) for seat in range(4)]
    return ScoreSheet(
        event=event,
        group=group.name or group.id,
        session=session,
        table=table,
        rows=tuple(rows),
        hands_played=len(record.hands),
        time_called=record.time_called,
        notes=tuple(notes),
        entry=record.entry,
    )
