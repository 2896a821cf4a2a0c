"""``majiang simulate`` on the command line: --json, --help, --duplicate."""

import io
import json
import sys

import pytest

from majiang.cli import main


def _json(capsys, *args: str) -> tuple[dict, str]:
    assert main(["simulate", "--bots", "rand,rand,rand,rand", "--json", "--no-progress", *args]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def test_replay_mismatches_is_null_unless_verified(capsys):
    plain, _ = _json(capsys, "--hands", "2")
    verified, _ = _json(capsys, "--hands", "2", "--verify")
    assert "replay_mismatches" in plain and plain["replay_mismatches"] is None
    assert verified["replay_mismatches"] == 0


def test_help_shows_a_plain_percent_sign(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "95%" in text and "%%" not in text


def test_duplicate_warns_when_hands_is_not_a_multiple_of_24(capsys):
    d, err = _json(capsys, "--hands", "30", "--duplicate")
    assert d["hands"] == 30
    assert "warning" in err and "not a multiple of 24" in err and "24 or 48" in err
    _, err = _json(capsys, "--hands", "10", "--duplicate")
    assert "use 24)" in err
    _, err = _json(capsys, "--hands", "24", "--duplicate")
    assert err == ""
    _, err = _json(capsys, "--hands", "30")  # without --duplicate any count is whole
    assert err == ""


def test_workers_give_the_results_of_one_worker(capsys):
    one, _ = _json(capsys, "--hands", "200", "--seed", "4")
    two, _ = _json(capsys, "--hands", "200", "--seed", "4", "--workers", "2")
    for d in (one, two):
        d.pop("hands_per_s")
    assert one == two and one["hands"] == 200


def test_ray_gives_the_results_of_one_worker(capsys):
    ray = pytest.importorskip("ray", reason="ray is in the dev extra: make setup installs it")
    one, _ = _json(capsys, "--hands", "200", "--seed", "4")
    try:
        on_ray, _ = _json(capsys, "--hands", "200", "--seed", "4", "--ray", "local")
    finally:
        ray.shutdown()
    for d in (one, on_ray):
        d.pop("hands_per_s")
    assert one == on_ray and one["hands"] == 200


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal (the progress bar draws only on one)."""

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_on_stderr_and_stdout_stays_json(capsys, monkeypatch):
    """Was: the bar was drawn on stdout (rich's default console) whenever stderr was a terminal, so
    ``simulate --json > out.json`` showed no bar and wrote a stray line into the JSON."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["simulate", "--bots", "rand,rand,rand,rand", "--json", "--hands", "8"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("{"), repr(out[:40])
    assert json.loads(out)["hands"] == 8
    assert "hands" in terminal.getvalue()  # the bar's label, on the terminal
