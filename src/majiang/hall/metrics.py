"""Counters and a latency histogram, exposed in the Prometheus text format at ``/metrics``."""

from __future__ import annotations

import bisect
import time
from typing import Any

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Histogram:
    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)
        self.sum = 0.0
        self.n = 0

    def observe(self, v: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, v)] += 1
        self.sum += v
        self.n += 1

    def lines(self, name: str, help_text: str) -> list[str]:
        out = [f"# HELP {name} {help_text}", f"# TYPE {name} histogram"]
        acc = 0
        for b, c in zip(BUCKETS, self.counts, strict=False):
            acc += c
            out.append(f'{name}_bucket{{le="{b}"}} {acc}')
        out.append(f'{name}_bucket{{le="+Inf"}} {self.n}')
        out.append(f"{name}_sum {self.sum:.6f}")
        out.append(f"{name}_count {self.n}")
        return out


class Metrics:
    def __init__(self) -> None:
        self.started = time.time()
        self.actions = 0
        self.hands = 0
        self.prompts = 0
        # from a decision arriving (or a room's hold ending) to the next prompt going out, within a hand:
        # the claim window and the pause between hands are the room's, not the server's latency
        self.prompt_latency = Histogram()
        self._last_action: dict[str, float] = {}

    def action_received(self, table: str) -> None:
        self.actions += 1
        self._last_action[table] = time.perf_counter()

    def held_until_now(self, table: str) -> None:
        """A hold the room asks for (the claim window after a discard) ended: the latency counts from here."""
        if table in self._last_action:
            self._last_action[table] = time.perf_counter()

    def prompt_sent(self, table: str, seat: int) -> None:
        self.prompts += 1
        t0 = self._last_action.pop(table, None)
        if t0 is not None:
            self.prompt_latency.observe(time.perf_counter() - t0)

    def hand_settled(self, table: str) -> None:
        self.hands += 1
        self._last_action.pop(table, None)

    def render(self, gauges: dict[str, Any]) -> str:
        lines = [
            "# HELP majiang_actions_total Player and bot decisions applied.",
            "# TYPE majiang_actions_total counter",
            f"majiang_actions_total {self.actions}",
            "# HELP majiang_hands_total Hands settled.",
            "# TYPE majiang_hands_total counter",
            f"majiang_hands_total {self.hands}",
            "# HELP majiang_prompts_total Prompts sent to players.",
            "# TYPE majiang_prompts_total counter",
            f"majiang_prompts_total {self.prompts}",
        ]
        for name, (value, help_text) in gauges.items():
            lines += [f"# HELP {name} {help_text}", f"# TYPE {name} gauge", f"{name} {value}"]
        lines += self.prompt_latency.lines(
            "majiang_prompt_latency_seconds", "Time from a decision arriving to the next prompt being sent."
        )
        return "\n".join(lines) + "\n"
