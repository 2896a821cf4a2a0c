"""External bots: any program that speaks JSON lines on stdin/stdout (docs/bot-protocol.md)."""

from __future__ import annotations

import json
import select
import shlex
import subprocess
from typing import Any

from majiang.engine.protocol import Action
from majiang.engine.view import SeatView, action_from_json


class ExternalBot:
    """Runs ``command``; sends ``{"type": "request", "id", "view"}`` lines and reads
    ``{"id", "action"}`` lines back.  A reply that is late, malformed or not legal is replaced by
    the first legal pass/discard and counted in :attr:`faults`."""

    def __init__(self, command: str, timeout: float = 5.0) -> None:
        self.name = f"ext:{command}"
        self.timeout = timeout
        self.faults = 0
        self._id = 0
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        self._id += 1
        self._send({"type": "request", "id": self._id, "view": view.to_dict()})
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        if ready:
            line = self.proc.stdout.readline()
            try:
                reply = json.loads(line)
                if reply.get("id") == self._id:
                    action = action_from_json(reply.get("action"))
                    if action in legal:
                        return action
            except (ValueError, AttributeError, KeyError):
                pass
        self.faults += 1
        return next((a for a in legal if a.type == "pass"), legal[-1])

    def hand_over(self, view: SeatView) -> None:
        self._send({"type": "hand_end", "view": view.to_dict()})

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
