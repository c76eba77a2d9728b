"""Copy a SQLite database into an empty PostgreSQL one (``python -m bot migrate-to``).

Every table's rows go across with their ids, in one PostgreSQL transaction:
either everything is copied or nothing is. The target must be empty (its
schema may exist: the copy brings it to the newest migration first); a
target that holds any row is refused and left as it is. Afterwards the
identity sequences continue after the copied ids, and the chip audit runs on
both sides: the copy is good when both pass and agree server by server.

The rows are read in one snapshot of the source and held in memory while
they are written (a bot's database is small: a few hundred bytes a hand).
The sealed decks are copied as they are; the PostgreSQL bot must use the
same deck key file (``DATABASE_PATH.key``, see :mod:`bot.settings`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from bot.storage.db import Database
from bot.storage.dialect import Conn
from bot.storage.errors import StorageError
from bot.storage.migrate import applied_versions, load_migrations
from bot.storage.models import AuditLine

#: Every table of the schema, parents before children (foreign keys).
TABLES = (
    "guild_settings", "wallets", "tournaments", "tournament_entries", "poker_tables", "seats",
    "hands", "hand_seats", "hand_actions", "ledger", "player_stats", "tournament_results",
    "guild_table_caps", "bot_state", "player_prefs", "cash_departures", "table_sessions",
    "seasons", "guild_timezones", "cash_nights",
)
#: The tables whose ``id`` is an identity column on PostgreSQL.
IDENTITIES = ("tournaments", "poker_tables", "hands", "ledger", "cash_departures",
              "table_sessions", "seasons", "cash_nights")


class TargetNotEmpty(StorageError):
    """The PostgreSQL database already holds rows; nothing was copied."""


@dataclass(frozen=True, slots=True)
class Copied:
    counts: dict[str, int]
    source_audit: list[AuditLine]
    target_audit: list[AuditLine]

    @property
    def ok(self) -> bool:
        return (all(line.ok for line in self.source_audit + self.target_audit)
                and _figures(self.source_audit) == _figures(self.target_audit))

    def summary(self) -> str:
        rows = sum(self.counts.values())
        parts = ", ".join(f"{name} {n}" for name, n in self.counts.items() if n)
        verdict = "audit OK on both sides" if self.ok else "AUDIT MISMATCH"
        return (f"copied {rows} rows ({parts or 'no rows'}); "
                f"{len(self.source_audit)} servers; {verdict}")


def _figures(lines: list[AuditLine]) -> list[tuple[Any, ...]]:
    return [(x.guild_id, x.balances, x.stacks, x.pools, x.minted) for x in lines]


def _read_all(conn: Conn) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """``table -> (columns, rows)``, in one snapshot."""
    conn.execute("BEGIN")
    try:
        found = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'"
        )}
        if found != set(TABLES):
            raise StorageError(f"migrate-to does not know the tables {sorted(found ^ set(TABLES))}")
        out = {}
        for table in TABLES:
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            rows = [tuple(r) for r in conn.execute(f"SELECT {', '.join(cols)} FROM {table}")]
            out[table] = (cols, rows)
        return out
    finally:
        conn.execute("COMMIT")


def _write_all(conn: Conn, data: dict[str, tuple[list[str], list[tuple[Any, ...]]]]) -> None:
    """Insert every row (refusing a target that holds any), then move the sequences on."""
    full = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
    if any(full.values()):
        held = ", ".join(f"{t} {n}" for t, n in full.items() if n)
        raise TargetNotEmpty(
            f"the PostgreSQL database is not empty ({held} rows); migrate-to copies only "
            "into an empty database, and nothing was changed"
        )
    for table in TABLES:
        cols, rows = data[table]
        if rows:
            marks = ", ".join("?" for _ in cols)
            conn.executemany(
                f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", rows
            )
    for table in IDENTITIES:
        conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )


async def copy_to_postgres(source: str, target: str) -> Copied:
    """Copy the SQLite database at ``source`` into the PostgreSQL URL ``target``."""
    throwaway = os.urandom(32)  # no deck is opened: no key file is read or made
    src = await Database.open(source, deck_key=throwaway, migrate=False)
    try:
        if max(await src.run(applied_versions), default=0) < len(load_migrations()):
            raise StorageError(f"{source!r} is not up to date; run `python -m bot migrate` first")
        data = await src.read(_read_all)
        dst = await Database.open(target, deck_key=throwaway)
        try:
            await dst.write(lambda c: _write_all(c, data))
            counts = await dst.read(_counts)
            if counts != {t: len(rows) for t, (_, rows) in data.items()}:
                raise StorageError("the copy does not hold the same number of rows")
            return Copied(counts, await src.audit(), await dst.audit())
        finally:
            await dst.close()
    finally:
        await src.close()


def _counts(conn: Conn) -> dict[str, int]:
    return {t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in TABLES}
