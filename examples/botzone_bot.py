#!/usr/bin/env python3
"""A small Botzone Chinese-Standard-Mahjong bot, for majiang or Botzone itself (docs/botzone.md).

It keeps its hand from the requests and its own answers, discards the tile with the fewest
neighbours, and pungs a discarded dragon or wind it holds a pair of.  It never declares HU (that
needs a fan calculator: Botzone treats a win under 8 fan as an error).

    majiang simulate --bots "botzone:python3 examples/botzone_bot.py",rand,rand,rand --time-limit 6
    majiang simulate --bots "botzone-simple:python3 examples/botzone_bot.py --simple --keep",rand,rand,rand

``--simple``: Botzone's simple interaction (default: JSON).  ``--keep``: ask to keep running after
each answer (``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``), then read one request a line.
"""

import json
import sys
from collections import Counter

SIMPLE = "--simple" in sys.argv
KEEP = "--keep" in sys.argv


class Bot:
    def __init__(self):
        self.me = None
        self.hand = Counter()
        self.last = None  # the tile of the latest discard

    def see(self, request, response):
        """Update the hand from one request and the answer given to it."""
        w = request.split()
        if w[0] == "0":
            self.me = int(w[1])
        elif w[0] == "1":
            self.hand.update(w[5:18])  # after the four flower counts: the 13 tiles
        elif w[0] == "2":
            self.hand[w[1]] += 1
            if response.startswith("PLAY"):
                self.hand[response.split()[1]] -= 1
        elif w[0] == "3" and w[2] in ("PLAY", "PENG", "CHI"):
            if int(w[1]) == self.me and w[2] == "PENG":  # our pung went through: its discard with it
                self.hand[self.last] -= 2
                self.hand[w[3]] -= 1
            self.last = w[-1]
        self.hand = +self.hand

    def answer(self, request):
        w = request.split()
        if w[0] == "2":
            return "PLAY " + self.loneliest(self.hand)
        if w[0] == "3" and w[2] in ("PLAY", "PENG", "CHI") and int(w[1]) != self.me:
            tile = w[-1]
            if tile[0] in "FJ" and self.hand[tile] >= 2:
                return "PENG " + self.loneliest(self.hand - Counter({tile: 2}))
        return "PASS"

    @staticmethod
    def loneliest(hand):
        def company(t):
            if t[0] not in "WBT":
                return 3 * (hand[t] - 1)
            n = int(t[1])
            return 3 * (hand[t] - 1) + sum(hand[t[0] + str(n + d)] for d in (-2, -1, 1, 2) if 1 <= n + d <= 9)

        return min(sorted(hand), key=company)


def read_history():
    """The first input: every request so far and our answers to all but the last."""
    if SIMPLE:
        n = int(sys.stdin.readline())
        lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
        return lines[0::2], lines[1::2]
    full = json.loads(sys.stdin.readline())
    return full["requests"], full["responses"]


def reply(bot, request):
    response = bot.answer(request)
    bot.see(request, response)
    print(response if SIMPLE else json.dumps({"response": response}))
    if KEEP:
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<")
    sys.stdout.flush()


def main():
    bot = Bot()
    requests, responses = read_history()
    for i, response in enumerate(responses):  # (no zip(strict=…): Botzone runs Python 3.6)
        bot.see(requests[i], response)
    reply(bot, requests[-1])
    while KEEP:  # later requests come one a line (JSON: the request as a JSON string)
        line = sys.stdin.readline()
        if not line:
            return
        if line.strip():
            reply(bot, line.rstrip("\n") if SIMPLE else json.loads(line))


if __name__ == "__main__":
    main()
