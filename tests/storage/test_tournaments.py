"""Tournaments: buy-ins into a pool, tournament chips on seats, prizes paid from the pool."""

from __future__ import annotations

import pytest

from bot.engine.cards import Deck
from bot.storage import (
    Database,
    HandSeatIn,
    HandSummary,
    InsufficientChips,
    SeatResult,
    TableRecordError,
    TournamentError,
)

G, CH, A, B, C = 1, 700, 301, 302, 303


async def _registered(db: Database) -> int:
    t = await db.tournaments.create(G, CH, A, buy_in=1_000, starting_stack=1_500,
                                    settings={"payouts": [70, 30]})
    for user in (A, B, C):
        await db.tournaments.enter(t.id, user)
    return t.id


async def test_entries_fill_the_pool_from_balances(db: Database) -> None:
    """Three buy-ins of 1,000: pool 3,000, each balance 9,000; a second entry is refused."""
    tid = await _registered(db)
    t = await db.tournaments.get(tid)
    assert (t.pool, t.entrants, t.status) == (3_000, (A, B, C), "registering")
    assert (await db.wallets.open(G, A)).balance == 9_000
    with pytest.raises(TournamentError, match="already registered"):
        await db.tournaments.enter(tid, A)


async def test_entry_needs_the_buy_in(db: Database) -> None:
    """A player short of the buy-in is refused and nothing changes."""
    t = await db.tournaments.create(G, CH, A, buy_in=20_000, starting_stack=1_500, settings={})
    with pytest.raises(InsufficientChips):
        await db.tournaments.enter(t.id, B)
    assert (await db.tournaments.get(t.id)).pool == 0


async def test_leaving_before_the_start_refunds(db: Database) -> None:
    """Unregistering returns the buy-in; after the start it is refused."""
    tid = await _registered(db)
    t = await db.tournaments.leave(tid, C)
    assert (t.pool, t.entrants) == (2_000, (A, B))
    assert (await db.wallets.open(G, C)).balance == 10_000


async def test_a_full_tournament_pays_the_pool_out(db: Database) -> None:
    """Start, one hand busts C, finish: prizes 2,100 / 900, tournament chips gone."""
    tid = await _registered(db)
    table = await db.tables.create(G, CH, A, {"tournament": True}, tournament_id=tid)
    await db.tournaments.start(tid, table.id, {A: 1, B: 2, C: 3})
    with pytest.raises(TournamentError, match="leave"):
        await db.tournaments.leave(tid, C)
    with pytest.raises(TableRecordError):
        await db.tables.cash_out(table.id, A)
    seats = {s.user_id: s.stack for s in await db.tables.seats(table.id)}
    assert seats == {A: 1_500, B: 1_500, C: 1_500}
    seats_in = [HandSeatIn(n, u, 1_500) for n, u in ((1, A), (2, B), (3, C))]
    hand = await db.hands.start(table.id, variant="omaha", settings={}, button=1,
                                seats=seats_in, deck=Deck().order)
    await db.hands.finish(hand.id, HandSummary("omaha", (
        SeatResult(1, A, won=3_000, net=1_500, showdown=True, won_showdown=True),
        SeatResult(2, B, won=0, net=0),
        SeatResult(3, C, won=0, net=-1_500, showdown=True),
    )))
    with pytest.raises(TournamentError, match="no chips"):
        await db.tournaments.eliminate(tid, B, 2)
    await db.tournaments.eliminate(tid, C, 3)
    with pytest.raises(TournamentError, match="add up to the pool"):
        await db.tournaments.finish(tid, {A: 1, B: 2}, {A: 2_000, B: 900})
    t = await db.tournaments.finish(tid, {A: 1, B: 2}, {A: 2_100, B: 900})
    assert (t.status, t.pool) == ("finished", 0)
    assert await db.tables.seats(table.id) == []
    balances = [(await db.wallets.open(G, u)).balance for u in (A, B, C)]
    assert balances == [11_100, 9_900, 9_000]
    stats = await db.stats.player(G, A)
    assert (stats.hands_played, stats.net, stats.biggest_pot) == (1, 0, 0)  # not money


async def test_cancel_refunds_everyone_even_when_running(db: Database) -> None:
    """A cancelled running tournament takes the chips back and refunds every buy-in."""
    tid = await _registered(db)
    table = await db.tables.create(G, CH, A, {}, tournament_id=tid)
    await db.tournaments.start(tid, table.id, {A: 1, B: 2, C: 3})
    t = await db.tournaments.cancel(tid, "server maintenance")
    assert (t.status, t.pool) == ("cancelled", 0)
    assert [(await db.wallets.open(G, u)).balance for u in (A, B, C)] == [10_000] * 3
    assert await db.tables.seats(table.id) == []
    with pytest.raises(TournamentError):
        await db.tournaments.cancel(tid)
