"""Hand logs → (observation, legal mask, action, reward) records for offline RL and imitation
(``majiang dataset LOGS… -o DIR``; docs/rl.md has a worked example).

A log records what was taken, not what was offered.  :func:`decisions` replays a log through the
engine and stops at every prompt: there the engine knows each asked seat's legal actions, and the
next event says which one the seat took — a seat that was offered a claim and is not the one the
next event shows claiming took *pass* (a declined claim is a decision like any other).  Each record
is the seat's observation (:func:`majiang.rl.encode`'s planes, built as the environments build
them), its mask, the action code, ``reward`` (the seat's score change from this decision to its
next one, or to the end: the AEC environment's reward) and ``ret`` (its score change from this
decision to the end of the hand).

A Botzone match record (``.json``: the judge's, or ``majiang replay --botzone``'s) is replayed on
the ``botzone`` ruleset first (:func:`hand_events`); its decisions are then read the same way.  A
wrong answer or a timeout (a ``fault``) is replayed but is no decision: no action code means it.

Two things a log cannot tell: a claim that lost to a higher one (a pung beaten by a win on the same
discard) is recorded as *pass*; a false win (a human's, never a bot's) is recorded with the win code
although its mask bit is off.

The records are written as numpy shards ``shard-00000.npz`` … (compressed) with ``meta.json``;
:func:`load` reads a directory back as arrays, :func:`iter_shards` shard by shard.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from majiang.engine.log import dumps_event, hand_at_start, loads_events, read_log, walk
from majiang.rl.actions import ACTION_SIZE, action_mask, encode_action
from majiang.rl.features import OBS_SHAPE
from majiang.rl.incremental import HandEncoder
from majiang.rulesets import from_header
from majiang.rulesets.botzone import import_record

#: the arrays of a record set, their dtypes and shapes after the record axis
FIELDS: dict[str, tuple[Any, tuple[int, ...]]] = {
    "obs": (np.float32, OBS_SHAPE),
    "mask": (np.int8, (ACTION_SIZE,)),
    "action": (np.int16, ()),
    "reward": (np.float32, ()),
    "ret": (np.float32, ()),
    "seat": (np.int8, ()),
    "hand": (np.int32, ()),
}
FORMAT = "majiang-dataset-1"


@dataclass
class Decision:
    seat: int
    obs: np.ndarray
    mask: np.ndarray
    action: int
    reward: float = 0.0
    ret: float = 0.0


def decisions(events: list[dict[str, Any]]) -> list[Decision]:
    """Every decision of the logged hand, in the order the engine asked (see the module)."""
    hand = hand_at_start(events, from_header)
    enc = HandEncoder(hand)
    out: list[Decision] = []
    before: list[int] = []  # the deciding seat's score at each decision
    for seat, action in walk(hand, events):  # faults (Botzone's WA / TLE) are no decision: no record
        out.append(Decision(seat, enc.encode(seat), action_mask(hand.legal(seat)), encode_action(action)))
        before.append(hand.scores_before[seat] + hand.deltas[seat])
    if not hand.over:
        raise ValueError(f"the log ends before the hand does ({len(events)} events)")
    final = [b + d for b, d in zip(hand.scores_before, hand.deltas, strict=True)]
    later: dict[int, int] = {}  # seat → its score at its next decision
    for d, b in zip(reversed(out), reversed(before), strict=True):
        d.reward = float(later.get(d.seat, final[d.seat]) - b)
        d.ret = float(final[d.seat] - b)
        later[d.seat] = b
    return out


def log_paths(sources: Iterable[str | Path]) -> list[Path]:
    """Files as given, directories as their ``*.jsonl`` (hand logs) and ``*.json`` (Botzone match
    records) files in name order."""
    out: list[Path] = []
    for src in sources:
        p = Path(src)
        out.extend(sorted([*p.glob("*.jsonl"), *p.glob("*.json")]) if p.is_dir() else [p])
    return out


def hand_events(path: str | Path) -> list[dict[str, Any]]:
    """The events of one hand: a majiang hand log (``.jsonl``), or a Botzone match record (a JSON
    object with ``initdata.walltiles`` and ``log``, as Botzone's judge or ``majiang replay --botzone``
    writes it), replayed on the ``botzone`` ruleset into the log that game would have written."""
    p = Path(path)
    if p.suffix != ".json":
        return read_log(p)
    try:
        record = json.loads(p.read_text(encoding="utf-8"))
    except ValueError as e:
        raise ValueError(f"{p}: not JSON ({e}); a hand log is .jsonl, a Botzone match record .json") from None
    if not (isinstance(record, dict) and "initdata" in record and "log" in record):
        raise ValueError(f"{p}: not a Botzone match record (a JSON object with 'initdata' and 'log')")
    try:
        hand = import_record(record)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{p}: not a replayable Botzone match record: {e}") from None
    return loads_events(dumps_event(e) for e in hand.events)


def build(sources: Iterable[str | Path], out_dir: str | Path, shard_size: int = 2048) -> dict[str, Any]:
    """Turn the logs ``sources`` (files or directories: :func:`log_paths`) into shards in ``out_dir``;
    returns what ``meta.json`` says (hands, records, shards, the log of each hand number)."""
    if shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, got {shard_size}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = log_paths(sources)
    pending: list[tuple[int, Decision]] = []
    shards: list[str] = []
    records = 0

    def flush() -> None:
        nonlocal pending
        name = f"shard-{len(shards):05d}.npz"
        arrays = {"obs": np.stack([d.obs for _, d in pending]), "mask": np.stack([d.mask for _, d in pending])}
        for key in ("action", "reward", "ret", "seat"):
            arrays[key] = np.array([getattr(d, key) for _, d in pending], dtype=FIELDS[key][0])
        arrays["hand"] = np.array([h for h, _ in pending], dtype=np.int32)
        np.savez_compressed(out / name, **arrays)  # type: ignore[arg-type]
        shards.append(name)
        pending = []

    for h, path in enumerate(paths):
        for d in decisions(hand_events(path)):
            pending.append((h, d))
            records += 1
            if len(pending) == shard_size:
                flush()
    if pending:
        flush()
    meta = {
        "format": FORMAT,
        "hands": len(paths),
        "records": records,
        "shards": shards,
        "obs_shape": list(OBS_SHAPE),
        "action_size": ACTION_SIZE,
        "logs": [str(p) for p in paths],
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return meta


def iter_shards(directory: str | Path) -> Iterator[dict[str, np.ndarray]]:
    """The shards of a dataset directory one at a time, each a dict of :data:`FIELDS` arrays."""
    d = Path(directory)
    meta = json.loads((d / "meta.json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT:
        raise ValueError(f"{d} is not a majiang dataset ({FORMAT})")
    for name in meta["shards"]:
        with np.load(d / name) as z:
            yield {k: z[k] for k in FIELDS}


def load(directory: str | Path) -> dict[str, np.ndarray]:
    """A whole dataset directory as arrays: ``obs`` (N, 204, 34) float32, ``mask`` (N, 109) int8,
    ``action``, ``reward``, ``ret``, ``seat`` and ``hand`` (N,) (the hand's number in ``meta.json``'s
    ``logs``)."""
    parts = list(iter_shards(directory))
    if not parts:
        return {k: np.zeros((0, *shape), dtype=dt) for k, (dt, shape) in FIELDS.items()}
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}
