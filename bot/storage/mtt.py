"""Multi-table tournaments in storage: seating several tables at the start, moving a
player between tables, and what a restart needs to resume every table.

The money and the chips follow the sit-and-go's accounts (:mod:`.tournaments`):
the buy-ins sit in ``pool:P``; the chips are issued from ``tchips:P`` to the
seats at the start. A move is one ledger transfer ``seat:A:U -> seat:B:U`` of
the player's whole stack with their seat row, in one transaction, only while no
hand runs at the table they leave (the table they join may be playing: they are
dealt in from its next hand). A broken table is closed once empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import TournamentError
from bot.storage.ledger import record, seat_account
from bot.storage.models import LedgerKind, SeatRecord, TableRecord, Tournament
from bot.storage.rows import (
    SEAT_COLS,
    TABLE_COLS,
    hand_running,
    load_tournament,
    seat_record,
    table_record,
)
from bot.storage.tournaments import check_tournament_table, start_seated

if TYPE_CHECKING:
    from bot.storage.db import Database

__all__ = ["MttRepo", "MttTableState", "load_tables"]


@dataclass(frozen=True, slots=True)
class MttTableState:
    """One open table of a running tournament: its number (1, 2, ... in the order the
    tables were made, closed ones counted) and its seats."""

    number: int
    table: TableRecord
    seats: tuple[SeatRecord, ...]


def load_tables(conn: Conn, tournament_id: int) -> list[MttTableState]:
    """The tournament's open tables, by number."""
    out: list[MttTableState] = []
    rows = conn.execute(
        f"SELECT {TABLE_COLS} FROM poker_tables WHERE tournament_id = ? ORDER BY id",
        (tournament_id,)).fetchall()
    for number, row in enumerate(rows, start=1):
        table = table_record(row)
        if table.closed_at is not None:
            continue
        seats = tuple(seat_record(r) for r in conn.execute(
            f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY seat_no", (table.id,)))
        out.append(MttTableState(number, table, seats))
    return out


def last_starts(conn: Conn, tournament_id: int) -> dict[int, int]:
    """``user -> stack`` at the start of the last finished hand of each open table (a
    restart places players left at 0 by these stacks)."""
    out: dict[int, int] = {}
    for (table_id,) in conn.execute(
        "SELECT id FROM poker_tables WHERE tournament_id = ? AND closed_at IS NULL",
        (tournament_id,)).fetchall():
        row = conn.execute(
            "SELECT id FROM hands WHERE table_id = ? AND status = 'finished'"
            " ORDER BY number DESC LIMIT 1", (table_id,)).fetchone()
        if row is not None:
            out.update(conn.execute(
                "SELECT user_id, start_stack FROM hand_seats WHERE hand_id = ?", (row[0],)))
    return out


class MttRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def start(
        self, tournament_id: int, seating: Mapping[int, Mapping[int, int]]
    ) -> Tournament:
        """Close registration and seat every entrant once: ``table_id -> {user: seat}``."""
        now = self._db.clock()
        return await self._db.write(
            lambda conn: start_seated(conn, tournament_id, seating, now))

    async def move(
        self, tournament_id: int, user_id: int, from_table: int, to_table: int, to_seat: int
    ) -> None:
        """Move a player with their whole stack (between hands at ``from_table``)."""
        now = self._db.clock()

        def job(conn: Conn) -> None:
            t = load_tournament(conn, tournament_id)
            if t.status != "running":
                raise TournamentError(Phrase("refuse.store.not_running"))
            check_tournament_table(conn, from_table, tournament_id)
            check_tournament_table(conn, to_table, tournament_id)
            if hand_running(conn, from_table):
                raise TournamentError(Phrase("refuse.store.move_between_hands"))
            row = conn.execute(
                "SELECT stack, sitting_out FROM seats WHERE table_id = ? AND user_id = ?",
                (from_table, user_id)).fetchone()
            if row is None or row[0] <= 0:
                raise TournamentError(Phrase("refuse.store.move_seated"))
            if conn.execute("SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?",
                            (to_table, to_seat)).fetchone():
                raise TournamentError(Phrase("refuse.store.move_seat_taken", seat=str(to_seat)))
            conn.execute("DELETE FROM seats WHERE table_id = ? AND user_id = ?",
                         (from_table, user_id))
            conn.execute(
                "INSERT INTO seats (table_id, seat_no, user_id, stack, sitting_out, joined_at)"
                " VALUES (?,?,?,?,?,?)", (to_table, to_seat, user_id, row[0], row[1], now))
            record(conn, t.guild_id, LedgerKind.TOURNAMENT_CHIPS, row[0],
                   seat_account(from_table, user_id), seat_account(to_table, user_id), now,
                   user_id=user_id, table_id=to_table, tournament_id=tournament_id,
                   reason=f"moved from table {from_table}")

        await self._db.write(job)

    async def tables(self, tournament_id: int) -> list[MttTableState]:
        return await self._db.read(lambda conn: load_tables(conn, tournament_id))

    async def last_starts(self, tournament_id: int) -> dict[int, int]:
        return await self._db.read(lambda conn: last_starts(conn, tournament_id))
