"""Rooms (房间) from a config file: ruleset, coefficient N, fee A, balance limits, items, timers."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

from majiang.bots.base import BOT_KINDS
from majiang.hall.botprocs import check_spec, label
from majiang.hall.policy import CASUAL, COMPETITION, CasualPlay

TIMER_PRESETS: dict[str, dict[str, float]] = {
    # seeds: the dealer's first discard 30 s, then 15 s per action, a pung claim within 3 s
    "standard": {"first_discard": 30.0, "action": 15.0, "claim": 3.0},
    "relaxed": {"first_discard": 60.0, "action": 30.0, "claim": 10.0},
    "fast": {"first_discard": 15.0, "action": 8.0, "claim": 3.0},
    "blitz": {"first_discard": 1.0, "action": 0.5, "claim": 0.3},  # tests and bot-only rooms
}


#: a rooms file's claim window: every discard pauses this long for everyone, so bots, auto-pass
#: and any decision quicker than that never show whether a seat could claim; a human who thinks longer
#: makes the table wait, as at any table of people.  The claim timer itself (None) is exact but costs 3 s
#: (10 s relaxed) after every discard, minutes a hand; set it per room where that is worth it.
CLAIM_WINDOW_S = 1.0

#: a rooms file's ready step after each hand: this long to press 准备 / 再来一局; who is not ready
#: then plays the next hand in 托管 (and is stood up, at no cost, after a second step missed in a row)
READY_S = 15.0
#: a rooms file's wait before bots take a private table's empty seats (a friend's time to come); 0: only
#: the owner adds them
PRIVATE_BOT_WAIT_S = 120.0


PRIVATE_PREFIX = "p"  # a private table's id starts with it (found by its code, not listed, not rated)


def is_private_id(table_id: str) -> bool:
    return table_id.startswith(PRIVATE_PREFIX)


_BILINGUAL = re.compile(r"^(\S*[\u3400-\u9fff]\S*)\s+(.+)$")  # "新手场 Beginners"


@dataclass(frozen=True)
class Room:
    id: str
    name: str  # "中文名 English name" (the first word Chinese), or a Chinese name with name_en
    name_en: str | None = None  # the English name, when name is not "中文名 English name"
    rules: str = "gb"
    coefficient: int = 1  # N
    fee: int = 0  # A, taken from every player each hand
    min_balance: int = 0
    max_balance: int | None = None
    items: bool = False
    timers: str = "standard"
    bots: str = "fan"  # the kind of bot that fills seats: rand eff fan ev best, or an outside program
    # (botzone:COMMAND, botzone-simple:COMMAND, ext:COMMAND; majiang.hall.botprocs, docs/botzone.md)
    bot_name: str | None = None  # what players see for an outside program's bot (default "Botzone bot NAME")
    bot_processes: int = 8  # the most outside-program bots the room's tables hold at once (one process each)
    bot_fallback: str = "fan"  # the built-in bot a seat gets past that cap (or if the program cannot start)
    bot_fill_s: float = 15.0  # empty seats get bots after this wait (or at once on request)
    auto_after_timeouts: int = 2  # consecutive timeouts before 托管
    auto_after_false_wins: int = 2  # false wins (诈和) in one hand before 托管 (at most one a turn)
    auto_delay_s: float | None = None  # 托管's pause before each move it plays (None: the hall's, 0.5 s)
    escape_penalty: int | None = None  # coins a player pays for leaving a running hand (default 20·N + A)
    escape_compensation: int | None = None  # to each remaining human, out of the penalty (default 5·N)
    next_hand_s: float = 5.0  # the pause after a hand when there is no ready step (ready_s 0)
    # the ready step after a hand (between.py): seconds to press 准备 / 再来一局, the next hand starts as soon as
    # every seated human is ready; 0: no ready step, the next hand after next_hand_s (a rooms file's default:
    # READY_S)
    ready_s: float = 0.0
    # a private table's empty seats get bots after this wait (from the first sit), or when its owner asks;
    # 0: never on their own (public tables: bot_fill_s)
    private_bot_wait_s: float = PRIVATE_BOT_WAIT_S
    empty_close_s: float = 60.0  # a table nobody sat at closes after this
    # every discard opens a claim window this long for everyone, claimable or not (None: the claim timer,
    # exact even for a human who thinks the whole claim time; 0: each discard still sent alone, no wait;
    # a rooms file's default is CLAIM_WINDOW_S)
    claim_window_s: float | None = 0.0
    reconnect_grace_s: float = 30.0  # a socket closed mid-hand and not back within this is an escape (逃跑)
    spectate_delay_s: float = 10.0
    options: dict[str, Any] = field(default_factory=dict)  # ruleset options (Nanchang)
    competition: bool = False  # a competition room: no coins, no items, results go to the event
    guests: bool = True  # guests may sit here (the built-in rooms allow them only in the free room)
    # hands played as one match (hall/match.py): 0 every hand alone, 4 东风战, 16 全庄; the places earn
    # place_points (rank points toward 段位: 1st, 2nd, 3rd, 4th)
    match_hands: int = 0
    place_points: tuple[int, int, int, int] = (30, 10, -10, -30)

    def timer(self, name: str) -> float:
        return TIMER_PRESETS[self.timers][name]

    @property
    def policy(self) -> CasualPlay:
        """How its tables treat their players (majiang.hall.policy): the competition switch's one reader
        at the table."""
        return COMPETITION if self.competition else CASUAL

    def claim_window(self) -> float:
        """How long what follows a discard is held back: the same whether or not a seat could claim it
        (no side channel in message grouping or timing); at least the claim timer, so that a claim
        decided in time never shows."""
        return self.timer("claim") if self.claim_window_s is None else self.claim_window_s

    def penalty(self) -> int:
        """What an escape (逃跑) costs; nothing at a competition table, where no coins move."""
        if self.competition:
            return 0
        return 20 * self.coefficient + self.fee if self.escape_penalty is None else self.escape_penalty

    def compensation(self) -> int:
        """What each remaining human gets after an escape (paid out of the penalty, never more)."""
        if self.competition:
            return 0
        return 5 * self.coefficient if self.escape_compensation is None else self.escape_compensation

    def names(self) -> tuple[str, str]:
        """The name in Chinese and in English: "新手场 Beginners" → ("新手场", "Beginners"); name_en
        when given; else the one name for both."""
        m = _BILINGUAL.match(self.name)
        zh, en = (m.group(1), m.group(2)) if m else (self.name, self.name)
        return zh, self.name_en or en

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["name_zh"], d["name_en"] = self.names()
        d["bots"] = label(self.bots, self.bot_name)  # an outside bot's command line stays on the server
        d["escape_penalty"], d["escape_compensation"] = self.penalty(), self.compensation()
        d["timer_values"] = TIMER_PRESETS[self.timers]
        return d


def _room(d: dict[str, Any]) -> Room:
    known = {f.name for f in fields(Room)}
    unknown = set(d) - known
    if unknown:
        raise ValueError(f"room {d.get('id')!r}: unknown setting(s) {sorted(unknown)}; known: {sorted(known)}")
    if "id" not in d or "name" not in d:
        raise ValueError(f"every room needs an id and a name: {d}")
    if "place_points" in d:
        d = {**d, "place_points": tuple(d["place_points"])}
    room = Room(**{"claim_window_s": CLAIM_WINDOW_S, "ready_s": READY_S, **d})
    if room.timers not in TIMER_PRESETS:
        raise ValueError(f"room {room.id!r}: timers must be one of {sorted(TIMER_PRESETS)}")
    if room.coefficient < 1 or room.fee < 0 or room.min_balance < 0 or room.penalty() < 0 or room.compensation() < 0:
        raise ValueError(f"room {room.id!r}: coefficient ≥ 1, fee ≥ 0, min_balance ≥ 0, escape amounts ≥ 0")
    if room.bot_processes < 0 or (room.bot_name is not None and not 0 < len(room.bot_name) <= 40):
        raise ValueError(f"room {room.id!r}: bot_processes ≥ 0, bot_name 1–40 characters")
    try:
        check_spec(room.bots)
        check_spec(room.bot_fallback, "bot_fallback")
    except ValueError as e:
        raise ValueError(f"room {room.id!r}: {e}") from None
    if room.bot_fallback not in BOT_KINDS:
        raise ValueError(f"room {room.id!r}: bot_fallback must be a built-in bot ({', '.join(BOT_KINDS)})")
    if room.match_hands not in (0, 4, 16) or len(room.place_points) != 4:
        raise ValueError(f"room {room.id!r}: match_hands is 0, 4 (东风战) or 16 (全庄); place_points has four numbers")
    if list(room.place_points) != sorted(room.place_points, reverse=True):
        raise ValueError(f"room {room.id!r}: place_points go from 1st down to 4th, e.g. [30, 10, -10, -30]")
    if room.auto_delay_s is not None and not 0 <= room.auto_delay_s <= 10:
        raise ValueError(f"room {room.id!r}: auto_delay_s (托管's pause before each move) is 0–10 seconds")
    if not (0 <= room.ready_s <= 600 and 0 <= room.private_bot_wait_s <= 86_400):
        raise ValueError(f"room {room.id!r}: ready_s 0–600 and private_bot_wait_s 0–86400 seconds")
    return room


def load_rooms(path: str | Path | None = None) -> list[Room]:
    """Rooms from a TOML (``[[room]]`` tables) or JSON (a list) file; the packaged default when
    ``path`` is None."""
    if path is None:
        text = resources.files(__package__).joinpath("rooms.toml").read_text(encoding="utf-8")
        data: Any = tomllib.loads(text)
    else:
        p = Path(path)
        raw = p.read_text(encoding="utf-8")
        data = json.loads(raw) if p.suffix == ".json" else tomllib.loads(raw)
    items = data.get("room", []) if isinstance(data, dict) else data
    rooms = [_room(d) for d in items]
    ids = [r.id for r in rooms]
    if len(set(ids)) != len(ids):
        raise ValueError("room ids must be unique")
    return rooms
