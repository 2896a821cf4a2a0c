"""The hand-json contract (errors included), the readable rendering and the CLI commands."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest
from nc_helpers import chow, pung, table

from majiang.cli import nanchang_cmd
from majiang.nanchang import record_from_dict, render_settlement, settle, settle_dict


def seed1() -> dict[str, Any]:
    return table("5p", {1: {"concealed": "1m1m 3s3s 9p9p EE CC 7m7m 5p"}}, winner=1, win_tile="2s", method="self_drawn")


def test_output_shape() -> None:
    r = settle_dict(seed1())
    assert set(r) == {"hu", "multiplier", "deltas", "parts"}
    assert set(r["parts"]) == {"win", "kong", "jing"}
    assert all(isinstance(x, int) for x in r["deltas"])
    json.dumps(r)


def test_compact_concealed_string_is_accepted() -> None:
    d = seed1()
    d["hands"][1]["concealed"] = "1177m 33s 99p EECC 5p"
    assert settle_dict(d)["parts"]["win"] == [-16, 32, -8, -8]


def _with(d: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return d


@pytest.mark.parametrize(
    ("path", "value", "msg"),
    [
        (["hands", 1, "concealed", 0], "1x", "unknown tile '1x'"),
        (["hands", 1, "concealed"], ["1m"], "wrong tile count: seat 1"),
        (["win_tile"], "9z", "unknown tile"),
        (["method"], "tsumo", "unknown method 'tsumo'"),
        (["winner"], 4, "'winner' must be a seat"),
        (["jing_indicator"], "f1", "without flowers"),
        (["rules"], "gb", "'rules' must be 'nanchang'"),
        (["discarder"], 0, "has no discarder"),
        (["hands", 1, "melds"], [{"kind": "chow", "tiles": ["1m", "3m", "4m"]}], "not a chow, pung or kong"),
        (["hands", 1, "colour"], 1, "unknown field 'colour'"),
        (["surprise"], 1, "unknown field 'surprise'"),
    ],
)
def test_errors(path: list[Any], value: Any, msg: str) -> None:
    r = settle_dict(_with(seed1(), path, value))
    assert set(r) == {"error"}
    assert msg in r["error"]


def test_five_copies() -> None:
    d = seed1()
    d["hands"][2]["concealed"][:3] = ["5p", "5p", "5p"]
    assert "5 copies of 5p in the hands and the jing indicator" in settle_dict(d)["error"]


def test_not_a_win() -> None:
    d = seed1()
    d["win_tile"] = "2s"
    d["hands"][1]["concealed"] = ["1m", "2m", "4m", "3s", "3s", "9p", "9p", "E", "E", "C", "C", "7m", "8m"]
    assert "not a winning hand" in settle_dict(d)["error"]


@pytest.mark.parametrize(
    ("change", "msg"),
    [
        ({"method": "earthly", "discarder": 2}, "earthly"),
        ({"method": "heavenly"}, "heavenly"),
        ({"method": "kong_replacement"}, "no kong"),
        ({"method": "robbed_kong", "discarder": 3}, "no exposed pung"),
        ({"method": "discard"}, "needs a 'discarder'"),
        ({"method": None}, "'method' is missing"),
        ({"winner": None}, "exhaustive draw"),
    ],
)
def test_contradictions(change: dict[str, Any], msg: str) -> None:
    assert msg in settle_dict({**seed1(), **change})["error"]


def test_missing_fields() -> None:
    d = seed1()
    del d["winner"]
    assert "'winner' is missing" in settle_dict(d)["error"]
    d = seed1()
    del d["jing_indicator"]
    assert "'jing_indicator' is missing" in settle_dict(d)["error"]
    assert "'hands'" in settle_dict({**seed1(), "hands": []})["error"]
    assert "JSON object" in settle_dict([])["error"]  # type: ignore[arg-type]


def test_render_mentions_everything() -> None:
    d = table(
        "5p",
        {
            2: {
                "concealed": "5p",
                "melds": [
                    chow("1m2m3m", claimed=0),
                    pung("7s", source=1),
                    chow("ESW", claimed=2),
                    {"kind": "kong", "tiles": ["9p"] * 4, "from": 2},
                ],
            }
        },
        winner=2,
        win_tile="2s",
        method="kong_replacement",
    )
    rec, options = record_from_dict(d)
    text = render_settlement(rec, settle(rec, options))
    for s in (
        "杠开",
        "Win on a kong replacement",
        "精钓",
        "M = 4",
        "明杠",
        "上精",
        "霸王精",
        "next dealer: seat 1",
        "+32",
        "-16",
    ):
        assert s in text, s


def _run(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="majiang")
    nanchang_cmd.register(parser.add_subparsers())
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    args = parser.parse_args(argv)
    rc = args.func(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_readable_and_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rc, out, _ = _run(["nanchang"], nanchang_cmd.EXAMPLE, monkeypatch, capsys)
    assert rc == 0 and "精钓" in out and "小七对" in out
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(seed1()), encoding="utf-8")
    rc, out, _ = _run(
        ["nanchang", str(f), "--json", "-o", "dianpao_pay=one", "-o", "bawang=plus10"], "", monkeypatch, capsys
    )
    assert rc == 0
    assert json.loads(out)["parts"]["jing"] == [-12, 36, -12, -12]  # 2 + 10
    rc, out, _ = _run(["nanchang", "--list-options"], "", monkeypatch, capsys)
    assert 'jingdiao_ron = "forbid"' in out


def test_cli_errors(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = _run(["nanchang"], "{not json", monkeypatch, capsys)
    assert rc == 1 and "error" in err
    rc, _, err = _run(["nanchang", "-o", "nosuch=1"], nanchang_cmd.EXAMPLE, monkeypatch, capsys)
    assert rc == 1 and "unknown option 'nosuch'" in err
    rc, _, err = _run(["nanchang", "/nonexistent/hand.json"], "", monkeypatch, capsys)
    assert rc == 2


def test_fan_jsonl_routes_nanchang(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from majiang.cli import main

    lines = json.dumps(seed1()) + "\n" + json.dumps({**seed1(), "win_tile": "1x"}) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["fan", "--jsonl"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0]["parts"]["win"] == [-16, 32, -8, -8]
    assert out[1]["error"].startswith("line 2:")
