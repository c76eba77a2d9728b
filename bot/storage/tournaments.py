"""Sit-and-go tournaments: entries into a prize pool, tournament chips, prizes.

Money: every entry moves the buy-in from the balance to the tournament's pool
(``pool:P``); leaving before the start or a cancellation refunds it; the
finish pays the whole pool out as prizes. Tournament chips are not money:
they are issued to the seats at the start (``tchips:P`` -> ``seat:T:U``) and
taken back at the end, so the audit can reconcile them like any account
while keeping them out of the server's money total.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.i18n import Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import TournamentError
from bot.storage.ledger import (
    check_amount,
    credit_wallet,
    debit_wallet,
    pool_account,
    record,
    seat_account,
    tchips_account,
    wallet_account,
)
from bot.storage.models import LedgerKind, TableRecord, Tournament
from bot.storage.rows import dump_json, load_open_table, load_tournament
from bot.storage.tournament_end import cancel_mid_play, refund_all, take_back_chips
from bot.storage.tournament_state import InterruptedTournament, load_interrupted, save_progress

if TYPE_CHECKING:
    from bot.storage.db import Database

def _store_results(conn: Conn, t: Tournament, cancelled: bool, now: float) -> None:
    """One results row per entrant (places and prizes as just recorded)."""
    conn.execute(
        "INSERT INTO tournament_results (tournament_id, guild_id, user_id, place, prize,"
        " buy_in, entrants, cancelled, ended_at) SELECT tournament_id, CAST(? AS BIGINT),"
        " user_id, place, prize, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT),"
        " CAST(? AS DOUBLE PRECISION) FROM tournament_entries WHERE tournament_id = ?",
        (t.guild_id, t.buy_in, len(t.entrants), int(cancelled), now, t.id),
    )


def _place_of(conn: Conn, tournament_id: int, user_id: int) -> int | None:
    row = conn.execute(
        "SELECT place FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    ).fetchone()
    return None if row is None else row[0]


class TournamentRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, tournament_id: int) -> Tournament:
        return await self._db.read(lambda c: load_tournament(c, tournament_id))

    async def create(
        self, guild_id: int, channel_id: int, creator_id: int, *, buy_in: int,
        starting_stack: int, settings: Mapping[str, Any],
    ) -> Tournament:
        check_amount(buy_in, "buy_in")
        check_amount(starting_stack, "starting_stack")
        text = dump_json(settings)
        now = self._db.clock()

        def job(conn: Conn) -> Tournament:
            cur = conn.execute(
                "INSERT INTO tournaments (guild_id, channel_id, creator_id, buy_in, starting_stack,"
                " settings, created_at) VALUES (?,?,?,?,?,?,?) RETURNING id",
                (guild_id, channel_id, creator_id, buy_in, starting_stack, text, now),
            )
            return load_tournament(conn, int(cur.fetchone()[0]))

        return await self._db.write(job)

    async def reschedule(self, tournament_id: int, starts_at: float) -> None:
        """A new start time (its settings' ``starts_at``) for one still registering."""

        def job(conn: Conn) -> None:
            t = load_tournament(conn, tournament_id)
            if t.status != "registering":
                raise TournamentError(Phrase("refuse.sng.already_started"))
            conn.execute("UPDATE tournaments SET settings = ? WHERE id = ?",
                         (dump_json({**t.settings, "starts_at": starts_at}), tournament_id))

        await self._db.write(job)

    async def enter(self, tournament_id: int, user_id: int) -> Tournament:
        """Pay the buy-in from the balance into the prize pool."""
        now = self._db.clock()

        def job(conn: Conn) -> Tournament:
            t = load_tournament(conn, tournament_id)
            if t.status != "registering":
                raise TournamentError(Phrase("refuse.sng.registration_closed"))
            if user_id in t.entrants:
                raise TournamentError(Phrase("refuse.sng.already_registered"))
            debit_wallet(conn, t.guild_id, user_id, t.buy_in, now, doing="pay a buy-in of")
            conn.execute(
                "INSERT INTO tournament_entries (tournament_id, user_id, entered_at)"
                " VALUES (?,?,?)",
                (tournament_id, user_id, now),
            )
            conn.execute("UPDATE tournaments SET pool = pool + ? WHERE id = ?",
                         (t.buy_in, tournament_id))
            record(conn, t.guild_id, LedgerKind.TOURNAMENT_ENTRY, t.buy_in,
                   wallet_account(user_id), pool_account(tournament_id), now,
                   user_id=user_id, tournament_id=tournament_id)
            return load_tournament(conn, tournament_id)

        return await self._db.write(job)

    async def enter_late(
        self, tournament_id: int, table_id: int, user_id: int, seat_no: int
    ) -> Tournament:
        """Late registration after the start, in one transaction: the buy-in goes into the
        pool and the player sits at ``seat_no`` with the starting stack."""
        now = self._db.clock()

        def job(conn: Conn) -> Tournament:
            t = load_tournament(conn, tournament_id)
            if t.status != "running":
                raise TournamentError(Phrase("refuse.store.late_not_running"))
            if user_id in t.entrants:
                raise TournamentError(Phrase("refuse.sng.already_registered"))
            if load_open_table(conn, table_id).tournament_id != tournament_id:
                raise TournamentError(Phrase("refuse.store.other_tournament_table"))
            debit_wallet(conn, t.guild_id, user_id, t.buy_in, now, doing="pay a buy-in of")
            conn.execute(
                "INSERT INTO tournament_entries (tournament_id, user_id, entered_at)"
                " VALUES (?,?,?)", (tournament_id, user_id, now))
            conn.execute("UPDATE tournaments SET pool = pool + ? WHERE id = ?",
                         (t.buy_in, tournament_id))
            record(conn, t.guild_id, LedgerKind.TOURNAMENT_ENTRY, t.buy_in,
                   wallet_account(user_id), pool_account(tournament_id), now,
                   user_id=user_id, tournament_id=tournament_id)
            conn.execute(
                "INSERT INTO seats (table_id, seat_no, user_id, stack, joined_at)"
                " VALUES (?,?,?,?,?)", (table_id, seat_no, user_id, t.starting_stack, now))
            record(conn, t.guild_id, LedgerKind.TOURNAMENT_CHIPS, t.starting_stack,
                   tchips_account(tournament_id), seat_account(table_id, user_id), now,
                   user_id=user_id, table_id=table_id, tournament_id=tournament_id)
            return load_tournament(conn, tournament_id)

        return await self._db.write(job)

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        """Unregister before the start; the buy-in comes back."""
        now = self._db.clock()

        def job(conn: Conn) -> Tournament:
            t = load_tournament(conn, tournament_id)
            if t.status != "registering":
                raise TournamentError(Phrase("refuse.sng.started_no_leave"))
            if user_id not in t.entrants:
                raise TournamentError(Phrase("refuse.sng.not_registered"))
            conn.execute(
                "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            one = replace(t, entrants=(user_id,))
            refund_all(conn, one, now, "left before the start")
            return load_tournament(conn, tournament_id)

        return await self._db.write(job)

    async def start(
        self, tournament_id: int, table_id: int, seat_of: Mapping[int, int]
    ) -> Tournament:
        """Close registration and seat every entrant (``user -> seat``) with the starting stack."""
        now = self._db.clock()
        return await self._db.write(
            lambda conn: start_seated(conn, tournament_id, {table_id: seat_of}, now))

    async def eliminate(self, tournament_id: int, user_id: int, place: int) -> None:
        """A player with no chips left leaves the table, finishing in ``place`` (again:
        nothing, as when a write after it failed and the bust is written again)."""

        def job(conn: Conn) -> None:
            t = load_tournament(conn, tournament_id)
            if t.status != "running" or user_id not in t.entrants:
                raise TournamentError(Phrase("refuse.store.not_in_tournament"))
            row = conn.execute(
                "SELECT s.table_id, s.stack FROM seats s JOIN poker_tables p ON p.id = s.table_id"
                " WHERE p.tournament_id = ? AND s.user_id = ?",
                (tournament_id, user_id),
            ).fetchone()
            if row is None and _place_of(conn, tournament_id, user_id) == place:
                return
            if row is None or row[1] != 0:
                raise TournamentError(Phrase("refuse.store.only_busted"))
            conn.execute("DELETE FROM seats WHERE table_id = ? AND user_id = ?", (row[0], user_id))
            conn.execute(
                "UPDATE tournament_entries SET place = ?"
                    " WHERE tournament_id = ? AND user_id = ?",
                (place, tournament_id, user_id),
            )

        await self._db.write(job)

    async def finish(
        self, tournament_id: int, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> Tournament:
        """Pay the whole pool as ``prizes`` (user -> chips) and record the places."""
        return await self._pay_out(tournament_id, places, prizes, "finished")

    async def cancel_with_prizes(
        self, tournament_id: int, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> Tournament:
        """Cancel a running tournament between hands, paying the whole pool as ``prizes``
        (the runtime's rule for the remaining chips) and recording the places decided."""
        return await self._pay_out(tournament_id, places, prizes, "cancelled")

    async def _pay_out(
        self, tournament_id: int, places: Mapping[int, int], prizes: Mapping[int, int],
        status: str,
    ) -> Tournament:
        now = self._db.clock()
        for amount in prizes.values():
            check_amount(amount, "prize")

        def job(conn: Conn) -> Tournament:
            t = load_tournament(conn, tournament_id)
            if t.status != "running":
                raise TournamentError(Phrase("refuse.store.not_running"))
            if not set(prizes) <= set(t.entrants) or not set(places) <= set(t.entrants):
                raise TournamentError(Phrase("refuse.store.prizes_entrants"))
            if sum(prizes.values()) != t.pool:
                raise TournamentError(
                    Phrase("refuse.store.prizes_sum", prizes=sum(prizes.values()), pool=t.pool)
                )
            take_back_chips(conn, t, now)
            for user_id, amount in prizes.items():
                credit_wallet(conn, t.guild_id, user_id, amount, now)
                record(conn, t.guild_id, LedgerKind.TOURNAMENT_PRIZE, amount,
                       pool_account(tournament_id), wallet_account(user_id), now,
                       user_id=user_id, tournament_id=tournament_id)
                conn.execute(
                    "UPDATE tournament_entries SET prize = ?"
                    " WHERE tournament_id = ? AND user_id = ?",
                    (amount, tournament_id, user_id),
                )
            for user_id, place in places.items():
                conn.execute(
                    "UPDATE tournament_entries SET place = ?"
                    " WHERE tournament_id = ? AND user_id = ?",
                    (place, tournament_id, user_id),
                )
            conn.execute(
                "UPDATE tournaments SET status = ?, pool = 0, ended_at = ? WHERE id = ?",
                (status, now, tournament_id),
            )
            _store_results(conn, t, status == "cancelled", now)
            return load_tournament(conn, tournament_id)

        return await self._db.write(job)

    async def interrupted(self) -> list[InterruptedTournament]:
        """Every tournament registering or running (after a restart: to resume them)."""
        return await self._db.read(load_interrupted)

    async def save_progress(
        self, tournament_id: int, hands_played: int, level_elapsed: float
    ) -> None:
        """Record where a running tournament's blind clock stands (after each hand)."""
        await self._db.write(
            lambda conn: save_progress(conn, tournament_id, hands_played, level_elapsed)
        )

    async def cancel_unresumable(self, tournament_id: int, reason: str) -> Tournament:
        """Cancel a tournament a restart could not resume, in one transaction: its
        running hand is cancelled (no chip moves), the chips on its table are taken
        back, every buy-in is refunded and its table is closed."""
        now = self._db.clock()

        def job(conn: Conn) -> Tournament:
            t = load_tournament(conn, tournament_id)
            if t.status not in ("registering", "running"):
                raise TournamentError(Phrase("refuse.sng.over"))
            return cancel_mid_play(conn, tournament_id, now, reason)

        return await self._db.write(job)

    async def cancel_interrupted(self, reason: str = "the bot restarted") -> list[Tournament]:
        """Cancel every registering or running tournament (see :meth:`cancel_unresumable`)."""
        now = self._db.clock()

        def job(conn: Conn) -> list[Tournament]:
            ids = [row[0] for row in conn.execute(
                "SELECT id FROM tournaments WHERE status IN ('registering', 'running')"
                " ORDER BY id")]
            return [cancel_mid_play(conn, tid, now, reason) for tid in ids]

        return await self._db.write(job)

    async def cancel(self, tournament_id: int, reason: str = "cancelled") -> Tournament:
        """Cancel before the end: chips are taken back, every buy-in refunded."""
        now = self._db.clock()

        def job(conn: Conn) -> Tournament:
            t = load_tournament(conn, tournament_id)
            if t.status not in ("registering", "running"):
                raise TournamentError(Phrase("refuse.sng.over"))
            take_back_chips(conn, t, now)
            refund_all(conn, t, now, reason)
            conn.execute(
                "UPDATE tournaments SET status = 'cancelled', ended_at = ? WHERE id = ?",
                (now, tournament_id),
            )
            return load_tournament(conn, tournament_id)

        return await self._db.write(job)


def check_tournament_table(conn: Conn, table_id: int, tournament_id: int) -> TableRecord:
    """The open table ``table_id``, refused unless it belongs to ``tournament_id``."""
    table = load_open_table(conn, table_id)
    if table.tournament_id != tournament_id:
        raise TournamentError(Phrase("refuse.store.other_tournament_table"))
    return table


def start_seated(
    conn: Conn, tournament_id: int, seating: Mapping[int, Mapping[int, int]], now: float
) -> Tournament:
    """Close registration and seat every entrant once (``table_id -> {user: seat}``) with
    the starting stack, moved from the tournament's chips: one table for a sit-and-go,
    several for a multi-table tournament."""
    t = load_tournament(conn, tournament_id)
    if t.status != "registering":
        raise TournamentError(Phrase("refuse.sng.already_started"))
    users = [u for seats in seating.values() for u in seats]
    if sorted(users) != sorted(t.entrants) or len(users) < 2:
        raise TournamentError(Phrase("refuse.store.entrants_seats"))
    for table_id, seats in seating.items():
        check_tournament_table(conn, table_id, tournament_id)
        for user_id, seat_no in seats.items():
            conn.execute(
                "INSERT INTO seats (table_id, seat_no, user_id, stack, joined_at)"
                " VALUES (?,?,?,?,?)",
                (table_id, seat_no, user_id, t.starting_stack, now))
            record(conn, t.guild_id, LedgerKind.TOURNAMENT_CHIPS, t.starting_stack,
                   tchips_account(t.id), seat_account(table_id, user_id), now,
                   user_id=user_id, table_id=table_id, tournament_id=t.id)
    conn.execute("UPDATE tournaments SET status = 'running', started_at = ? WHERE id = ?",
                 (now, tournament_id))
    return load_tournament(conn, tournament_id)
