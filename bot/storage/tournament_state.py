"""A running sit-and-go's state as storage holds it, for resuming it after a restart.

What a restart needs to go on where it stopped (RULES.md section 7; issue 12):
the entrants and the places already decided (``tournament_entries``), the
tournament's open table and its seats with their stacks, the starting stacks
of the last finished hand there (to place players left at 0 whose
elimination was not stored before the restart) and the blind clock
(``tournaments.hands_played`` and ``level_elapsed``, written after every
hand). The hand in progress, if any, is the table's unfinished hand and is
resumed on its own deck like a cash table's (``bot.runtime.table.recovery``).

What cannot be resumed is cancelled on its own: :func:`cancel_one` cancels
the running hand (no chip moves: stacks are written only at settlement),
takes the tournament chips back, refunds every buy-in and closes the table,
in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.storage.dialect import Conn
from bot.storage.models import SeatRecord, TableRecord, Tournament
from bot.storage.rows import SEAT_COLS, TABLE_COLS, load_tournament, seat_record, table_record

__all__ = ["InterruptedTournament", "load_interrupted", "save_progress"]


@dataclass(frozen=True, slots=True)
class InterruptedTournament:
    """A tournament that was registering or running when the bot stopped."""

    tournament: Tournament
    places: Mapping[int, int]  # user -> place, for the players already out
    hands_played: int
    level_elapsed: float  # seconds of the blind clock played when the last hand ended
    table: TableRecord | None  # None while registering
    seats: tuple[SeatRecord, ...]
    last_start: Mapping[int, int]  # user -> stack at the start of the last finished hand


def load_interrupted(conn: Conn) -> list[InterruptedTournament]:
    """Every tournament registering or running, oldest first."""
    out: list[InterruptedTournament] = []
    for tid, hands_played, elapsed in conn.execute(
        "SELECT id, hands_played, level_elapsed FROM tournaments"
        " WHERE status IN ('registering', 'running') ORDER BY id"
    ).fetchall():
        t = load_tournament(conn, tid)
        places: dict[int, int] = dict(conn.execute(
            "SELECT user_id, place FROM tournament_entries"
            " WHERE tournament_id = ? AND place IS NOT NULL", (tid,)))
        row = conn.execute(
            f"SELECT {TABLE_COLS} FROM poker_tables WHERE tournament_id = ?"
            " AND closed_at IS NULL ORDER BY id LIMIT 1", (tid,)
        ).fetchone()
        table = None if row is None else table_record(row)
        seats = () if table is None else tuple(
            seat_record(r) for r in conn.execute(
                f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY seat_no",
                (table.id,))
        )
        last = {} if table is None else _last_start(conn, table.id)
        out.append(InterruptedTournament(t, places, hands_played, elapsed, table, seats, last))
    return out


def _last_start(conn: Conn, table_id: int) -> dict[int, int]:
    row = conn.execute(
        "SELECT id FROM hands WHERE table_id = ? AND status = 'finished'"
        " ORDER BY number DESC LIMIT 1", (table_id,)
    ).fetchone()
    if row is None:
        return {}
    return dict(conn.execute(
        "SELECT user_id, start_stack FROM hand_seats WHERE hand_id = ?", (row[0],)))


def save_progress(
    conn: Conn, tournament_id: int, hands_played: int, level_elapsed: float
) -> None:
    """Write where the blind clock stands (after a hand)."""
    conn.execute(
        "UPDATE tournaments SET hands_played = ?, level_elapsed = ? WHERE id = ?"
        " AND status = 'running'",
        (hands_played, max(0.0, level_elapsed), tournament_id),
    )
