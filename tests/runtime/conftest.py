"""Fixtures for the runtime tests: a registry on in-memory ports and a fake clock."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.registry import TableRegistry
from bot.runtime.table.live import Table
from bot.runtime.tournament.service import TournamentService

from .fakes import FakeChipBank, FakeHandStore, FakeTableStore, Recorder

PAUSE = 3.0
GUILD = 10
CHANNEL = 100
CREATOR = 1


async def name_of(guild_id: int, user_id: int) -> str:
    return f"p{user_id}"


async def stop(tournaments: TournamentService) -> None:
    """Stop as the bot does (``App.stop_tables``): the directors, then every table."""
    await tournaments.shutdown()
    await tournaments.registry.shutdown()


@dataclass
class World:
    clock: FakeClock
    economy: FakeChipBank
    hands: FakeHandStore
    tables: FakeTableStore
    observer: Recorder
    registry: TableRegistry

    async def table(self, channel: int = CHANNEL, **settings: Any) -> Table:
        return await self.registry.create(
            guild_id=GUILD,
            channel_id=channel,
            creator_id=CREATOR,
            config=TableConfig.create(**settings),
        )

    async def seat(self, table: Table, *users: int, buyin: int | None = None) -> None:
        for u in users:
            await table.join(u, f"p{u}", buyin)

    async def deal(self, table: Table) -> None:
        """Let the pause between hands pass so the next hand is dealt."""
        await self.clock.advance(PAUSE)
        await table.idle()

    def to_act(self, table: Table) -> int:
        """The user id whose turn it is."""
        assert table.current is not None and table.current.hand.to_act is not None
        return table.seats[table.current.hand.to_act].user_id

    async def act(self, table: Table, kind: str, amount: int | None = None) -> Any:
        return await table.act(self.to_act(table), kind, amount)

    def chips(self, table: Table) -> int:
        """Balances plus chips at the table (seats, and the pot of a running hand)."""
        return self.economy.total()


@pytest.fixture
def world() -> World:
    clock = FakeClock()
    economy = FakeChipBank()
    hands = FakeHandStore(economy)
    tables = FakeTableStore(economy)
    observer = Recorder()
    registry = TableRegistry(
        economy=economy,
        hands=hands,
        tables=tables,
        observer=observer,
        clock=clock,
        rng=random.Random(7),
        pause=PAUSE,
        names=name_of,
    )
    return World(clock, economy, hands, tables, observer, registry)
