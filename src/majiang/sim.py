"""Simulation: many hands between bots, with per-seat statistics (``majiang simulate``).

``duplicate`` plays every wall in all 24 seatings of the bots (the Botzone evaluation format),
so luck of the deal cancels out between bots.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from operator import itemgetter
from pathlib import Path
from typing import Any

from majiang.bots.base import FAULT_KINDS, Bot, make_bot, seat_decides
from majiang.bots.incore import CoreSeats
from majiang.engine.compiled import CompiledHand, new_hand
from majiang.engine.hand import OVER, Hand
from majiang.engine.log import write_log
from majiang.engine.protocol import DISCARD, PASS_ACTION, Action, Ruleset
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset

_TYPE = itemgetter("type")


def ci95_half_width(hands: int, score_sum: float, score_sq: float, walls: Mapping[Any, Sequence[float]]) -> float:
    """Half the width of the 95 % interval of a score per hand.  Hands are independent draws only
    without duplicate walls; in a duplicate run the walls are (the seatings of one wall share its luck,
    and identical deterministic bots play some seatings identically), so with ``walls`` (wall → [score
    sum, hands]) the standard error is the cluster-robust one over walls: k/(k−1) · Σ_w (S_w − mean ·
    n_w)² / N²."""
    n = max(hands, 1)
    mean = score_sum / n
    if len(walls) >= 2:
        k = len(walls)
        var = k / (k - 1) * sum((total - mean * count) ** 2 for total, count in walls.values()) / n**2
        return 1.96 * math.sqrt(var)
    var = max(score_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    return 1.96 * math.sqrt(var / n)


@dataclass
class SeatStats:
    bot: str
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    fan_on_wins: int = 0
    score_sum: float = 0.0
    score_sq: float = 0.0
    #: faults by kind (``timeout``, ``illegal``, ``crash``: :data:`~majiang.bots.base.FAULT_KINDS`)
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS.values(), 0))
    #: duplicate runs: wall → [score sum, hands] — a wall's seatings are one draw of luck, not 24
    walls: dict[int, list[float]] = field(default_factory=dict)

    def add(self, delta: int, wall: int | None = None) -> None:
        self.hands += 1
        self.score_sum += delta
        self.score_sq += delta * delta
        if wall is not None:
            cell = self.walls.setdefault(wall, [0.0, 0])
            cell[0] += delta
            cell[1] += 1

    def ci95(self) -> float:
        """Half the width of the 95 % interval of the score per hand (:func:`ci95_half_width`)."""
        return ci95_half_width(self.hands, self.score_sum, self.score_sq, self.walls)

    def to_dict(self) -> dict[str, Any]:
        n = max(self.hands, 1)
        mean = self.score_sum / n
        ci = self.ci95()
        return {
            "bot": self.bot,
            "win_rate": self.wins / n,
            "deal_in_rate": self.deal_ins / n,
            "avg_fan_on_win": self.fan_on_wins / self.wins if self.wins else 0.0,
            "avg_score": mean,
            "avg_score_ci95": [mean - ci, mean + ci],
            "faults": dict(self.faults),
        }


@dataclass
class SimResult:
    hands: int = 0
    seconds: float = 0.0
    draws: int = 0
    illegal_actions: int = 0
    false_wins: int = 0
    zero_sum_violations: int = 0
    replay_mismatches: int = 0
    verified: bool = False  # replay_mismatches is a count only when every hand was replayed
    seats: list[SeatStats] = field(default_factory=list)

    def merge(self, other: SimResult) -> None:
        """Add ``other``'s hands (another chunk of the same run: the same seat entries)."""
        self.hands += other.hands
        self.seconds += other.seconds
        for name in ("draws", "illegal_actions", "false_wins", "zero_sum_violations", "replay_mismatches"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            for name in ("hands", "wins", "deal_ins", "fan_on_wins", "score_sum", "score_sq"):
                setattr(mine, name, getattr(mine, name) + getattr(theirs, name))
            for kind, n in theirs.faults.items():
                mine.faults[kind] = mine.faults.get(kind, 0) + n
            for wall, (total, hands) in theirs.walls.items():  # a wall may be split between two chunks
                cell = mine.walls.setdefault(wall, [0.0, 0])
                cell[0] += total
                cell[1] += hands

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "hands_per_s": self.hands / self.seconds if self.seconds else 0.0,
            "draw_rate": self.draws / self.hands if self.hands else 0.0,
            "illegal_actions": self.illegal_actions,
            "false_wins": self.false_wins,
            "zero_sum_violations": self.zero_sum_violations,
            "replay_mismatches": self.replay_mismatches if self.verified else None,
            "seats": [s.to_dict() for s in self.seats],
        }


def play_hand(hand: Hand | CompiledHand, bots: list[Bot], on_fault: Callable[[int, str], None] | None = None) -> None:
    """Run a hand to its end, asking ``bots[seat]``; a fault (an illegal choice, or one the bot
    replaced itself: :func:`~majiang.bots.base.seat_decides`) is reported to ``on_fault(seat, kind)``
    and scored by the ruleset's fault rule (Botzone's ends the hand), or where it has none replaced
    by the bot's own replacement or the default (托管) action.  On the compiled core the ``rand``,
    ``eff``, ``fan`` and ``ev`` (and ``ev@3``) bots decide in C (:mod:`majiang.bots.incore`), with the same choices."""
    if isinstance(hand, CompiledHand):
        seats = CoreSeats(bots)
        seats.play(hand, on_fault=on_fault)
        seats.sync()
        hand_over(hand, bots)
        return
    while hand.phase is not OVER:
        for s in hand.prompted():
            if not hand.legal(s):  # no longer asked (the claim window closed)
                continue
            seat_decides(hand, s, bots[s], on_fault)
            if hand.phase is OVER:
                break
    hand_over(hand, bots)


def hand_over(hand: Hand | CompiledHand, bots: Sequence[Bot]) -> None:
    """Show each bot that has the optional ``hand_over`` hook (:class:`~majiang.bots.base.Bot`) its
    view of the finished hand: the result and the seed."""
    for s, bot in enumerate(bots):
        hook = getattr(bot, "hand_over", None)
        if hook is not None:
            hook(SeatView(hand, s))


def close_bots(bots: Sequence[Bot]) -> None:
    """Call the optional ``close`` hook of each bot once (an external bot ends its program)."""
    seen: set[int] = set()
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None and id(bot) not in seen:
            seen.add(id(bot))
            close()


def bot_faults(bots: Sequence[Bot]) -> int:
    """Bad replies a bot replaced by a legal default itself and did not report as its
    ``last_fault`` (a bot that only counts ``faults``): the runner never sees them."""
    return sum(getattr(bot, "faults", 0) for bot in {id(b): b for b in bots}.values() if not hasattr(bot, "last_fault"))


#: hands per chunk: the unit of work of ``workers`` and Ray, and of bot seeding — a bot made from a
#: spec is made afresh for each chunk with a seed of (seed, chunk, entry), so the hands come out the
#: same whatever the number of workers (a multiple of 24: a duplicate chunk holds whole walls)
CHUNK_HANDS = 96

#: a player of :func:`simulate` / :func:`evaluate`: a bot spec (``make_bot``), a :class:`Bot`, or a
#: policy callable (see :class:`PolicyBot`)
Player = str | Bot | Callable[[Any], Any]


def simulate(
    hands: int,
    seed: int,
    bots: Sequence[Player],
    rules: str = "gb",
    duplicate: bool = False,
    log_dir: str | Path | None = None,
    verify: bool = False,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    faults: str | None = None,
) -> SimResult:
    """Play ``hands`` hands between four players (bot specs such as ``"fan"``, bot objects or
    policy callables).  ``faults`` scores a bot's faults (``botzone`` or ``substitute``: the ruleset's
    ``faults`` option; None: the ruleset's default).  ``workers`` > 1 plays chunks of
    :data:`CHUNK_HANDS` hands in that many processes (fork), ``ray_address`` on a Ray cluster
    (``"auto"``, ``"local"`` or an address; the ``majiang[ray]`` extra); the per-seat results are the
    same as with one worker."""
    if len(bots) != 4:
        raise ValueError(f"give four bots (e.g. fan,eff,eff,rand), got {len(bots)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    job = _Job(hands, seed, list(bots), rules, duplicate, None if log_dir is None else str(log_dir), verify, faults)
    make_ruleset(rules, job.options)  # a bad ruleset or option fails here, not in a worker
    for entry in job.entries:  # an unknown kind fails here, not in a worker
        if isinstance(entry, str) and not entry.startswith(("ext:", "botzone")):
            make_bot(entry, 0, rules=rules)
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    chunks = range(math.ceil(hands / CHUNK_HANDS))
    res = SimResult(seats=[SeatStats(_label(e)) for e in job.entries], verified=verify)
    if ray_address is not None:
        parts: Iterable[SimResult] = _ray_map(job, chunks, ray_address)
    elif workers > 1 and len(chunks) > 1:
        parts = _pool_map(job, chunks, workers)
    else:
        parts = (job.run(c, progress) for c in chunks)
    done = 0
    for part in parts:
        res.merge(part)
        done += part.hands
        if progress and (workers > 1 or ray_address is not None):
            progress(done)
    res.seconds = time.perf_counter() - t0
    return res


def _label(entry: Player) -> str:
    if isinstance(entry, str):
        return entry
    return str(getattr(entry, "name", None) or getattr(entry, "__name__", None) or type(entry).__name__)


@dataclass
class _Job:
    """What every chunk of a run needs (sent to workers: fork copies it, Ray pickles it)."""

    hands: int
    seed: int
    entries: list[Player]
    rules: str
    duplicate: bool
    log_dir: str | None
    verify: bool
    faults: str | None = None

    @property
    def options(self) -> dict[str, Any] | None:
        return None if self.faults is None else {"faults": self.faults}

    def players(self, chunk: int) -> list[Bot]:
        out: list[Bot] = []
        for i, e in enumerate(self.entries):
            if isinstance(e, str):
                out.append(make_bot(e, _bot_seed(self.seed, chunk, i), rules=self.rules))
            elif hasattr(e, "choose"):
                out.append(e)  # type: ignore[arg-type]
            else:
                out.append(PolicyBot(e))
        return out

    def run(self, chunk: int, progress: Callable[[int], None] | None = None) -> SimResult:
        """The hands of one chunk."""
        made = self.players(chunk)
        owned = [b for b, e in zip(made, self.entries, strict=True) if isinstance(e, str)]
        faults_before = bot_faults([b for b in made if b not in owned])
        try:
            res = _run(
                range(chunk * CHUNK_HANDS, min((chunk + 1) * CHUNK_HANDS, self.hands)),
                self.seed,
                made,
                self.entries,
                make_ruleset(self.rules, self.options),
                self.duplicate,
                self.log_dir,
                self.verify,
                progress,
            )
        finally:
            close_bots(owned)
        res.illegal_actions += bot_faults(made) - faults_before
        return res


def _bot_seed(seed: int, chunk: int, entry: int) -> int:
    if chunk == 0:
        return seed * 10 + entry  # the seeds of a single-chunk run are the ones simulate always used
    digest = hashlib.sha256(
        b"bot" + seed.to_bytes(8, "big", signed=True) + chunk.to_bytes(8, "big") + entry.to_bytes(1, "big")
    ).digest()
    return int.from_bytes(digest[:8], "big") >> 1


_POOL_JOB: _Job | None = None


def _pool_chunk(chunk: int) -> SimResult:
    assert _POOL_JOB is not None
    return _POOL_JOB.run(chunk)


def _pool_map(job: _Job, chunks: range, workers: int) -> Iterable[SimResult]:
    global _POOL_JOB
    import multiprocessing

    _POOL_JOB = job  # inherited by the forked workers: bots and policies need not pickle
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(min(workers, len(chunks))) as pool:
        yield from pool.imap(_pool_chunk, chunks)
    _POOL_JOB = None


def _ray_map(job: _Job, chunks: range, address: str) -> Iterable[SimResult]:
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'majiang[ray]'") from None
    if not ray.is_initialized():
        ray.init(
            address=None if address == "local" else address,
            include_dashboard=False,
            log_to_driver=False,
            ignore_reinit_error=True,
        )
    remote = ray.remote(_ray_chunk)
    ref = ray.put(job)
    futures = [remote.remote(ref, c) for c in chunks]
    for f in futures:
        yield ray.get(f)


def _ray_chunk(job: _Job, chunk: int) -> SimResult:
    return job.run(chunk)


class PolicyBot:
    """A policy callable as a bot.  ``takes="observation"`` (default): it is given the seat's
    observation dict (``observation``: :func:`majiang.rl.encode`'s planes, ``action_mask``) and
    returns an action code (:mod:`majiang.rl.actions`); ``takes="view"``: it is given the
    :class:`SeatView` and returns an :class:`~majiang.engine.protocol.Action` or a code.  A code
    that is not legal counts as a fault and is replaced by the 托管 default."""

    def __init__(self, policy: Callable[[Any], Any], takes: str = "observation", name: str | None = None) -> None:
        if takes not in ("observation", "view"):
            raise ValueError(f"takes must be 'observation' or 'view', got {takes!r}")
        self.policy = policy
        self.takes = takes
        self.name = name or _label(policy)
        self.faults = 0
        self.last_fault: str | None = None

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        from majiang.rl.actions import action_mask, decode_action
        from majiang.rl.features import encode

        self.last_fault = None
        if self.takes == "view":
            out = self.policy(view)
        else:
            out = self.policy({"observation": encode(view), "action_mask": action_mask(legal)})
        if isinstance(out, Action) and out in legal:
            return out
        if not isinstance(out, Action):
            try:
                return decode_action(int(out), legal)
            except (TypeError, ValueError):
                pass
        self.faults += 1
        self.last_fault = "WA"
        if PASS_ACTION in legal:
            return PASS_ACTION
        drawn = view.drawn
        return Action(DISCARD, drawn) if drawn is not None and Action(DISCARD, drawn) in legal else legal[-1]


def evaluate(
    policy_or_bot: Player,
    opponents: Player | Sequence[Player] = "eff",
    hands: int = 96,
    duplicate: bool = True,
    workers: int = 1,
    seed: int = 1,
    rules: str = "gb",
    takes: str = "observation",
    ray_address: str | None = None,
) -> SimResult:
    """Play ``policy_or_bot`` (seat entry 0) against three ``opponents`` (one player for all three or
    three) with :func:`simulate`'s statistics: ``result.seats[0]`` is the candidate, its
    ``avg_score_ci95`` the 95 % confidence interval of its score per hand.  ``duplicate`` (default)
    plays every wall in all 24 seatings, so the luck of the deal cancels out; ``hands`` should then
    be a multiple of 24.  A callable is a policy (:class:`PolicyBot`, ``takes`` says what it is
    given); ``workers`` and ``ray_address`` as in :func:`simulate`."""
    opp: list[Player] = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * 3  # type: ignore[list-item]
    if len(opp) != 3:
        raise ValueError(f"opponents: one player or three, got {len(opp)}")
    me = policy_or_bot
    if not isinstance(me, str) and not hasattr(me, "choose"):
        me = PolicyBot(me, takes)
    return simulate(hands, seed, [me, *opp], rules=rules, duplicate=duplicate, workers=workers, ray_address=ray_address)


def _run(
    indices: range,
    seed: int,
    players: list[Bot],
    entries: Sequence[Player],
    ruleset: Ruleset,
    duplicate: bool,
    log_dir: str | Path | None,
    verify: bool,
    progress: Callable[[int], None] | None,
) -> SimResult:
    """Hands number ``indices`` of the run: hand *h* is wall *h* // 24 in seating *h* % 24
    (duplicate) or wall *h*."""
    res = SimResult(seats=[SeatStats(_label(e)) for e in entries], verified=verify)
    seatings = list(permutations(range(4))) if duplicate else [(0, 1, 2, 3)]
    master = seed.to_bytes(8, "big", signed=True)
    t0 = time.perf_counter()

    order: tuple[int, ...] = (0, 1, 2, 3)

    def illegal(seat: int, kind: str) -> None:
        res.illegal_actions += 1
        counts = res.seats[order[seat]].faults
        name = FAULT_KINDS.get(kind, "illegal")
        counts[name] = counts.get(name, 0) + 1

    core: CoreSeats | None = None  # the players as the compiled core plays them, for the whole chunk
    for h in indices:
        wall_no, seating = divmod(h, len(seatings))
        wall_seed = hashlib.sha256(master + wall_no.to_bytes(8, "big")).digest()
        hand = new_hand(ruleset, wall_seed, dealer=wall_no % 4, prevalent=(wall_no // 4) % 4, hand_no=h)
        order = seatings[seating]  # order[seat] = the bot entry sitting there
        if isinstance(hand, CompiledHand):
            core = core or CoreSeats(players)
            core.play(hand, order, illegal)
            hand_over(hand, [players[order[s]] for s in range(4)])
        else:
            play_hand(hand, [players[order[s]] for s in range(4)], illegal)
        _tally(res, hand, order, wall_no if duplicate else None)
        if verify:
            from majiang.engine.log import verify as verify_log
            from majiang.rulesets import from_header

            ok, _ = verify_log(hand.events, from_header)
            res.replay_mismatches += not ok
        if log_dir is not None:
            write_log(hand.events, Path(log_dir) / f"hand-{h:06d}.jsonl")
        res.hands += 1
        if progress:
            progress(h + 1)
    if core is not None:
        core.sync()
    res.seconds = time.perf_counter() - t0
    return res


def _tally(res: SimResult, hand: Hand | CompiledHand, seating: tuple[int, ...], wall: int | None = None) -> None:
    deltas = hand.deltas
    if sum(deltas) != 0:
        res.zero_sum_violations += 1
    if isinstance(hand, CompiledHand):
        res.false_wins += hand.count("false_win")
        w = hand.win_facts()
    else:
        res.false_wins += list(map(_TYPE, hand.events)).count("false_win")  # in C: every hand passes here
        w = None if hand.win is None else (hand.win.seat, hand.win.discarder, hand.win.points)
    for s in range(4):
        res.seats[seating[s]].add(deltas[s], wall)
    if w is None:
        res.draws += 1
        return
    seat, discarder, points = w
    st = res.seats[seating[seat]]
    st.wins += 1
    st.fan_on_wins += points
    if discarder is not None:
        res.seats[seating[discarder]].deal_ins += 1
