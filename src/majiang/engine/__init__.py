"""The authoritative game engine: wall, hands, claims, events, views, sessions."""

from majiang.engine.hand import Hand, IllegalAction, Phase
from majiang.engine.protocol import Action, Ruleset, Settlement, Win, WinContext

__all__ = ["Action", "Hand", "IllegalAction", "Phase", "Ruleset", "Settlement", "Win", "WinContext"]
