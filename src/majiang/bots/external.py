"""External bots: any program that speaks JSON lines on stdin/stdout (docs/bot-protocol.md)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import subprocess
import time
from typing import Any

from majiang.engine.protocol import Action
from majiang.engine.view import SeatView, action_from_json


class ExternalBot:
    """Runs ``command``; sends ``{"type": "request", "id", "view"}`` lines and reads
    ``{"id", "action"}`` lines back.  A reply that is late, malformed or not legal is replaced by
    the first legal pass/discard and counted in :attr:`faults`; so is every request after the
    program has exited (its pipe is closed), and the hands play on."""

    def __init__(self, command: str, timeout: float = 5.0) -> None:
        self.name = f"ext:{command}"
        self.timeout = timeout
        self.faults = 0
        self._id = 0
        self._buf = b""
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def _send(self, msg: dict[str, Any]) -> bool:
        """False when the program can no longer read (it exited or closed its stdin)."""
        stdin = self.proc.stdin
        assert stdin is not None
        if stdin.closed:
            return False
        try:
            stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
            stdin.flush()
        except OSError:  # BrokenPipeError: nobody reads any more
            self._close_stdin()
            return False
        return True

    def _close_stdin(self) -> None:
        stdin = self.proc.stdin
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):  # the unwritten rest of a message to a program that is gone
                stdin.close()

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        self._id += 1
        if not self._send({"type": "request", "id": self._id, "view": view.to_dict()}):
            return self._fault(legal)
        deadline = time.monotonic() + self.timeout
        while (line := self._read_line(deadline)) is not None:
            try:
                reply = json.loads(line)
                rid = reply.get("id")
                if isinstance(rid, int) and rid < self._id:
                    continue  # a late answer to an earlier request (already replaced): skip it
                if rid == self._id:
                    action = action_from_json(reply.get("action"))
                    if action in legal:
                        return action
            except (ValueError, AttributeError, KeyError, TypeError):
                pass
            break
        return self._fault(legal)

    def _read_line(self, deadline: float) -> bytes | None:
        """The program's next line, or None at the deadline or its end of output.  Reads the pipe
        itself (not a buffered file): two lines written at once are both kept."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while (nl := self._buf.find(b"\n")) < 0:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf[:nl], self._buf[nl + 1:]
        return line

    def _fault(self, legal: list[Action]) -> Action:
        self.faults += 1
        return next((a for a in legal if a.type == "pass"), legal[-1])

    def hand_over(self, view: SeatView) -> None:
        self._send({"type": "hand_end", "view": view.to_dict()})

    def close(self, grace: float = 1.0) -> None:
        """End of input (the program may finish what it was told); still running after ``grace``
        seconds, it is killed."""
        self._close_stdin()
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
