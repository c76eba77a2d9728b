"""A table that cannot go on: its channel was deleted, or the bot lost it (RULES.md 7).

When Discord says a table's channel (or thread) is gone (404 Unknown Channel,
the channel or thread deleted), that the bot may no longer use it (403 Missing
Access or Missing Permissions, 160005 the thread locked), or that the bot was
removed from the server, the table cannot show a hand or prompt a player any
more. :func:`abandon` stops it by the clock's rule, **never by refunding a
bet**: a player who can cut the bot off (the creator of a thread, a moderator)
must not be able to call a hand off when it goes against them.

* **Nothing more goes toward the lost channel.** The table's clock stops and its
  news for the observer is discarded (:meth:`Outbox.discard`) before anything
  else; no :class:`~bot.runtime.table.events.TableClosed` is sent either. The
  caller (the Discord side) tells each player privately, by DM, from what
  :func:`abandon` returns: how the hand ended for them, with its number, and
  what went back to their balance (a multi-table tournament's table: later, once
  the cancellation is paid, :attr:`Abandoned.later`).
* **The hand in progress is finished** (:func:`play_out`): every decision still to
  make is taken at once as a timeout, a check when allowed, otherwise a fold
  (:func:`~bot.runtime.decisions.timed_out`, the turn clock's own decision). A
  decision the player already made stands (leaving folds, a pre-action, a
  sat-out player checked or folded: :func:`~bot.runtime.decisions.automatic`,
  as in play). An open run-it-twice question gets silence, which answers "once"
  (:func:`~bot.runtime.table.run_twice.silence`): one board. The engine deals
  the rest of the board from the deck committed before the hand and awards the
  pots as at any showdown (side pots, hi-lo halves, odd chips). The hand is
  settled like any other (:func:`~bot.runtime.table.settle.record`); nobody gets
  back a chip they bet.
* **Then the table's policy ends it** (``TablePolicy.abandon``, :class:`Closing`):
  a cash table returns every stack to its owner's balance and closes; a
  sit-and-go records the hand (busts, places) and is cancelled as after its start
  (prizes already won kept, the rest of the pool split by stacks), unless that
  hand ended it; a multi-table tournament's table is held and the whole
  tournament is cancelled the same way once the hands in progress at its other
  tables end (:meth:`bot.runtime.tournament.director.Director.lost`).

Durability: each decision is written before it is applied and the hand is
settled in one write, as in play (``Table.apply``, ``HandStore.settle``); the
cash-outs and the closing are one more transaction (``TableStore.abandon_table``;
a tournament: ``cancel_with_prizes``, then the table closes). A kill at any
moment loses no chip and refunds no bet:

* before the settlement is written, the hand is running on disk with the
  timeouts taken so far; a restart resumes it on its own deck, its first request
  to the lost channel is refused, and the rest is played out then;
* after the settlement, before the cash-outs, the stacks on disk are the hand's
  final stacks; a restart restores the table, whose next request (the next hand's
  deck commitment: no hand is dealt before it is posted) is refused and abandons
  it again (a table left with one player makes no request: ``/table leave``
  cashes them out from any channel);
* after, every chip is in a balance (or in a tournament's pool, paid as prizes).

A storage error on the way (the database busy) leaves the table where it
stopped, silent: a restart resumes it as above.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from bot.runtime.decisions import automatic, timed_out
from bot.runtime.table import run_twice, settle

if TYPE_CHECKING:
    from bot.runtime.table.live import Table
    from bot.runtime.table.live_hand import LiveHand

log = logging.getLogger(__name__)

__all__ = ["Abandoned", "Closing", "Ending", "Later", "abandon", "play_out"]


class Ending(Enum):
    """Where the chips of an abandoned table went."""

    CASHED_OUT = "every stack back in its owner's balance"
    CANCELLED = "the tournament cancelled as after its start, its prizes paid"
    WON = "the hand played out ended the tournament, its prizes paid"
    CANCELLING = "the tournament cancelled once the hands at its other tables end"
    REFUNDED = "a tournament not started yet: every buy-in back"


class Later:
    """Chips that go to the balances later (user id -> chips): a multi-table tournament's
    cancellation, paid once the hands at its other tables end. Told once: :meth:`pay`, or
    :meth:`drop` when nothing will be (the tournament ended otherwise, the bot stopped)."""

    def __init__(self) -> None:
        self._told = asyncio.Event()
        self._paid: Mapping[int, int] | None = None

    def pay(self, paid: Mapping[int, int]) -> None:
        if not self._told.is_set():
            self._paid = dict(paid)
            self._told.set()

    def drop(self) -> None:
        self._told.set()

    async def wait(self) -> Mapping[int, int] | None:
        """What was paid, once it is; None if nothing will be."""
        await self._told.wait()
        return self._paid


@dataclass(frozen=True)
class Closing:
    """What a table's policy did with the chips of an abandoned table."""

    ending: Ending
    #: user id -> chips put in the balance now (a cash stack, a prize, a refunded buy-in)
    returned: Mapping[int, int]
    #: :attr:`Ending.CANCELLING`: user id -> chips put in the balance once the cancellation
    #: is paid (prizes kept, the rest split by stacks)
    later: Later | None = None


@dataclass(frozen=True)
class Abandoned:
    """A table closed because its channel is lost: how its hand ended, what went back."""

    table_id: int
    guild_id: int
    channel_id: int
    title: str
    reason: str
    ending: Ending
    #: user id -> chips put in the balance now (see :class:`Closing`)
    returned: Mapping[int, int]
    #: the number of the hand played out by the clock, if one was being played
    hand: int | None = None
    #: user id -> chips won (positive) or lost (negative) in that hand, for those dealt in
    nets: Mapping[int, int] = field(default_factory=dict)
    #: user id -> stack when the table stopped, for those seated then
    stacks: Mapping[int, int] = field(default_factory=dict)
    #: what goes to the balances later (see :attr:`Closing.later`)
    later: Later | None = field(default=None, compare=False)

    @property
    def told(self) -> tuple[int, ...]:
        """Everyone to tell privately: the players of the hand and of the table, then
        anyone else who got chips back (a prize kept by a player already out)."""
        return tuple(dict.fromkeys([*self.nets, *self.stacks, *self.returned]))


async def abandon(table: Table, reason: str) -> Abandoned | None:
    """Stop ``table`` for good (see the module docstring); None if it was already closed
    or abandoned."""
    async with table.lock:
        if table.closed or table.outbox.discarded:
            return None
        table.cancel_timer()
        table.outbox.discard()  # nothing more toward the lost channel, from now on
        cur = table.current
        nets: dict[int, int] = {}
        if cur is not None:
            await play_out(table, cur)
            finals = cur.hand.result.final_stacks
            nets = {table.seats[n].user_id: finals[n] - cur.start_stacks[n] for n in cur.dealt}
            await settle.record(table, cur)
        stacks = {s.user_id: s.stack for s in table.seats.values()}
        closing = await table.policy.abandon(table, cur, reason)
        if closing.ending is Ending.CASHED_OUT and closing.returned != stacks:
            # storage is the truth; a difference is a bug to see, not to hide
            log.error("table %s: abandoning returned %s, the table held %s",
                      table.table_id, closing.returned, stacks)
        if closing.ending is not Ending.CANCELLING and not table.closed:
            table.seats.clear()
            table.stop()
        log.warning("table %s abandoned (%s): hand %s played out, %s",
                    table.table_id, reason, cur.hand_no if cur else None, closing.ending.value)
        return Abandoned(
            table_id=table.table_id, guild_id=table.guild_id, channel_id=table.channel_id,
            title=table.config.title, reason=reason, ending=closing.ending,
            returned=closing.returned, hand=cur.hand_no if cur else None, nets=nets,
            stacks=stacks, later=closing.later,
        )


async def play_out(table: Table, cur: LiveHand) -> None:
    """Finish ``cur`` at once by the clock's rule (under the lock): each decision left is
    a timeout unless its player already made it; run-it-twice, silence (once)."""
    cur.turn = None  # no clock runs: no time bank is spent
    hand = cur.hand
    while not hand.is_over:
        n = hand.to_act
        if n is None:  # the run-it-twice question is open
            if not hand.run_twice_voters:
                raise RuntimeError(f"hand {cur.hand_id} is not over but nobody is to act")
            await run_twice.silence(table, cur)
            continue
        seat, legal = table.seats[n], table.legal(cur)
        decision = automatic(seat, legal, blinded_off=table.policy.blinds_off)
        await table.apply(cur, seat, decision or timed_out(legal))
