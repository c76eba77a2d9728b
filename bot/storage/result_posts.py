"""Whether each settled hand's result reached its table's channel (issue 33).

The settlement's transaction (:meth:`~.hands.HandRepo.finish`) sets the hand's
``result_pending``; :meth:`ResultPosts.posted` clears it once Discord confirmed the
result message. A kill between the two leaves it set: after the restart,
:meth:`ResultPosts.unposted` names the table's settled hands whose results are still
pending, after the last one seen posted, and the table posts them then. A result that
Discord refused once (a later one was posted) is not posted late. A table that closed
before its last result was seen posted does not come back: :meth:`ResultPosts.closed`
names it, so that its results are posted late all the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.dialect import Conn
from bot.storage.hands import HAND_COLS, hand_record
from bot.storage.models import HandRecord, TableRecord
from bot.storage.rows import TABLE_COLS, table_record

if TYPE_CHECKING:
    from bot.storage.db import Database

__all__ = ["ResultPosts"]


class ResultPosts:
    """``db.results``: the results still to be posted."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def posted(self, hand_id: int) -> None:
        """Hand ``hand_id``'s result is in its channel; an earlier hand's of the table still
        pending (Discord refused it then) will not be posted late: its mark goes too."""
        await self._db.write(lambda conn: conn.execute(
            "UPDATE hands SET result_pending = 0 WHERE result_pending = 1 AND table_id ="
            " (SELECT table_id FROM hands WHERE id = ?) AND number <="
            " (SELECT number FROM hands WHERE id = ?)", (hand_id, hand_id)))

    async def unposted(self, table_id: int) -> list[HandRecord]:
        """The table's settled hands after the last one whose result was seen posted,
        oldest first (none, or the one a kill kept from its channel)."""

        def q(conn: Conn) -> list[HandRecord]:
            rows = conn.execute(
                f"SELECT {HAND_COLS} FROM hands WHERE table_id = ? AND status = 'finished'"
                " AND result_pending = 1 AND number > (SELECT COALESCE(MAX(number), 0)"
                " FROM hands WHERE table_id = ? AND status = 'finished'"
                " AND result_pending = 0) ORDER BY number", (table_id, table_id))
            return [hand_record(r) for r in rows]

        return await self._db.read(q)

    async def closed(self) -> list[TableRecord]:
        """The closed tables with a settled hand whose result is still pending, by id."""

        def q(conn: Conn) -> list[TableRecord]:
            rows = conn.execute(
                f"SELECT {TABLE_COLS} FROM poker_tables WHERE closed_at IS NOT NULL"
                " AND id IN (SELECT table_id FROM hands WHERE status = 'finished'"
                " AND result_pending = 1) ORDER BY id")
            return [table_record(r) for r in rows]

        return await self._db.read(q)
