"""The database when it cannot be written (bot/storage/outage.py, Database's outage).

SQLite's own errors, made for real: ``PRAGMA max_page_count`` gives a database that is
full (SQLITE_FULL, the code a full disk gives), ``PRAGMA query_only`` one that refuses
writes (SQLITE_READONLY), a second connection holding the write lock a busy one
(SQLITE_BUSY, which is not an outage). The outage itself on a real full disk: a tmpfs
filled (root only: tests/storage/faults.py); the bot through it:
tests/cogs/test_storage_faults.py.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Database, LedgerKind, StorageUnavailable
from bot.storage.outage import (
    PROBE_EVERY,
    ROOM_AFTER_FULL,
    fault_of,
    must_reopen,
    next_probe,
)

from .faults import fill, small_disk
from .helpers import FakeClock, assert_audit_ok

G, ALICE, MOD = 7, 201, 999


def error_of(conn: sqlite3.Connection, sql: str) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as caught:
        conn.execute(sql)
    return caught.value


def test_what_is_a_fault(tmp_path: Path) -> None:
    """A full or read-only database is a fault (read-only: reopened); a busy lock, a
    violated constraint or a mistake in SQL is not."""
    path = str(tmp_path / "f.sqlite3")
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY, b BLOB)")
    conn.execute("INSERT INTO t (x) VALUES (1)")
    conn.execute("PRAGMA query_only = ON")
    read_only = error_of(conn, "INSERT INTO t (x) VALUES (2)")
    assert fault_of(read_only) == ("attempt to write a readonly database (SQLITE_READONLY)")
    assert must_reopen(read_only)
    conn.execute("PRAGMA query_only = OFF")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    full = error_of(conn, "INSERT INTO t (b) VALUES (randomblob(1000000))")
    assert fault_of(full) == "database or disk is full (SQLITE_FULL)" and not must_reopen(full)
    assert fault_of(error_of(conn, "INSERT INTO t (x) VALUES (1)")) is None  # a constraint
    assert fault_of(error_of(conn, "SELEC 1")) is None
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    assert fault_of(error_of(conn, "BEGIN IMMEDIATE")) is None  # busy: it passes
    other.execute("ROLLBACK")
    assert fault_of(StorageUnavailable("PostgreSQL down")) == "PostgreSQL down"


def test_tries_come_sooner_then_every_15_s() -> None:
    waits, wait = [], 0.0
    for _ in range(6):
        wait = next_probe(wait)
        waits.append(wait)
    assert waits == [1.0, 2.0, 4.0, 8.0, PROBE_EVERY, PROBE_EVERY] and PROBE_EVERY == 15.0


async def test_a_full_disk_refuses_writes_at_once_reads_on_and_comes_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """A write meets a full disk: it fails as StorageUnavailable, the outage begins (told
    once, logged once), later writes are refused without reaching the writer, reads go
    on; with less than a megabyte free it goes on (no flapping); the space back, the
    next try commits and writes go on. Nothing half written: the audit passes."""
    with small_disk(tmp_path / "disk") as disk:
        db = await Database.open(disk / "o.sqlite3", clock=FakeClock())
        told: list[bool] = []
        db.on_outage = told.append
        try:
            await db.wallets.open(G, ALICE)
            filler = fill(disk)
            with pytest.raises(StorageUnavailable, match="database or disk is full"):
                await db.state.put("big", "x" * 100_000)
            assert told == [True] and db.outage.down and db.outage.count == 1
            jobs = db.jobs
            for _ in range(5):
                with pytest.raises(StorageUnavailable):
                    await db.wallets.credit(G, ALICE, 5, kind=LedgerKind.GRANT, actor_id=MOD,
                                            reason="x")
            assert db.jobs == jobs  # refused before the writer
            assert (await db.wallets.get(G, ALICE)).balance == 10_000  # type: ignore[union-attr]
            filler.unlink()  # some room, not enough: a small write would fit, it waits
            almost = disk / "almost"
            almost.write_bytes(bytes(shutil.disk_usage(disk).free - ROOM_AFTER_FULL // 2))
            await asyncio.sleep(1.5)  # a try at 1 s
            assert db.outage.down and told == [True]
            almost.unlink()
            for _ in range(60):  # the next try, 2 s after
                if not db.outage.down:
                    break
                await asyncio.sleep(0.1)
            assert told == [True, False] and not db.outage.down
            assert await db.wallets.credit(G, ALICE, 5, kind=LedgerKind.GRANT, actor_id=MOD,
                                           reason="x") == 10_005
            lines = [r for r in caplog.records if r.name == "bot.storage"]
            assert [r.levelno for r in lines] == [logging.ERROR, logging.WARNING]
            assert "cannot be written: database or disk is full" in lines[0].getMessage()
            assert "can be written again" in lines[1].getMessage()
            await assert_audit_ok(db)
        finally:
            await db.close()
