"""``majiang ledger audit``: prove that the hall's coins are conserved (the double-entry ledger)."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ledger",
        help="audit the hall's coin ledger (游戏币账本)",
        description="Check the hall's double-entry coin ledger: every transaction balances, "
        "every balance equals the sum of its entries, all balances sum to zero and "
        "no player is negative. Exit status 0 when all holds, 1 otherwise.",
        epilog="examples:\n  majiang ledger audit\n"
        "  majiang ledger audit --db postgresql://postgres@127.0.0.1:5432/majiang --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("action", choices=["audit"], help="what to do (audit: prove coin conservation)")
    p.add_argument("--db", default=None, help="database URL (default: the hall's SQLite file var/majiang.db)")
    p.add_argument("--json", action="store_true", help="print the audit as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from majiang.hall.ledger import audit, totals
    from majiang.store import Database

    db = Database(args.db)
    try:
        db.migrate()  # an empty or older database is brought up to date first (nothing is lost)
        rep = audit(db)
        circulation, house = totals(db)
    finally:
        db.dispose()
    if args.json:
        print(json.dumps({**rep.to_dict(), "house": house}, ensure_ascii=False))
    else:
        print(f"账本审计 ledger audit · {db.url}")
        print(f"  accounts 账户        {rep.accounts:>12,}")
        print(f"  transactions 交易    {rep.transactions:>12,}")
        print(f"  in circulation 流通  {circulation:>12,}  (of which the house 庄家 holds {house:,})")
        print(f"  all balances sum to  {rep.total:>12,}  (the mint's negative balance included)")
        print("  OK: every coin is accounted for" if rep.ok else "  PROBLEMS:")
        for p in rep.problems:
            print(f"    - {p}")
    return 0 if rep.ok else 1
