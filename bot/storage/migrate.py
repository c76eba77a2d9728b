"""Migrations: the numbered ``migrations/NNNN_name.sql`` files, applied in order.

Each is applied in its own transaction together with its row in
``schema_migrations`` (on PostgreSQL, translated by
:func:`~.dialect.postgres_ddl` and under an advisory lock, so that two processes
starting together migrate once): a process killed while it migrates leaves each
migration wholly applied or not at all, and the next start applies the rest (a
migration file must therefore hold no ``BEGIN``/``COMMIT`` of its own). The kill
harness's crash points (:mod:`bot.crashpoint`): ``migrate.writing`` inside a
migration's transaction, ``migrate.applied`` after its commit, before the next one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from bot import crashpoint
from bot.storage.dialect import SQLITE, Conn, Dialect
from bot.storage.errors import StorageError

__all__ = ["Migration", "applied_versions", "load_migrations", "migrate_connection"]

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations() -> list[Migration]:
    """The packaged migrations, in version order."""
    found: list[Migration] = []
    for entry in resources.files("bot.storage").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations must be numbered 1, 2, 3, ... without gaps: {versions}")
    return found


def applied_versions(conn: Conn) -> set[int]:
    """The versions applied (creating ``schema_migrations`` when it is missing)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
    )
    return {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}


def migrate_connection(conn: Conn, now: float, dialect: Dialect = SQLITE) -> list[Migration]:
    """Apply the missing migrations; returns those applied. Safe against a
    concurrent process doing the same (each step re-checks under the write lock)."""
    dialect.lock_migrations(conn)
    try:
        return _migrate(conn, now, dialect)
    finally:
        dialect.unlock_migrations(conn)


def _migrate(conn: Conn, now: float, dialect: Dialect) -> list[Migration]:
    migrations = load_migrations()
    done = applied_versions(conn)
    newest = max(done, default=0)
    if newest > len(migrations):
        raise StorageError(
            f"the database is at schema version {newest}, newer than this code "
            f"({len(migrations)}); update the bot"
        )
    return [m for m in migrations if m.version not in done and _apply(conn, m, now, dialect)]


def _apply(conn: Conn, m: Migration, now: float, dialect: Dialect) -> bool:
    """Apply ``m`` and record it, in one transaction (a kill leaves neither); False when
    another process applied it meanwhile."""
    conn.execute(dialect.begin_write)
    try:
        again = conn.execute(
            "SELECT 1 FROM schema_migrations WHERE version = ?", (m.version,)
        ).fetchone()
        if again is None:
            for stmt in dialect.migration_steps(m.version, m.sql):
                conn.execute(stmt)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (m.version, m.name, now),
            )
            crashpoint.reached("migrate.writing")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    crashpoint.reached("migrate.applied")
    return again is None
