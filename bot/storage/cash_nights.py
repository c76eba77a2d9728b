"""Cash game nights on the calendar (``cash_nights``, migration 0016; issue 34).

One row per night: where and when, who scheduled it, a weekly series' time zone, the
organiser's words and the language of its messages, and how far it got (``scheduled``,
``active``, ``over``, ``cancelled``). The runtime (:mod:`bot.runtime.cash_nights`)
keeps the open ones in memory and reads them back after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.storage.dialect import Conn

if TYPE_CHECKING:
    from bot.storage.db import Database

__all__ = ["CashNightRecord", "CashNightRepo"]

_COLUMNS = "id, guild_id, channel_id, creator_id, starts_at, weekly, about, language, status"


@dataclass(frozen=True, slots=True)
class CashNightRecord:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    starts_at: float
    weekly: str | None
    about: str
    language: str
    status: str


def _record(row: tuple[object, ...]) -> CashNightRecord:
    return CashNightRecord(
        int(str(row[0])), int(str(row[1])), int(str(row[2])), int(str(row[3])),
        float(str(row[4])), None if row[5] is None else str(row[5]), str(row[6]), str(row[7]),
        str(row[8]))


class CashNightRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self, *, guild_id: int, channel_id: int, creator_id: int, starts_at: float,
        weekly: str | None, about: str, language: str,
    ) -> CashNightRecord:
        now = self._db.clock()

        def job(conn: Conn) -> CashNightRecord:
            cur = conn.execute(
                "INSERT INTO cash_nights (guild_id, channel_id, creator_id, starts_at, weekly,"
                f" about, language, created_at) VALUES (?,?,?,?,?,?,?,?) RETURNING {_COLUMNS}",
                (guild_id, channel_id, creator_id, starts_at, weekly, about, language, now))
            return _record(tuple(cur.fetchone()))

        return await self._db.write(job)

    async def set_status(self, night_id: int, status: str) -> None:
        await self._db.write(lambda conn: conn.execute(
            "UPDATE cash_nights SET status = ? WHERE id = ?", (status, night_id)))

    async def reschedule(self, night_id: int, starts_at: float) -> None:
        await self._db.write(lambda conn: conn.execute(
            "UPDATE cash_nights SET starts_at = ? WHERE id = ?", (starts_at, night_id)))

    async def open_nights(self) -> list[CashNightRecord]:
        """Every night still scheduled or active, soonest first."""

        def q(conn: Conn) -> list[CashNightRecord]:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM cash_nights WHERE status IN ('scheduled', 'active')"
                " ORDER BY starts_at, id")
            return [_record(tuple(r)) for r in rows]

        return await self._db.read(q)
