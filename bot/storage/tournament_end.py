"""Ending a sit-and-go without a finish: chips taken back, buy-ins refunded.

Used by :mod:`.tournaments` (a cancellation, a player leaving before the
start, the end of play, a tournament a restart could not resume), inside the
caller's transaction.
"""

from __future__ import annotations

from bot.i18n import Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import TournamentError
from bot.storage.ledger import (
    credit_wallet,
    pool_account,
    record,
    seat_account,
    tchips_account,
    wallet_account,
)
from bot.storage.models import LedgerKind, Tournament
from bot.storage.rows import hand_running, load_tournament


def refund_all(conn: Conn, t: Tournament, now: float, reason: str) -> None:
    """Give every entrant their buy-in back from the prize pool."""
    for user_id in t.entrants:
        credit_wallet(conn, t.guild_id, user_id, t.buy_in, now)
        record(conn, t.guild_id, LedgerKind.TOURNAMENT_REFUND, t.buy_in, pool_account(t.id),
               wallet_account(user_id), now, user_id=user_id, tournament_id=t.id, reason=reason)
    conn.execute("UPDATE tournaments SET pool = pool - ? WHERE id = ?",
                 (t.buy_in * len(t.entrants), t.id))


def take_back_chips(conn: Conn, t: Tournament, now: float) -> None:
    """Remove the tournament's seats, returning their chips to ``tchips:P``."""
    for table_id, user_id, stack in conn.execute(
        "SELECT s.table_id, s.user_id, s.stack FROM seats s JOIN poker_tables p"
        " ON p.id = s.table_id WHERE p.tournament_id = ?",
        (t.id,),
    ).fetchall():
        if hand_running(conn, table_id):
            raise TournamentError(Phrase("refuse.store.tournament_in_hand"))
        if stack:
            record(conn, t.guild_id, LedgerKind.TOURNAMENT_CHIPS, stack,
                   seat_account(table_id, user_id), tchips_account(t.id), now,
                   user_id=user_id, table_id=table_id, tournament_id=t.id)
        conn.execute("DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id))


def cancel_mid_play(
    conn: Conn, tournament_id: int, now: float, reason: str
) -> Tournament:
    """Cancel a tournament that cannot go on, inside the caller's transaction.

    Its running hand is cancelled (no chip moves: stacks are only written at
    settlement), the chips on its tables are taken back, every buy-in is
    refunded and its tables are closed.
    """
    conn.execute(
        "UPDATE hands SET status = 'cancelled', ended_at = ?, cancel_reason = ?"
        " WHERE status = 'running' AND table_id IN"
        " (SELECT id FROM poker_tables WHERE tournament_id = ?)",
        (now, reason, tournament_id))
    t = load_tournament(conn, tournament_id)
    take_back_chips(conn, t, now)
    refund_all(conn, t, now, reason)
    conn.execute(
        "UPDATE tournaments SET status = 'cancelled', ended_at = ? WHERE id = ?",
        (now, tournament_id))
    conn.execute(
        "UPDATE poker_tables SET closed_at = ? WHERE tournament_id = ?"
        " AND closed_at IS NULL", (now, tournament_id))
    return load_tournament(conn, tournament_id)
