"""A Botzone Chinese-Standard-Mahjong bot for majiang's tests: legal answers in both interactions,
optionally kept running, and on request misbehaving at its Nth own draw.

    botzone_bot.py [--simple] [--keep] [--claims] [--late N SECONDS] [--crash N] [--bad N] [--hu-on-draw]
                   [--sleep SECONDS] [--log FILE]

``--sleep`` thinks that long before every answer (and with ``--log`` notes the time of each answer).

It rebuilds its hand from the requests and its own answers, discards its loneliest tile, and with
``--claims`` pungs, chows and kongs while plenty of wall is left (it cannot count the wall exactly:
it never claims the last tiles).  It never declares HU (it has no fan calculator).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

ARGS = sys.argv[1:]
SIMPLE = "--simple" in ARGS
KEEP = "--keep" in ARGS
CLAIMS = "--claims" in ARGS
HU_ON_DRAW = "--hu-on-draw" in ARGS  # answers HU to other players' draws (only PASS is accepted there)
MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def _opt(name: str, n: int = 1) -> list[str] | None:
    if name not in ARGS:
        return None
    i = ARGS.index(name)
    return ARGS[i + 1 : i + 1 + n]


LATE = _opt("--late", 2)
CRASH = _opt("--crash")
BAD = _opt("--bad")
LOG = _opt("--log")
SLEEP = _opt("--sleep")


def neighbours(tile: str, hand: Counter[str]) -> int:
    if tile[0] not in "WBT":
        return 2 * (hand[tile] - 1)
    n = int(tile[1])
    return 2 * (hand[tile] - 1) + sum(hand[f"{tile[0]}{n + d}"] for d in (-2, -1, 1, 2) if 1 <= n + d <= 9)


class Player:
    def __init__(self) -> None:
        self.me = -1
        self.hand: Counter[str] = Counter()
        self.pungs: set[str] = set()
        self.taken = 52  # tiles out of the wall (an estimate: enough to stay clear of its end)
        self.last = ""  # the tile of the last discard
        self.draws = 0  # own draws so far
        self.prev = ""

    def see(self, request: str) -> None:
        w = request.split()
        if w[0] == "0":
            self.me = int(w[1])
        elif w[0] == "1":
            self.hand.update(w[5:18])
            self.taken += sum(int(x) for x in w[1:5])
        elif w[0] == "2":
            self.hand[w[1]] += 1
            self.draws += 1
            self.taken += 1
        elif w[0] == "3":
            p, verb = int(w[1]), w[2]
            if verb in ("DRAW", "BUHUA"):
                self.taken += 1
            elif p == self.me and verb == "PENG":
                self.hand.subtract({self.last: 2})
                self.pungs.add(self.last)
            elif p == self.me and verb == "CHI":
                mid = int(w[3][1])
                used = Counter(f"{w[3][0]}{mid + d}" for d in (-1, 0, 1))
                used[self.last] -= 1
                self.hand.subtract(used)
            elif p == self.me and verb == "GANG" and not self.prev.startswith("2 "):
                self.hand.subtract({self.last: 3})  # an exposed kong (a concealed one was answered already)
            if verb in ("PLAY", "PENG", "CHI"):
                self.last = w[-1]
                if p == self.me:
                    self.hand[w[-1]] -= 1
        self.hand = +self.hand
        self.prev = request

    def did(self, response: str) -> None:
        w = response.split()
        if w[0] == "GANG" and len(w) == 2:
            self.hand.subtract({w[1]: 4})
        elif w[0] == "BUGANG":
            self.hand[w[1]] -= 1
            self.pungs.discard(w[1])
        self.hand = +self.hand

    def answer(self, request: str) -> str:
        w = request.split()
        room = self.taken < 100
        if w[0] == "2":
            if CLAIMS and room:
                four = next((t for t, n in self.hand.items() if n == 4), None)
                if four:
                    return f"GANG {four}"
                if w[1] in self.pungs:
                    return f"BUGANG {w[1]}"
            return f"PLAY {self.loneliest(self.hand)}"
        if w[0] == "3" and w[2] in ("PLAY", "PENG", "CHI") and int(w[1]) != self.me and CLAIMS and room:
            t = w[-1]
            if self.hand[t] == 3 and self.draws % 2:
                return "GANG"
            if self.hand[t] >= 2:
                left = self.hand - Counter({t: 2})
                return f"PENG {self.loneliest(left)}"
            if int(w[1]) == (self.me + 3) % 4 and t[0] in "WBT":
                n = int(t[1])
                for mid in (n - 1, n, n + 1):
                    tiles = [f"{t[0]}{mid + d}" for d in (-1, 0, 1)]
                    if mid < 2 or mid > 8:
                        continue
                    need = Counter(tiles)
                    need[t] -= 1
                    if all(self.hand[x] >= k for x, k in need.items()):
                        left = self.hand - need
                        return f"CHI {t[0]}{mid} {self.loneliest(left)}"
        return "PASS"

    @staticmethod
    def loneliest(hand: Counter[str]) -> str:
        return min(sorted(+hand), key=lambda t: neighbours(t, hand))


def misbehave(player: Player, request: str) -> str | None:
    """The misbehaviour asked for at this request, if any (they count the bot's own draws)."""
    if HU_ON_DRAW and request.endswith(" DRAW"):
        return "HU"
    if not request.startswith("2 "):
        return None
    n = player.draws
    if CRASH and n == int(CRASH[0]):
        sys.exit(3)
    if LATE and n == int(LATE[0]):
        time.sleep(float(LATE[1]))
    if BAD and n == int(BAD[0]):
        return "PLAY Z9"
    return None


def reply(player: Player, request: str) -> None:
    player.see(request)
    response = misbehave(player, request) or player.answer(request)
    player.did(response)
    if SLEEP:
        time.sleep(float(SLEEP[0]))
        if LOG:
            with open(LOG[0], "a") as f:
                f.write(json.dumps({"answered": time.time()}) + "\n")
    print(response if SIMPLE else json.dumps({"response": response}))
    if KEEP:
        print(MARKER)
    sys.stdout.flush()


def main() -> None:
    player = Player()
    if SIMPLE:
        n = int(sys.stdin.readline())
        history = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
        sys.stdin.readline()  # data
        sys.stdin.readline()  # globaldata (one line here)
        requests, responses = history[0::2], history[1::2]
    else:
        full = json.loads(sys.stdin.readline())
        requests, responses = full["requests"], full["responses"]
    if LOG:
        with open(LOG[0], "a") as f:
            f.write(json.dumps({"requests": len(requests)}) + "\n")
    for req, resp in zip(requests, responses, strict=False):
        player.see(req)
        player.did(resp)
    reply(player, requests[-1])
    if not KEEP:
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        reply(player, line.rstrip("\n") if SIMPLE else json.loads(line))


if __name__ == "__main__":
    main()
