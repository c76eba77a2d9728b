"""Random sequences of chip movements: the audit holds after every step, refusals change nothing."""

from __future__ import annotations

import asyncio
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import Deck
from bot.storage import (
    Database,
    EconomyError,
    HandSeatIn,
    HandSummary,
    LedgerKind,
    SeatResult,
)

from .helpers import FakeClock

USERS = (1, 2, 3)
AMOUNTS = st.one_of(st.integers(-5, 30_000), st.sampled_from([0, 10**15, 10**15 + 1]))
OPS = st.lists(
    st.tuples(
        st.sampled_from(["grant", "remove", "buy_in", "top_up", "cash_out", "hand", "cancel_hand"]),
        st.integers(1, 2),  # guild
        st.sampled_from(USERS),
        AMOUNTS,
    ),
    min_size=1,
    max_size=25,
)


def _snapshot(conn: sqlite3.Connection) -> tuple[object, ...]:
    return (
        conn.execute("SELECT * FROM wallets ORDER BY guild_id, user_id").fetchall(),
        conn.execute("SELECT * FROM seats ORDER BY table_id, seat_no").fetchall(),
        conn.execute("SELECT COUNT(*) FROM ledger").fetchone(),
        conn.execute("SELECT id, status FROM hands ORDER BY id").fetchall(),
    )


async def _run(ops: list[tuple[str, int, int, int]], seed: int) -> None:
    db = await Database.open(":memory:", clock=FakeClock())
    try:
        tables = {g: (await db.tables.create(g, 100 + g, 1, {})).id for g in (1, 2)}
        for op, guild, user, amount in ops:
            table = tables[guild]
            before = await db.read(_snapshot)
            try:
                if op == "grant":
                    await db.wallets.credit(guild, user, amount, kind=LedgerKind.GRANT,
                                            actor_id=9, reason="t")
                elif op == "remove":
                    await db.wallets.debit(guild, user, amount, kind=LedgerKind.REMOVE,
                                           actor_id=9, reason="t")
                elif op == "buy_in":
                    await db.tables.buy_in(table, user, user, amount)
                elif op == "top_up":
                    await db.tables.top_up(table, user, amount, max_buy_in=20_000)
                elif op == "cash_out":
                    await db.tables.cash_out(table, user)
                elif op == "hand":
                    await _hand(db, table, amount + seed)
                else:
                    for hand in await db.hands.list_unfinished(table):
                        await db.hands.cancel(hand.id)
            except EconomyError:
                assert await db.read(_snapshot) == before, f"refused {op} changed something"
            lines = await db.audit()
            assert all(line.ok for line in lines), [str(line) for line in lines]
            negative = await db.read(lambda c: c.execute(
                "SELECT COUNT(*) FROM wallets WHERE balance < 0").fetchone()[0])
            assert negative == 0
    finally:
        await db.close()


async def _hand(db: Database, table: int, salt: int) -> None:
    """Start a hand with the players seated; half the time settle it with a random split."""
    if await db.hands.list_unfinished(table):
        return
    seats = [s for s in await db.tables.seats(table) if s.stack > 0]
    if len(seats) < 2:
        return
    hand = await db.hands.start(table, variant="omaha", settings={}, button=seats[0].seat_no,
                                seats=[HandSeatIn(s.seat_no, s.user_id, s.stack) for s in seats],
                                deck=Deck().order)
    if salt % 2:
        return  # left running: the next "cancel_hand" or the end of the run leaves it
    loser, winner = seats[salt % len(seats)], seats[(salt + 1) % len(seats)]
    # both put in `lost`; the winner takes the pot of 2 * lost
    lost = 1 + salt % min(loser.stack, winner.stack)
    lines = tuple(
        SeatResult(s.seat_no, s.user_id,
                   won=2 * lost if s is winner else 0,
                   net=lost if s is winner else -lost if s is loser else 0)
        for s in seats
    )
    await db.hands.finish(hand.id, HandSummary("omaha", lines))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS, seed=st.integers(0, 1000))
def test_random_operations_keep_every_chip(ops: list[tuple[str, int, int, int]], seed: int) -> None:
    """Grants, removals, buy-ins, top-ups, cash-outs and hands in any order: audit always holds."""
    asyncio.run(_run(ops, seed))
