"""How a table treats its players: the one place where a competition table differs from the hall's
casual tables in play (a room's ``competition`` switch picks the policy, :attr:`Room.policy`).

At a casual table coins change hands and a seat is its player's while he sits in it: a lost
connection is an escape after the grace, two missed ready steps stand him up.  At a competition table
(an event's table, docs/tournament.md) each chair belongs to the event's player for the whole session:
he is seated even before he connects (in 托管), a disconnect or a stand keeps his chair in 托管 until
he is back, and no coins move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from majiang.hall.states import TableState


class CasualPlay:
    """The hall's rooms: coins, escapes, seats given up."""

    #: a player who loses his connection keeps his chair in 托管 (not an escape after the grace)
    keeps_chair_when_gone = False
    #: two ready steps missed in a row stand the player up
    stands_up_after_missed_ready = True
    #: each hand's result goes to the hall's hand-end hooks (the event's results)
    reports_to_event = False

    def returns_to_chair(self, sit: Mapping[str, Any]) -> bool:
        """A sit from a player seated here already ends his 托管 (else: he is sent the table again)."""
        return False

    def seated_away(self, sit: Mapping[str, Any]) -> bool:
        """A sit that seats a player who is not connected (the event seats him): in 托管 from the start."""
        return False

    def keeps_chair_on_stand(self, private: bool, state: TableState) -> bool:
        """Standing up keeps the chair in 托管 (else: the seat is freed, an escape mid-hand)."""
        return False

    def stakes(self, coefficient: int) -> int:
        """The coefficient a hand is settled in coins with."""
        return coefficient

    def fee(self, fee: int) -> int:
        """The table fee each hand costs."""
        return fee


class CompetitionPlay(CasualPlay):
    """An event's table: the chairs are the event's players', the results go to the event, no coins."""

    keeps_chair_when_gone = True
    stands_up_after_missed_ready = False  # an event keeps its four
    reports_to_event = True

    def returns_to_chair(self, sit: Mapping[str, Any]) -> bool:
        return not sit.get("away")  # the player came back (the join code, quick join)

    def seated_away(self, sit: Mapping[str, Any]) -> bool:
        return bool(sit.get("away"))

    def keeps_chair_on_stand(self, private: bool, state: TableState) -> bool:
        # an event table (private, opened by the event) or a competition hand under way keeps the
        # chair; a public competition table not yet started just frees it
        return private or state != TableState.WAITING

    def stakes(self, coefficient: int) -> int:
        return 0  # competition tables play for the event, not for coins

    def fee(self, fee: int) -> int:
        return 0


CASUAL, COMPETITION = CasualPlay(), CompetitionPlay()
