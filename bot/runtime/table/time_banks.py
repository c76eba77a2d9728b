"""A seat's time bank is kept in storage as it is spent (RULES.md 8).

The time bank is not refilled: what a player spent before a restart stays spent. The
seconds left are written with the seat (``seats.time_bank``) whenever they change:
when a player acts after their clock ran out, when a decision times out (all spent),
and when the table's bank setting changes (every seat gets the new whole bank); a
restart seats each player with what storage kept (:func:`restored`).

A write that fails is logged and play goes on: the action it follows is already
recorded, and the worst a lost write costs is a bank refilled by a later restart.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.runtime.seating import Seat
    from bot.runtime.table.live import Table
    from bot.runtime.table.live_hand import LiveHand

log = logging.getLogger(__name__)

__all__ = ["keep", "restored", "spend"]


async def spend(table: Table, cur: LiveHand, seat: Seat) -> None:
    """``seat``'s player acted in ``cur``: what their turn took of the bank is spent."""
    turn = cur.turn
    if turn is not None and turn.seat == seat.number:
        before = seat.time_bank
        seat.time_bank = max(0.0, before - turn.spent_bank(table.clock.now()))
        await keep(table, seat, before)


async def keep(table: Table, seat: Seat, before: float) -> None:
    """Store ``seat``'s time bank if it is no longer ``before`` (what it was)."""
    if seat.time_bank == before:
        return
    whole = seat.time_bank >= table.config.time_bank
    try:
        await table.economy.set_time_bank(
            table_id=table.table_id, user_id=seat.user_id,
            seconds=None if whole else seat.time_bank)
    except Exception as exc:  # the action is recorded: a lost write is no refusal
        log.warning("table %s: the time bank of seat %s was not stored (%s)",
                    table.table_id, seat.number, exc)


def restored(whole: int, stored: float | None) -> float:
    """The time bank a restored seat starts with: what storage kept, never more than the
    table's whole bank ``whole``."""
    return float(whole) if stored is None else max(0.0, min(float(whole), stored))
