"""Chips out of a hand and off the table: settling a finished hand into the stacks,
cashing a seat out, and closing the table (under the table's lock).

A finished hand is settled only when its final stacks add up to the stacks it
started with, seat for seat of those dealt in: chips are never created or lost,
so a hand that says otherwise is refused (an error, nothing stored) rather than
settled. The result is recorded through the :class:`~bot.runtime.ports.HandStore`
before the stacks change and before the observer is told.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from bot import crashpoint
from bot.runtime.table import after_hand
from bot.runtime.table.events import HandSettled, TableClosed
from bot.runtime.table.hand_views import result_view

if TYPE_CHECKING:
    from bot.runtime.seating import Seat
    from bot.runtime.table.live import Table
    from bot.runtime.table.live_hand import LiveHand

__all__ = ["after_settled", "cash_out", "close_now", "finish_hand", "mark_sitting_out", "record"]


async def finish_hand(table: Table, cur: LiveHand) -> None:
    """Settle the finished hand ``cur``: record it, pay the stacks, tell the observer,
    then :func:`after_settled`."""
    await record(table, cur)
    table.unfinished = cur
    await after_settled(table, cur)


async def after_settled(table: Table, cur: LiveHand) -> None:
    """The policy's turn after the settled hand ``cur``; then the table closes if asked
    to, else the next hand is scheduled. If the dealer cannot write meanwhile
    (``StoreUnavailable``), ``cur`` stays :attr:`Table.unfinished` and this is done
    again once it can (:mod:`bot.runtime.table.waiting`)."""
    await table.policy.after_hand(table, cur)
    table.unfinished = None
    if table.closing:
        await table.close_now()
    else:
        table.schedule_deal()


async def record(table: Table, cur: LiveHand) -> None:
    """Record the finished hand ``cur`` (one write), pay its final stacks into the seats
    and tell the observer; the table has no hand in progress after it, and keeps this one
    until the next deal (:mod:`bot.runtime.table.after_hand`)."""
    table.cancel_timer()
    finals = cur.hand.result.final_stacks
    if sum(finals.values()) != sum(cur.start_stacks.values()) or set(finals) != set(cur.dealt):
        # chips are never created or lost: refuse to settle a hand that says otherwise
        raise RuntimeError(f"hand {cur.hand_id}: stacks do not add up; not settled")
    names = {n: table.seats[n].name for n in cur.dealt}
    users = {n: table.seats[n].user_id for n in cur.dealt}
    done = after_hand.finished(table, cur.hand, cur.hand_id, cur.hand_no, users, names)
    result = replace(result_view(cur.hand, cur.hand_no, names, users),
                     rabbit_hunt=done.rabbit_hunt, showing=done.showing)
    await table.hands.settle(
        cur.hand_id,
        table_id=table.table_id,
        variant=cur.hand.config.variant.key,  # the hand's own game (a mixed table)
        hand=cur.hand,
        seat_users=users,
        result={"hand_no": cur.hand_no, "lines": list(result.lines)},
    )
    crashpoint.reached("settle.stored")
    for n, stack in finals.items():
        table.seats[n].stack = stack
    snap = table.snapshot()
    table.current = None
    table.finished = done
    table.outbox.send(HandSettled(snap, result, partial(table.hands.result_posted, cur.hand_id)))
    for s in table.seats.values():
        s.pre_action = None
        s.clock_sat_out = False


async def mark_sitting_out(table: Table, seat: Seat) -> None:
    """Sit ``seat`` out, in the table and in the store."""
    seat.sitting_out = True
    await table.economy.set_sitting_out(
        table_id=table.table_id, user_id=seat.user_id, sitting_out=True
    )


async def cash_out(table: Table, seat: Seat) -> int:
    """Unseat ``seat`` and move its whole stack back to the owner's balance."""
    amount = seat.stack
    await table.economy.cash_out(
        guild_id=table.guild_id, table_id=table.table_id, user_id=seat.user_id, amount=amount
    )
    del table.seats[seat.number]
    return amount


async def close_now(table: Table) -> None:
    """Cash every seat out, close the table in the store, stop its clock and its next
    deal, and tell the observer what went back to whom."""
    returned: dict[int, int] = {}
    for seat in list(table.seats.values()):
        returned[seat.user_id] = await cash_out(table, seat)
    await table.tables.close_table(table.table_id)
    table.stop()
    table.outbox.send(TableClosed(table.snapshot(), returned))
