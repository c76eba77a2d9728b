"""The database connection: WAL, foreign keys, migrations and group commit.

The one place that opens connections: SQLite (the default, a file path) or
PostgreSQL (a ``postgresql://`` URL, see :mod:`.postgres`); what differs
between the two is listed in :mod:`.dialect`.

All SQL runs on the one connection's worker thread (:mod:`aiosqlite`'s, or
:class:`~.postgres.PgLink`'s). A unit of work is a plain function of a
:class:`~.dialect.Conn` (so a transaction of several statements costs one hop
to the thread, not one per statement):

* :meth:`Database.read` runs it as it is (autocommit; wrap several SELECTs in
  ``BEGIN`` / ``COMMIT`` yourself when they must see one snapshot);
* :meth:`Database.write` queues it for the single writer task, which takes
  every job waiting at that moment, runs each inside its own ``SAVEPOINT`` of
  one ``BEGIN IMMEDIATE`` transaction, and ``COMMIT``\\ s once (group commit:
  one fsync for the whole batch). Each caller's await returns only after the
  ``COMMIT`` that contains its job has returned, so an acknowledged write is
  on disk (``synchronous=FULL``). A job that raises is rolled back to its
  savepoint alone and its caller gets the exception; the other jobs of the
  batch are unaffected. If the ``COMMIT`` itself fails, every job in the
  batch fails and nothing of it is kept.

On PostgreSQL the batch's transaction is ``SERIALIZABLE``: when it races a
transaction of another process (SQLSTATE 40001 or 40P01) it is rolled back
and the whole batch runs again (up to :data:`WRITE_RETRIES` times), so a job
must not change anything but the database (it may run more than once; only
its last run's result is returned).

Migrations are the numbered ``migrations/NNNN_name.sql`` files, applied in
order, each in its own transaction together with its row in
``schema_migrations`` (on PostgreSQL, translated by
:func:`~.dialect.postgres_ddl` and under an advisory lock).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite

from bot.storage.audit import run_audit
from bot.storage.bot_state import BotState
from bot.storage.caps import CapsRepo
from bot.storage.dialect import POSTGRES, SQLITE, Conn, Dialect, is_postgres_url
from bot.storage.errors import StorageError, WriteConflict
from bot.storage.hands import HandRepo
from bot.storage.history import HandLookup
from bot.storage.ledger import WalletRepo
from bot.storage.models import AuditLine
from bot.storage.mtt import MttRepo
from bot.storage.postgres import PgLink, masked
from bot.storage.prefs import PrefsRepo
from bot.storage.private import prepare_database
from bot.storage.sealing import DeckSealer, load_or_create_key, parse_key
from bot.storage.seasons import SeasonRepo
from bot.storage.sessions import SessionRepo
from bot.storage.stats import StatsRepo
from bot.storage.tables import TableRepo
from bot.storage.timezones import TimezoneRepo
from bot.storage.tournaments import TournamentRepo

T = TypeVar("T")
Clock = Callable[[], float]
Job = Callable[[Conn], Any]

#: Default database file name (bot.settings: in the working directory).
DEFAULT_DB_NAME = "omaha_dealer.sqlite3"
BUSY_TIMEOUT_MS = 10_000
MAX_BATCH = 512
WRITE_RETRIES = 50
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
    applied: list[Migration] = []
    for m in migrations:
        if m.version in done:
            continue
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
                applied.append(m)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return applied


def configure(conn: Conn) -> None:
    """Pragmas every connection gets."""
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() not in ("wal", "memory"):
        raise StorageError(f"could not switch the database to WAL mode (got {mode})")
    # FULL: a COMMIT that returned survives a power cut, not only a crash.
    conn.execute("PRAGMA synchronous = FULL")


def _key_path(db_path: str) -> Path:
    return Path(db_path + ".key")


async def _on_db_thread(conn: aiosqlite.Connection, fn: Callable[[Conn], T]) -> T:
    """Run ``fn(sqlite3 connection)`` on the aiosqlite connection's worker thread.

    aiosqlite runs every call of a connection on that connection's one thread
    through ``Connection._execute`` (its cursors use it too); its public
    methods go one statement at a time, which would cost one thread hop per
    statement. This is the one place that relies on it.
    """
    raw = conn._conn  # aiosqlite's own private attributes (no public equivalent), see above
    result: T = await conn._execute(lambda: fn(raw))  # type: ignore[no-untyped-call]
    return result


class _Link(Protocol):
    """One connection and the thread its jobs run on."""

    async def call(self, fn: Callable[[Conn], T]) -> T: ...

    async def close(self) -> None: ...


class _SqliteLink:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def call(self, fn: Callable[[Conn], T]) -> T:
        return await _on_db_thread(self._conn, fn)

    async def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            await _on_db_thread(
                self._conn, lambda c: c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            )
        await self._conn.close()


def _sealer(path: str, deck_key: str | bytes | None, key_path: str | None) -> DeckSealer:
    """The deck sealer: ``deck_key`` given, else the key file (a fresh key in memory)."""
    if isinstance(deck_key, str):
        return DeckSealer(parse_key(deck_key))
    if deck_key is not None:
        return DeckSealer(parse_key(deck_key.hex()))
    if key_path is None and (path == ":memory:" or path.startswith("file::memory:")):
        return DeckSealer(os.urandom(32))
    return DeckSealer(load_or_create_key(Path(key_path or _key_path(path))))


async def _open_sqlite(path: str) -> _SqliteLink:
    try:
        conn = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {path!r}: {exc}") from None
    link = _SqliteLink(conn)
    try:
        await link.call(configure)
    except sqlite3.DatabaseError as exc:
        await conn.close()
        raise StorageError(f"cannot use the database {path!r}: {exc}") from None
    except BaseException:
        await conn.close()
        raise
    return link


class _WriteJob:
    __slots__ = ("fn", "future")

    def __init__(self, fn: Job, future: asyncio.Future[Any]) -> None:
        self.fn = fn
        self.future = future


class Database:
    """One database, opened with :meth:`open`; close with :meth:`close`.

    Attributes ``clock`` (seconds since the epoch; tests inject a fake),
    ``sealer`` (seals deck orders) and ``dialect`` (:mod:`.dialect`) are used
    by the repositories.
    """

    def __init__(
        self, link: _Link, path: str, clock: Clock, sealer: DeckSealer,
        dialect: Dialect = SQLITE,
    ) -> None:
        self._link = link
        self.path = path
        self.clock = clock
        self.sealer = sealer
        self.dialect = dialect
        self._queue: asyncio.Queue[_WriteJob | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        self._closing = False
        self.batches = 0  # number of group commits (for the benchmark)
        self.jobs = 0
        self.conflicts = 0  # write batches run again after a WriteConflict
        #: Told the seconds from each write queued to its commit returned (the metrics).
        self.on_write: Callable[[float], None] | None = None

    @property
    def where(self) -> str:
        """The path or URL, without a password (for log lines)."""
        return masked(self.path) if self.dialect is POSTGRES else self.path

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        deck_key: str | bytes | None = None,
        key_path: str | None = None,
        migrate: bool = True,
    ) -> Database:
        """Open (creating if needed) the database at ``path`` (``":memory:"`` works),
        or the PostgreSQL database of a ``postgresql://`` URL.

        ``deck_key``: 32-byte key (or 64 hex digits) sealing deck orders; when
        omitted, the key file ``key_path`` is read or created (default
        ``<path>.key``; for a URL ``omaha_dealer.sqlite3.key`` in the working
        directory; a fresh random key for ``:memory:``).
        """
        path = os.fspath(path)
        postgres = is_postgres_url(path)
        if postgres and key_path is None:
            key_path = _key_path(DEFAULT_DB_NAME).as_posix()
        elif not postgres:
            prepare_database(path)  # 0600, its side files too
        sealer = _sealer(path, deck_key, key_path)
        link: _Link = await PgLink.connect(path) if postgres else await _open_sqlite(path)
        db = cls(link, path, clock, sealer, POSTGRES if postgres else SQLITE)
        try:
            if migrate:
                await db.run(lambda c: migrate_connection(c, clock(), db.dialect))
            else:
                await db.run(applied_versions)
        except sqlite3.DatabaseError as exc:
            await link.close()
            raise StorageError(f"cannot use the database {db.where!r}: {exc}") from None
        except BaseException:
            await link.close()
            raise
        return db

    # -- running work on the connection's thread ---------------------------------
    async def run(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn(conn)`` on the database thread, as it is (no transaction added)."""
        if self._closed:
            raise StorageError("the database is closed")
        return await self._link.call(fn)

    async def read(self, fn: Callable[[Conn], T]) -> T:
        """Run a read-only unit of work (it never sees another job half done)."""
        return await self.run(fn)

    async def write(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn(conn)`` in a transaction; return once it is committed to disk."""
        if self._closed or self._closing:
            raise StorageError("the database is closed")
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(
                self._write_loop(), name="storage-writer"
            )
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        queued = time.perf_counter()
        self._queue.put_nowait(_WriteJob(fn, future))
        # shield: if the caller is cancelled the job may still commit; the
        # future then simply has no reader.
        try:
            return await asyncio.shield(future)
        finally:
            if self.on_write is not None:
                self.on_write(time.perf_counter() - queued)

    async def _write_loop(self) -> None:
        queue = self._queue
        while True:
            first = await queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH and not queue.empty():
                nxt = queue.get_nowait()
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            try:
                outcomes = await self._commit(batch)
            except BaseException as exc:
                for job in batch:
                    if not job.future.done():
                        job.future.set_exception(
                            exc if isinstance(exc, Exception) else StorageError("write aborted")
                        )
                if not isinstance(exc, Exception):
                    raise
            else:
                self.batches += 1
                self.jobs += len(batch)
                for job, (ok, value) in zip(batch, outcomes, strict=True):
                    if job.future.done():
                        continue
                    if ok:
                        job.future.set_result(value)
                    else:
                        job.future.set_exception(value)
            if stop:
                return

    async def close(self) -> None:
        """Finish queued writes, checkpoint and close."""
        if self._closed or self._closing:
            return
        self._closing = True  # refuse new writes; those already queued still commit
        if self._writer is not None and not self._writer.done():
            self._queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await self._writer
        self._closed = True
        await self._link.close()

    async def _commit(self, batch: list[_WriteJob]) -> list[tuple[bool, Any]]:
        """Run the batch in one transaction; again after a :class:`WriteConflict`."""
        dialect = self.dialect
        for attempt in range(WRITE_RETRIES + 1):
            try:
                return await self.run(lambda c: _run_batch(c, batch, dialect))
            except WriteConflict:
                if attempt == WRITE_RETRIES:
                    raise
                self.conflicts += 1
                await asyncio.sleep(random.uniform(0, 0.002 * min(attempt + 1, 10)))
        raise AssertionError("unreachable")

    # -- repositories -----------------------------------------------------------
    @functools.cached_property
    def wallets(self) -> WalletRepo:
        return WalletRepo(self)

    @functools.cached_property
    def tables(self) -> TableRepo:
        return TableRepo(self)

    @functools.cached_property
    def hands(self) -> HandRepo:
        return HandRepo(self)

    @functools.cached_property
    def history(self) -> HandLookup:
        return HandLookup(self)

    @functools.cached_property
    def tournaments(self) -> TournamentRepo:
        return TournamentRepo(self)

    @functools.cached_property
    def mtt(self) -> MttRepo:
        return MttRepo(self)

    @functools.cached_property
    def stats(self) -> StatsRepo:
        return StatsRepo(self)

    @functools.cached_property
    def sessions(self) -> SessionRepo:
        return SessionRepo(self)

    @functools.cached_property
    def seasons(self) -> SeasonRepo:
        return SeasonRepo(self)

    @functools.cached_property
    def caps(self) -> CapsRepo:
        return CapsRepo(self)

    @functools.cached_property
    def state(self) -> BotState:
        return BotState(self)

    @functools.cached_property
    def prefs(self) -> PrefsRepo:
        return PrefsRepo(self)

    @functools.cached_property
    def timezones(self) -> TimezoneRepo:
        return TimezoneRepo(self)

    async def audit(self) -> list[AuditLine]:
        """The chip audit, one line per server (see :mod:`.audit`)."""
        return await self.read(run_audit)

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _run_batch(conn: Conn, batch: list[_WriteJob], dialect: Dialect) -> list[tuple[bool, Any]]:
    """One transaction for the whole batch; each job in its own savepoint.

    A :class:`WriteConflict` is not a job's failure: it aborts the batch (to
    be run again). The statements between two jobs go together
    (:meth:`Dialect.send`: one round trip on PostgreSQL)."""
    outcomes: list[tuple[bool, Any]] = []
    pending = [dialect.begin_write]
    try:
        for job in batch:
            dialect.send(conn, [*pending, "SAVEPOINT job"])
            try:
                value = job.fn(conn)
            except WriteConflict:
                raise
            except Exception as exc:
                conn.execute("ROLLBACK TO SAVEPOINT job")
                outcomes.append((False, exc))
            else:
                outcomes.append((True, value))
            pending = ["RELEASE SAVEPOINT job"]
        dialect.send(conn, [*pending, "COMMIT"])
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes
