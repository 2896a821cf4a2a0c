"""Failover time of the multi-process hall: a 3-process cluster on PostgreSQL + Redis, a table with
one human and three bots owned by the first process; mid-hand the owner is killed with SIGKILL and
the player reconnects through another process.  Measured from the kill: (a) the table's snapshot of
the same hand arrives (taken over and restored from the event log), (b) the hand moves on (the next
event or prompt).  One fresh cluster per trial.

    .venv/bin/python benchmarks/failover.py --trials 5
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "hall"))
from cluster_helpers import Player, cluster, http


def trial(k: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp, cluster(3, Path(tmp)) as (nodes, _db):
        n1, n2, _n3 = nodes
        token = http(n1.base + "/api/register", {"username": f"fail{k}", "password": "correct horse"})["token"]
        p = Player(n1, token)
        p.until("welcome")
        p.send({"type": "create", "room": "c"})
        table_id = p.until("table")["table"]["id"]
        p.send({"type": "add_bots"})
        answered = 0
        while answered < 3:
            m = p.recv(timeout=60)
            if m["type"] == "prompt":
                p.answer(m)
                answered += 1
        hand_id = next(m["hand"] for m in p.seen if m["type"] == "events")
        killed = time.monotonic()
        n1.kill()
        p.close()
        q = Player(n2, token)
        welcome = q.until("welcome", timeout=30)
        assert welcome["table"] == table_id, welcome
        while True:
            snap = q.until("table", timeout=30)
            if snap.get("hand") == hand_id:
                break
        restored = time.monotonic() - killed
        while True:
            m = q.recv(timeout=30)
            if m["type"] == "prompt":
                q.answer(m)
                break
            if m["type"] in ("events", "hand_end"):
                break
        moved = time.monotonic() - killed
        q.close()
        return restored, moved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=5)
    args = ap.parse_args()
    print(f"# failover · {datetime.date.today()} · {os.cpu_count()} cores · lease 3 s · {args.trials} trials")
    print("| trial | snapshot of the same hand (s) | hand moves on (s) |\n|---:|---:|---:|")
    rows = []
    for k in range(args.trials):
        r, m = trial(k)
        rows.append((r, m))
        print(f"| {k + 1} | {r:.2f} | {m:.2f} |", flush=True)
    rs, ms = [r for r, _ in rows], [m for _, m in rows]
    print(f"| mean | {statistics.mean(rs):.2f} | {statistics.mean(ms):.2f} |")
    print(f"| max | {max(rs):.2f} | {max(ms):.2f} |")


if __name__ == "__main__":
    main()
