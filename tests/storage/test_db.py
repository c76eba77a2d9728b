"""The connection: pragmas, numbered migrations, group commit semantics."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Database, InsufficientChips, LedgerKind, StorageError
from bot.storage.dialect import Conn, sqlite_statements
from bot.storage.migrate import load_migrations

from .helpers import FakeClock, mode, no_umask


async def test_pragmas_wal_foreign_keys_busy_timeout(db: Database) -> None:
    """SQLite runs in WAL mode with foreign keys, a busy timeout and full sync;
    PostgreSQL with synchronous_commit on."""

    def pragmas(conn: Conn) -> tuple[object, ...]:
        return tuple(
            conn.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
        )

    def synchronous_commit(conn: Conn) -> str:
        return str(conn.execute("SHOW synchronous_commit").fetchone()[0])

    if db.dialect.name == "postgres":  # an acknowledged COMMIT is on the server's disk
        assert await db.read(synchronous_commit) == "on"
    else:
        assert await db.read(pragmas) == ("wal", 1, 10_000, 2)


async def test_migrations_apply_once_in_order(tmp_path: Path, clock: FakeClock) -> None:
    """Every packaged migration is recorded; reopening applies nothing again."""
    path = tmp_path / "m.sqlite3"
    db = await Database.open(path, clock=clock)
    await db.close()
    db = await Database.open(path, clock=clock)
    try:
        rows = await db.read(
            lambda c: c.execute("SELECT version, name FROM schema_migrations").fetchall()
        )
    finally:
        await db.close()
    assert rows == [(m.version, m.name) for m in load_migrations()]
    assert rows[0] == (1, "initial")


async def test_a_newer_schema_is_refused(tmp_path: Path, clock: FakeClock) -> None:
    """A database migrated by newer code is not silently used by older code."""
    path = tmp_path / "n.sqlite3"
    db = await Database.open(path, clock=clock)
    await db.write(lambda c: c.execute(
        "INSERT INTO schema_migrations VALUES (99, 'future', 0)"))
    await db.close()
    with pytest.raises(StorageError, match="newer than this code"):
        await Database.open(path, clock=clock)


def test_statement_splitter_keeps_triggers_whole() -> None:
    """Migration scripts split on complete statements, a trigger body staying one piece."""
    script = (
        "CREATE TABLE a (x);\n-- note; with semicolon\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  UPDATE a SET x = 1;\n  SELECT 1;\nEND;\n"
    )
    parts = sqlite_statements(script)
    assert len(parts) == 2 and parts[1].strip().startswith("-- note") and "END;" in parts[1]


async def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    """Opening a database in a folder that does not exist says so."""
    with pytest.raises(StorageError, match="does not exist"):
        await Database.open(tmp_path / "nope" / "x.sqlite3")


async def test_concurrent_writes_share_commits(db: Database) -> None:
    """200 concurrent grants land in far fewer commits than jobs, each acknowledged."""
    await db.wallets.open(1, 1)
    before_batches, before_jobs = db.batches, db.jobs
    results = await asyncio.gather(*(
        db.wallets.credit(1, 1, 1, kind=LedgerKind.GRANT, actor_id=None, reason="r")
        for _ in range(200)
    ))
    assert sorted(results) == list(range(10_001, 10_201))
    assert db.jobs - before_jobs == 200
    assert db.batches - before_batches < 50


async def test_a_failing_job_does_not_spoil_its_batch(db: Database) -> None:
    """In one batch, the refused removal rolls back alone; the other jobs commit."""
    await db.wallets.open(1, 1)
    results = await asyncio.gather(
        db.wallets.credit(1, 1, 5, kind=LedgerKind.GRANT, actor_id=None, reason="a"),
        db.wallets.debit(1, 1, 50_000, kind=LedgerKind.REMOVE, actor_id=None, reason="b"),
        db.wallets.credit(1, 1, 7, kind=LedgerKind.GRANT, actor_id=None, reason="c"),
        return_exceptions=True,
    )
    assert results[0] == 10_005 and isinstance(results[1], InsufficientChips)
    assert results[2] == 10_012
    assert (await db.wallets.open(1, 1)).balance == 10_012


async def test_a_failed_commit_fails_every_job_of_the_batch(
    tmp_path: Path, clock: FakeClock
) -> None:
    """When COMMIT cannot happen (another process holds the lock), no job reports success."""
    path = tmp_path / "lock.sqlite3"
    db = await Database.open(path, clock=clock)
    try:
        await db.wallets.open(1, 1)
        await db.run(lambda c: c.execute("PRAGMA busy_timeout = 50"))
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            results = await asyncio.gather(
                db.wallets.credit(1, 1, 5, kind=LedgerKind.GRANT, actor_id=None, reason="a"),
                db.wallets.credit(1, 1, 6, kind=LedgerKind.GRANT, actor_id=None, reason="b"),
                return_exceptions=True,
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert all(isinstance(r, sqlite3.OperationalError) for r in results)
        assert (await db.wallets.open(1, 1)).balance == 10_000
        assert await db.wallets.credit(
            1, 1, 1, kind=LedgerKind.GRANT, actor_id=None, reason="after") == 10_001
    finally:
        await db.close()


async def test_memory_database_works(clock: FakeClock) -> None:
    """':memory:' opens with a throwaway deck key and runs the same schema."""
    db = await Database.open(":memory:", clock=clock)
    try:
        assert (await db.wallets.open(5, 6)).balance == 10_000
        assert [line.ok for line in await db.audit()] == [True]
    finally:
        await db.close()


async def test_closed_database_refuses_work(tmp_path: Path) -> None:
    """After close, calls fail with a StorageError instead of hanging."""
    db = await Database.open(tmp_path / "c.sqlite3")
    await db.close()
    with pytest.raises(StorageError):
        await db.wallets.open(1, 1)


async def test_close_commits_queued_writes_and_refuses_later_ones(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Writes queued before close() are committed and acknowledged; none is left hanging."""
    path = tmp_path / "close.sqlite3"
    db = await Database.open(path, clock=clock)
    await db.wallets.open(1, 1)
    pending = [
        asyncio.create_task(
            db.wallets.credit(1, 1, 1, kind=LedgerKind.GRANT, actor_id=None, reason="q"))
        for _ in range(5)
    ]
    await asyncio.sleep(0)  # each task has queued its job
    closing = asyncio.create_task(db.close())
    await asyncio.sleep(0)
    with pytest.raises(StorageError):
        await db.wallets.credit(1, 1, 1, kind=LedgerKind.GRANT, actor_id=None, reason="late")
    await closing
    assert sorted([await t for t in pending]) == [10_001, 10_002, 10_003, 10_004, 10_005]
    db = await Database.open(path, clock=clock)
    try:
        assert (await db.wallets.open(1, 1)).balance == 10_005
    finally:
        await db.close()


async def test_an_old_database_is_upgraded_keeping_its_data(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A file at schema version 1 with a wallet gets migration 2 on open; the wallet stays."""
    path = tmp_path / "old.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    first = load_migrations()[0]
    raw.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at REAL NOT NULL)")
    for stmt in sqlite_statements(first.sql):
        raw.execute(stmt)
    raw.execute("INSERT INTO schema_migrations VALUES (1, 'initial', 0)")
    raw.execute("INSERT INTO wallets (guild_id, user_id, balance, created_at)"
                " VALUES (1, 2, 10000, 0)")
    raw.execute("INSERT INTO ledger (guild_id, at, kind, amount, src, dst, user_id)"
                " VALUES (1, 0, 'start', 10000, 'mint', 'wallet:2', 2)")
    raw.close()
    db = await Database.open(path, clock=clock)
    try:
        versions = await db.read(lambda c: [r[0] for r in c.execute(
            "SELECT version FROM schema_migrations ORDER BY version")])
        assert versions == [m.version for m in load_migrations()] and len(versions) >= 2
        assert (await db.wallets.open(1, 2)).balance == 10_000
        assert await db.wallets.credit(1, 2, 5, kind=LedgerKind.GRANT, actor_id=None,
                                       reason="r", request_id="x") == 10_005
        assert all(line.ok for line in await db.audit())
    finally:
        await db.close()


async def test_a_new_database_and_its_side_files_are_private(tmp_path: Path) -> None:
    """Mode 0600 from the first moment, whatever the umask: SQLite gives the -wal and
    -shm files it makes the database file's mode."""
    path = tmp_path / "new.sqlite3"
    with no_umask():
        db = await Database.open(path, deck_key=b"k" * 32)
        try:
            await db.write(lambda c: c.execute(
                "INSERT INTO bot_state (name, value, updated_at) VALUES ('x', 'y', 0)"))
            files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
            assert [mode(f) for f in files] == [0o600] * 3
        finally:
            await db.close()
        assert mode(path) == 0o600


async def test_an_existing_database_open_to_others_is_made_private_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "old.sqlite3"
    await (await Database.open(path, deck_key=b"k" * 32)).close()
    path.chmod(0o644)
    caplog.set_level(logging.INFO, "bot.storage.private")
    db = await Database.open(path, deck_key=b"k" * 32)
    try:
        assert mode(path) == 0o600
        assert mode(Path(f"{path}-wal")) == 0o600
    finally:
        await db.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.storage.private"]
    assert lines == ["Made the database files private to this user (they were open to "
                     f"others): {path} (0644 -> 0600)"]
    caplog.clear()
    await (await Database.open(path, deck_key=b"k" * 32)).close()  # private: nothing to say
    assert not [r for r in caplog.records if r.name == "bot.storage.private"]
