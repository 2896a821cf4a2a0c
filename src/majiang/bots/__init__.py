"""Bots behind one interface: ``choose(view, legal) -> Action``.

* ``rand``  — a uniformly random legal action;
* ``eff``   — tile efficiency: lowest shanten, most useful tiles;
* ``fan``   — MCR fan-aware: aims at reachable ≥ 8-fan patterns, claims only when it helps,
  defends late in the hand;
* ``ev``    — expected value: near ready, each discard and claim by its chance of a legal (≥ 8 fan)
  win times what it pays, less the deal-in risk (docs/bots.md); ``best`` names it;
* ``ext:CMD`` — an external program speaking the JSON-lines protocol of docs/bot-protocol.md.
"""

from __future__ import annotations

from majiang.bots.base import Bot, make_bot

__all__ = ["Bot", "make_bot"]
