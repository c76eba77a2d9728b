"""The database connection: WAL, foreign keys, the writer, outages.

The one place that opens connections: SQLite (the default, a file path) or
PostgreSQL (a ``postgresql://`` URL, see :mod:`.postgres`); what differs
between the two is listed in :mod:`.dialect`.

All SQL runs on the one connection's worker thread (:mod:`aiosqlite`'s, or
:class:`~.postgres.PgLink`'s). A unit of work is a plain function of a
:class:`~.dialect.Conn` (so a transaction of several statements costs one hop
to the thread, not one per statement):

* :meth:`Database.read` runs it as it is (autocommit; wrap several SELECTs in
  ``BEGIN`` / ``COMMIT`` yourself when they must see one snapshot);
* :meth:`Database.write` queues it for the single writer (:mod:`.writer`: group
  commit, each job in its own savepoint, an acknowledged write is on disk; on
  PostgreSQL a batch that races another process runs again).

When the database cannot be written (a full disk, a read-only file system,
PostgreSQL down) an outage begins (:mod:`.outage`): one line logged, writes refused
at once with :class:`~.errors.StorageUnavailable`, a small write tried every few
seconds until one commits, ``on_outage`` told both ends.

Migrations: :mod:`.migrate`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

import aiosqlite

from bot.storage.audit import run_audit
from bot.storage.bot_state import BotState
from bot.storage.caps import CapsRepo
from bot.storage.dialect import POSTGRES, SQLITE, Conn, Dialect, is_postgres_url
from bot.storage.errors import StorageError, StorageUnavailable
from bot.storage.hands import HandRepo
from bot.storage.history import HandLookup
from bot.storage.ledger import WalletRepo
from bot.storage.migrate import applied_versions, migrate_connection
from bot.storage.models import AuditLine
from bot.storage.mtt import MttRepo
from bot.storage.outage import (
    Outage,
    has_room,
    is_full,
    must_reopen,
    next_probe,
    probe,
    unavailable,
)
from bot.storage.postgres import PgLink, masked
from bot.storage.prefs import PrefsRepo
from bot.storage.private import prepare_database
from bot.storage.result_posts import ResultPosts
from bot.storage.sealing import DeckSealer, load_or_create_key, parse_key
from bot.storage.seasons import SeasonRepo
from bot.storage.sessions import SessionRepo
from bot.storage.stats import StatsRepo
from bot.storage.tables import TableRepo
from bot.storage.timezones import TimezoneRepo
from bot.storage.tournaments import TournamentRepo
from bot.storage.writer import WriteQueue

T = TypeVar("T")
Clock = Callable[[], float]

#: Default database file name (bot.settings: in the working directory).
DEFAULT_DB_NAME = "omaha_dealer.sqlite3"
BUSY_TIMEOUT_MS = 10_000


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


def _in_memory(path: str) -> bool:
    return path == ":memory:" or path.startswith("file::memory:")


def _sealer(path: str, deck_key: str | bytes | None, key_path: str | None) -> DeckSealer:
    """The deck sealer: ``deck_key`` given, else the key file (a fresh key in memory)."""
    if isinstance(deck_key, str):
        return DeckSealer(parse_key(deck_key))
    if deck_key is not None:
        return DeckSealer(parse_key(deck_key.hex()))
    if key_path is None and _in_memory(path):
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


class Database:
    """One database, opened with :meth:`open`; close with :meth:`close`.

    Attributes ``clock`` (seconds since the epoch; tests inject a fake),
    ``sealer`` (seals deck orders) and ``dialect`` (:mod:`.dialect`) are used
    by the repositories; ``outage`` says whether it can be written now
    (:mod:`.outage`).
    """

    def __init__(
        self, link: _Link, path: str, clock: Clock, sealer: DeckSealer,
        dialect: Dialect = SQLITE,
    ) -> None:
        self._link: _Link | None = link
        self.path = path
        self.clock = clock
        self.sealer = sealer
        self.dialect = dialect
        self._writes = WriteQueue(self.run, dialect, self._fault)
        self._closed = False
        self._closing = False
        self.outage = Outage(self.where)
        self._prober: asyncio.Task[None] | None = None
        self._reopen = False  # the probe opens a new SQLite connection first
        #: the outage's first try of a write, made at once: writes meanwhile wait for it
        self._first_try: asyncio.Future[None] | None = None
        self._writable = asyncio.Event()  # clear during an outage
        self._writable.set()
        #: Told the seconds from each write queued to its commit returned (the metrics).
        self.on_write: Callable[[float], None] | None = None
        #: Told True when an outage begins, False when it ends (:mod:`.outage`).
        self.on_outage: Callable[[bool], None] | None = None

    @property
    def where(self) -> str:
        """The path or URL, without a password (for log lines)."""
        return masked(self.path) if self.dialect is POSTGRES else self.path

    @property
    def batches(self) -> int:
        """Group commits so far (the benchmark)."""
        return self._writes.batches

    @property
    def jobs(self) -> int:
        return self._writes.jobs

    @property
    def conflicts(self) -> int:
        """Write batches run again after a :class:`WriteConflict` (the metrics)."""
        return self._writes.conflicts

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        deck_key: str | bytes | None = None,
        key_path: str | None = None,
        migrate: bool = True,
        command_timeout: float | None = None,
    ) -> Database:
        """Open (creating if needed) the database at ``path`` (``":memory:"`` works),
        or the PostgreSQL database of a ``postgresql://`` URL.

        ``deck_key``: 32-byte key (or 64 hex digits) sealing deck orders; when
        omitted, the key file ``key_path`` is read or created (default
        ``<path>.key``; for a URL ``omaha_dealer.sqlite3.key`` in the working
        directory; a fresh random key for ``:memory:``).

        ``command_timeout`` (PostgreSQL): the seconds a statement or a new connection may wait
        for the server once the migrations are done (they may take long, or wait for
        another process's); past it the database is unavailable (:mod:`.outage`).
        None: no limit.
        """
        path = os.fspath(path)
        postgres = is_postgres_url(path)
        if postgres and key_path is None:
            key_path = _key_path(DEFAULT_DB_NAME).as_posix()
        elif not postgres:
            prepare_database(path)  # 0600, its side files too
        sealer = _sealer(path, deck_key, key_path)
        pg = await PgLink.connect(path) if postgres else None
        link: _Link = pg or await _open_sqlite(path)
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
        if pg is not None:
            pg.timeout = command_timeout
        return db

    # -- running work on the connection's thread ---------------------------------
    async def run(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn(conn)`` on the database thread, as it is (no transaction added).
        Raises :class:`StorageUnavailable` when the database cannot be reached or
        written (:mod:`.outage`)."""
        if self._closed:
            raise StorageError("the database is closed")
        link = self._link
        if link is None:
            raise StorageUnavailable(self.outage.reason or "the database is not open")
        try:
            return await link.call(fn)
        except Exception as exc:
            error = await self._fault(exc)
            if error is None and link is not self._link:  # closed under it by the probe
                error = StorageUnavailable(self.outage.reason or "the connection was closed")
            if error is None:
                raise
            raise error from None

    async def read(self, fn: Callable[[Conn], T]) -> T:
        """Run a read-only unit of work (it never sees another job half done)."""
        return await self.run(fn)

    async def write(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn(conn)`` in a transaction; return once it is committed to disk
        (:mod:`.writer`). Refused with :class:`StorageUnavailable` while the database
        cannot be written (once the outage's first try, made at once, has failed: a
        PostgreSQL connection lost a moment ago is usually back by then)."""
        if self._closed or self._closing:
            raise StorageError("the database is closed")
        if self._first_try is not None:  # a connection lost a moment ago may be back
            await asyncio.shield(self._first_try)
        if self.outage.reason is not None:
            raise StorageUnavailable(self.outage.reason)
        queued = time.perf_counter()
        try:
            return await self._writes.write(fn)
        finally:
            if self.on_write is not None:
                self.on_write(time.perf_counter() - queued)

    async def writable(self) -> None:
        """Return once the database takes a write: at once if it does (a small real write
        tells), else when its outage ends (a start waits there before resuming tables)."""
        with contextlib.suppress(StorageUnavailable):
            await self.write(probe(self.clock()))
        await self._writable.wait()

    async def close(self) -> None:
        """Finish queued writes, checkpoint and close."""
        if self._closed or self._closing:
            return
        self._closing = True  # refuse new writes; those already queued still commit
        await self._writes.stop()
        if self._prober is not None:
            self._prober.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._prober
        if self._first_try is not None and not self._first_try.done():
            self._first_try.set_result(None)
        self._closed = True
        link, self._link = self._link, None
        if link is not None:
            await link.close()

    # -- when it cannot be written (.outage) ----------------------------------------
    async def _fault(self, exc: BaseException) -> BaseException | None:
        """``exc`` as a :class:`StorageUnavailable` when it means the database cannot be
        written now (an outage begins, if none is under way), else None."""
        error = unavailable(exc)
        if error is None:
            return None
        if self.dialect is SQLITE and must_reopen(exc) and not _in_memory(self.path):
            self._reopen = True
        if is_full(exc) and not _in_memory(self.path):
            self.outage.full = True
        if self.outage.begin(error.reason, self.clock()):
            self._writable.clear()
            if self.on_outage is not None:
                self.on_outage(True)
            loop = asyncio.get_running_loop()
            self._first_try = loop.create_future()
            self._prober = loop.create_task(self._probe(), name="storage-probe")
        return error

    async def _probe(self) -> None:
        """Try a small real write at once, then after longer and longer waits up to
        :data:`PROBE_EVERY` seconds (:func:`next_probe`), until one commits. After a
        read-only or I/O error on SQLite, on a new connection each time, the last one
        closed meanwhile (its files may sit on a file system to be mounted again: none
        of them is held open between two tries)."""
        wait = 0.0
        while not self._closing:
            if self._reopen:
                await self._unlink()
            if wait:
                await asyncio.sleep(wait)
            done = await self._try_write()
            first, self._first_try = self._first_try, None
            if first is not None and not first.done():
                first.set_result(None)
            if done:
                self._reopen = False
                self.outage.end(self.clock())
                self._writable.set()
                if self.on_outage is not None:
                    self.on_outage(False)
                return
            wait = next_probe(wait)

    async def _try_write(self) -> bool:
        if self.outage.full and not await asyncio.to_thread(has_room, self.path):
            return False
        try:
            if self._link is None:
                self._link = await _open_sqlite(self.path)
            await self._writes.alone(probe(self.clock()))
        except (StorageError, sqlite3.Error):
            return False  # still down: the outage's line said so once
        return True

    async def _unlink(self) -> None:
        """Close the SQLite connection (the next probe opens a new one)."""
        link, self._link = self._link, None
        if link is not None:
            with contextlib.suppress(Exception):
                await link.close()

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
    def results(self) -> ResultPosts:
        return ResultPosts(self)

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
