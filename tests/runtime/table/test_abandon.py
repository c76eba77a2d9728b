"""Abandoning a table whose channel is lost, on the real storage (aiosqlite).

The rule (``bot/runtime/table/abandon.py``): the hand in progress is cancelled, so
every chip committed to it goes back to the player who put it in; every stack
goes back to its owner's balance (a sit-and-go: every buy-in refunded); the
table is closed and tells its observer nothing more.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import pytest

from bot.economy import Economy
from bot.engine.events import ActionKind, Street
from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.errors import NoTable
from bot.runtime.registry import TableRegistry
from bot.runtime.table.abandon import Abandoned
from bot.runtime.table.live import Table
from bot.runtime.tournament.service import TournamentService
from bot.runtime.tournament.sit_and_go import Status, TournamentSettings
from bot.storage import Database
from bot.storage_ports import StoragePorts
from tests.runtime.conftest import name_of
from tests.runtime.fakes import Recorder

GUILD, OTHER_GUILD, CHANNEL, CREATOR = 10, 11, 100, 1
PAUSE = 2.0


class Killed(Exception):
    """The process "dies" here (the test then starts a new registry on the same file)."""


class DyingPorts(StoragePorts):
    """The real storage, but the bot dies just before or just after abandoning commits."""

    def __init__(self, db: Database, die: str) -> None:
        super().__init__(db)
        self.die = die

    async def abandon_table(self, table_id: int, reason: str) -> Mapping[int, int]:
        if self.die == "before":
            raise Killed("killed before the abandon was written")
        await super().abandon_table(table_id, reason)
        raise Killed("killed after the abandon was written")


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """A fresh database: SQLite, then PostgreSQL (tests/pgcluster.py)."""
    database = await Database.open(database_target, deck_key=os.urandom(32))
    yield database
    await database.close()


def registry(
    db: Database, clock: FakeClock, observer: Recorder, ports: StoragePorts | None = None
) -> TableRegistry:
    ports = ports or StoragePorts(db)
    return TableRegistry(
        economy=ports, hands=ports, tables=ports, observer=observer, clock=clock,
        rng=random.Random(5), pause=PAUSE, names=name_of,
    )


async def deal(table: Table, clock: FakeClock) -> None:
    """Let the pause pass until a hand is being played (the database takes real time)."""
    for _ in range(5000):
        cur = table.current
        if table.closed or (cur is not None and not cur.hand.is_over):
            break
        if table.pending_deal:
            await clock.advance(PAUSE)
        await asyncio.sleep(0.001)
    await table.idle()


async def to_act(table: Table) -> int | None:
    async with table.lock:
        cur = table.current
        if cur is None or cur.hand.is_over or cur.hand.to_act is None:
            return None
        return table.seats[cur.hand.to_act].user_id


async def all_ins_to_the_flop(table: Table) -> None:
    """Short stacks (200 or less) move all-in, deep ones call, until the flop is dealt."""
    while (user := await to_act(table)) is not None:
        cur = table.current
        assert cur is not None
        if cur.hand.street is not Street.PREFLOP:
            return
        seat = table.seat_of(user)
        assert seat is not None
        short = cur.hand.player(seat.number).stack + cur.hand.player(seat.number).bet <= 200
        kind = ActionKind.ALL_IN if short else ActionKind.CALL
        if kind is ActionKind.CALL and table.legal_for(user).can_check:
            kind = ActionKind.CHECK
        await table.act(user, kind)


async def balances(db: Database, users: tuple[int, ...], guild: int = GUILD) -> dict[int, int]:
    economy = Economy(db)
    return {u: await economy.balance(guild, u) for u in users}


async def assert_audit(db: Database) -> None:
    audit = await db.audit()
    assert audit and all(line.ok for line in audit), [str(line) for line in audit]


async def cash_table_in_a_side_pot_hand(
    db: Database, reg: TableRegistry, clock: FakeClock
) -> tuple[Table, dict[int, int]]:
    """Four players with 100, 200, 400 and 400 chips: two all-in preflop, the others bet
    and call on the flop; on the turn there are a main pot and two side pots."""
    users = (2, 3, 4, 5)
    before = await balances(db, users)
    table = await reg.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
        config=TableConfig.create(
            structure="no limit", big_blind=2, min_buyin=100, max_buyin=400
        ),
    )
    for user, buyin in zip(users, (100, 200, 400, 400), strict=True):
        await table.join(user, f"p{user}", buyin)
    await deal(table, clock)
    await all_ins_to_the_flop(table)
    first = await to_act(table)
    assert first is not None
    await table.act(first, ActionKind.BET, 50)
    second = await to_act(table)
    assert second is not None
    await table.act(second, ActionKind.CALL)
    return table, before


async def test_a_channel_lost_mid_hand_with_side_pots_returns_every_chip(db: Database) -> None:
    """All-ins and two side pots on the flop: the hand is cancelled, every stack cashed out."""
    clock, rec = FakeClock(), Recorder()
    reg = registry(db, clock, rec)
    table, before = await cash_table_in_a_side_pot_hand(db, reg, clock)
    cur = table.current
    assert cur is not None and cur.hand.street is Street.TURN
    assert [p.amount for p in cur.hand.pots] == [400, 300, 100]  # main and two side pots
    assert sum(cur.hand.player(n).all_in for n in cur.dealt) == 2
    await table.idle()
    told = len(rec.events)

    gone = await reg.abandon(table.table_id, "the channel was deleted")

    assert isinstance(gone, Abandoned) and not gone.tournament
    assert gone.returned == {2: 100, 3: 200, 4: 400, 5: 400}
    assert gone.hand_cancelled == cur.hand_no
    assert await balances(db, (2, 3, 4, 5)) == before
    hand = await db.hands.get(cur.hand_id)
    assert hand.status == "cancelled" and hand.cancel_reason == "the channel was deleted"
    assert not await db.tables.list_open() and not await db.tables.seats(table.table_id)
    assert table.closed and table.current is None and not table.seats
    await clock.advance(600.0)  # no clock, no next deal, nothing told to the observer
    await table.idle()
    assert len(rec.events) == told and not table.pending_deal
    assert reg.find(CHANNEL) is None and reg.tables_of(2) == []
    with pytest.raises(NoTable):
        reg.by_id(table.table_id)
    assert await reg.abandon(table.table_id, "again") is None
    await assert_audit(db)


async def test_between_hands_every_stack_goes_back_as_it_is(db: Database) -> None:
    """After a few settled hands, abandoning returns the stacks the table holds now."""
    clock, rng = FakeClock(), random.Random(2)
    reg = registry(db, clock, Recorder())
    table = await reg.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create()
    )
    users = (2, 3, 4)
    start = await balances(db, users)
    for user in users:
        await table.join(user, f"p{user}", 200)
    for _ in range(3):
        await deal(table, clock)
        while (user := await to_act(table)) is not None:
            kind = rng.choice([ActionKind.CALL, ActionKind.FOLD, ActionKind.CALL])
            await table.act(user, kind)
        await table.idle()
    await deal(table, clock)
    stacks = {s.user_id: s.stack for s in table.seats.values()}
    assert table.current is not None  # a new hand was dealt: its blinds are in
    assert sum(stacks.values()) == 600

    [gone] = await reg.abandon_channel(CHANNEL, "no access")

    assert gone.returned == stacks
    after = await balances(db, users)
    assert {u: after[u] - (start[u] - 200) for u in users} == stacks
    assert sum(after.values()) == sum(start.values())
    await assert_audit(db)


async def test_a_sit_and_go_lost_mid_level_is_cancelled_and_refunds_every_buy_in(
    db: Database,
) -> None:
    """Hands played, a hand running: the tournament is cancelled, each buy-in comes back."""
    clock = FakeClock()
    reg = registry(db, clock, Recorder())
    tours = TournamentService(reg, StoragePorts(db))
    users = (2, 3, 4, 5)
    before = await balances(db, users)
    sng = await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
        settings=TournamentSettings.create(buy_in=100, max_entrants=4, schedule="turbo"),
    )
    for user in users:
        await sng.join(user)
    table = sng.table
    assert table is not None
    for _ in range(3):
        await deal(table, clock)
        while (user := await to_act(table)) is not None:
            check = table.legal_for(user).can_check
            await table.act(user, ActionKind.CHECK if check else ActionKind.CALL)
        await table.idle()
    await deal(table, clock)
    assert table.current is not None and sng.sng.hands_played == 3

    [gone] = await reg.abandon_guild(GUILD, "the bot was removed from the server")

    assert gone.tournament and gone.returned == dict.fromkeys(users, 100)
    assert await balances(db, users) == before
    stored = await db.tournaments.get(sng.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0
    assert sng.sng.status is Status.CANCELLED
    assert not await db.hands.list_unfinished() and not await db.tables.list_open()
    assert reg.find(CHANNEL) is None
    await assert_audit(db)


async def test_a_registering_sit_and_go_in_a_lost_channel_refunds_its_entries(
    db: Database,
) -> None:
    """Two of three entries paid, the channel is deleted: both come back, nothing is open."""
    reg = registry(db, FakeClock(), Recorder())
    tours = TournamentService(reg, StoragePorts(db))
    before = await balances(db, (2, 3))
    sng = await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
        settings=TournamentSettings.create(buy_in=50, max_entrants=3),
    )
    await sng.join(2)
    await sng.join(3)

    [gone] = await reg.abandon_channel(CHANNEL, "the channel was deleted")

    assert gone.tournament and gone.returned == {2: 50, 3: 50}
    assert await balances(db, (2, 3)) == before
    assert (await db.tournaments.get(sng.tournament_id)).status == "cancelled"
    with pytest.raises(NoTable):
        tours.in_channel(CHANNEL)
    await assert_audit(db)


async def test_a_lost_server_abandons_its_tables_only(db: Database) -> None:
    """The bot removed from one server: its tables close, another server's play on."""
    clock = FakeClock()
    reg = registry(db, clock, Recorder())
    here = await reg.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create()
    )
    there = await reg.create(
        guild_id=OTHER_GUILD, channel_id=CHANNEL + 1, creator_id=CREATOR,
        config=TableConfig.create(),
    )
    for table in (here, there):
        await table.join(2, "p2", 100)
        await table.join(3, "p3", 100)
    assert reg.tables_of(2) == [here, there] and reg.tables_of(2, OTHER_GUILD) == [there]

    gone = await reg.abandon_guild(GUILD, "the bot was removed from the server")

    assert [g.table_id for g in gone] == [here.table_id]
    assert here.closed and not there.closed and reg.tables_of(2) == [there]
    await deal(there, clock)
    assert there.current is not None
    await assert_audit(db)


@pytest.mark.parametrize("die", ["before", "after"])
async def test_a_kill_in_the_middle_of_abandoning_loses_no_chip(tmp_path: Path, die: str) -> None:
    """Killed before or after the abandon is written: after a restart every chip is there."""
    path = str(tmp_path / "bot.sqlite3")
    db = await Database.open(path)
    clock = FakeClock()
    reg = registry(db, clock, Recorder(), DyingPorts(db, die))
    table, before = await cash_table_in_a_side_pot_hand(db, reg, clock)
    with pytest.raises(Killed):
        await reg.abandon(table.table_id, "the channel was deleted")
    await reg.shutdown()
    await db.close()

    db = await Database.open(path)  # the restart
    try:
        await assert_audit(db)
        again = registry(db, FakeClock(), Recorder())
        restored = await again.restore()
        if die == "before":  # nothing was written: the table and its hand come back
            [table] = restored
            assert table.current is not None and table.current.hand.street is Street.TURN
            await again.abandon_channel(CHANNEL, "the channel was deleted")
        else:
            assert restored == []
        assert await balances(db, (2, 3, 4, 5)) == before
        assert not await db.tables.list_open() and not await db.hands.list_unfinished()
        await assert_audit(db)
        await again.shutdown()
    finally:
        await db.close()
