"""A server's time zone (``guild_timezones``, migration 0013).

A server that never set one has no row (UTC). The zones are held in memory by
:mod:`bot.adapter.timezones`, which reads every row once at start-up and writes
here when a manager changes one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.dialect import Conn

if TYPE_CHECKING:
    from bot.storage.db import Database


class TimezoneRepo:
    """Read every server's time zone; set one server's."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def all(self) -> dict[int, str]:
        """``guild_id -> IANA name`` of every server that set one."""

        def q(conn: Conn) -> dict[int, str]:
            rows = conn.execute("SELECT guild_id, timezone FROM guild_timezones")
            return {int(g): str(z) for g, z in rows}

        return await self._db.read(q)

    async def set(self, guild_id: int, zone: str) -> None:
        """Store a server's time zone, replacing its row."""
        now = self._db.clock()

        def job(conn: Conn) -> None:
            conn.execute(
                "INSERT INTO guild_timezones (guild_id, timezone, updated_at) VALUES (?,?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET timezone = excluded.timezone,"
                " updated_at = excluded.updated_at",
                (guild_id, zone, now),
            )

        await self._db.write(job)
