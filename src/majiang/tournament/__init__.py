"""Competition management for MCR tournaments by the 1998 Chinese national rules (mcr.md §7).

The core is pure (no I/O): the model (:mod:`.model`), penalties, hand entry and session scores
(:mod:`.scoring`), standard scores (:mod:`.standard`), rankings (:mod:`.ranking`), seats and
schedules (:mod:`.seating`, :mod:`.designs`, :mod:`.search`, :mod:`.schedule`, :mod:`.pairing`), the
score sheet as data (:mod:`.sheet`) and the end-to-end demo (:mod:`.demo`).  Renderers (HTML, PDF,
CSV, plots) live at the edge in :mod:`majiang.tournament.adapters.output`.  See docs/tournament.md.
"""

from majiang.tournament.demo import TableSeating, build_demo, run_demo
from majiang.tournament.model import (
    Event,
    Group,
    HandRecord,
    ModelError,
    Player,
    SessionRecord,
    Substitution,
    TableRecord,
    Team,
)
from majiang.tournament.pairing import redraw, snake_tables, swiss_tables
from majiang.tournament.penalties import Penalty, PenaltyCode, escalated
from majiang.tournament.ranking import GroupResult, Standing, TeamStanding, evaluate, evaluate_event
from majiang.tournament.schedule import SchedulePlan, make_schedule, meetings, repeat_meetings, teammate_clashes
from majiang.tournament.scoring import (
    EntryError,
    TableResult,
    apply_time_limit,
    enter_hand,
    hand_deltas,
    hand_from_winning_hand,
    score_table,
    validate_hand,
)
from majiang.tournament.seating import balance_winds, dealer, draw_seats, round_seats, seat_winds
from majiang.tournament.sheet import ScoreSheet, score_sheet
from majiang.tournament.standard import GroupRanking1998, TablePlaces, get_scheme

__all__ = [
    "EntryError",
    "Event",
    "Group",
    "GroupRanking1998",
    "GroupResult",
    "HandRecord",
    "ModelError",
    "Penalty",
    "PenaltyCode",
    "Player",
    "SchedulePlan",
    "ScoreSheet",
    "SessionRecord",
    "Standing",
    "Substitution",
    "TablePlaces",
    "TableRecord",
    "TableResult",
    "TableSeating",
    "Team",
    "TeamStanding",
    "apply_time_limit",
    "balance_winds",
    "build_demo",
    "dealer",
    "draw_seats",
    "enter_hand",
    "escalated",
    "evaluate",
    "evaluate_event",
    "get_scheme",
    "hand_deltas",
    "hand_from_winning_hand",
    "make_schedule",
    "meetings",
    "redraw",
    "repeat_meetings",
    "round_seats",
    "run_demo",
    "score_sheet",
    "score_table",
    "seat_winds",
    "snake_tables",
    "swiss_tables",
    "teammate_clashes",
    "validate_hand",
]
