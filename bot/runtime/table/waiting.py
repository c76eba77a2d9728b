"""What a table does while the dealer cannot hear it, and once it hears again (RULES.md 8).

The dealer hears a table while the gateway connection of its server's shard is up
(:mod:`bot.runtime.hearing`; the table's ``hearing`` is its registry's). Meanwhile:

* no clock runs: the turn's (:mod:`~bot.runtime.table.turn_clock`) and the
  run-it-twice question's (:mod:`~bot.runtime.table.run_twice`) stop, so no decision
  times out and no time bank runs down; a turn or question begun meanwhile waits;
* no new hand is dealt (:func:`~bot.runtime.table.dealing.may_deal`): it would start a
  clock nobody could answer and take blinds from players who cannot sit out, leave, or
  come back; at a dealer's choice table the button is not asked for the game either
  (:mod:`~bot.runtime.table.choosing`), and a choice open when the connection drops
  deals nothing: the button is asked again once heard (a drop that ends within the
  choice's 15 s does not lengthen it: the previous game is dealt again, as when nobody
  picks).

A decision made for a player without a clock is not held back: a tournament's sat-out
player is checked or folded at once, heard or not (RULES.md 8, second paragraph). It
arises only in a hand already dealt, after another decision or when a hand resumes
after a restart, and waiting would not let them come back: they would be acted for the
moment the dealer hears, before any "I'm back" could reach it.

When the dealer hears again, :func:`heard` gives the decision waiting the time it had
left when the dealer stopped hearing, and at least 15 s, from now, and its clock runs
again; the turn message says so when that moves its deadline (a second or more). A
table between hands deals after its pause. After a restart the bot hears no shard
until its connection is up, so the hand it resumes waits the same way; as nothing
records how much of the turn ran before the bot stopped, the player to act gets a
whole clock again, never less than 15 s; their time bank is what they had left when
their last decision ended (spent is spent: :mod:`~bot.runtime.table.time_banks`).

The dealer also stops hearing every table while it cannot write (the database's disk
full or read-only, PostgreSQL down: :mod:`bot.runtime.hearing`). A write that failed
then may have stopped a hand between a stored action and the next turn (the next
automatic decision, the settlement, or a settled hand's busts and places in a
tournament): :func:`heard` takes it on from there.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from bot.runtime.errors import StoreUnavailable
from bot.runtime.hearing import GATEWAY
from bot.runtime.table import run_twice, settle, turn_clock

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

__all__ = ["heard"]


async def heard(table: Table, deaf_since: float, why: str = GATEWAY) -> None:
    """The dealer hears ``table`` again after hearing nothing since ``deaf_since``
    (``why``: :data:`~bot.runtime.hearing.GATEWAY` or ``STORAGE``, told with the decision
    asked again)."""
    async with table.lock:
        if table.closed:
            return
        cur = table.current
        if table.unfinished is not None:  # settled; its places could not be written
            with contextlib.suppress(StoreUnavailable):
                await settle.after_settled(table, table.unfinished)
        elif cur is None:
            table.schedule_deal()
        elif cur.turn is not None:
            turn_clock.resume(table, cur, cur.turn, deaf_since, why)
        elif cur.question is not None:
            run_twice.resume(table, cur, cur.question, deaf_since, why)
        else:  # stopped between a stored action and the next turn (it could not write)
            await table.advance(cur)
