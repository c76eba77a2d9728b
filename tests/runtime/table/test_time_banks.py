"""A time bank spent before a restart stays spent (bot.runtime.table.time_banks, RULES.md 8).
On the in-memory ports and the fake clock."""

from __future__ import annotations

from bot.engine.events import ActionKind
from bot.runtime.registry import TableRegistry
from bot.runtime.table.live import Table
from bot.runtime.table.time_banks import restored
from tests.runtime.conftest import PAUSE, World, name_of

USERS = (2, 3, 4)


async def dealt(world: World) -> Table:
    table = await world.table(clock=30, time_bank=10)
    await world.seat(table, *USERS)
    await world.deal(table)
    assert table.current is not None
    return table


async def restart(world: World, table: Table) -> Table:
    await table.shutdown()
    registry = TableRegistry(
        economy=world.economy, hands=world.hands, tables=world.tables, observer=world.observer,
        clock=world.clock, pause=PAUSE, names=name_of,
    )
    [again] = await registry.restore()
    return again


def bank_of(table: Table, user: int) -> float:
    seat = table.seat_of(user)
    assert seat is not None
    return seat.time_bank


async def test_the_bank_spent_before_a_restart_stays_spent(world: World) -> None:
    """The first player acts 7 s into their 10 s bank; the second times out (bank all
    spent); the third never used theirs. After a restart: 3 s, 0 s and 10 s."""
    table = await dealt(world)
    first = world.to_act(table)
    await world.clock.advance(37)
    await table.idle()
    await world.act(table, ActionKind.FOLD)
    second = world.to_act(table)
    await world.clock.advance(41)
    await table.idle()
    assert table.current is None or world.to_act(table) != second  # timed out
    third = next(u for u in USERS if u not in (first, second))
    assert (bank_of(table, first), bank_of(table, second)) == (3.0, 0.0)
    again = await restart(world, table)
    assert bank_of(again, first) == 3.0
    assert bank_of(again, second) == 0.0
    assert bank_of(again, third) == 10.0


async def test_a_new_bank_setting_gives_every_seat_the_whole_new_bank(world: World) -> None:
    """A player who spent their bank, then the creator sets a 20 s bank between hands:
    everyone has 20 s, after a restart too."""
    table = await dealt(world)
    spender = world.to_act(table)
    await world.clock.advance(41)  # times out
    await table.idle()
    while table.current is not None:
        await world.act(table, ActionKind.FOLD)
    await table.update_settings(table.creator_id, time_bank=20)
    assert bank_of(table, spender) == 20.0
    again = await restart(world, table)
    assert {bank_of(again, u) for u in USERS} == {20.0}


def test_what_a_restored_seat_starts_with() -> None:
    """What storage kept, never more than the table's whole bank; the whole bank when
    storage kept nothing."""
    assert restored(60, None) == 60.0
    assert restored(60, 12.5) == 12.5
    assert restored(30, 45.0) == 30.0
    assert restored(30, -1.0) == 0.0
