"""External bots: any program that speaks JSON lines on stdin/stdout (docs/bot-protocol.md).

:class:`Program` (a child process on pipes, read by a deadline) and :func:`fallback` (the legal
action that replaces a fault) are shared with the Botzone bots (:mod:`majiang.bots.botzone`).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import subprocess
import time
from typing import Any

from majiang.engine.protocol import PASS, Action
from majiang.engine.view import SeatView, action_from_json


class Program:
    """A child process on pipes: ``send`` text to its stdin, read its stdout up to a deadline.
    Reads the pipe itself (not a buffered file), so two lines written at once are both kept and a
    read never waits past the deadline."""

    def __init__(self, command: str) -> None:
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._buf = b""
        self.eof = False  # the program closed its stdout (it exited)

    def send(self, text: str) -> bool:
        """False when the program can no longer read (it exited or closed its stdin)."""
        stdin = self.proc.stdin
        assert stdin is not None
        if stdin.closed:
            return False
        try:
            stdin.write(text.encode())
            stdin.flush()
        except OSError:  # BrokenPipeError: nobody reads any more
            self.close_stdin()
            return False
        return True

    def close_stdin(self) -> None:
        stdin = self.proc.stdin
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):  # the unwritten rest of a message to a program that is gone
                stdin.close()

    @property
    def stdin_open(self) -> bool:
        return self.proc.stdin is not None and not self.proc.stdin.closed

    def _fill(self, deadline: float) -> bool:
        """Read what the program wrote; False at the deadline or at its end of output."""
        assert self.proc.stdout is not None
        if self.eof:
            return False
        fd = self.proc.stdout.fileno()
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return False
        chunk = os.read(fd, 65536)
        if not chunk:
            self.eof = True
            return False
        self._buf += chunk
        return True

    def read_line(self, deadline: float) -> bytes | None:
        """The program's next line, or None at the deadline or its end of output."""
        while (nl := self._buf.find(b"\n")) < 0:
            if not self._fill(deadline):
                return None
        line, self._buf = self._buf[:nl], self._buf[nl + 1 :]
        return line

    def read_until(self, marker: bytes, deadline: float) -> tuple[bytes, str]:
        """Everything the program writes before a line ``marker`` (``"marker"``), before its end of
        output (``"eof"``), or by the deadline (``"late"``)."""
        while True:
            at = self._buf.find(marker)
            if at >= 0 and (at == 0 or self._buf[at - 1 : at] == b"\n"):
                out, self._buf = self._buf[:at], self._buf[at + len(marker) :].lstrip(b"\r\n")
                return out, "marker"
            if not self._fill(deadline):
                if self.eof:
                    out, self._buf = self._buf, b""
                    return out, "eof"
                return b"", "late"

    def end(self, grace: float = 1.0) -> None:
        """End of input (the program may finish what it was told); still running after ``grace``
        seconds, it is killed."""
        self.close_stdin()
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def fallback(legal: list[Action]) -> Action:
    """What replaces a fault: pass when passing is legal, else the last legal action (a discard)."""
    return next((a for a in legal if a.type == PASS), legal[-1])


class ExternalBot:
    """Runs ``command``; sends ``{"type": "request", "id", "view"}`` lines and reads
    ``{"id", "action"}`` lines back.  A reply that is late, malformed or not legal is replaced by
    the first legal pass/discard and counted in :attr:`faults`; so is every request after the
    program has exited (its pipe is closed), and the hands play on."""

    def __init__(self, command: str, timeout: float = 5.0) -> None:
        self.name = f"ext:{command}"
        self.timeout = timeout
        self.faults = 0
        self.last_fault: str | None = None  # the kind of the fault the last answer replaced
        self._id = 0
        self.program = Program(command)

    @property
    def proc(self) -> subprocess.Popen[bytes]:
        return self.program.proc

    def _send(self, msg: dict[str, Any]) -> bool:
        return self.program.send(json.dumps(msg, ensure_ascii=False) + "\n")

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        return self.answer(self.prepare(view, legal))

    # ``choose`` in two steps (as :class:`majiang.bots.botzone.BotzoneBot`): ``prepare`` reads the
    # view, ``answer`` talks to the program, and may run on another thread (majiang.hall.botprocs)
    def prepare(self, view: SeatView, legal: list[Action]) -> tuple[dict[str, Any], list[Action]]:
        self._id += 1
        return {"type": "request", "id": self._id, "view": view.to_dict()}, list(legal)

    def answer(self, turn: tuple[dict[str, Any], list[Action]]) -> Action:
        msg, legal = turn
        self.last_fault = None
        if not self._send(msg):
            return self._fault(legal, "RE")
        deadline = time.monotonic() + self.timeout
        while (line := self.program.read_line(deadline)) is not None:
            try:
                reply = json.loads(line)
                rid = reply.get("id")
                if isinstance(rid, int) and rid < msg["id"]:
                    continue  # a late answer to an earlier request (already replaced): skip it
                if rid == msg["id"]:
                    action = action_from_json(reply.get("action"))
                    if action in legal:
                        return action
            except (ValueError, AttributeError, KeyError, TypeError):
                pass
            return self._fault(legal, "WA")
        return self._fault(legal, "RE" if self.program.eof else "TLE")

    def _fault(self, legal: list[Action], kind: str) -> Action:
        self.faults += 1
        self.last_fault = kind
        return fallback(legal)

    def hand_over(self, view: SeatView) -> None:
        self._send({"type": "hand_end", "view": view.to_dict()})

    def close(self, grace: float = 1.0) -> None:
        """End of input (the program may finish what it was told); still running after ``grace``
        seconds, it is killed."""
        self.program.end(grace)
