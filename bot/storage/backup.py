"""Backups of the live SQLite database, and putting one back (``python -m bot backup|restore``).

A backup is taken with SQLite's online backup API (``sqlite3.Connection.backup``),
which copies one consistent state of the database while the bot keeps writing:
in WAL mode a reader sees the last committed transaction, and a write
transaction still open in another connection is simply not in the copy. The
copy goes to a temporary file beside the target, is checked (SQLite's
``integrity_check``, our schema, the chip audit) and only then renamed into
place, so a backup file that exists is a whole, audited one. A backup, and a
database put back, are private to the bot's user (mode 0600, :mod:`.private`).

The deck key is not in the database and is not copied unless asked
(``--with-key``): whoever holds both can read every stored deck, so they are
best kept apart. Hands still running when the backup was taken need the key
to be resumed after a restore.

A restore goes only into an empty place (no file, or an empty one, at the
target and no ``-wal`` beside it) and only from a file that is an Omaha
Dealer database whose audit passes. PostgreSQL has its own tools (README,
"Running it for a server": ``pg_dump`` / ``pg_restore``).
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import secrets
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot import crashpoint
from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.migrate import applied_versions, load_migrations
from bot.storage.models import AuditLine
from bot.storage.private import create_file

__all__ = ["Copied", "backup", "remove_leftovers", "restore"]


@dataclass(frozen=True)
class Copied:
    """A database copied and checked: where, its schema version and its audit."""

    source: str
    target: str
    version: int
    audit: tuple[AuditLine, ...]
    key: str | None = None  # where the deck key was copied, if it was

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.audit)

    def summary(self) -> str:
        servers = len(self.audit)
        verdict = "audit ok" if self.ok else "AUDIT FAILED"
        return (f"{self.source} -> {self.target}: schema version {self.version}, "
                f"{servers} server{'s' * (servers != 1)}, {verdict}")


def backup(source: str, target: str, *, key: str | None = None) -> Copied:
    """Copy the live database at ``source`` into the new file ``target`` (and the deck key
    file ``key`` to ``target + '.key'`` when given), checked before it is kept."""
    src, dst = Path(source), Path(target)
    if not src.is_file():
        raise StorageError(f"there is no database at {source!r}")
    if dst.exists():
        raise StorageError(f"{target!r} already exists: give a new file name")
    with _staged(dst) as tmp:
        _copy(src, tmp)
        version, lines = check(tmp)
        crashpoint.reached("backup.copied")
        tmp.replace(dst)
    copied_key = _copy_key(Path(key), Path(target + ".key")) if key else None
    return Copied(source, target, version, lines, copied_key)


def restore(source: str, target: str) -> Copied:
    """Put the backup ``source`` into the empty place ``target``, after checking it."""
    src, dst = Path(source), Path(target)
    if not src.is_file():
        raise StorageError(f"there is no backup at {source!r}")
    if (dst.exists() and dst.stat().st_size > 0) or Path(target + "-wal").exists():
        raise StorageError(f"{target!r} is not empty: restore only into a new database file")
    version, lines = check(src)
    if not all(line.ok for line in lines):
        raise StorageError(f"{source!r} fails the chip audit: not restored")
    with _staged(dst) as tmp:
        _copy(src, tmp)
        tmp.replace(dst)
    return Copied(source, target, version, lines)


def check(path: Path) -> tuple[int, tuple[AuditLine, ...]]:
    """The schema version and the audit of the database file ``path``, or StorageError
    when it is not a whole Omaha Dealer database."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            if conn.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise StorageError(f"{str(path)!r} is damaged (SQLite's integrity check)")
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{str(path)!r} is not a SQLite database ({exc})") from None
    if "schema_migrations" not in tables or "ledger" not in tables:
        raise StorageError(f"{str(path)!r} is not an Omaha Dealer database")
    return _audit(path)


def _audit(path: Path) -> tuple[int, tuple[AuditLine, ...]]:
    async def run() -> tuple[int, tuple[AuditLine, ...]]:
        # the audit reads no deck: a throwaway key opens the file without its key file
        db = await Database.open(path, deck_key=secrets.token_bytes(32), migrate=False)
        try:
            version = max(await db.run(applied_versions), default=0)
            if version < len(load_migrations()):
                raise StorageError(f"{str(path)!r} is at schema version {version}: migrate it")
            return version, tuple(await db.audit())
        finally:
            await db.close()

    return asyncio.run(run())


def _copy(src: Path, dst: Path) -> None:
    """SQLite's online backup of ``src`` into the new file ``dst`` (one consistent state)."""
    with contextlib.closing(sqlite3.connect(f"file:{src}?mode=ro", uri=True)) as source, \
            contextlib.closing(sqlite3.connect(dst)) as target:
        source.backup(target)


def _copy_key(key: Path, target: Path) -> str:
    if not key.is_file():
        raise StorageError(f"there is no deck key at {str(key)!r}")
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out, key.open("rb") as src:
        shutil.copyfileobj(src, out)
    return str(target)


def remove_leftovers(folder: Path, prefix: str) -> list[Path]:
    """Remove the staged copies (and their journals) that a backup killed mid-copy left
    in ``folder`` for targets whose names start with ``prefix``; the files removed."""
    found = sorted(folder.glob(f".{glob.escape(prefix)}*.tmp*"))
    for path in found:
        path.unlink(missing_ok=True)
    return found


@contextlib.contextmanager
def _staged(target: Path) -> Iterator[Path]:
    """A new empty file (mode 0600) beside ``target``, removed unless the caller moved it
    into place (a process killed meanwhile leaves it: :func:`remove_leftovers`)."""
    remove_leftovers(target.parent, f"{target.name}.")
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        create_file(tmp)  # 0600 before a byte is copied: the copy and its journal stay private
        yield tmp
    finally:
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            leftover.unlink(missing_ok=True)
