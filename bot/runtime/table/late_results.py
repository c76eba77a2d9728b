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
waited for the hand, a tournament's last hand) does not come back: at start, once the
tables are restored, :func:`closed_results` tells its results all the same, on a
snapshot of the closed table (its seats those of the hand, with their stacks at its end;
the Discord side posts them and clears their marks: :mod:`bot.adapter.late_results`).

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
from bot.runtime.ports import HandStore, StoredTable, UnpostedResult
from bot.runtime.table.events import HandSettled
from bot.runtime.table.views import SeatSnapshot, TableSnapshot

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

log = logging.getLogger(__name__)

__all__ = ["closed_results", "post_late", "replay"]

NameOf = Callable[[int, int], Awaitable[str]]


async def post_late(table: Table, names: NameOf) -> int:
    """Tell the observer the results of ``table``'s settled hands never seen posted, in
    order; how many."""
    told = 0
    for past in await _replayed(table.hands, table.table_id):
        seat_names = {s: await _name(table, names, u) for s, u in past.users.items()}
        async with table.lock:
            table.outbox.send(_settled(table.snapshot(), table.hands, past, seat_names))
        told += 1
    return told


async def closed_results(
    hands: HandStore, names: NameOf, owns: Callable[[int], bool]
) -> list[HandSettled]:
    """The results never seen posted of the closed tables of our servers (``owns``), in
    order, told again. A result that cannot be played again is marked posted: nothing
    would ever post it."""
    told: list[HandSettled] = []
    for stored in await hands.closed_with_results():
        if not owns(stored.guild_id):
            continue  # another process's shard posts it
        for past in await _replayed(hands, stored.table_id, forget=True):
            seat_names = {s: await names(stored.guild_id, u) for s, u in past.users.items()}
            told.append(_settled(_closed(stored, past, seat_names), hands, past, seat_names))
    return told


async def _replayed(hands: HandStore, table_id: int, *, forget: bool = False) -> list[PastHand]:
    """The table's settled hands whose results were never seen posted, played again (one
    that does not play to its end is logged and left out; ``forget``: and marked posted)."""
    out: list[PastHand] = []
    for unposted in await hands.unposted_results(table_id):
        try:
            out.append(replay(unposted))
        except Exception as exc:  # a record that does not play to its end: never posted
            log.warning("table %s: hand %s's result cannot be posted late: %s",
                        table_id, unposted.hand_id, exc)
            if forget:
                await hands.result_posted(unposted.hand_id)
    return out


def _closed(stored: StoredTable, past: PastHand, names: Mapping[int, str]) -> TableSnapshot:
    """A closed table as it was at the end of ``past``: its players and their stacks."""
    final = past.hand.result.final_stacks
    seats = tuple(SeatSnapshot(s, u, names[s], final.get(s, 0))
                  for s, u in sorted(past.users.items()))
    return TableSnapshot(stored.table_id, stored.guild_id, stored.channel_id,
                         stored.creator_id, past.config, seats, closed=True)


def _settled(
    base: TableSnapshot, hands: HandStore, past: PastHand, names: Mapping[int, str]
) -> HandSettled:
    """The hand's result told again, on a snapshot of the table as it was at its end."""
    hand = past.hand
    snap = replace(
        base, config=past.config, hand_no=past.number, hand_id=past.hand_id,
        button=hand.button, board=hand.board, second_board=hand.second_board,
        double_board=hand.double_board, bomb_ante=hand.bomb_pot.ante if hand.bomb_pot else 0)
    result = replace(result_of(past, names), after_restart=True)
    return HandSettled(snap, result, partial(hands.result_posted, past.hand_id))


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
