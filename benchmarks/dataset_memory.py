"""The compact dataset loader's memory against the dataset's size (docs/rl.md, "Datasets at scale").

Plays ``--hands`` hands of four efficiency bots into one real shard directory, then makes datasets
of ``--sizes`` hands each by listing that directory's shards again and again (hard links: no disk),
and streams each through :class:`majiang.rl.shards.ShardLoader` in a fresh process, reporting the
process's peak RSS (``VmHWM``) and the records it streamed.  The loader holds ``window`` shards
at a time, so the peak must not grow with the size; ``--batches`` stops a large one early (the
peak is reached in the first window).

    .venv/bin/python benchmarks/dataset_memory.py --sizes 1000,100000,1000000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import sys, time
from majiang.rl.shards import ShardLoader
def hwm():  # this process's peak resident set in kB (VmHWM: not inherited from the parent, unlike ru_maxrss)
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1])
d, batches = sys.argv[1], int(sys.argv[2])
base = hwm()
t = time.process_time()
loader = ShardLoader(d, batch_size=256, window=8, seed=0)
n = k = 0
for b in loader:
    n += len(b["action"]); k += 1
    if k >= batches:
        break
print(base, hwm(), n, loader.peak_records, len(loader.shards), time.process_time() - t)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=200, help="hands actually played into the seed shards")
    ap.add_argument("--sizes", default="1000,100000,1000000", help="dataset sizes in hands")
    ap.add_argument("--batches", type=int, default=2000, help="stop each stream after this many minibatches")
    args = ap.parse_args()
    from majiang.rl import selfplay

    with tempfile.TemporaryDirectory() as tmp:
        seed_dir = Path(tmp) / "seed"
        meta = selfplay.build(["eff"] * 4, args.hands, seed_dir, seed=1, shard_size=4096)
        per_hand = meta["records"] / meta["hands"]
        size = sum((seed_dir / s).stat().st_size for s in meta["shards"])
        print(
            f"seed: {meta['records']} records from {meta['hands']} hands ({per_hand:.1f} a hand), "
            f"{len(meta['shards'])} shards, {size / meta['records']:.0f} B a record on disk (compressed)"
        )
        print(
            "| hands | records | shards | peak RSS | RSS before the loader | records held at most | streamed | CPU s |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for hands in (int(s) for s in args.sizes.split(",")):
            d = Path(tmp) / f"d{hands}"
            d.mkdir()
            copies = max(1, round(hands / meta["hands"]))
            names = []
            for c in range(copies):
                for s in meta["shards"]:
                    name = f"c{c:06d}-{s}"
                    os.link(seed_dir / s, d / name)
                    names.append(name)
            m = dict(meta, shards=names, hands=meta["hands"] * copies, records=meta["records"] * copies)
            (d / "meta.json").write_text(json.dumps(m))
            t = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(d), str(args.batches)], capture_output=True, text=True, check=True
            )
            base, peak, n, held, nshards, cpu = out.stdout.split()
            print(
                f"| {m['hands']:,} | {m['records']:,} | {int(nshards):,} | {int(peak) / 1024:.0f} MB | "
                f"{int(base) / 1024:.0f} MB | {int(held):,} | {int(n):,} | {float(cpu):.1f} |"
            )
            del t


if __name__ == "__main__":
    main()
