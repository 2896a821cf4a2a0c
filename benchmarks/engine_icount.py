"""Instructions per hand, the compiled hand core against the Python engine: counts that do not depend
on what else the machine is doing (valgrind's cachegrind), for the lines of engine_bench.py.

    .venv/bin/python benchmarks/engine_icount.py            # runs valgrind itself and prints the table
    valgrind --tool=cachegrind --cache-sim=no .venv/bin/python benchmarks/engine_icount.py --probe core rand 200

Each line is measured as the difference of two runs, H and 2H hands (imports and warm-up cancel
out), divided by H.  Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BOTS = {"rand": ["rand"] * 4, "eff": ["eff"] * 4, "fan": ["fan", "rand", "rand", "rand"]}
#: hands per probe on each engine (the Python engine is slower: fewer hands)
HANDS = {("core", "rand"): 400, ("python", "rand"): 60, ("core", "eff"): 100, ("python", "eff"): 20}
HANDS |= {("core", "fan"): 20, ("python", "fan"): 10}


def probe(engine: str, line: str, hands: int) -> None:
    os.environ["MAJIANG_ENGINE"] = engine
    from majiang.sim import simulate

    simulate(20, 2, BOTS[line])  # warm-up: the same in both runs
    simulate(hands, 1, BOTS[line])


def count(engine: str, line: str, hands: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={Path(tmp) / 'cg.out'}",
                sys.executable,
                __file__,
                "--probe",
                engine,
                line,
                str(hands),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if m is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(m.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--probe", nargs=3, metavar=("ENGINE", "LINE", "HANDS"), help="(inside valgrind) one run")
    ap.add_argument("--lines", default="rand,eff,fan", help="which lines (rand, eff, fan)")
    ap.add_argument("--core-only", action="store_true", help="the core's counts only (to compare two trees)")
    args = ap.parse_args()
    if args.probe:
        probe(args.probe[0], args.probe[1], int(args.probe[2]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed: apt-get install valgrind")
    if args.core_only:
        print("| bots | core: instructions/hand |\n|---|---:|")
    else:
        print("| bots | core: instructions/hand | Python: instructions/hand | Python ÷ core |\n|---|---:|---:|---:|")
    for line in args.lines.split(","):
        per = {}
        for engine in ("core",) if args.core_only else ("core", "python"):
            h = HANDS[(engine, line)]
            per[engine] = (count(engine, line, 2 * h) - count(engine, line, h)) / h
        if args.core_only:
            print(f"| {','.join(BOTS[line])} | {per['core']:,.0f} |", flush=True)
            continue
        ratio = per["python"] / per["core"]
        print(f"| {','.join(BOTS[line])} | {per['core']:,.0f} | {per['python']:,.0f} | {ratio:.1f} |", flush=True)


if __name__ == "__main__":
    main()
