"""After a restart: the results a kill kept from the table's channel (issue 33).

A hand is settled in one transaction, then its result goes to the channel. A kill in
between leaves the hand settled and stored (``/hand show`` has it) and its channel
without its result. How the store knows (decided here): the settlement marks the
hand's result *pending* in its own transaction; the observer calls
:attr:`~bot.runtime.table.events.HandSettled.posted` once Discord confirmed the result
message, which clears the mark (:meth:`~bot.runtime.ports.HandStore.result_posted`).
When the table comes back (:meth:`bot.runtime.registry.TableRegistry.restore_table`:
before its hand in progress goes on, and before a tournament's places or its end are
told), each settled hand after the last result seen posted whose result is still
pending (:meth:`~bot.runtime.ports.HandStore.unposted_results`: none, or the one the
kill interrupted) is played again from its record and its result told again, marked
:attr:`~bot.runtime.table.views.HandResultView.after_restart`. A table that closed
after the hand, while its result was on its way, and before the kill (a close that
waited for the hand, a tournament's last hand) does not come back, nor does its result.

A kill after Discord took the result but before the mark was cleared would post it
twice: the presenter first looks for it among the channel's last messages
(:mod:`bot.adapter.late_results`). The replay is the engine's, on the stored deck and
actions: the hands shown are those the rules showed at that showdown, nothing more
(cards shown after the hand are left out: they have messages of their own). The
result offers no rabbit hunt and no showing: those end at the next deal, and the
table before the restart is gone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from bot.runtime.hand_history import PastHand, rebuild, result_of
from bot.runtime.ports import UnpostedResult
from bot.runtime.table.events import HandSettled

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

log = logging.getLogger(__name__)

__all__ = ["post_late", "replay"]

NameOf = Callable[[int, int], Awaitable[str]]


async def post_late(table: Table, names: NameOf) -> int:
    """Tell the observer the results of ``table``'s settled hands never seen posted, in
    order; how many."""
    told = 0
    for unposted in await table.hands.unposted_results(table.table_id):
        try:
            past = replay(unposted)
        except Exception as exc:  # a record that does not play to its end: never posted
            log.warning("table %s: hand %s's result cannot be posted late: %s",
                        table.table_id, unposted.hand_id, exc)
            continue
        seat_names = {s: await _name(table, names, u) for s, u in past.users.items()}
        async with table.lock:
            table.outbox.send(_settled(table, past, seat_names))
        told += 1
    return told


def _settled(table: Table, past: PastHand, names: Mapping[int, str]) -> HandSettled:
    """The hand's result told again, on a snapshot of the table as it was at its end."""
    hand = past.hand
    snap = replace(
        table.snapshot(), config=past.config, hand_no=past.number, hand_id=past.hand_id,
        button=hand.button, board=hand.board, second_board=hand.second_board,
        double_board=hand.double_board, bomb_ante=hand.bomb_pot.ante if hand.bomb_pot else 0)
    result = replace(result_of(past, names), after_restart=True)
    return HandSettled(snap, result, partial(table.hands.result_posted, past.hand_id))


def replay(unposted: UnpostedResult) -> PastHand:
    """The settled hand played again from its record (``ValueError`` if it does not
    play to its end)."""
    start = unposted.start
    return rebuild(
        hand_id=unposted.hand_id, table_id=start.table_id, number=start.hand_no,
        ended_at=None, settings=start.config, button=start.button,
        seats=[(s.seat, s.user_id, s.stack, s.posts_big_blind) for s in start.seats],
        straddles=[s.seat for s in start.seats if s.straddle],
        actions=[{"seat": a.seat, "kind": a.kind, "amount": a.amount}
                 for a in sorted(unposted.actions, key=lambda a: a.seq)],
        deck=start.deck,
    )


async def _name(table: Table, names: NameOf, user_id: int) -> str:
    seated = next((s.name for s in table.seats.values() if s.user_id == user_id), None)
    return seated if seated is not None else await names(table.guild_id, user_id)
