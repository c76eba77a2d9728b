"""A process killed while it migrates: each migration is applied whole or not at all,
and the next start completes the schema with the data kept (bot/storage/migrate.py).

On SQLite and PostgreSQL. The process is ``Database.open`` in a child Python, killed at
a crash point (:mod:`bot.crashpoint`); an older bot's database is made by the same
child with the list of migrations cut where that bot's ended.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.crashpoint import ENV
from bot.storage import Database
from bot.storage.dialect import sqlite_statements
from bot.storage.migrate import load_migrations
from tests.fakediscord.process import REPO
from tests.pgcluster import Cluster

KEY = os.urandom(32)
OPEN = """
import asyncio, sys
from bot.storage import Database, migrate

target, upto, key = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
every = migrate.load_migrations
if upto:  # an older bot: its migrations end there
    migrate.load_migrations = lambda: every()[:upto]

async def main() -> None:
    await (await Database.open(target, deck_key=key)).close()

asyncio.run(main())
"""
NEWEST = len(load_migrations())
#: A database's tables, columns and indexes as created.
SCHEMA = {
    "sqlite": "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name",
    "postgres": "SELECT table_name, column_name, data_type, column_default"
                " FROM information_schema.columns WHERE table_schema = current_schema()"
                " UNION ALL SELECT tablename, indexname, indexdef, '' FROM pg_indexes"
                " WHERE schemaname = current_schema() ORDER BY 1, 2",
}


def open_in_a_child(target: str, *, upto: int = 0, crash_at: str = "") -> int:
    """``Database.open`` (which migrates) in a child process: its exit code."""
    env = {k: v for k, v in os.environ.items() if k != ENV}
    if crash_at:
        env[ENV] = crash_at
    done = subprocess.run([sys.executable, "-c", OPEN, target, str(upto), KEY.hex()],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    return done.returncode


async def looked_at(target: str) -> tuple[list[int], list[tuple[Any, ...]]]:
    """The versions applied and the schema, read without migrating."""
    db = await Database.open(target, deck_key=KEY, migrate=False)
    try:
        versions = await db.read(lambda c: [r[0] for r in c.execute(
            "SELECT version FROM schema_migrations ORDER BY version")])
        schema = await db.read(lambda c: [tuple(r) for r in c.execute(
            SCHEMA[db.dialect.name])])
        return versions, schema
    finally:
        await db.close()


@pytest.fixture
async def newest(
    storage_backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[str]:
    """A second fresh database of the backend, migrated to the newest schema."""
    if storage_backend == "sqlite":
        target = str(tmp_path / "newest.sqlite3")
        assert open_in_a_child(target) == 0
        yield target
        return
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    name = await cluster.create_database()
    try:
        assert open_in_a_child(cluster.url(name)) == 0
        yield cluster.url(name)
    finally:
        with contextlib.suppress(Exception):
            await cluster.drop_database(name)


async def test_a_kill_inside_a_migration_leaves_it_unapplied(database_target: str) -> None:
    assert open_in_a_child(database_target, upto=NEWEST - 2) == 0
    before = await looked_at(database_target)
    assert before[0] == list(range(1, NEWEST - 1))
    killed = open_in_a_child(database_target, crash_at="migrate.writing:1")
    assert killed == -signal.SIGKILL
    assert await looked_at(database_target) == before


async def test_a_kill_between_migrations_keeps_the_first_and_the_next_start_completes(
    database_target: str, newest: str,
) -> None:
    assert open_in_a_child(database_target, upto=NEWEST - 2) == 0
    _, before = await looked_at(database_target)
    killed = open_in_a_child(database_target, crash_at="migrate.applied:1")
    assert killed == -signal.SIGKILL
    versions, schema = await looked_at(database_target)
    assert versions == list(range(1, NEWEST)) and schema != before
    assert open_in_a_child(database_target) == 0
    assert await looked_at(database_target) == await looked_at(newest)


async def test_the_data_of_a_database_killed_mid_migration_is_kept(database_target: str) -> None:
    assert open_in_a_child(database_target, upto=NEWEST - 2) == 0
    db = await Database.open(database_target, deck_key=KEY, migrate=False)
    try:
        await db.write(lambda c: c.execute(
            "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (1, 2, 700, 0)"))
        await db.write(lambda c: c.execute(
            "INSERT INTO ledger (guild_id, at, kind, amount, src, dst, user_id)"
            " VALUES (1, 0, 'start', 700, 'mint', 'wallet:2', 2)"))
    finally:
        await db.close()
    assert open_in_a_child(database_target, crash_at="migrate.writing:2") == -signal.SIGKILL
    assert (await looked_at(database_target))[0] == list(range(1, NEWEST))
    db = await Database.open(database_target, deck_key=KEY)  # the next start
    try:
        assert (await db.wallets.open(1, 2)).balance == 700
        assert [a.ok for a in await db.audit()] == [True]
    finally:
        await db.close()
    assert (await looked_at(database_target))[0] == list(range(1, NEWEST + 1))


def test_no_migration_ends_its_own_transaction() -> None:
    """Each migration is one transaction with its version row: a file of its own that
    began or committed one would leave a half-applied schema at a kill."""
    for m in load_migrations():
        for statement in sqlite_statements(m.sql):
            words = " ".join(line for line in statement.splitlines()
                             if not line.strip().startswith("--")).split()
            assert words[0].upper() not in ("BEGIN", "COMMIT", "END", "ROLLBACK", "VACUUM"), m
