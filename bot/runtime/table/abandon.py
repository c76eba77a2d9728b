"""A table that cannot go on: its channel was deleted, or the bot lost it.

When Discord says a table's channel (or thread) is gone (404 Unknown
Channel, the channel or thread deleted), that the bot may no longer use it
(403 Missing Access or Missing Permissions), or that the bot was removed
from the server, the table cannot show a hand or prompt a player any more.
:func:`abandon` stops it cleanly:

* **The hand in progress is cancelled.** A hand that cannot be finished is
  cancelled, not played out: every chip committed to it (blinds, antes, bets,
  all-ins, side pots) goes back to the player who put it in, so each stack
  is what it was when the hand was dealt. Nobody wins a pot that was never
  shown down. (Storage writes stacks only when a hand settles, so cancelling
  moves no chip: the stacks on disk already are those stacks.)
* **Every chip goes back to its owner's balance**: at a cash table every
  stack is cashed out; a sit-and-go (its tournament chips are not money) is
  cancelled and **every buy-in is refunded**, including those of players
  already knocked out, as when a restart interrupts one. The table's
  :class:`~bot.runtime.table.policy.TablePolicy` decides which
  (``TablePolicy.abandon``).
* The table is closed in storage, its clock and next deal are stopped, and
  its pending news for the observer is discarded (:meth:`Outbox.discard`):
  nothing more is sent toward a channel Discord refuses. No
  :class:`~bot.runtime.table.events.TableClosed` is sent either; the caller
  (the Discord side) tells the players privately, from what :func:`abandon`
  returns.

Durability: the cancellation, the cash-outs (or refunds) and the closing are
one storage transaction (``TableStore.abandon_table``). A kill before it
commits leaves the table as it was: a restart restores it and resumes its
hand, and the first request its channel refuses abandons it again; a kill
after it leaves the table closed with every chip back. No chip is lost
either way.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

log = logging.getLogger(__name__)

__all__ = ["Abandoned", "abandon"]


@dataclass(frozen=True)
class Abandoned:
    """A table closed because its channel is lost, and what went back to whom."""

    table_id: int
    guild_id: int
    channel_id: int
    title: str
    reason: str
    #: user id -> chips back in the balance (a cash stack, or a refunded buy-in)
    returned: Mapping[int, int]
    #: a sit-and-go: ``returned`` holds refunded buy-ins
    tournament: bool
    #: the number of the hand cancelled, if one was being played
    hand_cancelled: int | None


async def abandon(table: Table, reason: str) -> Abandoned | None:
    """Stop ``table`` for good (see the module docstring); None if it was already closed."""
    async with table.lock:
        if table.closed:
            return None
        table.cancel_timer()
        cur = table.current
        expected = _stacks_before_hand(table)
        returned = dict(await table.policy.abandon(table, reason))
        if not table.policy.refunds_buy_ins and returned != expected:
            # storage is the truth; a difference is a bug to see, not to hide
            log.error(
                "table %s: abandoning returned %s, the table held %s",
                table.table_id, returned, expected,
            )
        table.seats.clear()
        table.outbox.discard()
        table.stop()
        log.warning(
            "table %s abandoned (%s): hand %s cancelled, %d players refunded",
            table.table_id, reason, cur.hand_no if cur else None, len(returned),
        )
        return Abandoned(
            table_id=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            title=table.config.title,
            reason=reason,
            returned=returned,
            tournament=table.policy.refunds_buy_ins,
            hand_cancelled=cur.hand_no if cur else None,
        )


def _stacks_before_hand(table: Table) -> dict[int, int]:
    """``user -> stack`` with the running hand cancelled: its dealt seats as dealt."""
    cur = table.current
    stacks = {s.user_id: s.stack for s in table.seats.values()}
    if cur is not None:
        for n, stack in cur.start_stacks.items():
            stacks[table.seats[n].user_id] = stack
    return stacks

