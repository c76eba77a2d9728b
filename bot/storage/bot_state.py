"""What the bot remembers about itself: one text value per name (table ``bot_state``).

The hash of the command tree last synced to each place (``commands:<app>:global``,
``commands:<app>:guild:<id>``: :mod:`bot.adapter.command_sync`); each open table's
deck-commitment thread (``commitments:<table id>``: :mod:`bot.adapter.commitment_posts`,
deleted when the table closes). (Older versions also
kept the time of the last ``/healthz`` check here, as ``health``: the check writes
nothing now.) The upsert is the same SQL on SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.dialect import Conn

if TYPE_CHECKING:
    from bot.storage.db import Database

__all__ = ["BotState"]

_PUT = (
    "INSERT INTO bot_state (name, value, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
)


class BotState:
    """``db.state``: named values that outlive a restart."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, name: str) -> str | None:
        def read(conn: Conn) -> str | None:
            row = conn.execute("SELECT value FROM bot_state WHERE name = ?", (name,)).fetchone()
            return None if row is None else str(row[0])

        return await self._db.read(read)

    async def put(self, name: str, value: str) -> None:
        now = self._db.clock()
        await self._db.write(lambda conn: conn.execute(_PUT, (name, value, now)))

    async def delete(self, name: str) -> None:
        """Forget ``name`` (nothing happens if it is not there)."""
        await self._db.write(lambda conn: conn.execute(
            "DELETE FROM bot_state WHERE name = ?", (name,)))
