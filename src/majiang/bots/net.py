"""The learned bots: ``net``, a small convolutional policy over the observation planes and the ``ev``
bot's look-ahead rows, cloned from ``ev``'s self-play (docs/rl.md, "Look-ahead rows"), and
``net-planes``, one over the planes alone, cloned from the ``fan`` bot and fine-tuned by self-play
(docs/rl.md, "Behaviour cloning over the planes"); run by numpy alone — no torch at play time.

It reads the seat's observation planes (on the compiled core, the core's own; on the Python engine,
:func:`majiang.rl.encode` of the view), masks the illegal codes and plays the most likely legal
one.  Weights that read the ``ev`` bot's look-ahead rows (``look`` in their config) are given them
(:func:`majiang.bots.incore.look_rows`).  ``net:PATH`` plays other weights (an ``.npz`` written by
``examples/bc_train.py``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from majiang.bots.incore import has_look_rows, look_rows
from majiang.engine.compiled import CompiledHand
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.rl.actions import ACTION_SIZE, action_mask, decode_action
from majiang.rl.features import OBS_SHAPE, encode
from majiang.rl.net import PLANES, SHIPPED, PolicyNet


def _net(path: str) -> PolicyNet:
    """The weights at ``path``, loaded once per version of the file: a file rewritten in place (a
    training run's checkpoint) is read again, not served from the cache."""
    try:
        st = Path(path).stat()
    except OSError:
        return PolicyNet.load(path)  # its error says how to make weights
    return _load(str(Path(path).resolve()), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> PolicyNet:
    return PolicyNet.load(path)


class NetBot:
    name = "net"

    def __init__(self, seed: int | None = None, path: str | Path = SHIPPED) -> None:
        self.net = _net(str(path))
        self._planes: PolicyNet | None = None  # where the rules have no look-ahead rows (read once)
        self._obs = np.empty(OBS_SHAPE, dtype=np.float32)
        self._mask = np.empty(ACTION_SIZE, dtype=np.int8)

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        hand = view._hand
        if isinstance(hand, CompiledHand):
            hand.observe(view.seat, self._obs, self._mask)
            obs, mask = self._obs, self._mask
        else:
            obs, mask = encode(view), action_mask(legal)
        net = self.net
        if net.look and not has_look_rows(view.rules):  # no MCR ev bot to look ahead with
            if self._planes is None:
                self._planes = _net(str(PLANES))
            net = self._planes
        look = look_rows(view, legal)[0][None] if net.look else None
        code = int(net.act(obs[None], mask[None], look)[0])
        return decode_action(code, legal)


def make(seed: int | None, path: str | Path = SHIPPED) -> NetBot:
    return NetBot(seed, path)


def make_planes(seed: int | None) -> NetBot:
    """``net-planes``: the shipped policy over the observation planes alone (no look-ahead rows)."""
    return NetBot(seed, PLANES)
