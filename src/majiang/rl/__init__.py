"""A PettingZoo-style (AEC) multi-agent environment over the majiang engine."""

from majiang.rl.env import ACTION_SIZE, Discrete, MahjongEnv, ObservationSpace, decode_action, encode_action

__all__ = ["ACTION_SIZE", "Discrete", "MahjongEnv", "ObservationSpace", "decode_action", "encode_action"]
