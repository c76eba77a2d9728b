"""Shared helpers for the storage and economy tests: a fake clock, an audited database."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg

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


@contextlib.contextmanager
def no_umask() -> Iterator[None]:
    """Files created meanwhile get exactly the mode asked for (umask 0): a file the code
    leaves to the default mode comes out world-writable, so a test sees it."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    """``path``'s permission bits (``0o600``)."""
    return path.stat().st_mode & 0o777


async def assert_audit_ok(db: Database) -> None:
    lines = await db.audit()
    bad = [str(line) for line in lines if not line.ok]
    assert not bad, "\n".join(bad)


@contextlib.asynccontextmanager
async def audited_db(path: Path | str, clock: FakeClock) -> AsyncIterator[Database]:
    """A database that must pass the chip audit when the scenario ends."""
    # A PostgreSQL database has no file beside which to keep a deck key.
    key = os.urandom(32) if str(path).startswith("postgresql://") else None
    db = await Database.open(path, clock=clock, deck_key=key)
    try:
        yield db
        await assert_audit_ok(db)
    finally:
        await db.close()


async def read_elsewhere(db: Database, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows read through a connection of its own (not ``db``'s): what is on disk.

    ``sql`` uses ``?`` placeholders (turned into ``$n`` for PostgreSQL).
    """
    if db.dialect.name == "sqlite":
        other = sqlite3.connect(db.path)
        try:
            return other.execute(sql, tuple(args)).fetchall()
        finally:
            other.close()
    from bot.storage.dialect import numbered

    conn = await asyncpg.connect(db.path)
    try:
        return [tuple(r) for r in await conn.fetch(numbered(sql), *args)]
    finally:
        await conn.close()
