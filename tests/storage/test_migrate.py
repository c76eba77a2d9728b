"""A process killed while it migrates: each migration is applied whole or not at all,
and the next start completes the schema with the data kept (bot/storage/migrate.py)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.crashpoint import ENV
from bot.storage import Database
from bot.storage.dialect import sqlite_statements
from bot.storage.migrate import load_migrations
from tests.fakediscord.process import REPO

from .helpers import database_at, schema

MIGRATE = """
import sqlite3, sys
from bot.storage.migrate import migrate_connection
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
print([m.version for m in migrate_connection(conn, 0.0)])
"""
NEWEST = len(load_migrations())


def migrate(path: Path, crash_at: str | None) -> subprocess.CompletedProcess[str]:
    env = {ENV: crash_at} if crash_at else {}
    return subprocess.run([sys.executable, "-c", MIGRATE, str(path)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def versions(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]
    finally:
        conn.close()


def test_a_kill_inside_a_migration_leaves_it_unapplied(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, NEWEST - 2)
    before = schema(path)
    done = migrate(path, "migrate.writing:1")
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert versions(path) == list(range(1, NEWEST - 1)) and schema(path) == before


def test_a_kill_between_migrations_keeps_the_first_and_the_next_start_completes(
    tmp_path: Path,
) -> None:
    path, older, newest = (tmp_path / f"{n}.sqlite3" for n in ("old", "older", "newest"))
    database_at(path, NEWEST - 2)
    database_at(older, NEWEST - 1)
    database_at(newest, NEWEST)
    done = migrate(path, "migrate.applied:1")
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert versions(path) == list(range(1, NEWEST)) and schema(path) == schema(older)
    again = migrate(path, None)
    assert again.returncode == 0 and again.stdout.strip() == f"[{NEWEST}]", again.stderr
    assert versions(path) == list(range(1, NEWEST + 1)) and schema(path) == schema(newest)


def test_no_migration_ends_its_own_transaction() -> None:
    """Each migration is one transaction with its version row: a file of its own that
    began or committed one would leave a half-applied schema at a kill."""
    for m in load_migrations():
        for statement in sqlite_statements(m.sql):
            words = " ".join(line for line in statement.splitlines()
                             if not line.strip().startswith("--")).split()
            assert words[0].upper() not in ("BEGIN", "COMMIT", "END", "ROLLBACK", "VACUUM"), m


async def test_the_data_of_a_database_killed_mid_migration_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    database_at(path, NEWEST - 2)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO wallets (guild_id, user_id, balance, created_at)"
                 " VALUES (1, 2, 700, 0)")
    conn.execute("INSERT INTO ledger (guild_id, at, kind, amount, src, dst, user_id)"
                 " VALUES (1, 0, 'start', 700, 'mint', 'wallet:2', 2)")
    conn.close()
    assert migrate(path, "migrate.writing:2").returncode == -signal.SIGKILL
    assert versions(path) == list(range(1, NEWEST))
    db = await Database.open(path, deck_key=b"k" * 32)  # the next start
    try:
        assert (await db.wallets.open(1, 2)).balance == 700
        assert [a.ok for a in await db.audit()] == [True]
    finally:
        await db.close()
    assert versions(path) == list(range(1, NEWEST + 1))
