"""Reinforcement learning over the majiang engine (docs/rl.md).

* :mod:`majiang.rl.mcr_v0`, :mod:`majiang.rl.nanchang_v0`, :mod:`majiang.rl.botzone_v0`: PettingZoo
  ``env()`` / ``raw_env()`` (AEC) and ``parallel_env()``;
* ``gymnasium.make("majiang/MCR-v0", opponents=…, seat=…)``: one seat against bots;
* :func:`vector_env`: many hands in one process, batched arrays;
* :func:`encode`: the observation planes of any :class:`~majiang.engine.view.SeatView`.
"""

from majiang.rl.actions import ACTION_SIZE, action_mask, decode_action, encode_action
from majiang.rl.aec import MahjongEnv
from majiang.rl.features import OBS_SHAPE, DiscardLog, discard_order, encode
from majiang.rl.gym_env import MahjongGymEnv, register
from majiang.rl.parallel import MahjongParallelEnv
from majiang.rl.vector import MahjongVectorEnv, vector_env

register()

__all__ = [
    "ACTION_SIZE",
    "OBS_SHAPE",
    "DiscardLog",
    "MahjongEnv",
    "MahjongGymEnv",
    "MahjongParallelEnv",
    "MahjongVectorEnv",
    "action_mask",
    "decode_action",
    "discard_order",
    "encode",
    "encode_action",
    "vector_env",
]
