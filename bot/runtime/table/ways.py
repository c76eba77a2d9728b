"""No dead ends: the steps a player can take from where their seat is (issue 23).

Every state a seat can be in between the player's decisions has a way on,
offered to that player alone (buttons on a private reply or a direct
message, and the command named in its text):

============================  ===============================================
the seat                      its ways forward
============================  ===============================================
leaving at the hand's end     ``stay`` (``/table sitin``: keep the seat)
busted (no chips, cash)       ``topup`` the maximum and the minimum buy-in
                              (``/table topup``), or ``leave``
sitting out (by choice, or    ``sitin``; ``post`` as well when they owe a big
timed out twice, RULES.md 8)  blind (come back posting it rather than wait)
waiting for the big blind     ``post`` (``/table sitin post_big_blind``)
playing, or not seated        none (``/table join`` seats a player)
============================  ===============================================

A busted player who tops up, or a sitting-out one who sits in, is dealt in from
the next hand by the entering-player rules (RULES.md 3 and 7:
:func:`bot.runtime.seating.rebuy`). A tournament table has no top-up and no
leaving (its policy's ``buys_back`` is false: a player with no chips is out), so
a sat-out tournament player is offered ``sitin`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.runtime.seating import Seat
from bot.runtime.table.views import Way

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

__all__ = ["Way", "ways_forward"]


def ways_forward(table: Table, user_id: int) -> tuple[Way, ...]:
    """The ways on from ``user_id``'s seat at ``table`` right now (none: nothing to do)."""
    seat = table.seat_of(user_id)
    if seat is None:
        return ()
    if seat.leaving:
        return (Way("stay"),)
    if seat.stack == 0:
        return _busted(table)
    if seat.sitting_out:
        return (Way("sitin"), Way("post")) if seat.needs_big_blind else (Way("sitin"),)
    if _waiting(seat):
        return (Way("post"),)
    return ()


def _waiting(seat: Seat) -> bool:
    """Entering, and waiting for the big blind to reach the seat rather than posting."""
    return seat.needs_big_blind and not seat.post_big_blind


def _busted(table: Table) -> tuple[Way, ...]:
    """Top up to the most or the least buy-in, or leave (a cash table's policy only)."""
    if not table.policy.buys_back:
        return ()
    config = table.config
    amounts = dict.fromkeys((config.max_buyin, config.min_buyin))
    return (*(Way("topup", amount) for amount in amounts), Way("leave"))
