"""The single writer of a database: a queue of jobs committed together (group commit).

:meth:`WriteQueue.write` queues a unit of work for the writer task, which takes
every job waiting at that moment, runs each inside its own ``SAVEPOINT`` of one
``BEGIN IMMEDIATE`` transaction, and ``COMMIT``\\ s once (one fsync for the whole
batch). Each caller's await returns only after the ``COMMIT`` that contains its job
has returned, so an acknowledged write is on disk (``synchronous=FULL``). A job that
raises is rolled back to its savepoint alone and its caller gets the exception; the
other jobs of the batch are unaffected. If the ``COMMIT`` itself fails, every job in
the batch fails and nothing of it is kept.

On PostgreSQL the batch's transaction is ``SERIALIZABLE``: when it races a
transaction of another process (SQLSTATE 40001 or 40P01) it is rolled back and the
whole batch runs again (up to :data:`WRITE_RETRIES` times), so a job must not change
anything but the database (it may run more than once; only its last run's result is
returned).

A job that fails because the database cannot be written (a full disk...: see
:mod:`.outage`) is answered with :class:`~.errors.StorageUnavailable`; the queue tells
its ``fault`` callback, which starts the database's outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.storage.dialect import Conn, Dialect
from bot.storage.errors import StorageError, WriteConflict

T = TypeVar("T")
Job = Callable[[Conn], Any]
#: Runs a function of the connection on the database's thread (``Database.run``).
Runner = Callable[[Callable[[Conn], Any]], Awaitable[Any]]
#: Told a job's exception: the exception its caller gets instead (an outage), or None.
FaultHook = Callable[[BaseException], Awaitable[BaseException | None]]

__all__ = ["MAX_BATCH", "WRITE_RETRIES", "WriteQueue", "run_batch"]

MAX_BATCH = 512
WRITE_RETRIES = 50


class _WriteJob:
    __slots__ = ("fn", "future")

    def __init__(self, fn: Job, future: asyncio.Future[Any]) -> None:
        self.fn = fn
        self.future = future


class WriteQueue:
    """The jobs waiting for the writer task, and the task (started by the first write)."""

    def __init__(self, run: Runner, dialect: Dialect, fault: FaultHook) -> None:
        self._run = run
        self._dialect = dialect
        self._fault = fault
        self._queue: asyncio.Queue[_WriteJob | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0  # number of group commits (for the benchmark)
        self.jobs = 0
        self.conflicts = 0  # write batches run again after a WriteConflict

    async def write(self, fn: Callable[[Conn], T]) -> T:
        """Queue ``fn``; its result once the batch holding it is committed."""
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(
                self._loop(), name="storage-writer"
            )
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_WriteJob(fn, future))
        # shield: if the caller is cancelled the job may still commit; the
        # future then simply has no reader.
        return await asyncio.shield(future)

    async def alone(self, fn: Callable[[Conn], T]) -> T:
        """Commit ``fn`` in a transaction of its own now, outside the queue (the outage's
        probe: the queue refuses writes meanwhile)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        [(ok, value)] = await self._commit([_WriteJob(fn, future)])
        if not ok:
            raise await self._fault(value) or value
        result: T = value
        return result

    async def stop(self) -> None:
        """Let the jobs queued commit, then end the writer task."""
        if self._writer is not None and not self._writer.done():
            self._queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await self._writer

    async def _loop(self) -> None:
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
            await self._answer(batch)
            if stop:
                return

    async def _answer(self, batch: list[_WriteJob]) -> None:
        """Commit ``batch`` and give each caller its result or exception."""
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
            return
        self.batches += 1
        self.jobs += len(batch)
        for job, (ok, value) in zip(batch, outcomes, strict=True):
            if job.future.done():
                continue
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(await self._fault(value) or value)

    async def _commit(self, batch: list[_WriteJob]) -> list[tuple[bool, Any]]:
        """Run the batch in one transaction; again after a :class:`WriteConflict`."""
        dialect = self._dialect
        for attempt in range(WRITE_RETRIES + 1):
            try:
                outcomes: list[tuple[bool, Any]] = await self._run(
                    lambda c: run_batch(c, batch, dialect))
                return outcomes
            except WriteConflict:
                if attempt == WRITE_RETRIES:
                    raise
                self.conflicts += 1
                await asyncio.sleep(random.uniform(0, 0.002 * min(attempt + 1, 10)))
        raise AssertionError("unreachable")


def run_batch(conn: Conn, batch: list[_WriteJob], dialect: Dialect) -> list[tuple[bool, Any]]:
    """One transaction for the whole batch; each job in its own savepoint.

    A :class:`WriteConflict` is not a job's failure: it aborts the batch (to
    be run again); nor is an error after which the database rolled the whole
    transaction back itself (SQLite's ``SQLITE_FULL``, ``SQLITE_IOERR``...): the batch
    fails with it. The statements between two jobs go together
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
                if not conn.in_transaction:  # the database ended it (SQLite does on a full
                    raise  # disk, an I/O error): the whole batch is lost, every job fails
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
