"""The return rule by the game (RULES.md 7, bot/storage/returning.py), on both backends.

A player who leaves a cash table with chips must, within 60 minutes, bring at least that
stack to any cash table of the same game and blinds in the server: closing the table and
opening another does not reset it, nor does a restart; another game or other blinds is
another rule; busting to zero resets it.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.engine.cards import Deck
from bot.engine.variants import game_key
from bot.storage import BuyInOutOfRange, Database, HandSeatIn, HandSummary, SeatResult
from bot.storage.dialect import Conn
from bot.storage.returning import RETURN_WINDOW, departure_key
from tests.storage.helpers import FakeClock, assert_audit_ok, audited_db

G, OTHER_G, ALICE, BOB = 1, 2, 101, 102
PLO = {"variant_key": "omaha", "structure": "pot limit", "small_blind": 1, "big_blind": 2,
       "ante": 0}


async def leave_with(db: Database, settings: dict[str, Any], channel: int, stack: int,
                     guild: int = G) -> int:
    """ALICE sits down at a new table with ``stack`` and leaves it; the table closes.
    Returns its id."""
    table = await db.tables.create(guild, channel, ALICE, settings)
    await db.tables.buy_in(table.id, ALICE, 1, stack)
    assert await db.tables.cash_out(table.id, ALICE) == stack
    await db.tables.close(table.id)
    return table.id


def test_the_key_is_the_games_and_the_blinds() -> None:
    assert departure_key(PLO) == "omaha/pot limit@1/2" == game_key([("omaha", "pot limit")], 1, 2)
    assert departure_key({**PLO, "ante": 1}) == departure_key(PLO)  # the ante is not in it
    assert game_key([("omaha", "pot limit"), ("omaha_hilo", "fixed limit")], 2, 4) == (
        "omaha/pot limit+omaha_hilo/fixed limit@2/4")  # a mixed table's list, in order
    with pytest.raises(ValueError, match="at least one game"):
        game_key([], 1, 2)


async def test_closing_and_opening_again_does_not_reset_it(db: Database) -> None:
    """The issue's scenario: left with 199, the table closed, a new one opened at once:
    40 is refused, naming 199, and moves nothing; 199 sits down."""
    await leave_with(db, PLO, 500, 199)
    again = await db.tables.create(G, 500, ALICE, PLO)
    assert await db.tables.return_minimum(again.id, ALICE) == 199
    before = (await db.wallets.open(G, ALICE)).balance
    with pytest.raises(BuyInOutOfRange, match="199"):
        await db.tables.buy_in(again.id, ALICE, 1, 40)
    assert (await db.wallets.open(G, ALICE)).balance == before
    assert await db.tables.seats(again.id) == []
    await db.tables.buy_in(again.id, ALICE, 1, 199)  # the rule is met: nothing more owed
    assert await db.tables.return_minimum(again.id, ALICE) == 0


async def test_another_table_of_the_game_enforces_it_and_takes_the_biggest_stack(
    db: Database, clock: FakeClock,
) -> None:
    """Seated at two tables of one game, leaving one with 900 then, half an hour later, the
    other with 50 still asks 900 (at a third table: another channel, another creator)
    until that hour is over, then 50 for another half hour, then nothing."""
    big = await db.tables.create(G, 500, ALICE, PLO)
    small = await db.tables.create(G, 501, BOB, {**PLO, "ante": 1, "seats": 9})  # an ante
    await db.tables.buy_in(big.id, ALICE, 1, 900)
    await db.tables.buy_in(small.id, ALICE, 1, 50)
    await db.tables.cash_out(big.id, ALICE)
    clock.advance(30 * 60)
    await db.tables.cash_out(small.id, ALICE)
    third = await db.tables.create(G, 502, BOB, {**PLO, "max_buyin": 200})
    assert await db.tables.return_minimum(third.id, ALICE) == 900
    assert await db.tables.return_minimum(third.id, BOB) == 0
    clock.advance(30 * 60 - 1)
    with pytest.raises(BuyInOutOfRange, match="900"):
        await db.tables.buy_in(third.id, ALICE, 1, 60)
    clock.advance(1)  # the 900 left an hour ago now; the 50 half an hour ago
    assert await db.tables.return_minimum(third.id, ALICE) == 50
    clock.advance(RETURN_WINDOW)
    assert await db.tables.return_minimum(third.id, ALICE) == 0
    await db.tables.buy_in(third.id, ALICE, 1, 40)


@pytest.mark.parametrize("changed", [
    {"variant_key": "omaha_hilo"}, {"structure": "no limit"}, {"small_blind": 2},
    {"big_blind": 4, "small_blind": 2},
])
async def test_another_game_or_other_blinds_is_another_rule(
    db: Database, changed: dict[str, Any],
) -> None:
    await leave_with(db, PLO, 500, 900)
    other = await db.tables.create(G, 501, ALICE, {**PLO, **changed})
    assert await db.tables.return_minimum(other.id, ALICE) == 0
    await db.tables.buy_in(other.id, ALICE, 1, 40)
    elsewhere = await db.tables.create(OTHER_G, 502, ALICE, PLO)  # another server
    assert await db.tables.return_minimum(elsewhere.id, ALICE) == 0


async def test_the_game_is_the_one_dealt_when_the_player_left(db: Database) -> None:
    """A table whose blinds change after the player left: the rule stays with the old
    blinds (another table of them enforces it), not with the table."""
    table = await db.tables.create(G, 500, ALICE, PLO)
    await db.tables.buy_in(table.id, ALICE, 1, 700)
    await db.tables.cash_out(table.id, ALICE)
    await db.tables.update_settings(table.id, {**PLO, "small_blind": 5, "big_blind": 10})
    assert await db.tables.return_minimum(table.id, ALICE) == 0
    old_blinds = await db.tables.create(G, 501, BOB, PLO)
    assert await db.tables.return_minimum(old_blinds.id, ALICE) == 700


async def test_it_survives_a_restart(database_target: str, clock: FakeClock) -> None:
    """A new Database on the same file (or PostgreSQL database) still asks for the stack."""
    key = os.urandom(32) if database_target.startswith("postgresql://") else None
    db = await Database.open(database_target, clock=clock, deck_key=key)
    try:
        await leave_with(db, PLO, 500, 321)
    finally:
        await db.close()
    clock.advance(10 * 60)
    async with audited_db(database_target, clock) as again:
        table = await again.tables.create(G, 500, ALICE, PLO)
        with pytest.raises(BuyInOutOfRange, match="321"):
            await again.tables.buy_in(table.id, ALICE, 1, 320)


async def test_busting_to_zero_resets_it(db: Database) -> None:
    """Left with 3,000, back with 3,000 at another table of the game, lost it all there:
    a third table takes any buy-in."""
    await leave_with(db, PLO, 500, 3_000)
    table = await db.tables.create(G, 501, BOB, PLO)
    await db.tables.buy_in(table.id, ALICE, 1, 3_000)
    await db.tables.buy_in(table.id, BOB, 2, 3_000)
    hand = await db.hands.start(
        table.id, variant="omaha", settings={}, button=1, deck=Deck().order,
        seats=[HandSeatIn(1, ALICE, 3_000), HandSeatIn(2, BOB, 3_000)])
    await db.hands.finish(hand.id, HandSummary("omaha", (
        SeatResult(1, ALICE, won=0, net=-3_000, vpip=True, showdown=True),
        SeatResult(2, BOB, won=6_000, net=3_000, vpip=True, showdown=True, won_showdown=True),
    )))
    assert await db.tables.cash_out(table.id, ALICE) == 0
    third = await db.tables.create(G, 502, ALICE, PLO)
    assert await db.tables.return_minimum(third.id, ALICE) == 0
    await db.tables.buy_in(third.id, ALICE, 1, 40)
    assert await db.tables.cash_out(table.id, BOB) == 6_000  # the winner owes the rule
    assert await db.tables.return_minimum(third.id, BOB) == 6_000


async def test_a_lost_channel_counts_as_leaving(db: Database) -> None:
    """Stacks returned by an abandoned table are departures too (a creator who cuts the
    bot off to close the table cannot reset the rule that way)."""
    table = await db.tables.create(G, 500, ALICE, PLO)
    await db.tables.buy_in(table.id, ALICE, 1, 444)
    assert await db.tables.abandon(table.id) == {ALICE: 444}
    again = await db.tables.create(G, 500, ALICE, PLO)
    assert await db.tables.return_minimum(again.id, ALICE) == 444


async def test_the_migration_keeps_the_departures_of_the_last_hour(
    database_target: str, clock: FakeClock,
) -> None:
    """A database from before migration 0010 (the rule read the ledger): opening it copies
    each cash-out of the last hour with its table's game, unless the player sat down at a
    table of that game since."""
    key = os.urandom(32) if database_target.startswith("postgresql://") else None
    db = await Database.open(database_target, clock=clock, deck_key=key)
    try:
        await leave_with(db, PLO, 500, 111)  # older than the hour: gone
        clock.advance(RETURN_WINDOW)
        await leave_with(db, {**PLO, "big_blind": 4, "small_blind": 2}, 501, 222)  # kept
        await leave_with(db, PLO, 502, 333)  # then back at a 1/2 table: met
        met = await db.tables.create(G, 503, ALICE, PLO)
        await db.tables.buy_in(met.id, ALICE, 1, 333)
        await leave_with(db, {}, 504, 444, guild=OTHER_G)  # settings without the game
        await db.write(_before_0010)
    finally:
        await db.close()
    async with audited_db(database_target, clock) as again:
        rows = await again.read(lambda c: sorted(c.execute(
            "SELECT guild_id, user_id, game, stack FROM cash_departures").fetchall()))
        assert [tuple(r) for r in rows] == [
            (G, ALICE, "omaha/pot limit@2/4", 222), (OTHER_G, ALICE, "/@0/0", 444)]
        assert departure_key({}) == "/@0/0"
        await assert_audit_ok(again)


def _before_0010(conn: Conn) -> None:
    """Put the schema back as it was before migration 0010."""
    conn.execute("DROP TABLE cash_departures")
    conn.execute("DELETE FROM schema_migrations WHERE version = 10")
