"""Botzone bots as majiang players: ``botzone:COMMAND`` (JSON interaction) and
``botzone-simple:COMMAND`` (simple interaction, 简单交互), docs/botzone.md.

Each hand is one Botzone match.  When majiang asks the seat to decide, the bot is run as Botzone
runs it: a fresh process gets the whole history (every request of the hand so far, with the
answers it gave — ``PASS`` where majiang had nothing to ask) and answers the last request; a bot
that ends its answer with ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` is kept, and later requests go
to it one at a time, without history.  Answers are translated by :mod:`majiang.bots.botzone_proto`.

Time limits are Botzone's: ``time_limit`` seconds a turn (Botzone's default 1 s for C/C++), twice
that for the bot's first run in a hand.  An answer that is late, unreadable, not legal, or missing
because the program crashed is a fault: it is replaced by :func:`~majiang.bots.external.fallback`
(pass, else a discard), counted in :attr:`BotzoneBot.faults`, and the process is ended, so the
next run starts fresh from the true history.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import time
from dataclasses import dataclass
from typing import Any

from majiang.bots.botzone_proto import (
    KEEP_RUNNING,
    BadAnswer,
    json_input,
    keep_running_input,
    parse_output,
    parse_response,
    requests_for,
    response_text,
    simple_input,
)
from majiang.bots.external import Program, fallback
from majiang.engine.protocol import DISCARD, Action
from majiang.engine.view import SeatView
from majiang.tiles import Tile

KINDS = ("botzone", "botzone-simple")
DEFAULT_TIME_LIMIT = 1.0  # Botzone's limit for C/C++ (Python bots get 6× there: give --time-limit 6)
_MARKER = KEEP_RUNNING.encode()


def make(spec: str) -> BotzoneBot:
    """``botzone:COMMAND``, ``botzone-simple:COMMAND``; ``botzone@SECONDS:COMMAND`` sets the time
    limit of a turn (the first run in a hand gets twice that).

    >>> make("botzone-simple@2.5:/bin/cat").time_limit
    2.5
    """
    kind, sep, command = spec.partition(":")
    kind, _, limit = kind.partition("@")
    if kind not in KINDS or not sep or not command.strip():
        raise ValueError(f"a Botzone bot is botzone:COMMAND or botzone-simple:COMMAND, got {spec!r}")
    try:
        seconds = float(limit) if limit else DEFAULT_TIME_LIMIT
    except ValueError:
        raise ValueError(f"time limit {limit!r} in {spec!r} is not a number of seconds") from None
    if not seconds > 0:
        raise ValueError(f"the time limit in {spec!r} must be positive")
    return BotzoneBot(command, simple=kind == "botzone-simple", time_limit=seconds, name=spec)


def with_time_limit(spec: str, seconds: float) -> str:
    """``spec`` with a time limit, unless it is not a Botzone bot or already names one."""
    kind, sep, command = spec.partition(":")
    if sep and kind in KINDS:
        return f"{kind}@{seconds:g}:{command}"
    return spec


@dataclass(frozen=True)
class Turn:
    """One decision as :meth:`BotzoneBot.prepare` took it down: the requests of the match so far
    and what the answer is checked against; ``ready``: no program to ask (``action``, or a fault
    when None)."""

    requests: list[str]
    phase: str
    legal: list[Action]
    counts: list[int]
    pending: Tile | None
    action: Action | None = None
    ready: bool = False


class BotzoneBot:
    """A Botzone program playing one seat (one Botzone match per hand)."""

    def __init__(
        self, command: str, simple: bool = False, time_limit: float = DEFAULT_TIME_LIMIT, name: str | None = None
    ) -> None:
        argv = shlex.split(command)
        if not argv or (shutil.which(argv[0]) is None and not os.access(argv[0], os.X_OK)):
            raise ValueError(f"cannot run the Botzone bot {command!r}: no such program")
        self.name = name or f"{'botzone-simple' if simple else 'botzone'}:{command}"
        self.command = command
        self.simple = simple
        self.time_limit = time_limit
        self.faults = 0
        self.last_fault: str | None = None  # the kind of the fault the last answer replaced (TLE, WA, RE)
        self._failure = "RE"  # why the last run gave no answer: TLE (late) or RE (crashed, did not start)
        self.runs = 0  # processes started
        self.keeps = False  # the bot asked to keep running: a fresh process keeps its stdin open
        self.globaldata = ""  # kept between hands, as Botzone keeps it between matches
        self._hand: tuple[str, int, int] | None = None
        self._reset()

    def _reset(self) -> None:
        self._end_process()
        self._responses: dict[int, str] = {}  # this seat's answers by request index; PASS elsewhere
        self._first: Tile | None = None  # the dealer's 14th tile, shown as its first draw
        self._then: Tile | None = None  # the discard answered with a PENG/CHI
        self._data = ""
        self._fresh_hand = True  # the next run is the first in the hand: twice the time
        self._proc: Program | None = None
        self._sent = 0  # requests the kept process has answered

    # ---- the Bot interface -------------------------------------------------------------------
    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        return self.answer(self.prepare(view, legal))

    # ``choose`` in two steps, so that a server can read the hand on its own thread and wait for the
    # program on another (majiang.hall.botprocs): ``prepare`` reads the view (and nothing else of the
    # hand) and touches no process; ``answer`` runs the program on what ``prepare`` took down.
    def prepare(self, view: SeatView, legal: list[Action]) -> Turn:
        match = (view.seed_hash, view.hand_no, view.seat)  # a duplicate run replays a wall: its seed repeats
        if match != self._hand:
            self._reset()
            self._hand = match
        events = _events(view)
        if view.phase == "turn":
            if self._first is None and view.seat == view.dealer:
                self._first = view.drawn if view.drawn is not None else max(view.concealed())
            then, self._then = self._then, None
            last = events[-1]
            if then is not None and last["type"] in ("pung", "chow") and last["seat"] == view.seat:
                discard = Action(DISCARD, then)  # answered already, with the claim
                return Turn([], view.phase, list(legal), [], None, discard if discard in legal else None, True)
        self._then = None
        pending = view.pending[1] if view.pending is not None else None
        requests = requests_for(events, view.seat, self._first)
        return Turn(requests, view.phase, list(legal), list(view.counts), pending)

    def answer(self, turn: Turn) -> Action:
        self.last_fault = None
        if turn.ready:
            return turn.action if turn.action is not None else self._fault(turn.legal, "WA")
        requests, legal = turn.requests, turn.legal
        self._failure = "RE"
        text = self._ask(requests)
        try:
            if text is None:
                raise BadAnswer("no answer")
            reply = parse_response(text, turn.phase, legal, turn.counts, turn.pending)
        except BadAnswer:
            action = self._fault(legal, self._failure if text is None else "WA")
            self._responses[len(requests) - 1] = response_text(action)
            return action
        self._responses[len(requests) - 1] = response_text(reply.action, reply.discard)
        self._then = reply.discard
        return reply.action

    def hand_over(self, view: SeatView) -> None:
        """The match is over: a kept process ends (Botzone ends its bots with the match)."""
        self._reset()
        self._hand = None

    def close(self) -> None:
        self._reset()

    # ---- running the program -----------------------------------------------------------------
    def _fault(self, legal: list[Action], kind: str) -> Action:
        self.faults += 1
        self.last_fault = kind
        self._end_process()  # its idea of the hand is no longer the true one
        return fallback(legal)

    def _ask(self, requests: list[str]) -> str | None:
        """The bot's answer to the last of ``requests`` (None: late or crashed)."""
        n = len(requests)
        proc = self._proc
        if proc is not None and (proc.proc.poll() is not None or not proc.stdin_open or self._sent >= n):
            self._end_process()
            proc = None
        if proc is not None:
            answer: str | None = None
            for i in range(self._sent, n):  # the requests it has not seen: majiang asked nothing there
                answer = self._turn(proc, keep_running_input(requests[i], self.simple), self.time_limit)
                if answer is None:
                    return None
                if i < n - 1 and answer != "PASS":
                    # Botzone's judge accepts only PASS here (a wrong answer); majiang asked nothing
                    self.faults += 1
                    self.last_fault = "WA"
                if self._proc is None:  # it answered but did not ask to keep running
                    if i < n - 1:
                        return self._ask(requests)
                    return answer
            self._sent = n
            return answer
        responses = [self._responses.get(i, "PASS") for i in range(n - 1)]
        write = simple_input if self.simple else json_input
        limit = self.time_limit * (2 if self._fresh_hand else 1)
        self._fresh_hand = False
        self.runs += 1
        try:
            proc = Program(self.command)
        except OSError:
            return None
        self._proc = proc
        self._sent = n
        if not self.keeps:
            # a bot may read its input to the end (the sample's `cin >> json`); one that has asked to
            # keep running reads lines, and its stdin stays open for the requests that follow
            text = write(requests, responses, self._data, self.globaldata)
            if not proc.send(text):
                self._end_process()
                return None
            proc.close_stdin()
            return self._turn(proc, "", limit)
        return self._turn(proc, write(requests, responses, self._data, self.globaldata), limit)

    def _turn(self, proc: Program, text: str, limit: float) -> str | None:
        """Send ``text`` (if any), read the output up to the keep-running line or the program's
        end; the answer, or None (the process is then ended)."""
        start = time.monotonic()
        if text and not proc.send(text):
            self._end_process()
            return None
        out, how = proc.read_until(_MARKER, start + limit)
        if how == "late":
            self._failure = "TLE"
            self._end_process()
            return None
        try:
            response, data, glob = parse_output(out.decode(errors="replace"), self.simple)
        except BadAnswer:
            # nothing before it exited: a crash; something unreadable: a wrong answer
            self._failure = "RE" if how == "eof" and not out.strip() else "WA"
            self._end_process()
            return None
        if data is not None:
            self._data = data
        if glob is not None:
            self.globaldata = glob
        if how == "marker":
            self.keeps = True
        if how == "eof" or not proc.stdin_open:
            self._end_process()
        return response

    def _end_process(self) -> None:
        proc = getattr(self, "_proc", None)
        self._proc = None
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.proc.kill()
            proc.end(grace=1.0)


def _events(view: SeatView) -> list[dict[str, Any]]:
    """The hand's log, which :func:`~majiang.bots.botzone_proto.requests_for` passes through the
    seat's :func:`~majiang.engine.view.event_view`: a Botzone bot rebuilds the table from the
    history, which the view's snapshot does not hold."""
    return view._hand.events
