"""When the database cannot be written: a full disk, a read-only file system, PostgreSQL down.

A write that fails for one of these reasons (:func:`fault_of`) is not the request's
fault, and trying it again at once would fail the same way. So the database
(:class:`~.db.Database`) starts an *outage* (:class:`Outage`) at the first such failure:

* it logs one line (ERROR) saying what and why, and one (WARNING) when it is over:
  never one per request;
* every write meanwhile is refused at once with :class:`~.errors.StorageUnavailable`
  (nothing queued, nothing half done; players read "the dealer cannot write right
  now"), and so is every read that fails the same way (PostgreSQL down); writes that
  arrive while the first try below runs wait for it (a PostgreSQL connection dropped a
  moment ago, the server up, is back by then: only the write that met it fails);
* it tries one small real write (:func:`probe`, a row of ``bot_state``) at once,
  then after :data:`PROBE_FIRST` seconds, twice as long each time up to
  :data:`PROBE_EVERY` (:func:`next_probe`). On SQLite after a read-only or I/O
  error, on a new connection (the old one's files may sit on a file system that was
  remounted read-only, which can be mounted again only once they are closed); on
  PostgreSQL the link reconnects by itself. The first probe that commits ends the
  outage; after a full disk, only once :data:`ROOM_AFTER_FULL` is free there too (a
  small write may fit where the next batch would not: the outage would end and begin
  again, two lines each time);
* whoever listens (``Database.on_outage``: the tables stop their clocks and deal
  nothing meanwhile, :mod:`bot.runtime.hearing`) is told when it begins and ends;
  ``/healthz`` answers 503 with the reason, the metrics say it
  (``omaha_db_unavailable``, ``omaha_db_outages_total``: :mod:`bot.app_metrics`).

What makes a fault (SQLite's primary result codes, PostgreSQL's SQLSTATE classes):
``SQLITE_FULL``, ``SQLITE_READONLY``, ``SQLITE_IOERR``, ``SQLITE_CANTOPEN``; a lost or
refused PostgreSQL connection (:mod:`.postgres` raises :class:`StorageUnavailable`
itself), an operator's intervention (class 57: a shutdown, a server starting up),
insufficient resources (class 53: PostgreSQL's own disk full) and a read-only
transaction (25006: a standby after a failover). ``SQLITE_BUSY`` (another writer
holding the lock past the busy timeout) is not one: it passes on its own.
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.storage.dialect import Conn
from bot.storage.errors import StorageUnavailable

log = logging.getLogger("bot.storage")

__all__ = [
    "PROBE_EVERY", "PROBE_FIRST", "ROOM_AFTER_FULL", "Outage", "fault_of", "has_room",
    "is_full", "must_reopen", "next_probe", "probe", "unavailable",
]

#: Seconds before the second try of a write while the database cannot be written...
PROBE_FIRST = 1.0
#: ... and at most between two tries after it (the longest a table waits once the
#: database can be written again).
PROBE_EVERY = 15.0


#: Bytes free on a disk that was full before its outage may end.
ROOM_AFTER_FULL = 1 << 20


def next_probe(wait: float) -> float:
    """Seconds before the try after one made ``wait`` seconds after the one before."""
    return min(PROBE_EVERY, max(PROBE_FIRST, 2 * wait))

#: SQLite's primary result codes that mean the database cannot be written now.
_SQLITE_FULL, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CANTOPEN = 13, 8, 10, 14
_FAULTS = frozenset({_SQLITE_FULL, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CANTOPEN})
#: Of those, the ones after which the connection is opened again (its files may be on a
#: file system that must be mounted again, or gone).
_REOPEN = frozenset({_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CANTOPEN})

_PROBE = (
    "INSERT INTO bot_state (name, value, updated_at) VALUES ('write probe', 'ok', ?) "
    "ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at"
)


def _sqlite_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(exc, sqlite3.Error) and isinstance(code, int) else None


def fault_of(exc: BaseException) -> str | None:
    """Why ``exc`` means the database cannot be written now (one line), or None when it
    is something else (a job's own error, a conflict, a busy lock...)."""
    if isinstance(exc, StorageUnavailable):
        return exc.reason
    if _sqlite_code(exc) in _FAULTS:
        return f"{exc} ({getattr(exc, 'sqlite_errorname', 'SQLITE')})"
    return None


def is_full(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's full disk."""
    return _sqlite_code(exc) == _SQLITE_FULL


def has_room(path: str) -> bool:
    """Whether the disk of the database file ``path`` has :data:`ROOM_AFTER_FULL` free."""
    return shutil.disk_usage(Path(path).parent).free >= ROOM_AFTER_FULL


def must_reopen(exc: BaseException) -> bool:
    """Whether the SQLite connection that met ``exc`` is to be opened again."""
    return _sqlite_code(exc) in _REOPEN


def unavailable(exc: BaseException) -> StorageUnavailable | None:
    """``exc`` as the :class:`StorageUnavailable` callers get, when it is a fault."""
    reason = fault_of(exc)
    if reason is None:
        return None
    return exc if isinstance(exc, StorageUnavailable) else StorageUnavailable(reason)


def probe(now: float) -> Callable[[Conn], object]:
    """The small real write that tells whether the database takes writes again."""
    return lambda conn: conn.execute(_PROBE, (now,))


class Outage:
    """Whether the database at ``where`` cannot be written now, why, since when (the
    database's clock), and how many outages began (:attr:`count`)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.reason: str | None = None
        self.since: float | None = None
        self.count = 0
        #: the disk was full: the outage ends only with room there (:func:`has_room`)
        self.full = False

    @property
    def down(self) -> bool:
        return self.reason is not None

    def begin(self, reason: str, now: float) -> bool:
        """An outage begins now (True), unless one is already under way (False)."""
        if self.reason is not None:
            return False
        self.reason, self.since = reason, now
        self.count += 1
        log.error(
            "The database %s cannot be written: %s. Actions are refused and no hand is "
            "dealt until it can; trying again at least every %g s.",
            self.where, reason, PROBE_EVERY,
        )
        return True

    def end(self, now: float) -> None:
        """The database took a write again: the outage is over."""
        if self.since is None:
            return
        log.warning("The database %s can be written again after %.0f s (%s): play resumes.",
                    self.where, now - self.since, self.reason)
        self.reason = self.since = None
        self.full = False
