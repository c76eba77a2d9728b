"""A server's own caps on open cash tables (``guild_table_caps``, migration 0007).

A server that never changed its caps has no row; a column left NULL follows the
operator's default. The caps themselves are applied by :mod:`bot.runtime.caps`,
which reads every row once at start-up and writes here when a manager changes one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.dialect import Conn

if TYPE_CHECKING:
    from bot.storage.db import Database

#: ``guild_id -> (per_member, per_server)``, None where the server follows the default.
StoredCaps = dict[int, tuple[int | None, int | None]]


class CapsRepo:
    """Read every server's caps; set one server's."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def all(self) -> StoredCaps:
        """Every server's own caps."""

        def q(conn: Conn) -> StoredCaps:
            rows = conn.execute("SELECT guild_id, per_member, per_server FROM guild_table_caps")
            return {int(g): (m, s) for g, m, s in rows}

        return await self._db.read(q)

    async def set(self, guild_id: int, per_member: int | None, per_server: int | None) -> None:
        """Store a server's caps (None: the operator's default), replacing its row."""
        now = self._db.clock()

        def job(conn: Conn) -> None:
            conn.execute(
                "INSERT INTO guild_table_caps (guild_id, per_member, per_server, updated_at)"
                " VALUES (?,?,?,?) ON CONFLICT (guild_id) DO UPDATE SET"
                " per_member = excluded.per_member, per_server = excluded.per_server,"
                " updated_at = excluded.updated_at",
                (guild_id, per_member, per_server, now),
            )

        await self._db.write(job)
