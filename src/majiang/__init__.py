"""majiang: Chinese mahjong — MCR (国标) rules and scoring, a game engine, an online hall,
competitions and Nanchang mahjong."""

__version__ = "0.1.0"
