"""Compact dataset shards and a shuffled streaming loader whose memory does not grow with the
dataset (docs/rl.md, "Datasets at scale").

An observation is 204 × 34 float32 (27,744 B), but 195 of its rows are 0/1 planes: a shard keeps
those as bits (``np.packbits``: 829 B a record) and only the nine rows that hold fractions — the
scalars row, and each seat block's info and discard-position rows — as float32 (1,224 B), so a
record with its mask (bits too) is ≈ 2 KB before compression instead of ≈ 28 KB.  :func:`pack_obs`
and :func:`unpack_obs` are exact inverses (tested).

A directory of shards (``part-00000.npz`` … and ``meta.json``, format :data:`FORMAT`) is written
by a :class:`ShardWriter` — from self-play (:mod:`majiang.rl.selfplay`, where each record keeps the
action the seat chose *and* what happened: a claim outranked by a higher one is ``action`` pung,
``taken`` pass) or from hand logs (:func:`write_logs`, where only what happened is known, so both
are the logged action).  :class:`ShardLoader` streams it back in shuffled minibatches: each epoch
visits the shards in a random order, holds ``window`` of them at a time (compact), shuffles the
records of the window and unpacks only the minibatch it yields — so its memory is bounded by
``window × shard size`` compact records plus one float minibatch, whatever the number of shards.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from majiang.bots.ev import LOOK_ROWS
from majiang.rl import features as F
from majiang.rl.actions import ACTION_SIZE
from majiang.tiles import NUM_KINDS

FORMAT = "majiang-shards-1"
#: rows holding fractions (kept as float32); every other row is a 0/1 plane (kept as bits)
DENSE_ROWS = np.array(
    [F.SCALARS] + [F.GLOBAL_ROWS + k * F.BLOCK_ROWS + r for k in range(4) for r in (F.B_INFO, F.B_SEQ)],
    dtype=np.intp,
)
BIT_ROWS = np.setdiff1d(np.arange(F.ROWS), DENSE_ROWS)
BIT_BYTES = (len(BIT_ROWS) * NUM_KINDS + 7) // 8
MASK_BYTES = (ACTION_SIZE + 7) // 8
#: the per-record arrays of a shard file, dtype and shape after the record axis
STORED: dict[str, tuple[Any, tuple[int, ...]]] = {
    "bits": (np.uint8, (BIT_BYTES,)),
    "dense": (np.float32, (len(DENSE_ROWS), NUM_KINDS)),
    "mask": (np.uint8, (MASK_BYTES,)),
    "action": (np.int16, ()),  # what the seat chose
    "taken": (np.int16, ()),  # what the hand did with it: a claim outranked by a higher one is pass
    "reward": (np.float32, ()),
    "ret": (np.float32, ()),
    "seat": (np.int8, ()),
    "hand": (np.int32, ()),
}
#: an optional per-record array: the ``ev`` bot's look-ahead rows (``majiang dataset --look``; docs/rl.md)
LOOK = "look"
LOOK_STORED: tuple[Any, tuple[int, ...]] = (np.float16, (LOOK_ROWS, NUM_KINDS))
#: what a minibatch holds: the stored arrays with ``obs`` and ``mask`` unpacked (and ``look`` when stored)
BATCH_FIELDS = ("obs", "mask", "action", "taken", "reward", "ret", "seat", "hand")
PASS_CODE = ACTION_SIZE - 1


def pack_obs(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(N, 204, 34)`` planes → ``bits`` ``(N, BIT_BYTES)`` uint8 and ``dense`` ``(N, 9, 34)``
    float32.  Raises ValueError if a 0/1 row holds anything else (a layout this module does not
    know)."""
    x = np.asarray(obs, dtype=np.float32).reshape(-1, *F.OBS_SHAPE)
    binary = x[:, BIT_ROWS, :].reshape(len(x), -1)
    if np.any((binary != 0) & (binary != 1)):
        raise ValueError("an observation row stored as bits holds a value other than 0 or 1: update DENSE_ROWS")
    return np.packbits(binary.astype(np.uint8), axis=1), np.ascontiguousarray(x[:, DENSE_ROWS, :])


def unpack_obs(bits: np.ndarray, dense: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The inverse of :func:`pack_obs`: ``(N, 204, 34)`` float32 (into ``out`` when given)."""
    n = len(bits)
    if out is None:
        out = np.empty((n, *F.OBS_SHAPE), dtype=np.float32)
    planes = np.unpackbits(bits, axis=1, count=len(BIT_ROWS) * NUM_KINDS)
    out[:, BIT_ROWS, :] = planes.reshape(n, len(BIT_ROWS), NUM_KINDS)
    out[:, DENSE_ROWS, :] = dense
    return out


def pack_mask(mask: np.ndarray) -> np.ndarray:
    return np.packbits(np.asarray(mask, dtype=np.uint8).reshape(-1, ACTION_SIZE), axis=1)


def unpack_mask(packed: np.ndarray) -> np.ndarray:
    return np.unpackbits(packed, axis=1, count=ACTION_SIZE).astype(np.int8)


class ShardWriter:
    """Appends records; :meth:`end_hand` writes a shard once ``shard_size`` of them are pending, so a
    shard holds whole hands; :meth:`close` writes the last one and ``meta.json`` (``extra`` goes
    into it too).  ``meta.json`` is rewritten after every shard (``"complete": false`` until
    :meth:`close`), so an interrupted run leaves a dataset of the shards it finished."""

    def __init__(
        self, out_dir: str | Path, shard_size: int = 4096, extra: dict[str, Any] | None = None, look: bool = False
    ) -> None:
        """``look``: every record carries the look-ahead rows (:data:`LOOK`)."""
        if shard_size < 1:
            raise ValueError(f"shard_size must be at least 1, got {shard_size}")
        self.dir = Path(out_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.shard_size = shard_size
        self.extra = dict(extra or {})
        self.shards: list[str] = []
        self.records = 0
        self.hands = 0
        self.stored = {**STORED, LOOK: LOOK_STORED} if look else dict(STORED)
        self._pending: dict[str, list[Any]] = {k: [] for k in self.stored}  # packed as they come: memory stays small

    def add(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        action: int,
        taken: int,
        reward: float,
        ret: float,
        seat: int,
        hand: int,
        look: np.ndarray | None = None,
    ) -> None:
        p = self._pending
        if (look is None) != (LOOK not in p):
            raise ValueError("give look-ahead rows with every record of a ShardWriter(look=True), and only then")
        if look is not None:
            p[LOOK].append(look)
        bits, dense = pack_obs(obs)
        p["bits"].append(bits[0])
        p["dense"].append(dense[0])
        p["mask"].append(pack_mask(mask)[0])
        for k, v in (("action", action), ("taken", taken), ("reward", reward), ("ret", ret), ("seat", seat)):
            p[k].append(v)
        p["hand"].append(hand)
        self.records += 1

    def end_hand(self) -> None:
        self.hands += 1
        if len(self._pending["action"]) >= self.shard_size:
            self.flush()

    def flush(self) -> None:
        p = self._pending
        if not p["action"]:
            return
        arrays = {k: np.array(p[k], dtype=dt).reshape(-1, *shape) for k, (dt, shape) in self.stored.items()}
        name = f"part-{len(self.shards):05d}.npz"
        tmp = self.dir / f".{name}"
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(self.dir / name)  # never a half-written shard under its name
        self.shards.append(name)
        for v in p.values():
            v.clear()
        self._write_meta(complete=False)

    def close(self) -> dict[str, Any]:
        self.flush()
        return self._write_meta(complete=True)

    def _write_meta(self, complete: bool) -> dict[str, Any]:
        meta = {
            "format": FORMAT,
            "hands": self.hands,
            "records": self.records,
            "shards": self.shards,
            "obs_shape": list(F.OBS_SHAPE),
            "action_size": ACTION_SIZE,
            "dense_rows": DENSE_ROWS.tolist(),
            "look": LOOK in self.stored,
            "complete": complete,
            **self.extra,
        }
        tmp = self.dir / ".meta.json"
        tmp.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        tmp.replace(self.dir / "meta.json")
        return meta


def write_logs(sources: Iterable[str | Path], out_dir: str | Path, shard_size: int = 4096) -> dict[str, Any]:
    """Hand logs or Botzone match records (:func:`majiang.rl.dataset.log_paths`) → compact shards.
    A log tells only what happened, so ``action`` and ``taken`` are both the logged action."""
    from majiang.rl.dataset import decisions, hand_events, log_paths

    paths = log_paths(sources)
    w = ShardWriter(out_dir, shard_size, {"source": "logs", "logs": [str(p) for p in paths]})
    for h, path in enumerate(paths):
        for d in decisions(hand_events(path)):
            w.add(d.obs, d.mask, d.action, d.action, d.reward, d.ret, d.seat, h)
        w.end_hand()
    return w.close()


def read_meta(directory: str | Path) -> dict[str, Any]:
    d = Path(directory)
    try:
        meta: dict[str, Any] = json.loads((d / "meta.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(
            f"{d} has no meta.json: build one with 'majiang dataset --selfplay BOTS --hands N -o {d}' "
            f"or 'majiang dataset LOGS -o {d}'"
        ) from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"{d} is not a compact majiang dataset ({FORMAT}; got {meta.get('format')!r})")
    return meta


def read_shard(path: str | Path) -> dict[str, np.ndarray]:
    """One shard's stored (compact) arrays (with ``look`` where the shard has it)."""
    with np.load(path) as z:
        return {k: z[k] for k in (*STORED, LOOK) if k in z.files}


def unpack(part: dict[str, np.ndarray], rows: np.ndarray | slice = slice(None)) -> dict[str, np.ndarray]:
    """Records ``rows`` of a compact part as a minibatch of :data:`BATCH_FIELDS`."""
    out = {"obs": unpack_obs(part["bits"][rows], part["dense"][rows]), "mask": unpack_mask(part["mask"][rows])}
    for k in BATCH_FIELDS[2:]:
        out[k] = part[k][rows]
    if LOOK in part:
        out[LOOK] = part[LOOK][rows].astype(np.float32)
    return out


class ShardLoader:
    """Shuffled minibatches of a compact dataset with bounded memory (see the module).

    ``directory``: a dataset directory or a list of them (read as one); ``shards``: which shard files
    to read (default all of them; e.g. one side of :func:`split`);
    ``window``: shards held at once (the shuffle's reach); each :meth:`epoch` visits every record
    of those shards exactly once (the last batch may be short unless ``drop_last``).
    ``peak_records`` is the most compact records it has held at once."""

    def __init__(
        self,
        directory: str | Path | Sequence[str | Path],
        batch_size: int = 256,
        window: int = 8,
        seed: int = 0,
        shards: Sequence[Path] | None = None,
        drop_last: bool = False,
    ) -> None:
        if batch_size < 1 or window < 1:
            raise ValueError(f"batch_size and window must be at least 1, got {batch_size} and {window}")
        self.shards = list(shard_paths(directory) if shards is None else shards)
        self.batch_size = batch_size
        self.window = window
        self.drop_last = drop_last
        self.rng = np.random.default_rng(seed)
        self.peak_records = 0

    def epoch(self) -> Iterator[dict[str, np.ndarray]]:
        order = self.rng.permutation(len(self.shards))
        carry: dict[str, np.ndarray] | None = None  # records left over from the last window
        for start in range(0, len(order), self.window):
            parts = [read_shard(self.shards[i]) for i in order[start : start + self.window]]
            if carry is not None:
                parts.append(carry)
            if len({LOOK in p for p in parts}) > 1:
                raise ValueError(
                    "a dataset mixes shards with and without look-ahead rows: build them all with --look or none"
                )
            pool = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            del parts
            n = len(pool["action"])
            self.peak_records = max(self.peak_records, n)
            perm = self.rng.permutation(n)
            full = n - n % self.batch_size
            for b in range(0, full, self.batch_size):
                yield unpack(pool, perm[b : b + self.batch_size])
            rest = perm[full:]
            carry = {k: v[rest] for k, v in pool.items()} if len(rest) else None
            del pool
        if carry is not None and not self.drop_last:
            yield unpack(carry)

    def __iter__(self) -> Iterator[dict[str, np.ndarray]]:
        return self.epoch()


def shard_paths(directory: str | Path | Sequence[str | Path]) -> list[Path]:
    """The shard files of a dataset directory, or of several."""
    dirs = [directory] if isinstance(directory, (str, Path)) else list(directory)
    return [Path(d) / name for d in dirs for name in read_meta(d)["shards"]]


def split(
    directory: str | Path | Sequence[str | Path], held_out: float = 0.1, seed: int = 0
) -> tuple[list[Path], list[Path]]:
    """The shard files of a dataset (one directory or several) split into (train, held out) by whole
    shards — a shard holds whole hands in order, so the held-out hands are hands the training never
    saw."""
    names = shard_paths(directory)
    perm = np.random.default_rng(seed).permutation(len(names))
    k = max(1, round(len(names) * held_out)) if len(names) > 1 else 0
    return [names[i] for i in sorted(perm[k:])], [names[i] for i in sorted(perm[:k])]


def torch_dataset(
    directory: str | Path | Sequence[str | Path], batch_size: int = 256, window: int = 8, seed: int = 0
) -> Any:
    """A ``torch.utils.data.IterableDataset`` of the :class:`ShardLoader`'s minibatches as tensors
    (use it with ``DataLoader(ds, batch_size=None)``); torch is imported only here."""
    import torch

    class _Shards(torch.utils.data.IterableDataset):  # type: ignore[misc,type-arg]
        def __iter__(self) -> Iterator[dict[str, Any]]:
            info = torch.utils.data.get_worker_info()
            loader = ShardLoader(directory, batch_size, window, seed + (info.id if info else 0))
            if info is not None:  # each worker streams its own shards
                loader.shards = loader.shards[info.id :: info.num_workers]
            for batch in loader:
                yield {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in batch.items()}

    return _Shards()
