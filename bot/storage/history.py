"""Finding finished hands again: by channel and number, a player's last ones, a server's recent.

Read-only queries over ``hands``, ``hand_seats`` and ``poker_tables``; the
hand itself (seats, actions, deck) is loaded through :class:`~.hands.HandRepo`.
A hand's *number* is its table's (``Hand #12`` on the result message); a
channel may have held several tables over time, so a number in a channel
means the most recent table there that dealt a hand with that number.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.storage.dialect import Conn
from bot.storage.hands import HAND_COLS, hand_record
from bot.storage.models import HandRecord

if TYPE_CHECKING:
    from bot.storage.db import Database

__all__ = ["HandListing", "HandLookup"]

_PREFIXED = ", ".join(f"h.{c.strip()}" for c in HAND_COLS.split(","))


@dataclass(frozen=True, slots=True)
class HandListing:
    """One line of ``/hands``: which hand, when, the game, the pot and who won what."""

    hand: HandRecord
    channel_id: int
    pot: int  # every chip won in the hand
    won: tuple[tuple[int, int], ...]  # (user_id, chips won) of each winner, biggest first
    net: int | None  # the asked-about player's net (None: everyone's listing)


class HandLookup:
    """Queries for hand histories (``Database.history``)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def in_channel(self, channel_id: int, number: int) -> HandRecord | None:
        """Hand ``number`` of the latest table in ``channel_id`` that dealt it (any status)."""

        def q(conn: Conn) -> HandRecord | None:
            row = conn.execute(
                f"SELECT {_PREFIXED} FROM hands h JOIN poker_tables t ON t.id = h.table_id"
                " WHERE t.channel_id = ? AND h.number = ? ORDER BY h.id DESC LIMIT 1",
                (channel_id, number),
            ).fetchone()
            return None if row is None else hand_record(row)

        return await self._db.read(q)

    async def last_of(self, channel_id: int, user_id: int, count: int = 1) -> list[HandRecord]:
        """``user_id``'s last ``count`` finished hands in ``channel_id``, newest first."""

        def q(conn: Conn) -> list[HandRecord]:
            rows = conn.execute(
                f"SELECT {_PREFIXED} FROM hands h JOIN poker_tables t ON t.id = h.table_id"
                " JOIN hand_seats s ON s.hand_id = h.id"
                " WHERE t.channel_id = ? AND s.user_id = ? AND h.status = 'finished'"
                " ORDER BY h.id DESC LIMIT ?",
                (channel_id, user_id, count),
            ).fetchall()
            return [hand_record(r) for r in rows]

        return await self._db.read(q)

    async def channels(self, guild_id: int) -> list[int]:
        """The channels (and threads) where the server's tables have dealt a hand."""

        def q(conn: Conn) -> list[int]:
            rows = conn.execute(
                "SELECT DISTINCT t.channel_id FROM poker_tables t"
                " WHERE t.guild_id = ? AND EXISTS (SELECT 1 FROM hands h"
                " WHERE h.table_id = t.id) ORDER BY t.channel_id",
                (guild_id,),
            ).fetchall()
            return [int(r[0]) for r in rows]

        return await self._db.read(q)

    async def recent(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10,
        channel_ids: Collection[int] | None = None, variant: str | None = None,
    ) -> list[HandListing]:
        """The server's latest finished hands (only ``user_id``'s when given; only those of
        tables in ``channel_ids`` when given; only one game's, each hand's own, when
        ``variant`` is given), newest first."""
        if channel_ids is not None and not channel_ids:
            return []

        def q(conn: Conn) -> list[HandListing]:
            sql = (
                f"SELECT {_PREFIXED}, t.channel_id FROM hands h"
                " JOIN poker_tables t ON t.id = h.table_id"
                " WHERE h.guild_id = ? AND h.status = 'finished'"
            )
            args: tuple[int | str, ...] = (guild_id,)
            if channel_ids is not None:
                sql += f" AND t.channel_id IN ({', '.join('?' * len(channel_ids))})"
                args += tuple(channel_ids)
            if variant is not None:
                sql += " AND h.variant = ?"
                args += (variant,)
            if user_id is not None:
                sql += " AND EXISTS (SELECT 1 FROM hand_seats s WHERE s.hand_id = h.id"
                sql += " AND s.user_id = ?)"
                args += (user_id,)
            rows = conn.execute(sql + " ORDER BY h.id DESC LIMIT ?", (*args, limit)).fetchall()
            return [_listing(conn, r, user_id) for r in rows]

        return await self._db.read(q)


def _listing(conn: Conn, row: Any, user_id: int | None) -> HandListing:
    hand = hand_record(row[:-1])
    seats = conn.execute(
        "SELECT user_id, won, net FROM hand_seats WHERE hand_id = ? ORDER BY won DESC, seat_no",
        (hand.id,),
    ).fetchall()
    won = tuple((int(u), int(w)) for u, w, _ in seats if w)
    net = next((int(n) for u, _, n in seats if u == user_id), None)
    return HandListing(hand, int(row[-1]), sum(w for _, w in won), won, net)
