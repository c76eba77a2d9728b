from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database

from .helpers import FakeClock, audited_db


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def db(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
    """A fresh database file; the chip audit must hold at the end of every test."""
    async with audited_db(tmp_path / "test.sqlite3", clock) as database:
        yield database
