"""Caps on open cash tables: the defaults, a server's own, and the registry applying them."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from bot.runtime.caps import Opening, ServerCaps, TableCaps
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableError

from .conftest import GUILD, World

OTHER_GUILD = 11


class MemoryCapStore:
    """The :class:`~bot.runtime.ports.CapStore` in memory (storage's is tested in
    tests/storage/test_caps.py); ``gate`` holds each write until set."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[int | None, int | None]] = {}
        self.gate = asyncio.Event()
        self.gate.set()

    async def stored_caps(self) -> Mapping[int, tuple[int | None, int | None]]:
        return dict(self.rows)

    async def store_caps(
        self, guild_id: int, per_member: int | None, per_server: int | None
    ) -> None:
        await self.gate.wait()
        self.rows[guild_id] = (per_member, per_server)


async def test_a_server_follows_the_defaults_until_it_sets_its_own() -> None:
    store = MemoryCapStore()
    caps = ServerCaps(TableCaps(3, 20), store)
    assert caps.of(GUILD) == TableCaps(3, 20)
    assert await caps.change(GUILD, per_member=5) == TableCaps(5, 20)
    assert store.rows == {GUILD: (5, None)}  # the other cap still follows the operator
    assert caps.of(OTHER_GUILD) == TableCaps(3, 20)
    again = ServerCaps(TableCaps(4, 30), store)  # a restart, with other defaults
    await again.load()
    assert again.of(GUILD) == TableCaps(5, 30)


async def test_two_changes_at_once_both_stay() -> None:
    store = MemoryCapStore()
    store.gate.clear()
    caps = ServerCaps(TableCaps(3, 20), store)
    first = asyncio.create_task(caps.change(GUILD, per_member=6))
    second = asyncio.create_task(caps.change(GUILD, per_server=60))
    await asyncio.sleep(0)
    store.gate.set()
    await asyncio.gather(first, second)
    assert caps.of(GUILD) == TableCaps(6, 60) and store.rows[GUILD] == (6, 60)


async def test_a_cap_out_of_range_is_refused() -> None:
    caps = ServerCaps(TableCaps(3, 20), MemoryCapStore())
    with pytest.raises(ValueError, match="1 to 100"):
        await caps.change(GUILD, per_member=0)
    assert caps.of(GUILD) == TableCaps(3, 20)


async def test_the_registry_counts_tables_being_stored(world: World) -> None:
    """Two creates by one member at once with one place left: the second is refused."""
    world.registry.caps = ServerCaps(TableCaps(per_member=1))
    real = world.tables.create_table
    stored = asyncio.Event()

    async def slow(**kwargs: object) -> int:
        await stored.wait()
        return await real(**kwargs)  # type: ignore[arg-type]

    world.tables.create_table = slow  # type: ignore[method-assign]
    first = asyncio.create_task(world.table(channel=201))
    await asyncio.sleep(0)
    with pytest.raises(TableError, match=r"per member \(1\)"):
        await world.table(channel=202)
    stored.set()
    await first
    assert world.registry.openings(GUILD) == [Opening(1)]


async def test_the_registry_refuses_over_the_server_cap_and_frees_a_closed_place(
    world: World,
) -> None:
    world.registry.caps = ServerCaps(TableCaps(per_server=2))
    one = await world.table(channel=201)
    await world.registry.create(guild_id=GUILD, channel_id=202, creator_id=2,
                                config=TableConfig.create())
    with pytest.raises(TableError, match=r"limit of open tables \(2,"):
        await world.registry.create(guild_id=GUILD, channel_id=203, creator_id=3,
                                    config=TableConfig.create())
    await world.registry.create(guild_id=OTHER_GUILD, channel_id=204, creator_id=3,
                                config=TableConfig.create())  # another server: its own count
    await one.close(1, is_manager=False)
    await world.registry.create(guild_id=GUILD, channel_id=203, creator_id=3,
                                config=TableConfig.create())
    assert sorted(o.creator_id for o in world.registry.openings(GUILD)) == [2, 3]
    assert world.registry.open_tables(GUILD) == 2
