"""Poker tables (one open table per channel) and their seats.

Chips on a cash table are the seats' stacks: a buy-in or top-up moves chips
from the balance to the stack, a cash-out moves the whole stack back, each as
one ledger row in the same transaction. Stacks of players in the hand being
played change only when that hand is settled (see :mod:`.hands`), so top-ups
and cash-outs of those players are refused until then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from bot.i18n import Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import (
    BuyInOutOfRange,
    InHand,
    NoSeatRecord,
    SeatTaken,
    TableRecordError,
)
from bot.storage.ledger import (
    already_done,
    check_amount,
    credit_wallet,
    debit_wallet,
    record,
    seat_account,
    wallet_account,
)
from bot.storage.models import LedgerKind, SeatRecord, TableRecord
from bot.storage.returning import (
    departure_key,
    forget_departures,
    record_departure,
    return_minimum,
)
from bot.storage.rows import (
    SEAT_COLS,
    TABLE_COLS,
    dump_json,
    hand_running,
    load_open_table,
    load_seat,
    seat_record,
    table_record,
)

if TYPE_CHECKING:
    from bot.storage.db import Database

def in_running_hand(conn: Conn, table_id: int, user_id: int) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM hands h JOIN hand_seats s ON s.hand_id = h.id"
            " WHERE h.table_id = ? AND h.status = 'running' AND s.user_id = ?",
            (table_id, user_id),
        ).fetchone()
        is not None
    )


class TableRepo:
    """Create, find and close tables; buy in, top up and cash out."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self, guild_id: int, channel_id: int, creator_id: int, settings: Mapping[str, Any],
        *, tournament_id: int | None = None,
    ) -> TableRecord:
        """Open a table in a channel (refused if the channel already has one)."""
        text = dump_json(settings)
        now = self._db.clock()
        kind = "cash" if tournament_id is None else "tournament"

        def job(conn: Conn) -> TableRecord:
            if conn.execute(
                "SELECT 1 FROM poker_tables WHERE channel_id = ? AND closed_at IS NULL",
                (channel_id,),
            ).fetchone():
                raise TableRecordError(Phrase("refuse.store.channel_has_table"))
            cur = conn.execute(
                "INSERT INTO poker_tables (guild_id, channel_id, creator_id, kind, tournament_id,"
                " settings, created_at) VALUES (?,?,?,?,?,?,?) RETURNING id",
                (guild_id, channel_id, creator_id, kind, tournament_id, text, now),
            )
            return load_open_table(conn, int(cur.fetchone()[0]))

        return await self._db.write(job)

    async def get(self, table_id: int) -> TableRecord | None:
        def q(conn: Conn) -> TableRecord | None:
            row = conn.execute(
                f"SELECT {TABLE_COLS} FROM poker_tables WHERE id = ?", (table_id,)
            ).fetchone()
            return None if row is None else table_record(row)

        return await self._db.read(q)

    async def by_channel(self, channel_id: int) -> TableRecord | None:
        """The open table in a channel, if any."""

        def q(conn: Conn) -> TableRecord | None:
            row = conn.execute(
                f"SELECT {TABLE_COLS} FROM poker_tables WHERE channel_id = ?"
                " AND closed_at IS NULL",
                (channel_id,),
            ).fetchone()
            return None if row is None else table_record(row)

        return await self._db.read(q)

    async def list_open(self, guild_id: int | None = None) -> list[TableRecord]:
        """Open tables (of one server, or all: the runtime reloads them at start-up)."""

        def q(conn: Conn) -> list[TableRecord]:
            sql = f"SELECT {TABLE_COLS} FROM poker_tables WHERE closed_at IS NULL"
            args: tuple[int, ...] = ()
            if guild_id is not None:
                sql += " AND guild_id = ?"
                args = (guild_id,)
            return [table_record(r) for r in conn.execute(sql + " ORDER BY id", args)]

        return await self._db.read(q)

    async def update_settings(self, table_id: int, settings: Mapping[str, Any]) -> TableRecord:
        text = dump_json(settings)

        def job(conn: Conn) -> TableRecord:
            load_open_table(conn, table_id)
            conn.execute("UPDATE poker_tables SET settings = ? WHERE id = ?", (text, table_id))
            return load_open_table(conn, table_id)

        return await self._db.write(job)

    async def close(self, table_id: int) -> None:
        """Close an empty table with no hand in progress."""
        now = self._db.clock()

        def job(conn: Conn) -> None:
            load_open_table(conn, table_id)
            if hand_running(conn, table_id):
                raise TableRecordError(Phrase("refuse.store.close_in_hand"))
            if conn.execute("SELECT 1 FROM seats WHERE table_id = ?", (table_id,)).fetchone():
                raise TableRecordError(Phrase("refuse.store.close_seated"))
            conn.execute("UPDATE poker_tables SET closed_at = ? WHERE id = ?", (now, table_id))

        await self._db.write(job)

    async def abandon(self, table_id: int) -> dict[int, int]:
        """Close a cash table that cannot go on (its channel is lost), in ONE transaction:
        every seat is cashed out to its owner's balance and the table is closed. Its hand
        in progress was played out and settled first (RULES.md 7: never refunded), so a
        running hand is refused, as is a tournament's table (its tournament is cancelled
        by the prize rule). A kill at any moment leaves either all of this or none of it.

        Returns ``user -> chips back in the balance``.
        """
        now = self._db.clock()

        def job(conn: Conn) -> dict[int, int]:
            table = load_open_table(conn, table_id)
            if table.kind != "cash":
                raise TableRecordError(Phrase("refuse.sng.close"))
            if hand_running(conn, table_id):
                raise TableRecordError(Phrase("refuse.store.close_in_hand"))
            returned: dict[int, int] = {}
            for seat in [seat_record(r) for r in conn.execute(
                f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY seat_no",
                (table_id,),
            )]:
                returned[seat.user_id] = _cash_out_seat(conn, table, seat, now)
            conn.execute("UPDATE poker_tables SET closed_at = ? WHERE id = ?", (now, table_id))
            return returned

        return await self._db.write(job)

    async def seats(self, table_id: int) -> list[SeatRecord]:
        def q(conn: Conn) -> list[SeatRecord]:
            return [
                seat_record(r)
                for r in conn.execute(
                    f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY seat_no",
                    (table_id,),
                )
            ]

        return await self._db.read(q)

    async def buy_in(
        self, table_id: int, user_id: int, seat_no: int, amount: int,
        *, min_buy_in: int | None = None, max_buy_in: int | None = None,
    ) -> SeatRecord:
        """Take a seat at a cash table with ``amount`` chips from the balance; within an hour
        of leaving a table of the same game, at least the stack the player left with
        (:meth:`return_minimum`)."""
        check_amount(amount, "buy_in")
        _check_range(amount, min_buy_in, max_buy_in)
        now = self._db.clock()

        def job(conn: Conn) -> SeatRecord:
            table = load_open_table(conn, table_id)
            if table.kind != "cash":
                raise TableRecordError(Phrase("refuse.store.sng_seats"))
            if load_seat(conn, table_id, user_id) is not None:
                raise SeatTaken(Phrase("refuse.store.has_seat"))
            if conn.execute(
                "SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)
            ).fetchone():
                raise SeatTaken(Phrase("refuse.store.seat_taken", seat=str(seat_no)))
            game = departure_key(table.settings)
            required = return_minimum(conn, table.guild_id, user_id, game, now)
            if amount < required:
                raise BuyInOutOfRange(Phrase("refuse.return_stack", count=required))
            debit_wallet(conn, table.guild_id, user_id, amount, now, doing="buy in for")
            forget_departures(conn, table.guild_id, user_id, game)
            conn.execute(
                "INSERT INTO seats (table_id, seat_no, user_id, stack, joined_at)"
                " VALUES (?,?,?,?,?)",
                (table_id, seat_no, user_id, amount, now),
            )
            record(conn, table.guild_id, LedgerKind.BUY_IN, amount, wallet_account(user_id),
                   seat_account(table_id, user_id), now, user_id=user_id, table_id=table_id)
            seat = load_seat(conn, table_id, user_id)
            assert seat is not None
            return seat

        return await self._db.write(job)

    async def top_up(
        self, table_id: int, user_id: int, amount: int, *, max_buy_in: int | None = None,
        request_id: str | None = None,
    ) -> SeatRecord:
        """Add chips from the balance to the stack, between hands, never past the maximum.

        A retried request with the same ``request_id`` changes nothing.
        """
        check_amount(amount, "top_up")
        now = self._db.clock()

        def job(conn: Conn) -> SeatRecord:
            table = load_open_table(conn, table_id)
            if table.kind != "cash":
                raise TableRecordError(Phrase("refuse.sng.top_up"))
            seat = load_seat(conn, table_id, user_id)
            if seat is None:
                raise NoSeatRecord(Phrase("refuse.store.no_seat"))
            if already_done(conn, table.guild_id, request_id):
                return seat
            if in_running_hand(conn, table_id, user_id):
                raise InHand(Phrase("refuse.store.top_up_in_hand"))
            if max_buy_in is not None and seat.stack + amount > max_buy_in:
                room = max(0, max_buy_in - seat.stack)
                raise BuyInOutOfRange(Phrase("refuse.store.top_up_over_max",
                                             max=_count(max_buy_in), room=_count(room)))
            debit_wallet(conn, table.guild_id, user_id, amount, now, doing="top up with")
            conn.execute(
                "UPDATE seats SET stack = stack + ? WHERE table_id = ? AND user_id = ?",
                (amount, table_id, user_id),
            )
            record(conn, table.guild_id, LedgerKind.TOP_UP, amount, wallet_account(user_id),
                   seat_account(table_id, user_id), now, user_id=user_id, table_id=table_id,
                   request_id=request_id)
            new = load_seat(conn, table_id, user_id)
            assert new is not None
            return new

        return await self._db.write(job)

    async def return_minimum(self, table_id: int, user_id: int) -> int:
        """The fewest chips the player may sit down with at this table now: the biggest
        stack they left a cash table of the same game and blinds in this server with in
        the last hour, else 0 (RULES.md 7, :mod:`bot.storage.returning`)."""
        now = self._db.clock()

        def job(conn: Conn) -> int:
            table = load_open_table(conn, table_id)
            game = departure_key(table.settings)
            return return_minimum(conn, table.guild_id, user_id, game, now)

        return await self._db.read(job)

    async def cash_out(self, table_id: int, user_id: int) -> int:
        """Leave the table: the whole stack goes back to the balance. Returns it."""
        now = self._db.clock()

        def job(conn: Conn) -> int:
            table = load_open_table(conn, table_id)
            if table.kind != "cash":
                raise TableRecordError(Phrase("refuse.store.sng_cash_out"))
            seat = load_seat(conn, table_id, user_id)
            if seat is None:
                raise NoSeatRecord(Phrase("refuse.store.no_seat"))
            if in_running_hand(conn, table_id, user_id):
                raise InHand(Phrase("refuse.store.cash_out_in_hand"))
            return _cash_out_seat(conn, table, seat, now)

        return await self._db.write(job)

    async def set_sitting_out(self, table_id: int, user_id: int, sitting_out: bool) -> SeatRecord:
        return await self._set_flag(table_id, user_id, "sitting_out", sitting_out)

    async def set_straddle(self, table_id: int, user_id: int, straddle: bool) -> SeatRecord:
        """Keep the player's standing choice to straddle under the gun (RULES.md 10)."""
        return await self._set_flag(table_id, user_id, "straddle", straddle)

    async def set_time_bank(self, table_id: int, user_id: int, seconds: float | None) -> None:
        """Keep the seconds of time bank the player has left (None: the whole bank), so
        that a restart does not refill it (RULES.md 8). A seat gone meanwhile: nothing."""

        def job(conn: Conn) -> None:
            conn.execute("UPDATE seats SET time_bank = ? WHERE table_id = ? AND user_id = ?",
                         (seconds, table_id, user_id))

        await self._db.write(job)

    async def _set_flag(
        self, table_id: int, user_id: int, column: Literal["sitting_out", "straddle"], on: bool
    ) -> SeatRecord:
        """Set one of a seat's yes/no columns; the seat as stored then."""

        def job(conn: Conn) -> SeatRecord:
            load_open_table(conn, table_id)
            if load_seat(conn, table_id, user_id) is None:
                raise NoSeatRecord(Phrase("refuse.store.no_seat"))
            conn.execute(
                f"UPDATE seats SET {column} = ? WHERE table_id = ? AND user_id = ?",
                (int(on), table_id, user_id),
            )
            seat = load_seat(conn, table_id, user_id)
            assert seat is not None
            return seat

        return await self._db.write(job)


def _cash_out_seat(conn: Conn, table: TableRecord, seat: SeatRecord, now: float) -> int:
    """Unseat ``seat`` and move its stack to the owner's balance (one ledger row); the
    departure is remembered for the return rule (:mod:`bot.storage.returning`)."""
    conn.execute(
        "DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table.id, seat.user_id)
    )
    record_departure(conn, guild_id=table.guild_id, user_id=seat.user_id,
                     game=departure_key(table.settings), stack=seat.stack, table_id=table.id,
                     now=now)
    if seat.stack > 0:
        credit_wallet(conn, table.guild_id, seat.user_id, seat.stack, now)
        record(conn, table.guild_id, LedgerKind.CASH_OUT, seat.stack,
               seat_account(table.id, seat.user_id), wallet_account(seat.user_id), now,
               user_id=seat.user_id, table_id=table.id)
    return seat.stack


def _count(n: int) -> Phrase:
    return Phrase("chips.count", count=n)


def _check_range(amount: int, low: int | None, high: int | None) -> None:
    if low is not None and amount < low:
        raise BuyInOutOfRange(Phrase("refuse.store.buy_in_at_least", amount=_count(low)))
    if high is not None and amount > high:
        raise BuyInOutOfRange(Phrase("refuse.store.buy_in_at_most", amount=_count(high)))
