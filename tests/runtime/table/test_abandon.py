"""Abandoning a table whose channel is lost, on the real storage (aiosqlite, PostgreSQL).

The rule (RULES.md 7, ``bot/runtime/table/abandon.py``): the hand in progress is
played out by the clock's rule, never refunded (every decision left a timeout:
check, otherwise fold; run it twice: once), settled as any hand; then every stack
goes back to its owner's balance (a sit-and-go is cancelled as after its start:
prizes kept, the rest of the pool split by stacks); the table is closed and tells
its observer nothing more. A kill at any moment loses no chip and ends the hand the
same way.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.economy import Economy
from bot.engine.events import ActionKind, Street
from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.errors import NoTable
from bot.runtime.hand_history import load_past
from bot.runtime.ports import StoredAction
from bot.runtime.registry import TableRegistry
from bot.runtime.table.abandon import Abandoned, Ending, Later
from bot.runtime.table.live import Table
from bot.runtime.tournament.service import TournamentService
from bot.runtime.tournament.sit_and_go import Status, TournamentSettings
from bot.storage import Database
from bot.storage_ports import StoragePorts
from tests.runtime.conftest import name_of
from tests.runtime.fakes import Recorder

GUILD, OTHER_GUILD, CHANNEL, CREATOR = 10, 11, 100, 1
PAUSE = 2.0
USERS = (2, 3, 4, 5)
BUYINS = (100, 200, 400, 400)


class Killed(Exception):
    """The process "dies" here (the test then starts a new registry on the same file)."""


class DyingPorts(StoragePorts):
    """The real storage, but once armed the bot dies just after writing at ``die``: a
    timeout of the hand played out, its settlement, or the cash-outs."""

    def __init__(self, db: Database, die: str) -> None:
        super().__init__(db)
        self.die = die
        self.armed = False

    def _maybe(self, point: str) -> None:
        if self.armed and self.die == point:
            raise Killed(f"killed just after writing {point}")

    async def append_action(self, hand_id: int, action: StoredAction) -> None:
        await super().append_action(hand_id, action)
        self._maybe("a timeout")

    async def settle(self, hand_id: int, **kw: Any) -> None:
        await super().settle(hand_id, **kw)
        self._maybe("the settlement")

    async def abandon_table(self, table_id: int) -> Mapping[int, int]:
        returned = await super().abandon_table(table_id)
        self._maybe("the cash-outs")
        return returned


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
    before = await balances(db, USERS)
    table = await reg.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
        config=TableConfig.create(
            structure="no limit", big_blind=2, min_buyin=100, max_buyin=400
        ),
    )
    for user, buyin in zip(USERS, BUYINS, strict=True):
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


async def test_a_channel_lost_mid_hand_with_side_pots_plays_it_out(db: Database) -> None:
    """All-ins and two side pots on the turn: the deep players' turn and river are checked
    by the clock's rule, the board is dealt from the committed deck, the three pots are
    awarded, and every stack the hand left is cashed out."""
    clock, rec = FakeClock(), Recorder()
    reg = registry(db, clock, rec)
    table, before = await cash_table_in_a_side_pot_hand(db, reg, clock)
    cur = table.current
    assert cur is not None and cur.hand.street is Street.TURN
    assert [p.amount for p in cur.hand.pots] == [400, 300, 100]  # main and two side pots
    acted = len(await db.hands.actions(cur.hand_id))
    await table.idle()
    told = len(rec.events)

    gone = await reg.abandon(table.table_id, "the channel was deleted")

    assert isinstance(gone, Abandoned) and gone.ending is Ending.CASHED_OUT
    assert gone.hand == cur.hand_no
    stored = await db.hands.actions(cur.hand_id)
    assert [(a["kind"], a["source"]) for a in stored[acted:]] == [("check", "timeout")] * 4
    record = await db.hands.get(cur.hand_id)
    assert record.status == "finished" and record.cancel_reason is None
    past = await load_past(db, record)  # the deck matches its commitment, the record replays
    assert len(past.hand.board) == 5 and [p.amount for p in past.hand.pots] == [400, 300, 100]
    finals = {past.users[n]: s for n, s in past.hand.result.final_stacks.items()}
    assert gone.returned == gone.stacks == finals and sum(finals.values()) == 1100
    assert gone.nets == {u: finals[u] - b for u, b in zip(USERS, BUYINS, strict=True)}
    assert any(gone.nets.values())  # the pots were won: nobody's bet came back as such
    assert await balances(db, USERS) == {
        u: before[u] - b + finals[u] for u, b in zip(USERS, BUYINS, strict=True)}
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


async def test_an_open_run_it_twice_question_runs_the_board_once(db: Database) -> None:
    """Heads-up all-in preflop at a table that runs it twice: the question is open when
    the channel is lost; silence answers "once", one board is dealt, the pot awarded."""
    clock = FakeClock()
    reg = registry(db, clock, Recorder())
    before = await balances(db, (2, 3))
    table = await reg.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
        config=TableConfig.create(structure="no limit", run_it_twice=True),
    )
    await table.join(2, "p2", 200)
    await table.join(3, "p3", 200)
    await deal(table, clock)
    await table.act(await to_act(table) or 0, ActionKind.ALL_IN)
    await table.act(await to_act(table) or 0, ActionKind.CALL)
    cur = table.current
    assert cur is not None and cur.question is not None and cur.hand.run_twice_voters

    gone = await reg.abandon(table.table_id, "the thread was locked")

    assert gone is not None and gone.hand == cur.hand_no
    actions = await db.hands.actions(cur.hand_id)
    assert [(a["kind"], a["source"]) for a in actions[-1:]] == [("once", "timeout")]
    past = await load_past(db, await db.hands.get(cur.hand_id))
    assert len(past.hand.board) == 5 and not past.hand.second_board
    assert sorted(gone.returned.values()) == [0, 400]  # one player won the whole pot
    after = await balances(db, (2, 3))
    assert {u: after[u] - before[u] for u in (2, 3)} == {
        u: gone.returned[u] - 200 for u in (2, 3)}
    await assert_audit(db)


async def test_between_hands_every_stack_goes_back_as_it_is(db: Database) -> None:
    """After a few settled hands, in the pause before the next: the stacks go back as the
    table holds them, no hand is dealt."""
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
    assert table.current is None and table.pending_deal
    stacks = {s.user_id: s.stack for s in table.seats.values()}
    assert sum(stacks.values()) == 600

    [gone] = await reg.abandon_channel(CHANNEL, "no access")

    assert gone.hand is None and not gone.nets and gone.returned == gone.stacks == stacks
    after = await balances(db, users)
    assert {u: after[u] - (start[u] - 200) for u in users} == stacks
    assert sum(after.values()) == sum(start.values())
    assert len(await db.hands.list_unfinished()) == 0 and not table.pending_deal
    await assert_audit(db)


def split_by_stacks(amount: int, stacks: dict[int, int]) -> dict[int, int]:
    """The rule shown before registration, written again: each player's share rounded
    down, the chips left over one at a time to the biggest stacks."""
    total = sum(stacks.values())
    out = {u: amount * s // total for u, s in stacks.items()}
    for user in sorted(stacks, key=lambda u: -stacks[u])[:amount - sum(out.values())]:
        out[user] += 1
    return out


async def test_a_sit_and_go_lost_mid_hand_keeps_prizes_won_and_splits_the_rest(
    db: Database,
) -> None:
    """Four entrants, three paid (50/30/20): two are out (the 3rd place paid), a hand is
    running when the server is lost. It is played out; the 3rd place keeps their prize,
    the rest of the pool goes to the two players still in, by their stacks."""
    clock = FakeClock()
    reg = registry(db, clock, Recorder())
    tours = TournamentService(reg, StoragePorts(db))
    before = await balances(db, USERS)
    sng = await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR,
        settings=TournamentSettings.create(
            buy_in=100, max_entrants=4, min_entrants=3, structure="no limit",
            payouts=(50, 30, 20)),
    )
    for user in USERS:
        await sng.join(user)
    table = sng.table
    assert table is not None
    while True:  # heads-up all-ins: the first to act shoves, the next calls, others fold
        await deal(table, clock)
        if len(sng.sng.alive) == 2:
            break
        acted = 0
        while (user := await to_act(table)) is not None:
            kinds = (ActionKind.ALL_IN, ActionKind.CALL)
            await table.act(user, kinds[acted] if acted < 2 else ActionKind.FOLD)
            acted += 1
        await table.idle()
    cur = table.current
    assert cur is not None and not cur.hand.is_over
    [third] = [u for u, place in sng.sng.places.items() if place == 3]

    [gone] = await reg.abandon_guild(GUILD, "the bot was removed from the server")

    assert gone.ending is Ending.CANCELLED and gone.hand == cur.hand_no
    assert (await db.hands.get(cur.hand_id)).status == "finished"
    alive = dict(gone.stacks)
    assert set(alive) == set(sng.sng.alive) and sum(alive.values()) == 4 * 1_500
    assert gone.returned == {third: 80, **split_by_stacks(320, alive)}
    after = await balances(db, USERS)
    assert {u: after[u] - before[u] + 100 for u in USERS} == {
        u: gone.returned.get(u, 0) for u in USERS}
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

    assert gone.ending is Ending.REFUNDED and gone.returned == {2: 50, 3: 50}
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


async def abandoned_without_a_kill(path: Path) -> dict[int, int]:
    """The balances after the side-pot hand is abandoned with nothing going wrong."""
    db = await Database.open(str(path))
    try:
        clock = FakeClock()
        reg = registry(db, clock, Recorder())
        table, _ = await cash_table_in_a_side_pot_hand(db, reg, clock)
        await reg.abandon(table.table_id, "the channel was deleted")
        return await balances(db, USERS)
    finally:
        await db.close()


@pytest.mark.parametrize("die", ["a timeout", "the settlement", "the cash-outs"])
async def test_a_kill_in_the_middle_of_abandoning_loses_no_chip(tmp_path: Path, die: str) -> None:
    """Killed just after writing a timeout of the hand, its settlement, or the cash-outs:
    after a restart the audit holds, and once the table is found lost again every balance
    is what an uninterrupted abandon gives (the same deck, the same timeouts)."""
    expected = await abandoned_without_a_kill(tmp_path / "whole.sqlite3")
    path = str(tmp_path / "bot.sqlite3")
    db = await Database.open(path)
    clock = FakeClock()
    ports = DyingPorts(db, die)
    reg = registry(db, clock, Recorder(), ports)
    table, before = await cash_table_in_a_side_pot_hand(db, reg, clock)
    ports.armed = True
    with pytest.raises(Killed):
        await reg.abandon(table.table_id, "the channel was deleted")
    await reg.shutdown()
    await db.close()

    db = await Database.open(path)  # the restart
    try:
        await assert_audit(db)
        again = registry(db, FakeClock(), Recorder())
        restored = await again.restore()
        if die == "the cash-outs":
            assert restored == []
        else:  # the table comes back (its hand too, before the settlement) and is lost again
            [table] = restored
            assert (table.current is not None) is (die == "a timeout")
            await again.abandon_channel(CHANNEL, "the channel was deleted")
        assert await balances(db, USERS) == expected != before
        assert not await db.tables.list_open() and not await db.hands.list_unfinished()
        await assert_audit(db)
        await again.shutdown()
    finally:
        await db.close()


async def test_chips_paid_later_are_told_once_and_nothing_when_dropped() -> None:
    """:class:`Later` (a multi-table tournament's cancellation, paid once the hands at its
    other tables end): a waiter gets what was paid; the first word counts; dropped, None."""
    later = Later()
    waiting = asyncio.ensure_future(later.wait())
    await asyncio.sleep(0)
    assert not waiting.done()
    later.pay({7: 103, 8: 98})
    later.drop()  # the tables closing afterwards change nothing
    later.pay({7: 1})
    assert await waiting == {7: 103, 8: 98} == await later.wait()
    dropped = Later()
    dropped.drop()
    dropped.pay({7: 103})
    assert await dropped.wait() is None
