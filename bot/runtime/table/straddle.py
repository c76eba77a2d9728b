"""A player's standing choice to straddle when under the gun (RULES.md 10).

At a table whose ``straddle`` setting is on, each seated player chooses once
("straddle when I'm under the gun") and may turn it off again: :func:`choose`,
offered as a button on the player's private replies (:func:`straddle_ways`).
The choice is kept with the seat (in storage too, so a restart keeps it) and
read when a hand is dealt (:mod:`bot.runtime.table.dealing`); whether that hand
has a straddle is the engine's to say (:func:`bot.engine.straddle.straddler`:
under the gun, 3 or more players dealt in, the stack covers it, no or pot limit).
A change made during a hand counts from the next deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.straddle import straddle_amount
from bot.i18n import Command, Phrase
from bot.runtime.errors import TableError
from bot.runtime.table.views import Way

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

__all__ = ["STRADDLE_OFF", "STRADDLE_ON", "choose", "straddle_ways"]

#: The ways (buttons) that turn the choice on and off.
STRADDLE_ON, STRADDLE_OFF = "straddle", "nostraddle"


async def choose(table: Table, user_id: int, on: bool) -> Phrase:
    """Turn ``user_id``'s choice to straddle under the gun on or off; the private reply."""
    async with table.lock:
        seat = table.require_seat(user_id)
        if not table.config.straddle:
            raise TableError(Phrase("refuse.straddle_off", settings=Command("table settings")))
        if seat.straddle != on:
            await table.economy.set_straddle(
                table_id=table.table_id, user_id=user_id, straddle=on)
            seat.straddle = on
        if not on:
            return Phrase("reply.straddle_off")
        return Phrase("reply.straddle_on", amount=straddle_amount(table.config.game))


def straddle_ways(table: Table, user_id: int) -> tuple[Way, ...]:
    """The button that turns the player's choice the other way, at a table that plays
    straddles (none for a player leaving or not seated)."""
    seat = table.seat_of(user_id)
    if seat is None or seat.leaving or not table.config.straddle:
        return ()
    return (Way(STRADDLE_OFF if seat.straddle else STRADDLE_ON),)
