"""Multi-table tournaments in storage: several tables seated at once, players moved with
their chips in one transaction, what a restart reads back; the audit holds throughout."""

from __future__ import annotations

import pytest

from bot.engine.cards import Deck
from bot.storage import Database, HandSeatIn, TableRecordError, TournamentError

G, CH, T1, T2 = 1, 700, 7001, 7002
USERS = (301, 302, 303, 304, 305)


async def _started(db: Database) -> tuple[int, int, int]:
    t = await db.tournaments.create(G, CH, USERS[0], buy_in=1_000, starting_stack=1_500,
                                    settings={"table_size": 3})
    for user in USERS:
        await db.tournaments.enter(t.id, user)
    one = await db.tables.create(G, T1, USERS[0], {}, tournament_id=t.id)
    two = await db.tables.create(G, T2, USERS[0], {}, tournament_id=t.id)
    await db.mtt.start(t.id, {one.id: {301: 1, 302: 2, 303: 3}, two.id: {304: 1, 305: 3}})
    return t.id, one.id, two.id


async def test_every_entrant_is_seated_once_at_the_start(db: Database) -> None:
    """A seating that leaves out an entrant, or seats one twice, is refused; a good one
    seats everyone with the starting stack at tables numbered in the order they were made."""
    t = await db.tournaments.create(G, CH, 301, buy_in=1_000, starting_stack=1_500, settings={})
    for user in USERS[:3]:
        await db.tournaments.enter(t.id, user)
    one = await db.tables.create(G, T1, 301, {}, tournament_id=t.id)
    two = await db.tables.create(G, T2, 301, {}, tournament_id=t.id)
    for bad in ({one.id: {301: 1, 302: 2}}, {one.id: {301: 1, 302: 2}, two.id: {302: 1}}):
        with pytest.raises(TournamentError, match="needs a seat"):
            await db.mtt.start(t.id, bad)
    await db.mtt.start(t.id, {one.id: {301: 1, 302: 2}, two.id: {303: 1}})
    tables = await db.mtt.tables(t.id)
    assert [(s.number, s.table.id, [x.stack for x in s.seats]) for s in tables] == [
        (1, one.id, [1_500, 1_500]), (2, two.id, [1_500])]


async def test_a_move_carries_the_stack_between_hands_only(db: Database) -> None:
    """A player moves with their chips (one ledger transfer) to a free seat; not while a hand
    runs at the table they leave, not to a taken seat, not a player who is not there."""
    tid, one, two = await _started(db)
    seats = [HandSeatIn(n, u, 1_500) for n, u in ((1, 301), (2, 302), (3, 303))]
    hand = await db.hands.start(one, variant="omaha", settings={}, button=1, seats=seats,
                                deck=Deck().order)
    with pytest.raises(TournamentError, match="between hands"):
        await db.mtt.move(tid, 303, one, two, 2)
    await db.hands.cancel(hand.id)
    with pytest.raises(TournamentError, match="taken"):
        await db.mtt.move(tid, 303, one, two, 1)
    with pytest.raises(TournamentError, match="seated there"):
        await db.mtt.move(tid, 304, one, two, 2)
    await db.mtt.move(tid, 303, one, two, 2)
    tables = {s.table.id: {x.user_id: (x.seat_no, x.stack) for x in s.seats}
              for s in await db.mtt.tables(tid)}
    assert tables == {one: {301: (1, 1_500), 302: (2, 1_500)},
                      two: {304: (1, 1_500), 303: (2, 1_500), 305: (3, 1_500)}}
    with pytest.raises(TableRecordError):
        await db.tables.close(one)  # players are still seated there
