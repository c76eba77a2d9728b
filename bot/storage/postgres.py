"""PostgreSQL through asyncpg, shaped like the SQLite connection the jobs expect.

A unit of work is a plain function of a connection (see :mod:`.db`), which
calls ``conn.execute(...)`` and reads rows without awaiting. To run those
functions on PostgreSQL unchanged, :class:`PgLink` gives each database one
asyncpg connection on its own thread with a private event loop (the way
aiosqlite gives SQLite a thread): a job runs on that thread, and each
``execute`` drives the private loop until asyncpg has the answer. The bot's
own event loop never blocks.

:class:`PgConnection` translates what :mod:`.dialect` lists: placeholders,
``BEGIN`` / ``BEGIN IMMEDIATE``, and SQLSTATE 40001 (serialization failure)
or 40P01 (deadlock) into :class:`~.errors.WriteConflict`, after which the
write batch is run again; a violated constraint raises ``sqlite3.IntegrityError``
as on SQLite, so a job that catches one works on both; a connection lost or refused,
or a server that cannot take writes (shutting down, starting up, its disk full, a
standby) raises :class:`~.errors.StorageUnavailable` (:mod:`.outage`), and the link
connects anew for its next job. Every session sets
``synchronous_commit = on``: an acknowledged ``COMMIT`` is on the server's
disk, as SQLite's ``synchronous=FULL`` gives.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage.dialect import POSTGRES_STATEMENTS, numbered
from bot.storage.errors import StorageError, StorageUnavailable, WriteConflict

T = TypeVar("T")

CONNECT_TIMEOUT = 15.0
#: What the driver raises beside :class:`StorageError` (for command-line tools).
DRIVER_ERRORS: tuple[type[Exception], ...] = (asyncpg.PostgresError, asyncpg.InterfaceError)
_RETRYABLE = ("40001", "40P01")
#: The connection is gone (server restarted, network, terminated): the link reconnects
#: before its next job; the job that met it fails with StorageUnavailable.
_LOST = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)
#: SQLSTATEs that mean the server cannot take writes now (:mod:`.outage`): class 08
#: (connection), 53 (insufficient resources: its disk full), 57 (an operator's
#: intervention: a shutdown, starting up), 25006 (a read-only standby).
_DOWN_CLASSES = ("08", "53", "57")
_READ_ONLY = "25006"
_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|SHOW)\b|\bRETURNING\b", re.IGNORECASE)


def _down(exc: asyncpg.PostgresError) -> bool:
    state = str(getattr(exc, "sqlstate", "") or "")
    return state[:2] in _DOWN_CLASSES or state == _READ_ONLY


def masked(url: str) -> str:
    """The URL without its password (for log lines and messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    # _replace is public: the named tuple API (it is underscored only to avoid field names)
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _numeric(text: str) -> int | float:
    """``numeric`` (what PostgreSQL's SUM of integers returns) as SQLite gives it."""
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else float(value)


class PgCursor:
    """The rows of one statement (already fetched), like a ``sqlite3.Cursor``."""

    __slots__ = ("_next", "_rows", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[Any]:
        rest = self._rows[self._next:]
        self._next = len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


def _status_count(status: str) -> int:
    """The row count of a command tag (``UPDATE 3``, ``INSERT 0 1``); -1 without one."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else -1


class PgConnection:
    """The sqlite3-like face of one asyncpg connection; used only on its own thread."""

    def __init__(self, conn: asyncpg.Connection, loop: asyncio.AbstractEventLoop) -> None:
        self._conn = conn
        self._loop = loop
        self._sql: dict[str, str] = {}

    @property
    def in_transaction(self) -> bool:
        return bool(self._conn.is_in_transaction())

    @property
    def closed(self) -> bool:
        return bool(self._conn.is_closed())

    def _text(self, sql: str) -> str:
        text = self._sql.get(sql)
        if text is None:
            text = POSTGRES_STATEMENTS.get(sql.strip().upper()) or numbered(sql)
            self._sql[sql] = text
        return text

    def _wait(self, coro: Any) -> Any:
        try:
            return self._loop.run_until_complete(coro)
        except _LOST as exc:
            raise StorageUnavailable(f"lost the connection to PostgreSQL: {exc}") from exc
        except asyncpg.PostgresError as exc:
            if getattr(exc, "sqlstate", None) in _RETRYABLE:
                raise WriteConflict(str(exc)) from exc
            if _down(exc):
                raise StorageUnavailable(f"PostgreSQL cannot take writes: {exc}") from exc
            if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
                raise sqlite3.IntegrityError(str(exc)) from exc
            raise

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> PgCursor:
        text = self._text(sql)
        if _ROWS.search(text):
            rows = self._wait(self._conn.fetch(text, *parameters))
            return PgCursor(list(rows), len(rows))
        status = self._wait(self._conn.execute(text, *parameters))
        return PgCursor([], _status_count(str(status)))

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> PgCursor:
        self._wait(self._conn.executemany(self._text(sql), list(parameters)))
        return PgCursor([], -1)

    def executescript(self, script: str) -> None:
        """Several statements without parameters (a migration), in one round trip."""
        self._wait(self._conn.execute(script))

    def terminate(self) -> None:
        """Drop the connection at once (it is lost: the next job connects anew)."""
        self._conn.terminate()

    def close(self) -> None:
        """Close the connection, waiting at most 5 seconds for the server (errors ignored)."""
        with contextlib.suppress(Exception):
            self._loop.run_until_complete(self._conn.close(timeout=5))


class PgLink:
    """One asyncpg connection on a thread of its own; :meth:`call` runs a job there."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="postgres")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: PgConnection | None = None

    @classmethod
    async def connect(cls, url: str) -> PgLink:
        link = cls(url)
        await link.start()
        return link

    async def start(self) -> None:
        """Open the first connection on the link's thread (which stops if that fails)."""
        try:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._connect)
        except BaseException:
            self._thread.shutdown(wait=False)
            raise

    def _connect(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            raw = loop.run_until_complete(_open(self.url))
        except BaseException:
            loop.close()
            raise
        self._loop = loop
        self._conn = PgConnection(raw, loop)

    async def call(self, fn: Callable[[PgConnection], T]) -> T:
        if self._conn is None:
            raise StorageError("the database is closed")
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._run, fn)

    def _run(self, fn: Callable[[PgConnection], T]) -> T:
        """``fn`` on the link's thread, on a new connection if the last one was lost."""
        conn = self._conn
        if conn is None:
            raise StorageError("the database is closed")
        if conn.closed:
            assert self._loop is not None
            conn = self._conn = PgConnection(self._loop.run_until_complete(_open(self.url)),
                                             self._loop)
        try:
            return fn(conn)
        except StorageUnavailable:
            conn.terminate()  # the server went away or refuses: connect anew next time
            raise

    async def close(self) -> None:
        if self._conn is None:
            return
        conn, self._conn = self._conn, None
        await asyncio.get_running_loop().run_in_executor(self._thread, self._close, conn)
        self._thread.shutdown(wait=True)

    def _close(self, conn: PgConnection) -> None:
        loop = self._loop
        assert loop is not None
        conn.close()
        loop.close()


async def _open(url: str) -> asyncpg.Connection:
    try:
        raw = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise StorageUnavailable(f"cannot connect to {masked(url)}: {exc}") from None
    try:
        await raw.set_type_codec(
            "numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text"
        )
        await raw.execute("SET synchronous_commit TO on")
    except BaseException:
        await raw.close()
        raise
    return raw
