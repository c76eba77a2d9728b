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
connects anew for its next job. So does a server that does not answer at all (packets
dropped, a frozen host): past the link's :attr:`PgLink.timeout` a statement or a
connection attempt is given up, the connection dropped, and jobs that were waiting
behind that silence fail with it rather than wait again in turn. Every session sets
``synchronous_commit = on``: an acknowledged ``COMMIT`` is on the server's
disk, as SQLite's ``synchronous=FULL`` gives.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import time
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


def _now() -> float:
    """The system's monotonic clock, read directly: the link's timeouts are about a real
    server's silence, and a test's virtual clock (which replaces ``time.monotonic`` for
    the bot and what it runs, the offline Discord's) must not freeze them."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class _RealTimeLoop(asyncio.SelectorEventLoop):
    """The link's private event loop, on :func:`_now`."""

    def time(self) -> float:
        return _now()


class _NoAnswer(StorageUnavailable):
    """The server did not answer within the timeout (a statement, or a new connection)."""


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
        #: seconds a statement may wait for the server's answer (None: no limit)
        self.timeout: float | None = None

    @property
    def in_transaction(self) -> bool:
        """False once the connection is gone (the server ended its transaction)."""
        return not self.closed and bool(self._conn.is_in_transaction())

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
        except TimeoutError as exc:  # its answer may never come: the connection is done for
            self._conn.terminate()
            raise _no_answer("PostgreSQL did not answer", self.timeout) from exc
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
            rows = self._wait(self._conn.fetch(text, *parameters, timeout=self.timeout))
            return PgCursor(list(rows), len(rows))
        status = self._wait(self._conn.execute(text, *parameters, timeout=self.timeout))
        return PgCursor([], _status_count(str(status)))

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> PgCursor:
        self._wait(self._conn.executemany(self._text(sql), list(parameters),
                                          timeout=self.timeout))
        return PgCursor([], -1)

    def executescript(self, script: str) -> None:
        """Several statements without parameters (a migration), in one round trip."""
        self._wait(self._conn.execute(script, timeout=self.timeout))

    def terminate(self) -> None:
        """Drop the connection at once (it is lost: the next job connects anew)."""
        self._conn.terminate()

    def close(self) -> None:
        """Close the connection, waiting at most 5 seconds for the server (errors ignored)."""
        with contextlib.suppress(Exception):
            self._loop.run_until_complete(self._conn.close(timeout=5))


class PgLink:
    """One asyncpg connection on a thread of its own; :meth:`call` runs a job there.

    :attr:`timeout`: seconds a statement or a new connection may wait for the server
    (None: no limit on statements, :data:`CONNECT_TIMEOUT` on connecting); past it the
    job fails with :class:`StorageUnavailable`, the connection is dropped, and the jobs
    asked for before then that would need a new one fail with it at once (each job
    waits for at most one silence of the server, however many are queued)."""

    def __init__(self, url: str, timeout: float | None = None) -> None:
        self.url = url
        self.timeout = timeout
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="postgres")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: PgConnection | None = None
        #: when the server last left a job unanswered (:func:`_now`), and why
        self._silent: tuple[float, str] | None = None

    @classmethod
    async def connect(cls, url: str, command_timeout: float | None = None) -> PgLink:
        link = cls(url, command_timeout)
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
        loop = _RealTimeLoop()
        try:
            raw = loop.run_until_complete(_open(self.url, self.timeout))
        except BaseException:
            loop.close()
            raise
        self._loop = loop
        self._conn = PgConnection(raw, loop)

    async def call(self, fn: Callable[[PgConnection], T]) -> T:
        if self._conn is None:
            raise StorageError("the database is closed")
        asked = _now()
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._run, fn, asked)

    def _run(self, fn: Callable[[PgConnection], T], asked: float) -> T:
        """``fn`` on the link's thread, on a new connection if the last one was lost."""
        conn = self._connection(asked)
        try:
            return fn(conn)
        except StorageUnavailable as exc:
            conn.terminate()  # the server went away or refuses: connect anew next time
            self._heard(exc)
            raise

    def _connection(self, asked: float) -> PgConnection:
        """The live connection, or a new one (not when the job was asked for before the
        server's last silence: it has waited for that one already)."""
        conn = self._conn
        if conn is None:
            raise StorageError("the database is closed")
        if conn.closed:
            silent = self._silent
            if silent is not None and asked < silent[0]:
                raise StorageUnavailable(silent[1])
            assert self._loop is not None
            try:
                raw = self._loop.run_until_complete(_open(self.url, self.timeout))
            except StorageUnavailable as exc:
                self._heard(exc)
                raise
            conn = self._conn = PgConnection(raw, self._loop)
        conn.timeout = self.timeout
        self._silent = None
        return conn

    def _heard(self, exc: StorageUnavailable) -> None:
        """Remember a silence of the server (not a refusal: that one comes at once)."""
        if isinstance(exc, _NoAnswer):
            self._silent = (_now(), exc.reason)

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


def _no_answer(what: str, timeout: float | None) -> _NoAnswer:
    """``what`` happened (the server is silent), within ``timeout`` seconds when known."""
    return _NoAnswer(f"{what} within {timeout:g} s" if timeout else what)


async def _open(url: str, command_timeout: float | None) -> asyncpg.Connection:
    """A new connection, set up as the jobs expect; :class:`StorageUnavailable` when the
    server refuses it or does not answer within ``command_timeout`` (None:
    :data:`CONNECT_TIMEOUT`)."""
    wait = command_timeout or CONNECT_TIMEOUT
    what = f"cannot connect to {masked(url)}"
    raw: asyncpg.Connection | None = None
    try:
        raw = await asyncpg.connect(url, timeout=wait)
        await raw.set_type_codec(
            "numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text"
        )
        await raw.execute("SET synchronous_commit TO on", timeout=wait)
    except BaseException as exc:
        if raw is not None:
            raw.terminate()  # closing would wait for a server that may not answer
        if isinstance(exc, TimeoutError):
            raise _no_answer(f"{what}: no answer", wait) from None
        if isinstance(exc, (OSError, *DRIVER_ERRORS)):
            raise StorageUnavailable(f"{what}: {exc}") from None
        raise
    return raw
