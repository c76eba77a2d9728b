"""``python -m bot migrate``, ``audit`` and ``migrate-to``.

    python -m bot migrate [--db PATH]   create the database or bring its schema up to date
    python -m bot audit [--db PATH]     one line per server; exit 1 if any chip is unaccounted
    python -m bot migrate-to URL [--db PATH]
                                        copy the SQLite database into the empty PostgreSQL
                                        database at URL (postgresql://...), in one
                                        transaction, then audit both; exit 1 on a mismatch
    python -m bot backup FILE [--db PATH] [--with-key]
                                        a consistent copy of the live SQLite database
                                        (safe while the bot writes), checked and audited;
                                        the deck key only with --with-key (FILE.key)
    python -m bot restore FILE [--db PATH]
                                        put a backup into an empty DATABASE_PATH after
                                        checking and auditing it (bot.storage.backup)

The database is ``--db PATH`` (a SQLite file or a ``postgresql://`` URL), else
the bot's setting ``DATABASE_URL`` when set, else ``DATABASE_PATH``
(environment, then ``.env``; default ``omaha_dealer.sqlite3`` in the working
directory, see :mod:`bot.settings`). ``migrate-to`` always reads SQLite:
``--db PATH`` or ``DATABASE_PATH``. Exit status 2 with a one-line error when
the database cannot be read.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.storage.backup import backup, restore
from bot.storage.db import DEFAULT_DB_NAME, Database
from bot.storage.dialect import is_postgres_url
from bot.storage.errors import StorageError
from bot.storage.migrate import applied_versions, load_migrations
from bot.storage.postgres import DRIVER_ERRORS, masked
from bot.storage.transfer import copy_to_postgres

#: Errors printed as one line (exit status 2).
_ERRORS: tuple[type[Exception], ...] = (
    StorageError, sqlite3.Error, OSError, ValueError, *DRIVER_ERRORS
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m bot", description="Database maintenance.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("migrate", "apply the database migrations"),
                       ("audit", "prove that no chip was created or lost")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--db", metavar="PATH", help="database file (default: $DATABASE_PATH)")
    p = sub.add_parser("backup", help="copy the live SQLite database, checked and audited")
    p.add_argument("file", help="the new backup file")
    p.add_argument("--db", metavar="PATH", help="SQLite file (default: $DATABASE_PATH)")
    p.add_argument("--with-key", action="store_true", help="also copy the deck key (FILE.key)")
    p = sub.add_parser("restore", help="put a backup into an empty database file")
    p.add_argument("file", help="the backup file")
    p.add_argument("--db", metavar="PATH", help="the new database (default: $DATABASE_PATH)")
    p = sub.add_parser("migrate-to", help="copy the SQLite database into PostgreSQL")
    p.add_argument("url", help="postgresql://user:password@host:5432/dbname (an empty database)")
    p.add_argument("--db", metavar="PATH", help="SQLite file (default: $DATABASE_PATH)")
    return parser


def _path(arg: str | None, *, sqlite: bool = False) -> str:
    """``--db``, else DATABASE_URL (unless ``sqlite``), else DATABASE_PATH."""
    if arg:
        return arg
    try:
        from bot.settings import Settings
    except ImportError:  # settings are optional for these commands
        return os.environ.get("DATABASE_PATH") or DEFAULT_DB_NAME
    settings = Settings.load(require_token=False)
    if settings.database_url and not sqlite:
        return settings.database_url.reveal()
    return settings.database_path


async def _migrate(path: str) -> int:
    # The maintenance commands never touch a deck: a throwaway key avoids
    # creating a key file here.
    db = await Database.open(path, deck_key=os.urandom(32), migrate=True)
    try:
        version = max(await db.run(applied_versions), default=0)
    finally:
        await db.close()
    print(f"{masked(path)}: schema at version {version}")
    return 0


async def _audit(path: str) -> int:
    db = await Database.open(path, deck_key=os.urandom(32), migrate=False)
    try:
        done = await db.run(applied_versions)
        if max(done, default=0) < len(load_migrations()):
            raise StorageError(
                f"{masked(path)!r} is not up to date; run `python -m bot migrate` first"
            )
        lines = await db.audit()
    finally:
        await db.close()
    if not lines:
        print(f"{masked(path)}: no servers yet, nothing to audit")
    for line in lines:
        print(line)
    return 0 if all(line.ok for line in lines) else 1


async def _migrate_to(path: str, url: str) -> int:
    copied = await copy_to_postgres(path, url)
    print(f"{path} -> {masked(url)}: {copied.summary()}")
    for line in copied.source_audit + copied.target_audit:
        if not line.ok:
            print(line)
    return 0 if copied.ok else 1


PG_TOOLS = (
    "PostgreSQL keeps its own backups: pg_dump --format=custom --file=FILE URL, and "
    "pg_restore --dbname=URL FILE into an empty database (README, \"Running it for a server\")"
)


def _copy(command: str, file: str, path: str, with_key: bool) -> int:
    """``backup`` or ``restore``: one line, the audit's verdict as the exit status."""
    if is_postgres_url(path):
        raise StorageError(PG_TOOLS)
    if command == "backup":
        key = _key_path() if with_key else None
        copied = backup(path, file, key=key)
        kept = _key_path()
        where = f"copied to {copied.key}" if copied.key else f"not copied: it stays at {kept}"
    else:
        copied = restore(file, path)
        where = f"not in the backup: the bot reads it from {_key_path()}"
    print(f"{copied.summary()}; the deck key is {where}")
    for line in copied.audit:
        if not line.ok:
            print(line)
    return 0 if copied.ok else 1


def _key_path() -> str:
    from bot.settings import Settings

    settings = Settings.load(require_token=False)
    return settings.key_path or settings.database_path + ".key"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        path = _path(args.db, sqlite=args.command == "migrate-to")
        if args.command in ("backup", "restore"):
            return _copy(args.command, args.file, path, getattr(args, "with_key", False))
        if args.command == "migrate-to" and is_postgres_url(path):
            raise StorageError("migrate-to copies from a SQLite file: give it with --db PATH")
        local = path != ":memory:" and not is_postgres_url(path)
        if args.command != "migrate" and local and not Path(path).is_file():
            raise StorageError(f"there is no database at {path!r}")
        if args.command == "migrate-to":
            if not is_postgres_url(args.url):
                raise StorageError("the target must be a postgresql:// URL")
            return asyncio.run(_migrate_to(path, args.url))
        return asyncio.run((_migrate if args.command == "migrate" else _audit)(path))
    except _ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
