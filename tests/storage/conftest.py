from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Database

from .helpers import FakeClock, audited_db


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def db(database_target: str, clock: FakeClock) -> AsyncIterator[Database]:
    """A fresh database (SQLite file, then PostgreSQL: tests/pgcluster.py); the chip
    audit must hold at the end of every test."""
    async with audited_db(database_target, clock) as database:
        yield database
