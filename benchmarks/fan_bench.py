"""Benchmark: majiang's MCR fan calculator against PyMahjongGB 1.4 (compiled C++, the Botzone judge).

On the same random winning hands (``majiang.mcr.generate.random_winning_hand``, pymahjonggb profile, so
both calculators apply the same rules) it times

(a) majiang ``score`` on pre-parsed WinningHand objects, one by one and with ``score_many``;
(b) PyMahjongGB ``MahjongFanCalculator`` on pre-built argument tuples (only the scoring calls);
(c) whole processes over one JSONL file of those hands: ``majiang fan --jsonl`` against
    ``benchmarks/pmgb_jsonl.py`` (the same JSON in / JSON out around PyMahjongGB);

and measures the resident memory of the compiled tables and the ``import majiang.mcr`` time.
Ratios are reference time / our time: 1.0 or more means majiang is at least as fast.

Timings are the best of ``--repeat`` runs (the machine may be shared).  Child processes run without
PYTHONUNBUFFERED / PYTHONDONTWRITEBYTECODE / MAJIANG_PURE (a normal Python: buffered output,
bytecode cache), after one warm-up run each.

    python benchmarks/fan_bench.py                 # 20000 hands, seed 2026
    python benchmarks/fan_bench.py --hands 50000 --seed 7 --repeat 7 --markdown
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from host import cpu_name

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import pmgb_jsonl  # noqa: E402  (benchmarks/pmgb_jsonl.py: the hand-json → PyMahjongGB conversion)

from majiang.mcr import WinningHand, score, score_many, scorer  # noqa: E402
from majiang.mcr.generate import random_winning_hand  # noqa: E402

try:
    import MahjongGB  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - the dev extra installs it
    MahjongGB = None

#: PyMahjongGB's English names where they differ from mcr-fans.tsv
PMGB_ALIASES = {"Robbing The Kong": "Robbing the Kong", "Two Dragons Pungs": "Two Dragon Pungs"}
CLEAN_ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "MAJIANG_PURE", "PYTHONPYCACHEPREFIX")
}


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def run_process(cmd: Sequence[str], stdin_path: str | None, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds user+sys, stdout) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin_path or os.devnull, "rb") as inp, tempfile.TemporaryFile() as out:
        t = time.perf_counter()
        subprocess.run(list(cmd), stdin=inp, stdout=out, env=env, check=True)
        wall = time.perf_counter() - t
        out.seek(0)
        text = out.read().decode("utf-8")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, text


def child_python(code: str, env: dict[str, str]) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--hands", type=int, default=20000, help="number of random winning hands (default 20000)")
    ap.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    ap.add_argument("--repeat", type=int, default=5, help="timing runs, best taken (default 5)")
    ap.add_argument("--markdown", action="store_true", help="also print the table as markdown (docs/bench-fan.md)")
    args = ap.parse_args(argv)
    if MahjongGB is None:
        print("PyMahjongGB is not installed (pip install -e '.[dev]'): nothing to compare with", file=sys.stderr)
        return 2
    if scorer._FAST is None:
        print(
            "note: majiang._speedups.fan is not in use (not built, or MAJIANG_PURE=1): timing pure Python",
            file=sys.stderr,
        )
    n, repeat = args.hands, args.repeat
    rng = random.Random(args.seed)
    hands: list[WinningHand] = [random_winning_hand(rng, "pymahjonggb") for _ in range(n)]
    dicts = [h.to_dict() for h in hands]
    verbose_args = [pmgb_jsonl._args(d) for d in dicts]  # (..., verbose=True)
    plain_args = [a[:-1] for a in verbose_args]  # PyMahjongGB's default, cheapest return format
    calc = MahjongGB.MahjongFanCalculator

    # the same answers first
    agree = 0
    for h, a in zip(hands, verbose_args, strict=True):
        ours = {fc.name: fc.count for fc in score(h).fans}
        ref = {PMGB_ALIASES.get(en, en): cnt for _p, cnt, _zh, en in calc(*a)}
        agree += ours == ref

    # (a) and (b): in-process, scoring calls only
    def ours_one() -> None:
        for h in hands:
            score(h)

    def ours_many() -> None:
        score_many(hands)

    def ref_plain() -> None:
        for a in plain_args:
            calc(*a)

    def ref_verbose() -> None:
        for a in verbose_args:
            calc(*a)

    t_one = best_of(repeat, ours_one)
    t_many = best_of(repeat, ours_many)
    t_ref = best_of(repeat, ref_plain)
    t_ref_v = best_of(repeat, ref_verbose)
    n_pure = min(n, 2000)
    t_pure = best_of(1, lambda: [scorer.score_reference(h) for h in hands[:n_pure]]) / n_pure

    # (c): whole processes over one JSONL file
    ours_cmd = [str(Path(sys.executable).with_name("majiang")), "fan", "--jsonl"]
    if not Path(ours_cmd[0]).exists():
        ours_cmd = [sys.executable, "-m", "majiang.cli", "fan", "--jsonl"]
    ref_cmd = [sys.executable, str(HERE / "pmgb_jsonl.py")]
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = str(Path(tmp) / "hands.jsonl")
        with open(jsonl, "w", encoding="utf-8") as f:
            for d in dicts:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
        proc: dict[str, list[tuple[float, float]]] = {"ours": [], "ref": [], "ours0": [], "ref0": []}
        outputs: dict[str, str] = {}
        for i in range(repeat + 1):  # the first round warms up (and writes the bytecode cache)
            for key, cmd, path in (
                ("ours", ours_cmd, jsonl),
                ("ref", ref_cmd, jsonl),
                ("ours0", ours_cmd, None),
                ("ref0", ref_cmd, None),
            ):
                wall_s, cpu_s, out = run_process(cmd, path, CLEAN_ENV)
                if i:
                    proc[key].append((wall_s, cpu_s))
                outputs[key] = out
        ours_lines, ref_lines = outputs["ours"].splitlines(), outputs["ref"].splitlines()
        same_totals = sum(
            json.loads(a).get("total") == json.loads(b).get("total") for a, b in zip(ours_lines, ref_lines, strict=True)
        )

    def wall(key: str) -> float:
        return min(w for w, _ in proc[key])

    def cpu(key: str) -> float:
        return min(c for _, c in proc[key])

    # memory and import time, in fresh processes
    rss_code = (
        "import majiang.mcr as m\n"
        "m.score(m.WinningHand.from_string('[123m1][EEE2]{9999s}456pC C'))\n"
        "print([int(x.split()[1]) for x in open('/proc/self/status') if x.startswith('VmRSS')][0])"
    )
    rss_fast = int(child_python(rss_code, CLEAN_ENV))
    rss_pure = int(child_python(rss_code, {**CLEAN_ENV, "MAJIANG_PURE": "1"}))
    table_bytes = int(child_python("import majiang._speedups.fan as f; print(f.TABLE_BYTES)", CLEAN_ENV))
    imp_code = "import time; t = time.perf_counter(); import majiang.mcr; print(time.perf_counter() - t)"
    t_import = min(float(child_python(imp_code, CLEAN_ENV)) for _ in range(repeat))

    us = 1e6 / n
    rows: list[tuple[str, str, str, str]] = [
        ("(a)/(b) score one hand, in process", f"{t_one * us:.2f} µs", f"{t_ref * us:.2f} µs", f"{t_ref / t_one:.2f}"),
        ("(a)/(b) score_many, per hand", f"{t_many * us:.2f} µs", f"{t_ref * us:.2f} µs", f"{t_ref / t_many:.2f}"),
        (
            "(b') the same, PyMahjongGB verbose=True",
            f"{t_one * us:.2f} µs",
            f"{t_ref_v * us:.2f} µs",
            f"{t_ref_v / t_one:.2f}",
        ),
        ("pure-Python reference score (MAJIANG_PURE=1)", f"{t_pure * 1e6:.0f} µs", "", ""),
        (
            f"(c) whole process, {n} lines: wall",
            f"{wall('ours'):.3f} s",
            f"{wall('ref'):.3f} s",
            f"{wall('ref') / wall('ours'):.2f}",
        ),
        (
            f"(c) whole process, {n} lines: CPU",
            f"{cpu('ours'):.3f} s",
            f"{cpu('ref'):.3f} s",
            f"{cpu('ref') / cpu('ours'):.2f}",
        ),
        ("(c) of which start-up (empty input): wall", f"{wall('ours0'):.3f} s", f"{wall('ref0'):.3f} s", ""),
        (
            "(c) per line after start-up (wall)",
            f"{(wall('ours') - wall('ours0')) * us:.1f} µs",
            f"{(wall('ref') - wall('ref0')) * us:.1f} µs",
            f"{(wall('ref') - wall('ref0')) / (wall('ours') - wall('ours0')):.2f}",
        ),
        ("compiled tables (allocated)", f"{table_bytes / 2**20:.2f} MB", "", ""),
        (
            "resident memory, extension vs MAJIANG_PURE=1",
            f"{(rss_fast - rss_pure) / 1024:+.1f} MB",
            "",
            f"({rss_fast / 1024:.1f} vs {rss_pure / 1024:.1f} MB)",
        ),
        ("import majiang.mcr (fresh process, bytecode cached)", f"{t_import * 1e3:.0f} ms", "", ""),
    ]
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    head = (
        f"majiang MCR fan calculator vs PyMahjongGB {getattr(MahjongGB, '__version__', '1.4')} — "
        f"{n} random winning hands (pymahjonggb profile), seed {args.seed}, best of {repeat}"
    )
    machine = (
        f"{cpu_name()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; {now}"
    )
    checks = (
        f"same fans as PyMahjongGB on {agree}/{n} hands; same totals in the --jsonl outputs on {same_totals}/{n} lines"
    )

    def shown(cmd: Sequence[str]) -> str:
        """A command as one types it from the repository root."""
        out = []
        for part in cmd:
            try:
                out.append(os.path.relpath(part) if os.path.isabs(part) else part)
            except ValueError:
                out.append(part)
        return " ".join(out)

    this = [sys.executable, *(sys.argv if argv is None else [__file__, *argv])]
    commands = [
        shown(this),
        f"(c) ours: {shown(ours_cmd)} < hands.jsonl",
        f"(c) reference: {shown(ref_cmd)} < hands.jsonl",
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    print(head)
    print(machine)
    print(checks)
    print()
    header = ("", "majiang", "PyMahjongGB", "ratio")
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True))))
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    print()
    print("ratio = PyMahjongGB time / majiang time (>= 1.0: majiang at least as fast)")
    for c in commands:
        print("command:", c)
    if args.markdown:
        print()
        print(f"**{head}**  ")
        print(f"{machine}  ")
        print(f"{checks}")
        print()
        print("| | majiang | PyMahjongGB | ratio |")
        print("|---|---:|---:|---:|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
        print()
        for c in commands:
            print(f"- `{c}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
