"""Rows of tables, seats and tournaments read into records, shared by the repositories.

The table, tournament and multi-table repositories (:mod:`.tables`,
:mod:`.tournaments`, :mod:`.tournament_state`, :mod:`.mtt`, :mod:`.hands`)
all read these rows; they live here, below all of them, so that none of
those modules needs another's helpers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.i18n import Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import TableRecordError, TournamentError, UnknownTable
from bot.storage.models import SeatRecord, TableRecord, Tournament

#: The columns of ``poker_tables`` that :func:`table_record` reads, in its order.
TABLE_COLS = (
    "id, guild_id, channel_id, creator_id, kind, tournament_id, settings, hands_dealt,"
    " created_at, closed_at"
)
#: The columns of ``seats`` that :func:`seat_record` reads, in its order.
SEAT_COLS = "table_id, seat_no, user_id, stack, sitting_out, joined_at, straddle, time_bank"


def table_record(row: Any) -> TableRecord:
    """A ``poker_tables`` row, selected as :data:`TABLE_COLS`, as a record."""
    return TableRecord(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]),
                       row[7], row[8], row[9])


def seat_record(row: Any) -> SeatRecord:
    """A ``seats`` row, selected as :data:`SEAT_COLS`, as a record."""
    return SeatRecord(row[0], row[1], row[2], row[3], bool(row[4]), row[5], bool(row[6]),
                      None if row[7] is None else float(row[7]))


def dump_json(value: Mapping[str, Any]) -> str:
    """Settings as stored: canonical JSON (a value JSON cannot hold is refused)."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise TableRecordError(Phrase("refuse.store.settings", why=str(exc))) from None


def load_open_table(conn: Conn, table_id: int) -> TableRecord:
    """The open table ``table_id`` (refused when it is closed or unknown)."""
    row = conn.execute(
        f"SELECT {TABLE_COLS} FROM poker_tables WHERE id = ? AND closed_at IS NULL", (table_id,)
    ).fetchone()
    if row is None:
        raise UnknownTable(Phrase("refuse.store.table_gone"))
    return table_record(row)


def load_seat(conn: Conn, table_id: int, user_id: int) -> SeatRecord | None:
    """A player's seat at a table, if they have one."""
    row = conn.execute(
        f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    ).fetchone()
    return None if row is None else seat_record(row)


def hand_running(conn: Conn, table_id: int) -> bool:
    """Whether the table has a hand in progress."""
    return (
        conn.execute(
            "SELECT 1 FROM hands WHERE table_id = ? AND status = 'running'", (table_id,)
        ).fetchone()
        is not None
    )


#: The columns of ``tournaments`` that :func:`load_tournament` reads, in its order.
TOURNAMENT_COLS = (
    "id, guild_id, channel_id, creator_id, buy_in, starting_stack, settings, status, pool,"
    " created_at, started_at, ended_at"
)


def load_tournament(conn: Conn, tournament_id: int) -> Tournament:
    """A tournament with its entrants in order of entry (refused when unknown)."""
    row = conn.execute(
        f"SELECT {TOURNAMENT_COLS} FROM tournaments WHERE id = ?", (tournament_id,)
    ).fetchone()
    if row is None:
        raise TournamentError(Phrase("refuse.store.no_tournament"))
    entrants = tuple(
        r[0]
        for r in conn.execute(
            "SELECT user_id FROM tournament_entries WHERE tournament_id = ?"
            " ORDER BY entered_at, user_id",
            (tournament_id,),
        )
    )
    return Tournament(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]),
                      row[7], row[8], row[9], row[10], row[11], entrants)
