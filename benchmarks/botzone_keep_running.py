"""Hands per second of Botzone-protocol bots in ``majiang simulate`` (kept running) against the same
hands driven the way Botzone drives them (one judge process per turn, one bot process per request).

(a) ``simulate --rules botzone`` with seats 0 and 2 the repository's example bot,
    ``botzone:python3 examples/botzone_bot.py --keep`` (it prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``,
    so one process plays its whole hand), and seats 1 and 3 majiang's ``fan`` and ``eff``; timed from the
    first hand to the last (hand logs written, as ``--log-dir`` does).
(b) The same hands, replayed as Botzone plays a match: every turn the judge binary is run on the whole
    match log so far (``{"log": …, "initdata": …}`` on stdin, its output read back), and for every
    request it sends the example bot's players a fresh ``python3 examples/botzone_bot.py`` (no ``--keep``)
    is run with the whole history on stdin (Botzone's JSON interaction) and its answer read; the answers
    of majiang's bots are taken from the hand (no time counted for them, so (b) is flattered).  Timed: the
    judge runs and the bot runs, one after another, nothing else.  The bot's answers must be the ones it
    gave in (a) and the judge's final scores the hand's: the report counts both.

The judge is not part of majiang: build it from ailab-pku/Chinese-Standard-Mahjong (docs/botzone.md,
``scripts/botzone_judge_check.py`` says how) outside the repository and give its path::

    .venv/bin/python benchmarks/botzone_keep_running.py /tmp/bz/judge --hands 10 --seed 1
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from majiang.bots.botzone_proto import json_input
from majiang.engine.log import read_log
from majiang.rulesets.botzone import export_record
from majiang.sim import simulate

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "botzone_bot.py"


def run_json(argv: list[str], text: str) -> tuple[Any, float]:
    t = time.perf_counter()
    out = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60, check=True).stdout
    return json.loads(out), time.perf_counter() - t


def botzone_match(judge: str, record: dict[str, Any], example_players: set[str]) -> dict[str, Any]:
    """One hand as Botzone runs it; the time of the judge runs and of the example bot's runs."""
    log: list[dict[str, Any]] = []
    history: dict[str, tuple[list[str], list[str]]] = {p: ([], []) for p in example_players}
    judge_s = bot_s = 0.0
    judge_runs = bot_runs = differ = 0
    while True:
        out, dt = run_json([judge], json.dumps({"log": log, "initdata": record["initdata"]}))
        judge_s += dt
        judge_runs += 1
        if out.get("command") != "request":
            break
        out.pop("initdata", None)
        log.append({"output": out})
        recorded = record["log"][len(log)] if len(log) < len(record["log"]) else {}
        answers: dict[str, dict[str, str]] = {}
        for p, request in out["content"].items():
            want = recorded.get(p, {}).get("response", "PASS")
            if p in example_players:
                requests, responses = history[p]
                requests.append(request)
                reply, dt = run_json([sys.executable, str(EXAMPLE)], json_input(requests, responses))
                bot_s += dt
                bot_runs += 1
                got = str(reply.get("response", ""))
                differ += got != want
                responses.append(want)  # the hand stays the recorded one
            answers[p] = {"verdict": "OK", "response": want}
        log.append(answers)
    scores = [int(out.get("content", {}).get(str(p), 0)) for p in range(4)]
    return {
        "judge_s": judge_s,
        "bot_s": bot_s,
        "judge_runs": judge_runs,
        "bot_runs": bot_runs,
        "answers_differ": differ,
        "scores_agree": scores == record["scores"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("judge", help="path of the judge binary (built with -D_BOTZONE_ONLINE)")
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=6.0, help="seconds a turn for the example bot in (a)")
    args = ap.parse_args(argv)

    kept = f"botzone@{args.time_limit:g}:{sys.executable} {EXAMPLE} --keep"
    bots = [kept, "fan", kept, "eff"]
    with (
        tempfile.TemporaryDirectory() as tmp,
        Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
        ) as bar,
    ):
        task = bar.add_task("(a) simulate, kept running", total=args.hands)
        t0 = time.perf_counter()
        res = simulate(
            args.hands, args.seed, bots, rules="botzone", log_dir=tmp, progress=lambda n: bar.update(task, completed=n)
        )
        a_s = time.perf_counter() - t0
        logs = sorted(Path(tmp).glob("hand-*.jsonl"))
        task = bar.add_task("(b) Botzone: judge + bot per turn", total=len(logs))
        totals: dict[str, float] = {}
        for path in logs:
            events = read_log(path)
            dealer = int(events[0]["dealer"])
            record = export_record(events)
            players = {str((seat - dealer) % 4) for seat in (0, 2)}
            for k, v in botzone_match(args.judge, record, players).items():
                totals[k] = totals.get(k, 0) + float(v)
            bar.advance(task)
    b_s = totals["judge_s"] + totals["bot_s"]
    n = len(logs)
    report = {
        "hands": n,
        "a_seconds": round(a_s, 2),
        "a_hands_per_s": round(n / a_s, 3),
        "a_illegal_actions": res.illegal_actions,
        "b_seconds": round(b_s, 2),
        "b_judge_seconds": round(totals["judge_s"], 2),
        "b_bot_seconds": round(totals["bot_s"], 2),
        "b_judge_runs": int(totals["judge_runs"]),
        "b_bot_runs": int(totals["bot_runs"]),
        "b_hands_per_s": round(n / b_s, 3),
        "ratio_a_over_b": round(b_s / a_s, 2),
        "b_answers_differ": int(totals["answers_differ"]),
        "b_scores_agree": int(totals["scores_agree"]),
        "machine": f"{platform.machine()} {platform.system()}, Python {platform.python_version()}",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": " ".join(["benchmarks/botzone_keep_running.py", *sys.argv[1:]]),
    }
    print(json.dumps(report, indent=1))
    return 0 if report["b_scores_agree"] == n and report["b_answers_differ"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
