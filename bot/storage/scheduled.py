"""Backups the running bot takes by itself (``BACKUP_EVERY``, ``BACKUP_KEEP``, ``BACKUP_DIR``).

Every ``every`` seconds :class:`BackupSchedule` takes the same backup as ``python -m bot
backup`` (:func:`bot.storage.backup.backup`: SQLite's online backup API, safe while the
bot writes, checked and audited before the file is kept), in a thread so the tables
play on, into ``folder`` as ``<database name>-<UTC time>.sqlite3``; then it removes
the oldest of those files beyond ``keep``. The deck key is never copied (back it up
apart: whoever holds both reads every stored deck). The files are mode 0600 in a
folder the bot creates 0700 (:mod:`bot.storage.private`). A failed backup is logged and
the next one comes on time; an audit that fails is logged as an error (an alert: a
chip was created or lost). PostgreSQL has ``pg_dump`` (:data:`PG_DUMP`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.storage.backup import Copied, backup, remove_leftovers
from bot.storage.errors import StorageError
from bot.storage.private import make_folder, tighten

__all__ = ["PG_DUMP", "BackupSchedule"]

log = logging.getLogger("bot.storage.scheduled")

PG_DUMP = (
    "BACKUP_EVERY is for SQLite: back a PostgreSQL database up with "
    "pg_dump --format=custom --file=FILE URL (README, \"Running it for a server\")"
)
Sleep = Callable[[float], Awaitable[None]]


class BackupSchedule:
    """Backups of the SQLite file ``source`` into ``folder`` every ``every`` seconds,
    the newest ``keep`` kept. ``clock`` (epoch seconds) names the files; ``sleep`` waits
    between two (tests inject both)."""

    def __init__(
        self, source: str, folder: str | Path, every: float, keep: int, *,
        clock: Callable[[], float] = time.time, sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.source = source
        self.folder = Path(folder)
        self.every = every
        self.keep = max(1, keep)
        self.clock = clock
        self.sleep = sleep
        self.taken: list[Copied] = []  # this run's backups, oldest first
        self._task: asyncio.Task[None] | None = None

    @property
    def pattern(self) -> str:
        """The names of this database's backups in :attr:`folder` (a glob)."""
        return f"{Path(self.source).stem}-*Z.sqlite3"

    def start(self) -> None:
        """Take a backup every :attr:`every` seconds; first make the backups already in
        :attr:`folder` private (:func:`~bot.storage.private.tighten`)."""
        if self._task is None:
            tighten(self.folder.glob(self.pattern), "the backups")
            for path in remove_leftovers(self.folder, f"{Path(self.source).stem}-"):
                log.info("Removed %s, left by a backup that was interrupted", path.name)
            self._task = asyncio.get_running_loop().create_task(self._run(), name="backups")
            log.info("A backup every %s s into %s, the newest %d kept (the deck key is not "
                     "copied: back it up apart)", f"{self.every:g}", self.folder, self.keep)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await self.sleep(self.every)
            try:
                await self.take()
            except (StorageError, OSError) as exc:
                log.error("Scheduled backup failed: %s", exc)

    async def take(self) -> Copied:
        """One backup now, then the oldest beyond :attr:`keep` removed."""
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(self.clock()))
        target = self.folder / f"{Path(self.source).stem}-{stamp}.sqlite3"
        await asyncio.to_thread(make_folder, self.folder)
        copied = await asyncio.to_thread(backup, self.source, str(target))
        self.taken.append(copied)
        if copied.ok:
            log.info("Backup: %s", copied.summary())
        else:
            log.error("Backup: %s", copied.summary())
        removed = await asyncio.to_thread(self.rotate)
        if removed:
            log.info("Removed %d old backup%s", len(removed), "s" * (len(removed) != 1))
        return copied

    def rotate(self) -> list[Path]:
        """Remove the oldest backups beyond :attr:`keep` (their names sort by time)."""
        found = sorted(self.folder.glob(self.pattern))
        old = found[:-self.keep]
        for path in old:
            path.unlink(missing_ok=True)
        return old
