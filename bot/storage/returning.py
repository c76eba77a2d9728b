"""Coming back to a cash table (RULES.md 7, the card rooms' rule against "ratholing").

A player who leaves a cash table and sits down at the same table again within
:data:`RETURN_WINDOW` must bring at least the stack they left with, even above
the table's maximum buy-in. Read from the ledger, so it holds across restarts:
the player's latest buy-in or cash-out at that table decides. A cash-out in the
window asks for its amount back; a buy-in after it (they came back since), or a
departure with no chips (busting to zero: nothing goes back, so no cash-out row)
asks for nothing.
"""

from __future__ import annotations

from bot.storage.dialect import Conn

#: Seconds after leaving during which a comeback must bring the stack back.
RETURN_WINDOW = 60 * 60.0


def return_minimum(conn: Conn, guild_id: int, table_id: int, user_id: int, now: float) -> int:
    """The fewest chips ``user_id`` may sit down with at ``table_id`` now (0: no rule)."""
    row = conn.execute(
        "SELECT kind, amount, at FROM ledger"
        " WHERE guild_id = ? AND user_id = ? AND table_id = ? AND kind IN ('buy_in', 'cash_out')"
        " ORDER BY at DESC, id DESC LIMIT 1",
        (guild_id, user_id, table_id),
    ).fetchone()
    if row is None or row[0] != "cash_out" or now - float(row[2]) >= RETURN_WINDOW:
        return 0
    return int(row[1])


__all__ = ["RETURN_WINDOW", "return_minimum"]
