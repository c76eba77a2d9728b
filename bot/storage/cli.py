"""``python -m bot migrate`` and ``python -m bot audit``.

    python -m bot migrate [--db PATH]   create the database or bring its schema up to date
    python -m bot audit [--db PATH]     one line per server; exit 1 if any chip is unaccounted

The database is ``--db PATH``, else the bot's setting ``DATABASE_PATH``
(environment, then ``.env``; default ``omaha_dealer.sqlite3`` in the working
directory, see :mod:`bot.settings`). Exit status 2 with a one-line error when
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

from .db import DEFAULT_DB_NAME, Database, applied_versions, load_migrations
from .errors import StorageError


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
    return parser


def _path(arg: str | None) -> str:
    if arg:
        return arg
    try:
        from bot.settings import Settings
    except ImportError:  # settings are optional for these commands
        return os.environ.get("DATABASE_PATH") or DEFAULT_DB_NAME
    return Settings.load(require_token=False).database_path


async def _migrate(path: str) -> int:
    # The maintenance commands never touch a deck: a throwaway key avoids
    # creating a key file here.
    db = await Database.open(path, deck_key=os.urandom(32), migrate=True)
    try:
        version = max(await db.run(applied_versions), default=0)
    finally:
        await db.close()
    print(f"{path}: schema at version {version}")
    return 0


async def _audit(path: str) -> int:
    db = await Database.open(path, deck_key=os.urandom(32), migrate=False)
    try:
        done = await db.run(applied_versions)
        if max(done, default=0) < len(load_migrations()):
            raise StorageError(f"{path!r} is not up to date; run `python -m bot migrate` first")
        lines = await db.audit()
    finally:
        await db.close()
    if not lines:
        print(f"{path}: no servers yet, nothing to audit")
    for line in lines:
        print(line)
    return 0 if all(line.ok for line in lines) else 1


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    run = _migrate if args.command == "migrate" else _audit
    try:
        path = _path(args.db)
        if run is _audit and path != ":memory:" and not Path(path).is_file():
            raise StorageError(f"there is no database at {path!r}")
        return asyncio.run(run(path))
    except (StorageError, sqlite3.Error, OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
