"""Results yet to be posted, on the real storage (SQLite and PostgreSQL): a settlement
marks its result pending, the presenter's confirmation clears it, and a restart posts
the result a kill kept from the channel (issue 33)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.table import late_results
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
    # hand 2's result posted: hand 1's (refused then) will not be posted late, its mark
    # goes with it, so a closed table's is not looked for at every start either
    assert await pending(db, table) == []
    assert await db.results.unposted(table.table_id) == []
    await db.results.posted(2)  # again (a write job may run twice): nothing changes
    assert await pending(db, table) == []


async def test_a_closed_table_tells_its_result_a_kill_kept_from_its_channel(
    db: Database,
) -> None:
    clock, rec = FakeClock(), Recorder()
    table = await registry(db, clock, rec).create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
        config=TableConfig.create(language="it"))
    for u in (2, 3):
        await table.join(u, f"p{u}", 200)
    await play_hand(table, clock, random.Random(6))
    rec.lose_results = True  # as a kill between the settlement and the post
    await play_hand(table, clock, random.Random(7))
    [_, lost] = rec.of(HandSettled)
    await table.close(CREATOR)
    await table.idle()
    assert await pending(db, table) == [2]
    assert [t.id for t in await db.results.closed()] == [table.table_id]

    again = registry(db, clock, Recorder())
    assert await again.restore() == []  # a closed table does not come back
    assert await late_results.closed_results(again.hands, again.names, lambda g: g != GUILD) == []
    [late] = await late_results.closed_results(again.hands, again.names, again.owns)
    assert late.result == replace(lost.result, rabbit_hunt=False, showing=False,
                                  after_restart=True)
    snap = late.table
    assert (snap.table_id, snap.channel_id, snap.hand_id, snap.board, snap.config.language) == (
        table.table_id, CHANNEL, lost.table.hand_id, lost.table.board, "it")
    assert {s.user_id: s.stack for s in snap.seats} == {
        s.user_id: s.stack for s in lost.table.seats}  # the players and stacks at its end
    await late.posted()
    assert await pending(db, table) == [] and await db.results.closed() == []
