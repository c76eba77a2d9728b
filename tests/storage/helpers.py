"""Shared helpers for the storage and economy tests: a fake clock, an audited database."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.storage import Database

#: 2026-11-25 12:00:00 UTC, a Wednesday.
T0 = 1795608000.0


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def assert_audit_ok(db: Database) -> None:
    lines = await db.audit()
    bad = [str(line) for line in lines if not line.ok]
    assert not bad, "\n".join(bad)


@contextlib.asynccontextmanager
async def audited_db(path: Path | str, clock: FakeClock) -> AsyncIterator[Database]:
    """A database that must pass the chip audit when the scenario ends."""
    db = await Database.open(path, clock=clock)
    try:
        yield db
        await assert_audit_ok(db)
    finally:
        await db.close()
