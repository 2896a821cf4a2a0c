#!/usr/bin/env python3
"""A minimal external bot for majiang (docs/bot-protocol.md): wins when it can, otherwise passes
claims and discards the first legal tile.  Run it with:
    majiang simulate --bots "ext:python3 examples/bot_discard_first.py",rand,rand,rand --hands 10
"""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "request":
        continue
    legal = msg["view"]["legal"]
    choice = (
        next((a for a in legal if a["type"] == "win"), None)
        or next((a for a in legal if a["type"] == "pass"), None)
        or next(a for a in legal if a["type"] == "discard")
    )
    print(json.dumps({"id": msg["id"], "action": choice}), flush=True)
