"""The night's ledger (issue 32): a cash table's sessions, read from the chip ledger.

A session runs from the table's opening, or from a marker (a ``table_sessions`` row, made
by ``/table session new`` and ending the session before it), to the next marker or the
table's close. Its figures are the ledger rows of the table's seats (accounts
``seat:T:U``, each row with ``table_id`` T), never a count of their own:

* a player's opening stack is their seat's rows up to the marker; the session counts it
  as a buy-in (they brought those chips into the session);
* buy-ins, top-ups and cash-outs are the rows of those kinds after the marker;
* everything else their seat paid or got after it (the hands' pots; any other chips a seat
  pays another at the table) is play: their net.

So a line's stack is what the audit checks the seat holds, and the nets sum to zero: every
chip a seat won at play another seat of the table lost (there is no rake; a hand's rows are
written in one transaction, all on one side of a marker, and its pot nets to zero once
settled; a hand in progress has moved no chip yet, so it counts in the session where it is
settled).

A marker keeps the id of the table's newest ledger row when it is made: a table's writes
come from the one process that holds it, one transaction after another, so every later row
of the table has a larger id.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.i18n import Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import TableRecordError
from bot.storage.models import LedgerKind, SessionLedger, SessionLine, TableRecord
from bot.storage.rows import TABLE_COLS, load_open_table, table_record

if TYPE_CHECKING:
    from bot.storage.db import Database

__all__ = ["SessionRepo", "session_ledger"]

#: A player's flows at a table: (user, kind, 1 after the marker else 0, chips into the seat).
_FLOWS = (
    "SELECT user_id, kind, CASE WHEN id > ? THEN 1 ELSE 0 END,"
    " SUM(CASE WHEN dst LIKE ? THEN amount ELSE -amount END) FROM ledger"
    " WHERE table_id = ? AND (dst LIKE ? OR src LIKE ?) GROUP BY 1, 2, 3"
)


def _cash_table(conn: Conn, table_id: int) -> TableRecord:
    """Table ``table_id``, open or closed; refused unless it is a cash table."""
    row = conn.execute(
        f"SELECT {TABLE_COLS} FROM poker_tables WHERE id = ?", (table_id,)
    ).fetchone()
    if row is None or row[4] != "cash":
        raise TableRecordError(Phrase("refuse.ledger.cash_only"))
    return table_record(row)


def _marker(conn: Conn, table: TableRecord) -> tuple[int, int, float]:
    """The table's current session: ``(number, after_entry, started_at)``."""
    count = int(conn.execute(
        "SELECT COUNT(*) FROM table_sessions WHERE table_id = ?", (table.id,)
    ).fetchone()[0])
    if not count:
        return 1, 0, table.created_at
    after, at = conn.execute(
        "SELECT after_entry, started_at FROM table_sessions WHERE table_id = ?"
        " ORDER BY id DESC LIMIT 1", (table.id,),
    ).fetchone()
    return count + 1, int(after), float(at)


def session_ledger(conn: Conn, table: TableRecord) -> SessionLedger:
    """The current session of ``table`` (the last one once it is closed)."""
    number, after, started_at = _marker(conn, table)
    seat = f"seat:{table.id}:%"
    opening: dict[int, int] = defaultdict(int)
    within: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for user_id, kind, later, flow in conn.execute(
        _FLOWS, (after, seat, table.id, seat, seat)
    ):
        if later:
            within[int(user_id)][str(kind)] += int(flow)
        else:
            opening[int(user_id)] += int(flow)
    lines = []
    for user_id in set(within) | {u for u, n in opening.items() if n}:
        flows = within.get(user_id, {})
        lines.append(SessionLine(
            user_id,
            buy_ins=opening.get(user_id, 0) + flows.get(LedgerKind.BUY_IN, 0),
            top_ups=flows.get(LedgerKind.TOP_UP, 0),
            cash_outs=-flows.get(LedgerKind.CASH_OUT, 0),
            stack=opening.get(user_id, 0) + sum(flows.values()),
        ))
    lines.sort(key=lambda line: (-line.net, line.user_id))
    return SessionLedger(table.id, table.guild_id, table.channel_id, number, started_at,
                         table.closed_at, tuple(lines))


class SessionRepo:
    """A cash table's sessions: start a new one, read the current one."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def begin(self, table_id: int, started_by: int) -> SessionLedger:
        """End the open cash table's current session and start a new one (the stacks on
        the table then are its players' first buy-ins); returns the session just ended."""
        now = self._db.clock()

        def job(conn: Conn) -> SessionLedger:
            table = load_open_table(conn, table_id)
            if table.kind != "cash":
                raise TableRecordError(Phrase("refuse.ledger.cash_only"))
            ended = session_ledger(conn, table)
            newest = conn.execute(
                "SELECT COALESCE(MAX(id), 0) FROM ledger WHERE table_id = ?", (table_id,)
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO table_sessions (table_id, after_entry, started_at, started_by)"
                " VALUES (?,?,?,?)", (table_id, int(newest), now, started_by),
            )
            return replace(ended, ended_at=now)

        return await self._db.write(job)

    async def ledger(self, table_id: int) -> SessionLedger:
        """The cash table's current session (its last one once it is closed)."""

        def q(conn: Conn) -> SessionLedger:
            conn.execute("BEGIN")
            try:
                return session_ledger(conn, _cash_table(conn, table_id))
            finally:
                conn.execute("COMMIT")

        return await self._db.read(q)

    async def newest_table(self, channel_id: int) -> int | None:
        """The channel's newest cash table, open or closed (None: it never had one)."""

        def q(conn: Conn) -> int | None:
            row = conn.execute(
                "SELECT MAX(id) FROM poker_tables WHERE channel_id = ? AND kind = 'cash'",
                (channel_id,),
            ).fetchone()
            return None if row is None or row[0] is None else int(row[0])

        return await self._db.read(q)
