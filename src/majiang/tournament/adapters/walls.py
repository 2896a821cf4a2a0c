"""复式 (duplicate) sessions' walls: the session's secret seed, and printed wall set-ups for physical tables.

A duplicate session deals hand k from one secret session seed at every table (docs/tournament.md,
"Duplicate walls"); online the hall builds the walls, at physical tables the staff build them from
these sheets: for each hand, the dice to set and each of the four walls, stack by stack.

How a wall lies on the table (mcr.md §2): each player's wall is 18 stacks of two in front of him; the
dealer's dice count to the thrower (the dealer 1, counter-clockwise), whose wall is counted right to
left by the sum of the four dice; the wall is broken there, live draws go on clockwise from the break
(leftwards along the thrower's wall, then on to the wall of the thrower's 上家), and replacement tiles
come from the other side of the break.  The engine keeps the same wall as a ring of stacks
(:class:`~majiang.engine.wall.Wall`: its ``tiles`` start after the break); this module turns that ring
back into the four walls as their owners see them, so that a table built from the sheet deals exactly
what the hall would deal from the same seed (``tests/tournament/test_walls.py`` checks it by a
physical deal written from the rule, not from the engine).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from majiang.engine.session import Session
from majiang.engine.wall import Wall
from majiang.rulesets import make_ruleset
from majiang.tiles import Tile, tile_en, tile_str, tile_zh
from majiang.tournament.adapters.repository import TournamentRepository
from majiang.tournament.sealing import DUPLICATE_KEY, duplicate_info

ROLES = (("庄家", "dealer"), ("下家", "dealer's right"), ("对家", "opposite the dealer"), ("上家", "dealer's left"))


def put_duplicate(repo: TournamentRepository, event_id: str, session_no: int, dup: dict[str, Any]) -> None:
    """Store session ``session_no``'s duplicate-walls record in the event's ``extra``."""
    extra = repo.load(event_id).extra
    repo.set_extra(event_id, **{DUPLICATE_KEY: {**(extra.get(DUPLICATE_KEY) or {}), str(session_no): dup}})


def new_duplicate(repo: TournamentRepository, event_id: str, session_no: int) -> dict[str, Any]:
    """Make session ``session_no`` a duplicate one (a fresh secret seed; sealed until it ends), or
    return its record if it is one already."""
    dup = duplicate_info(repo.load(event_id), session_no)
    if dup is None:
        dup = {"seed": secrets.token_hex(32), "tables": [], "revealed": False}
        put_duplicate(repo, event_id, session_no, dup)
    return dup


@dataclass(frozen=True)
class WallSetup:
    """Hand ``hand`` (1-based) of a duplicate session, as the table staff build it."""

    hand: int
    dice: tuple[int, int, int, int]  # the dealer's two dice, then the thrower's two
    thrower: int  # relative to the dealer: 0 the dealer, 1 下家, 2 对家, 3 上家
    break_stack: int  # stacks counted right to left on the thrower's wall before the break
    walls: tuple[tuple[tuple[Tile, Tile], ...], ...]  # walls[r]: in front of the seat r after the dealer, right→left

    @property
    def stacks(self) -> int:
        return len(self.walls[0])

    def to_dict(self) -> dict[str, Any]:
        """JSON: tiles in notation, each stack [top, bottom], each wall from its owner's right end."""
        walls = [[[tile_str(a), tile_str(b)] for a, b in w] for w in self.walls]
        dice, thrower = list(self.dice), self.thrower
        return {"hand": self.hand, "dice": dice, "thrower": thrower, "break": self.break_stack, "walls": walls}


def setup_from_wall(hand: int, wall: Wall, stacks_per_wall: int) -> WallSetup:
    """The four walls of ``wall`` as they lie on the table."""
    n = len(wall.tiles) // 2
    start = (wall.break_seat * stacks_per_wall + wall.break_stack) % n
    ring = wall.tiles[2 * (n - start) :] + wall.tiles[: 2 * (n - start)]  # the stacks before the break
    stacks = [(ring[2 * i], ring[2 * i + 1]) for i in range(n)]  # (top, bottom)
    slots = [tuple(stacks[k * stacks_per_wall : (k + 1) * stacks_per_wall]) for k in range(4)]
    # ring slot k lies clockwise k − thrower walls after the thrower's: clockwise is towards each
    # seat's 上家, one seat back in the counter-clockwise order of play, so the seat r places after the
    # dealer has slot 2·thrower − r in front of him
    walls = tuple(slots[(2 * wall.break_seat - r) % 4] for r in range(4))
    return WallSetup(hand, wall.dice, wall.break_seat, wall.break_stack, walls)


def duplicate_setups(rules: str, session_seed: bytes, hands: Iterable[int]) -> list[WallSetup]:
    """The set-ups of ``hands`` (1-based) of a duplicate session dealt from ``session_seed``: the walls
    the hall deals from the same seed (``Session.hand_seed``, ``Ruleset.build_wall``)."""
    ruleset = make_ruleset(rules)
    session = Session(ruleset, session_seed)
    out = []
    for k in hands:
        wall = ruleset.build_wall(session.hand_seed(k - 1))
        if not isinstance(wall, Wall):
            raise ValueError(f"rules {rules!r} deal one wall per seat: there is no table set-up to print")
        out.append(setup_from_wall(k, wall, ruleset.stacks_per_wall))
    return out


def _face(t: Tile) -> str:
    return f'<span class="t" title="{escape(tile_en(t))}">{escape(tile_zh(t))}</span>'


def setups_text(setups: Sequence[WallSetup]) -> str:
    """The set-ups as plain text (one block per hand; tiles in notation, top/bottom per stack)."""
    lines = []
    for s in setups:
        lines.append(
            f"hand {s.hand}: dice {s.dice[0]}+{s.dice[1]} (dealer), {s.dice[2]}+{s.dice[3]} "
            f"({ROLES[s.thrower][1]}); break after {s.break_stack} stacks from the right of "
            f"the {ROLES[s.thrower][1]}'s wall"
        )
        for r, wall in enumerate(s.walls):
            lines.append(f"  {ROLES[r][1]:>20}: " + " ".join(f"{tile_str(a)}/{tile_str(b)}" for a, b in wall))
    return "\n".join(lines) + "\n"


CSS = """
body{font-family:"Noto Sans CJK SC","Droid Sans Fallback",sans-serif;margin:12mm;color:#111}
.hand{page-break-after:always;break-after:page}
h1{font-size:16pt;margin:0 0 4pt} p{margin:2pt 0 6pt;font-size:10pt}
table{border-collapse:collapse;margin:4pt 0 8pt}
td,th{border:1px solid #555;padding:1pt 2pt;text-align:center;font-size:10pt}
th.role{text-align:left;white-space:nowrap;padding-right:6pt} .t{display:inline-block;min-width:2.2em}
td.top{border-bottom:1px dashed #999} td.bottom{border-top:none} .no th{font-weight:normal;color:#666;font-size:8pt}
"""


def setups_html(event_name: str, session_no: int, setups: Sequence[WallSetup], tables: Sequence[int]) -> str:
    """A printable page per table and hand: the dice to set and each wall, right to left as its owner
    sees it (stack 1 is the right end), the top tile over the bottom one."""
    pages = []
    for table in tables:
        for s in setups:
            rows = []
            head = "".join(f"<th>{j}</th>" for j in range(1, s.stacks + 1))
            for r, wall in enumerate(s.walls):
                zh, en = ROLES[r]
                top = "".join(f'<td class="top">{_face(a)}</td>' for a, _ in wall)
                bottom = "".join(f'<td class="bottom">{_face(b)}</td>' for _, b in wall)
                rows.append(
                    f'<tr class="no"><th class="role"></th>{head}</tr>'
                    f'<tr data-wall="{r}"><th class="role" rowspan="2">{zh} · {en}<br>上 top / 下 bottom</th>{top}</tr>'
                    f"<tr>{bottom}</tr>"
                )
            tzh, ten = ROLES[s.thrower]
            pages.append(
                f'<section class="hand" data-table="{table}" data-hand="{s.hand}">'
                f"<h1>{escape(event_name)} · 第 {session_no} 局 第 {table} 桌 第 {s.hand} 盘 · session {session_no}, "
                f"table {table}, hand {s.hand}</h1>"
                f"<p>骰子 dice: 庄家 {s.dice[0]} + {s.dice[1]}，{tzh}再掷 {s.dice[2]} + {s.dice[3]} → "
                f"在{tzh}牌墙从右数 {s.break_stack} 墩后开牌 · the dealer shows {s.dice[0]}+{s.dice[1]}, the "
                f"{ten} {s.dice[2]}+{s.dice[3]}: the wall breaks after {s.break_stack} stacks counted from the "
                f"right of the {ten}'s wall.</p>"
                f"<p>每家牌墙从自己看的右端（第 1 墩）向左摆 · each wall is laid from its owner's right end (stack 1) "
                f"leftwards, face down, the top tile on the bottom one.</p>"
                f"<table>{''.join(rows)}</table></section>"
            )
    return (
        f'<!doctype html><html lang="zh-Hans"><head><meta charset="utf-8"><title>{escape(event_name)} · '
        f"第 {session_no} 局 复式牌墙 · duplicate walls</title><style>{CSS}</style></head><body>"
        + "".join(pages)
        + "</body></html>"
    )
