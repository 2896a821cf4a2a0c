"""A small convolutional policy over the observation planes, run by numpy alone (the ``net`` bot's
forward pass; trained with torch by ``examples/bc_train.py``, which exports the weights here).

The input is the 204 observation rows plus the :mod:`majiang.rl.extras` rows and the ``ev`` bot's
look-ahead rows (:meth:`majiang.bots.ev.EVBot.look`; each when the weights say so) as channels over
the 34 tile columns.  Convolutions of width 3 (``1 + blocks``, every one after
the first residual) give each tile column a feature vector; a 1 × 1 convolution turns it into three
logits per tile — discard, concealed kong, added kong: codes 0–101 in order — and a small MLP over all
columns gives the seven others (pung, exposed kong, the three chows, win, pass).  Illegal codes are
masked out; the policy plays the most likely legal code.

A weight file is an ``.npz`` with the arrays named as the torch module names them and ``config``, a
JSON string (``channels``, ``hidden``, ``extras``, ``blocks``, ``look``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from majiang.bots.ev import LOOK_ROWS
from majiang.rl import extras as X
from majiang.rl.actions import ACTION_SIZE
from majiang.rl.features import OBS_SHAPE

#: the weights shipped with the package: the ``net`` bot's (they read the look-ahead rows), and the
#: ``net-planes`` bot's (the observation planes alone; ``net`` plays these where no MCR ev bot looks ahead)
SHIPPED = Path(__file__).resolve().parent.parent / "bots" / "data" / "net.npz"
PLANES = SHIPPED.with_name("net-planes.npz")
TILE_CODES = 102  # discard, concealed kong, added kong: three logits per tile column
NEG = np.float32(-1e9)


def _conv3(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Width-3 'same' convolution of ``x`` (N, C, 34) with torch's Conv1d weight (O, C, 3)."""
    n, c, length = x.shape
    xp = np.zeros((n, c, length + 2), dtype=np.float32)
    xp[:, :, 1:-1] = x
    cols = np.concatenate([xp[:, :, k : k + length] for k in range(3)], axis=1)  # (N, 3C, L), k-major
    w2 = w.transpose(0, 2, 1).reshape(w.shape[0], -1)  # (O, 3C), k-major
    if n <= 8:  # one decision: numpy's own loop, not a BLAS call that wakes its threads (slow when busy)
        return np.einsum("ok,nkl->nol", w2, cols) + b[None, :, None]  # type: ignore[no-any-return]
    return np.matmul(w2, cols) + b[None, :, None]  # type: ignore[no-any-return]


class PolicyNet:
    def __init__(self, weights: dict[str, np.ndarray], config: dict[str, Any]) -> None:
        self.w = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        self.config = config
        self.extras = bool(config.get("extras", True))
        self.blocks = int(config.get("blocks", 2))
        self.look = bool(config.get("look", False))

    @classmethod
    def load(cls, path: str | Path = SHIPPED) -> PolicyNet:
        try:
            z = np.load(path)
        except FileNotFoundError:
            raise ValueError(
                f"no policy weights at {path}: train some with examples/bc_train.py (docs/rl.md)"
            ) from None
        with z:
            config = json.loads(str(z["config"]))
            return cls({k: z[k] for k in z.files if k != "config"}, config)

    def inputs(self, obs: np.ndarray, look: np.ndarray | None = None) -> np.ndarray:
        """The channels: the observations, their extras, and ``look`` (``(N, 3, 34)``) where the
        weights read look-ahead rows (ValueError when they are missing)."""
        x = np.asarray(obs, dtype=np.float32).reshape(-1, *OBS_SHAPE)
        parts = [x, X.planes(x)] if self.extras else [x]
        if self.look:
            if look is None:
                raise ValueError(
                    "these weights read the ev bot's look-ahead rows: give look (majiang.bots.incore.look_rows)"
                )
            parts.append(np.asarray(look, dtype=np.float32).reshape(len(x), LOOK_ROWS, OBS_SHAPE[1]))
        return np.concatenate(parts, axis=1) if len(parts) > 1 else x

    def logits(self, obs: np.ndarray, mask: np.ndarray | None = None, look: np.ndarray | None = None) -> np.ndarray:
        """``(N, 109)`` logits of the observations (``-1e9`` where ``mask`` is 0)."""
        w = self.w
        x = self.inputs(obs, look)
        h = np.maximum(_conv3(x, w["conv1.weight"], w["conv1.bias"]), 0)
        for i in range(2, self.blocks + 2):
            h = np.maximum(_conv3(h, w[f"conv{i}.weight"], w[f"conv{i}.bias"]), 0) + h
        tiles = np.einsum("oc,ncl->nol", w["tile.weight"][:, :, 0], h) + w["tile.bias"][None, :, None]
        flat = h.reshape(len(h), -1)
        z = np.maximum(flat @ w["fc1.weight"].T + w["fc1.bias"], 0)
        other = z @ w["fc2.weight"].T + w["fc2.bias"]
        out = np.concatenate([tiles.reshape(len(h), TILE_CODES), other], axis=1)
        if mask is not None:
            out = np.where(np.asarray(mask).reshape(-1, ACTION_SIZE) > 0, out, NEG)
        return out.astype(np.float32)

    def act(self, obs: np.ndarray, mask: np.ndarray, look: np.ndarray | None = None) -> np.ndarray:
        """The most likely legal code of each observation: ``(N,)``."""
        return self.logits(obs, mask, look).argmax(axis=1)  # type: ignore[no-any-return]
