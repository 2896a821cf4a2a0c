"""Check majiang's ``botzone`` ruleset against the real Botzone judge (outside the test suite).

Plays hands between majiang's bots under ``--rules botzone``, exports each as a Botzone match
record (:func:`majiang.rulesets.botzone.export_record`, what ``majiang replay LOG --botzone OUT``
writes), feeds the record's log to the judge binary the way Botzone does (``{"log": [...],
"initdata": {...}}`` on stdin, the log ending with the players' last responses) and compares the
judge's final output with majiang's: verdict (action), winner, fan count, the fans (points × count)
and the four scores.  ``--strict N`` also runs the judge on every prefix of the first N hands and
checks each of its requests equals the exported one.

No judge code here: build the judge from ailab-pku/Chinese-Standard-Mahjong (``judge/main.cpp``,
compiled with ``-D_BOTZONE_ONLINE`` so that it reads stdin) and give its path::

    .venv/bin/python benchmarks/botzone_judge.py /tmp/bzjudge/judge_bin --hands 500 --seed 1
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from typing import Any

from majiang.rulesets.botzone import compare, export_record, hand_result, import_record, record_result
from majiang.sim import simulate


def judge(binary: str, record: dict[str, Any], upto: int) -> dict[str, Any]:
    data = json.dumps({"log": record["log"][:upto], "initdata": record["initdata"]})
    out = subprocess.run([binary], input=data, capture_output=True, text=True, timeout=30, check=False)
    return dict(json.loads(out.stdout))


def judge_result(out: dict[str, Any]) -> dict[str, Any]:
    disp = out.get("display", {})
    content = out.get("content", {})
    res: dict[str, Any] = {"action": disp.get("action"), "score": [int(content.get(str(p), 0)) for p in range(4)]}
    if out.get("command") != "finish":
        res["action"] = f"not finished ({out.get('command')})"
    if "player" in disp:
        res["player"] = disp["player"]
    if "fanCnt" in disp:
        res["fanCnt"] = disp["fanCnt"]
    return res


def fans_of(display: dict[str, Any]) -> list[tuple[int, int]]:
    return sorted((int(f["value"]), int(f["cnt"])) for f in display.get("fan", []) or [])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("judge", help="path of the judge binary")
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="fan,eff,fan,eff")
    ap.add_argument("--strict", type=int, default=0, metavar="N", help="check every request of the first N hands")
    ap.add_argument("--show", type=int, default=5, help="differences to print")
    ap.add_argument(
        "--judge-records",
        metavar="DIR",
        help="with --strict: also write each strict hand as the judge's own record (its outputs)",
    )
    args = ap.parse_args(argv)

    import tempfile
    from pathlib import Path

    from majiang.engine.log import read_log

    with tempfile.TemporaryDirectory() as tmp:
        simulate(args.hands, args.seed, args.bots.split(","), rules="botzone", log_dir=tmp)
        logs = sorted(Path(tmp).glob("hand-*.jsonl"))
        agree = 0
        kinds: Counter[str] = Counter()
        shown = 0
        roundtrip = 0
        requests = requests_ok = 0
        for n, path in enumerate(logs):
            events = read_log(path)
            record = export_record(events)
            ours = record_result(record)
            out = judge(args.judge, record, len(record["log"]) - 1)
            theirs = judge_result(out)
            diffs = compare(ours, theirs)
            mine = record["log"][-1]["output"]["display"]
            if ours.get("action") == "HU" and fans_of(mine) != fans_of(out.get("display", {})):
                diffs.append(f"fans: majiang {fans_of(mine)}, judge {fans_of(out.get('display', {}))}")
            roundtrip += not compare(hand_result(import_record(record)), ours)
            kinds[str(theirs.get("action"))] += 1
            if not diffs:
                agree += 1
            elif shown < args.show:
                shown += 1
                print(f"{path.name}: " + "; ".join(diffs), file=sys.stderr)
            if n < args.strict:
                own = {"initdata": record["initdata"], "log": [judge(args.judge, record, 0)]}
                for j in range(1, len(record["log"]) - 1, 2):
                    got = judge(args.judge, record, j + 1)
                    own["log"] += [record["log"][j], {"output": got}]
                    want = record["log"][j + 1]["output"]
                    requests += 1
                    same = got.get("content") == want["content"] and got.get("command") == want["command"]
                    requests_ok += same
                    if not same and shown < args.show:
                        shown += 1
                        print(
                            f"{path.name} request {j + 1}: judge {got.get('content')} vs {want['content']}",
                            file=sys.stderr,
                        )
                if args.judge_records:
                    Path(args.judge_records).mkdir(parents=True, exist_ok=True)
                    own["log"][0] = {"output": own["log"][0]}
                    own["initdata"] = own["log"][0]["output"].pop("initdata", own["initdata"])
                    (Path(args.judge_records) / f"{path.stem}.json").write_text(json.dumps(own, ensure_ascii=False))
    total = len(logs)
    print(
        json.dumps(
            {
                "hands": total,
                "agree": agree,
                "agreement": round(agree / total, 4) if total else None,
                "results": dict(kinds),
                "import_roundtrip_agree": roundtrip,
                "strict_requests": requests,
                "strict_requests_equal": requests_ok,
                "command": " ".join(["benchmarks/botzone_judge.py", *sys.argv[1:]]),
            }
        )
    )
    return 0 if agree == total and requests_ok == requests else 1


if __name__ == "__main__":
    raise SystemExit(main())
