"""Players whose DMs are closed: remembered, so the bot does not ask Discord again every hand.

Discord refuses a DM to a user who does not accept DMs from server members with
403, code 50007 ("Cannot send messages to this user"). Every 401, 403 and 429
counts as an invalid request, and past 10,000 of them in 10 minutes Discord bans
the bot's IP for a while (Discord's "Rate Limits" page, "Invalid Request Limit").
Trying again every hand, and for every notice to that player, would spend that
budget for nothing; so the presenter asks this memory first.

Decision: the memory is in the process only (a restart forgets it: one refusal
per player after a start costs nothing worth storing), and a refusal is
remembered until the player's next interaction with the bot (any command, click
or form) that comes at least :data:`QUIET_SECONDS` after the refusal. An
interaction is the only sign that a player may have opened their DMs (Discord
tells the bot nothing when they change the setting), but a player at a table
interacts every hand: clearing the memory on each click would cost one refused
DM per hand again. With the quiet period a player costs at most one invalid
request per 10 minutes (Discord's counting window), and one who opens their DMs
gets their cards by DM again at their first interaction after it. Meanwhile they
get their cards with **My seat** (their seat panel) or ``/cards`` (only they see
them), as the table's channel told them once (:mod:`bot.adapter.hole_card_dms`).
"""

from __future__ import annotations

import asyncio

from bot.adapter.bounded import Recent

__all__ = ["CANNOT_DM", "QUIET_SECONDS", "ClosedDms"]

#: Discord's code for a DM the user does not accept.
CANNOT_DM = 50007
#: Seconds after a refusal before an interaction of the player clears it.
QUIET_SECONDS = 600.0


def _now() -> float:
    return asyncio.get_running_loop().time()


class ClosedDms:
    """User ids whose DMs Discord refused, with when (the event loop's clock)."""

    def __init__(self) -> None:
        self._refused: Recent[int, float] = Recent()  # a forgotten one is tried again

    def __contains__(self, user_id: object) -> bool:
        return user_id in self._refused

    def refused(self, user_id: int) -> None:
        """Discord refused a DM to ``user_id`` (403, code 50007)."""
        self._refused[user_id] = _now()

    def delivered(self, user_id: int) -> None:
        """A DM to ``user_id`` went through."""
        self._refused.pop(user_id, None)

    def interacted(self, user_id: int) -> None:
        """``user_id`` interacted with the bot: try DMs again if the refusal is old enough."""
        when = self._refused.get(user_id)
        if when is not None and _now() - when >= QUIET_SECONDS:
            del self._refused[user_id]
