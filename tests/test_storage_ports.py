"""The runtime on the real storage (SQLite and PostgreSQL): chips, records, restarts."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator

import pytest

from bot.economy import Economy
from bot.engine.events import ActionKind
from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.errors import InsufficientFunds, TableError
from bot.runtime.registry import TableRegistry
from bot.runtime.table.events import HandSettled
from bot.runtime.table.live import Table
from bot.storage import Database
from bot.storage_ports import StoragePorts
from tests.runtime.conftest import name_of
from tests.runtime.fakes import Recorder

GUILD, CHANNEL, CREATOR = 10, 100, 1


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """A fresh database: SQLite, then PostgreSQL (tests/pgcluster.py)."""
    database = await Database.open(database_target, deck_key=os.urandom(32))
    yield database
    await database.close()


def registry(db: Database, clock: FakeClock, observer: Recorder) -> TableRegistry:
    ports = StoragePorts(db)
    return TableRegistry(
        economy=ports,
        hands=ports,
        tables=ports,
        observer=observer,
        clock=clock,
        rng=random.Random(11),
        pause=2.0,
        names=name_of,
    )


async def deal(table: Table, clock: FakeClock) -> None:
    """Pass the pause, then wait (really) for the database to record the new hand."""
    await clock.advance(2.0)
    for _ in range(2000):
        if table.current is not None or not table.pending_deal:
            return
        await asyncio.sleep(0.001)


async def play_hand(table: Table, clock: FakeClock, rng: random.Random) -> None:
    await deal(table, clock)
    assert table.current is not None
    while table.current is not None:
        user = table.seats[table.current.hand.to_act].user_id
        legal = table.legal_for(user)
        roll = rng.random()
        if legal.min_raise_to is not None and legal.max_raise_to is not None and roll < 0.3:
            to = rng.randint(legal.min_raise_to, legal.max_raise_to)
            await table.act(user, ActionKind.RAISE, to)
        elif roll < 0.4:
            await table.act(user, ActionKind.FOLD)
        else:
            await table.act(user, ActionKind.CALL)
    await table.idle()


async def test_hands_on_real_storage_keep_every_chip(db: Database) -> None:
    """Buy-ins, ten hands, a leave and a close: balances add up and the audit is clean."""
    clock, rec, rng = FakeClock(), Recorder(), random.Random(5)
    reg = registry(db, clock, rec)
    economy = Economy(db)
    before = {u: await economy.balance(GUILD, u) for u in (2, 3, 4)}
    table = await reg.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=CREATOR,
        config=TableConfig.create(variant_key="omaha_hilo"),
    )
    for u in (2, 3, 4):
        await table.join(u, f"p{u}", 150)
    assert await economy.balance(GUILD, 2) == before[2] - 150
    for _ in range(10):
        await play_hand(table, clock, rng)
        for s in list(table.seats.values()):
            if s.stack == 0:
                await table.top_up(s.user_id, 100)
                await table.sit_in(s.user_id)
    stored = {s.user_id: s.stack for s in await db.tables.seats(table.table_id)}
    assert stored == {s.user_id: s.stack for s in table.seats.values()}
    await table.close(CREATOR)
    after = {u: await economy.balance(GUILD, u) for u in (2, 3, 4)}
    assert sum(after.values()) == sum(before.values())
    audit = await db.audit()
    assert audit and all(line.ok for line in audit), [str(line) for line in audit]
    assert sum(line.stacks for line in audit) == 0
    assert len(rec.of(HandSettled)) >= 10


async def test_storage_refusals_become_polite_table_errors(db: Database) -> None:
    """A buy-in beyond the balance is an InsufficientFunds with the storage's message."""
    reg = registry(db, FakeClock(), Recorder())
    table = await reg.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=CREATOR,
        config=TableConfig.create(big_blind=1000, small_blind=500, max_buyin=10**8),
    )
    with pytest.raises(InsufficientFunds):
        await table.join(2, "p2", 10**8)
    assert table.seat_of(2) is None
    with pytest.raises(TableError):
        await reg.create(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create()
        )


async def test_restart_resumes_the_hand_from_the_database(db: Database) -> None:
    """A new registry on the same database resumes the running hand on its sealed deck."""
    clock, rec = FakeClock(), Recorder()
    reg = registry(db, clock, rec)
    table = await reg.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create()
    )
    for u in (2, 3, 4):
        await table.join(u, f"p{u}", 200)
    await deal(table, clock)
    first = table.seats[table.current.hand.to_act].user_id
    await table.act(first, ActionKind.CALL)
    holes = {n: table.current.hand.hole(n) for n in table.current.dealt}
    board_turn = table.current.hand.to_act
    await table.shutdown()

    reg2 = registry(db, clock, Recorder())
    [again] = await reg2.restore()
    assert again.current is not None and again.current.hand.to_act == board_turn
    assert {n: again.current.hand.hole(n) for n in again.current.dealt} == holes
    await play_hand(again, clock, random.Random(1))
    hand = await db.hands.get(again.current.hand_id if again.current else 1)
    assert hand.status == "finished" and hand.resumed == 1


async def test_straddles_survive_a_restart_and_are_in_the_history(db: Database) -> None:
    """RULES.md 10 on the real storage: the players' choices and a straddled hand in
    progress come back after a restart; the finished hand's PHH records the straddle."""
    from bot.engine import phh
    from bot.runtime.hand_history import export_phh, load_past
    from bot.runtime.table.straddle import choose

    clock, rec = FakeClock(), Recorder()
    reg = registry(db, clock, rec)
    table = await reg.create(guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
                             config=TableConfig.create(structure="no limit", straddle=True))
    for u in (2, 3, 4):
        await table.join(u, f"p{u}", 200)
        await choose(table, u, True)
    await deal(table, clock)
    straddler = table.current.hand.straddle_seat
    assert straddler is not None
    await table.act(table.seats[table.current.hand.to_act].user_id, ActionKind.RAISE, 8)
    to_act = table.current.hand.to_act
    await table.shutdown()

    again_reg = registry(db, clock, Recorder())
    [again] = await again_reg.restore()
    assert all(s.straddle for s in again.seats.values())
    assert again.current is not None and again.current.hand.straddle_seat == straddler
    assert again.current.hand.to_act == to_act
    hand_id = again.current.hand_id
    await play_hand(again, clock, random.Random(2))
    past = await load_past(db, await db.hands.get(hand_id))
    assert past.hand.straddle_seat == straddler
    text = export_phh(past, {s: f"p{s}" for s in past.hand.seat_order}, None)
    assert phh.loads(text).blinds_or_straddles == (1, 2, 4)


async def test_each_process_resumes_only_the_tables_of_its_own_shards(db: Database) -> None:
    """Two processes over one database: a restart brings back each table exactly once,
    in the process whose shard holds its server; nothing else is touched."""
    from bot.sharding import ShardRange

    clock = FakeClock()
    reg = registry(db, clock, Recorder())
    guilds = (GUILD << 22, (GUILD + 1) << 22)  # shards 0 and 1 of 2
    for n, guild in enumerate(guilds):
        table = await reg.create(
            guild_id=guild, channel_id=CHANNEL + n, creator_id=CREATOR,
            config=TableConfig.create(),
        )
        for u in (2, 3):
            await table.join(u + 10 * n, f"p{u}", 200)
        await deal(table, clock)
    await reg.shutdown()

    restored: dict[int, list[int]] = {}
    for shard in (0, 1):
        mine = ShardRange.parse("2", str(shard))
        assert mine is not None
        again = registry(db, clock, Recorder())
        again.owns = mine.owns
        restored[shard] = [t.guild_id for t in await again.restore()]
        assert all(t.current is not None for t in again.all())
        await again.shutdown()
    assert restored == {0: [guilds[0]], 1: [guilds[1]]}
