"""Results yet to be posted, on the real storage (SQLite and PostgreSQL): a settlement
marks its result pending, the presenter's confirmation clears it, and a restart posts
the result a kill kept from the channel (issue 33)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.table.events import HandSettled
from bot.runtime.table.live import Table
from bot.storage import Database
from tests.runtime.fakes import Recorder
from tests.test_storage_ports import CHANNEL, CREATOR, GUILD, play_hand, registry


async def pending(db: Database, table: Table) -> list[int]:
    """The table's hand numbers whose results are pending, as stored."""
    return await db.read(lambda c: [r[0] for r in c.execute(
        "SELECT number FROM hands WHERE table_id = ? AND result_pending = 1 ORDER BY number",
        (table.table_id,))])


async def test_a_kill_before_the_result_posts_it_after_the_restart_once(db: Database) -> None:
    clock, rec = FakeClock(), Recorder()
    table = await registry(db, clock, rec).create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create())
    for u in (2, 3, 4):
        await table.join(u, f"p{u}", 200)
    await play_hand(table, clock, random.Random(2))
    assert await pending(db, table) == []  # posted: the recorder said so
    rec.lose_results = True  # as a kill between the settlement and the post
    await play_hand(table, clock, random.Random(3))
    [_, lost] = rec.of(HandSettled)
    await table.shutdown()
    assert await pending(db, table) == [2]
    assert [h.number for h in await db.results.unposted(table.table_id)] == [2]

    again_rec = Recorder()
    [again] = await registry(db, clock, again_rec).restore()
    await again.idle()
    [late] = again_rec.of(HandSettled)
    assert late.result == replace(lost.result, rabbit_hunt=False, showing=False,
                                  after_restart=True)
    assert late.table.hand_id == lost.table.hand_id and late.table.board == lost.table.board
    assert await pending(db, table) == [] and await db.results.unposted(table.table_id) == []
    await again.shutdown()

    third = Recorder()
    [back] = await registry(db, clock, third).restore()
    await back.idle()
    assert third.of(HandSettled) == []
    await back.shutdown()


async def test_a_result_refused_before_a_later_one_was_posted_stays_unposted(
    db: Database,
) -> None:
    clock, rec = FakeClock(), Recorder()
    table = await registry(db, clock, rec).create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create())
    for u in (2, 3):
        await table.join(u, f"p{u}", 200)
    rec.lose_results = True
    await play_hand(table, clock, random.Random(4))
    rec.lose_results = False
    await play_hand(table, clock, random.Random(5))
    await table.shutdown()
    assert await pending(db, table) == [1]
    assert await db.results.unposted(table.table_id) == []
    await db.results.posted(1)
    await db.results.posted(1)  # again (a write job may run twice): nothing changes
    assert await pending(db, table) == []
