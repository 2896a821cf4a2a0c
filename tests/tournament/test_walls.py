"""Printed wall set-ups for 复式 at physical tables (issue 29): a table built from the sheet deals what
the hall deals from the same session seed.  The physical deal here is written from the rule (mcr.md
§2), not from the engine: count to the thrower, lay the walls clockwise from the thrower's, break,
deal 4-4-4 by stacks and 跳牌, replacement tiles from the other side of the break."""

import json
import secrets
from typing import Any

import pytest

from majiang.cli.tournament import main
from majiang.engine.session import Session
from majiang.rulesets import make_ruleset
from majiang.store import Database
from majiang.tiles import Tile, parse_tile
from majiang.tournament.adapters.repository import TournamentRepository
from majiang.tournament.adapters.walls import WallSetup, duplicate_setups
from majiang.tournament.sealing import duplicate_info, sealed_sessions

# mcr.md §2: the dealer counts as 1, counter-clockwise: 5/9 the dealer, 2/6/10 下家, 3/7/11 对家, 4/8/12 上家
THROWER = {n: (n - 1) % 4 for n in range(2, 13)}


def physical_deal(s: WallSetup) -> tuple[list[list[Tile]], Tile, Tile]:
    """(the four hands by seat after the dealer, the first live draw, the first replacement tile)."""
    assert THROWER[s.dice[0] + s.dice[1]] == s.thrower
    ring: list[tuple[Tile, Tile]] = []
    owner = s.thrower
    for _ in range(4):  # clockwise: each wall right to left, then the wall of its owner's 上家
        ring += s.walls[owner]
        owner = (owner + 3) % 4
    count = sum(s.dice)
    assert s.break_stack == count
    live = ring[count:] + ring[:count]  # the stacks after the break, clockwise
    hands: list[list[Tile]] = [[] for _ in range(4)]
    for r in range(3):  # 2 stacks each, dealer first, three times
        for seat in range(4):
            for top, bottom in live[8 * r + 2 * seat : 8 * r + 2 * seat + 2]:
                hands[seat] += [top, bottom]
    first, second, third = live[24], live[25], live[26]  # 跳牌
    hands[0] += [first[0], third[0]]
    hands[1].append(first[1])
    hands[2].append(second[0])
    hands[3].append(second[1])
    return hands, third[1], live[-1][0]


def test_a_table_built_from_the_sheet_deals_what_the_hall_deals() -> None:
    rules = make_ruleset("gb")
    throwers, wrapped = set(), 0
    for _ in range(12):
        seed = secrets.token_bytes(32)
        session = Session(rules, seed)
        for s in duplicate_setups("gb", seed, range(1, 17)):
            assert [len(w) for w in s.walls] == [18] * 4
            assert sorted(t for w in s.walls for st in w for t in st) == sorted(rules.tile_set())
            hands, draw, tail = physical_deal(s)
            wall = rules.build_wall(session.hand_seed(s.hand - 1))
            dealt = wall.deal(0)
            assert [sorted(h) for h in hands] == [sorted(h) for h in dealt], s.hand
            assert wall.copy().draw(0) == draw
            assert wall.copy().draw(0, tail=True) == tail
            throwers.add(s.thrower)
            wrapped += sum(s.dice) > 18  # the count runs on to the next wall clockwise
    assert throwers == {0, 1, 2, 3} and wrapped > 0


def test_the_walls_command_seals_the_session_and_prints_every_table(tmp_path: Any, capsys: Any) -> None:
    url = f"sqlite:///{tmp_path}/w.db"

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", url])
        out, err = capsys.readouterr()
        return code, out, err

    assert run("new", "Cup", "--count", "8", "--sessions", "2", "--id", "cup")[0] == 0
    code, _, err = run("walls", "cup", "--session", "1")
    assert code != 0 and "not drawn" in err
    assert run("draw", "cup", "--session", "1")[0] == 0
    code, out, _ = run("walls", "cup", "--session", "1", "--json", "--hands", "3-4")
    assert code == 0
    got = json.loads(out)
    db = Database(url)
    event = TournamentRepository(db).load("cup")
    dup = duplicate_info(event, 1)
    assert dup is not None and sealed_sessions(event) == [1]  # the public standings wait for the session
    again = duplicate_setups("gb", bytes.fromhex(dup["seed"]), [3, 4])
    assert [g["hand"] for g in got] == [3, 4]
    assert [[[parse_tile(t) for t in st] for st in w] for w in got[0]["walls"]] == [
        [list(st) for st in w] for w in again[0].walls
    ]
    assert got[0]["dice"] == list(again[0].dice)
    # the seed stays: a second print is the same walls
    code, out2, _ = run("walls", "cup", "--session", "1", "--json", "--hands", "3-4")
    assert json.loads(out2) == got
    html_file = tmp_path / "walls.html"
    code, out, _ = run("walls", "cup", "--session", "1", "-o", str(html_file))
    assert code == 0 and "16 hands × 2 tables" in out
    html = html_file.read_text()
    assert html.count('class="hand"') == 32 and 'data-table="2" data-hand="16"' in html
    for bad in (("--hands", "0-3"), ("--hands", "x"), ("--tables", "3"), ("--tables", "a")):
        code, _, err = run("walls", "cup", "--session", "1", *bad)
        assert code != 0 and bad[0] in err
    db.dispose()


def test_rules_with_a_wall_per_seat_have_no_table_set_up() -> None:
    with pytest.raises(ValueError, match="one wall per seat"):
        duplicate_setups("botzone", b"\0" * 32, [1])
