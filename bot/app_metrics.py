"""What the services of :mod:`bot.app` add to the metrics (:mod:`bot.metrics`).

The runtime knows nothing of Prometheus: its tables tell their observer what
happens (:mod:`bot.runtime.table.events`), and :class:`MeteredObserver` sits in
front of the presenter, counting hands (settled: a hand resumed after a restart
counts once) and actions by game, then passing every event on unchanged.
:func:`meter_services` has the scrape read what the services already know (open
tables and tournaments, the database's retried batches) and has the database time
its writes. :func:`database_problem` is ``/healthz``'s half on the database.
"""

from __future__ import annotations

import asyncio
import sqlite3

from bot.logs import bind
from bot.metrics import Metrics
from bot.runtime.ports import TableObserver
from bot.runtime.registry import TableRegistry
from bot.runtime.table.events import ActionTaken, HandSettled, TableEvent
from bot.runtime.table.views import TableSnapshot
from bot.runtime.tournament.service import TournamentService
from bot.storage import Database, StorageError
from bot.storage.dialect import Conn, Dialect
from bot.storage.postgres import DRIVER_ERRORS

__all__ = ["HEALTH_WAIT", "MeteredObserver", "database_problem", "meter_services"]

#: Seconds a health check may wait for the write lock before the database counts as not
#: writable.
HEALTH_WAIT = 5.0
WRITE_ERRORS: tuple[type[Exception], ...] = (StorageError, sqlite3.Error, *DRIVER_ERRORS)


def _game(snap: TableSnapshot) -> tuple[str, str]:
    config = snap.config
    return config.variant_key, config.structure.value


class MeteredObserver:
    """Counts hands and actions, then tells ``inner`` (the presenter) the same event, in a
    task whose log lines name the table (:func:`bot.logs.bind`)."""

    def __init__(self, inner: TableObserver, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics

    async def observe(self, event: TableEvent) -> None:
        snap = event.table  # the lines logged while this event is shown name its table
        bind(guild=snap.guild_id, table=snap.table_id, hand=snap.hand_no or None)
        if isinstance(event, HandSettled):
            if not event.result.after_restart:  # a late result was counted when it was played
                self.metrics.hands.labels(*_game(event.table)).inc()
        elif isinstance(event, ActionTaken):
            self.metrics.actions.labels(*_game(event.table)).inc()
        await self.inner.observe(event)


def meter_services(
    metrics: Metrics, db: Database, registry: TableRegistry, tournaments: TournamentService
) -> None:
    """Open tables and tournaments and the write retries read at scrape; writes timed."""
    metrics.open_tables.set_function(lambda: len(registry))
    metrics.open_tournaments.set_function(lambda: len(tournaments.all()))
    metrics.total("omaha_db_write_retries",
                  "Database write batches run again after a conflict.", lambda: db.conflicts)
    metrics.total("omaha_db_outages",
                  "Times the database could not be written (disk full, read-only, down).",
                  lambda: db.outage.count)
    metrics.db_unavailable.set_function(lambda: 1.0 if db.outage.down else 0.0)
    db.on_write = metrics.write_seconds.observe


def _write_lock(conn: Conn, dialect: Dialect) -> None:
    """Open a write transaction (SQLite: take the write lock) and roll it back: nothing
    is written, nothing waits for a disk."""
    dialect.send(conn, [dialect.begin_write, "ROLLBACK"])


async def database_problem(db: Database) -> str | None:
    """None when the database would take a write now, else why not, in one line. During
    an outage (:mod:`bot.storage.outage`: a write failed on a full disk, a read-only file
    system, PostgreSQL down) its reason and for how long. Else it writes nothing: on the
    connection's thread, between two write batches, it opens a write transaction and
    rolls it back (SQLite: the write lock is free and the database may be written;
    PostgreSQL: the server answers)."""
    outage = db.outage
    if outage.reason is not None and outage.since is not None:
        return (f"database not writable for {db.clock() - outage.since:.0f} s "
                f"(actions refused, no hand dealt): {outage.reason}")
    try:
        await asyncio.wait_for(db.run(lambda c: _write_lock(c, db.dialect)), HEALTH_WAIT)
    except TimeoutError:
        return f"database write lock took over {HEALTH_WAIT:g} s"
    except WRITE_ERRORS as exc:
        return f"database not writable: {exc}"
    return None
