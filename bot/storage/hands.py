"""Hands as they happen: start, each action, settlement or cancellation.

* ``start`` stores the settings snapshot, the seats with their starting
  stacks (which must equal the seats' stored stacks), the button and the deck
  order, sealed (:mod:`.sealing`), and returns once that is on disk.
* ``append_action`` stores one JSON-able action; when it returns, the action
  is on disk, so the runtime acknowledges a player's action only after it.
* ``finish`` settles in ONE transaction: ledger rows seat -> hand pot for
  chips put in and pot -> seat for chips won (a 7-2 bounty, RULES.md 10, goes
  through the hand's pot account the same way: payer -> pot -> winner), the
  seats' stacks, the hand's per-seat lines, the hand's status, the players'
  statistics; its result is pending until posted (:mod:`.result_posts`).
* ``append_shown`` adds to a finished hand the cards a player showed after it
  (RULES.md 10), as an action of kind ``show``.
* Seat stacks are changed by nothing else while the hand runs, so a hand
  interrupted by a crash can be resumed (``load_unfinished``: settings,
  seats, deck order, actions; replay them on a Hand built from that deck) or
  cancelled (``cancel``: every chip is where it was before the hand).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot import crashpoint
from bot.engine.cards import Card
from bot.engine.commitment import SALT_BYTES, commit
from bot.i18n import Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import HandStateError, TableRecordError
from bot.storage.ledger import hand_account, record, seat_account
from bot.storage.models import (
    HandRecord,
    HandSeatIn,
    HandSeatRecord,
    HandSummary,
    LedgerKind,
    RevealedDeal,
    SeatResult,
    UnfinishedHandRecord,
)
from bot.storage.rows import dump_json, load_open_table

if TYPE_CHECKING:
    from bot.storage.db import Database

#: The columns of ``hands`` that :func:`hand_record` reads, in its order.
HAND_COLS = (
    "id, guild_id, table_id, number, variant, settings, button, status, resumed, started_at,"
    " ended_at, result, cancel_reason, commitment, commitment_message, commitment_channel"
)


def hand_record(row: Any) -> HandRecord:
    """A ``hands`` row, selected as :data:`HAND_COLS`, as a record."""
    return HandRecord(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7],
                      row[8], row[9], row[10], None if row[11] is None else json.loads(row[11]),
                      row[12], row[13], row[14], row[15])


def _hand_seat(row: Any) -> HandSeatRecord:
    return HandSeatRecord(row[0], row[1], row[2], row[3], bool(row[4]), row[5], row[6], row[7],
                          bool(row[8]))


def deck_associated_data(table_id: int, number: int) -> bytes:
    """What a sealed deck is bound to: its table and hand number."""
    return f"omaha-dealer hand {table_id}/{number}".encode()


def salts_associated_data(table_id: int, number: int) -> bytes:
    """What a hand's sealed salts are bound to (never the deck's own data)."""
    return f"omaha-dealer salts {table_id}/{number}".encode()


def _pack_salts(salts: Sequence[bytes]) -> bytes:
    return b"".join(salts)


def _unpack_salts(blob: bytes) -> tuple[bytes, ...]:
    return tuple(blob[i : i + SALT_BYTES] for i in range(0, len(blob), SALT_BYTES))


def load_hand(conn: Conn, hand_id: int) -> HandRecord:
    row = conn.execute(f"SELECT {HAND_COLS} FROM hands WHERE id = ?", (hand_id,)).fetchone()
    if row is None:
        raise HandStateError(f"there is no hand {hand_id}")
    return hand_record(row)


def load_hand_seats(conn: Conn, hand_id: int) -> tuple[HandSeatRecord, ...]:
    return tuple(
        _hand_seat(r)
        for r in conn.execute(
            "SELECT hand_id, seat_no, user_id, start_stack, posts_big_blind, final_stack, won, net,"
            " straddle FROM hand_seats WHERE hand_id = ? ORDER BY seat_no",
            (hand_id,),
        )
    )


def load_actions(conn: Conn, hand_id: int) -> tuple[Mapping[str, Any], ...]:
    return tuple(
        json.loads(r[0])
        for r in conn.execute(
            "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
        )
    )


def _running(conn: Conn, hand_id: int) -> HandRecord:
    hand = load_hand(conn, hand_id)
    if hand.status != "running":
        raise HandStateError(f"hand {hand_id} is {hand.status}, not running")
    return hand


class HandRepo:
    """Hands: start, actions, settlement, cancellation, recovery after a crash."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def start(
        self, table_id: int, *, variant: str, settings: Mapping[str, Any], button: int,
        seats: Sequence[HandSeatIn], deck: Sequence[Card], salts: Sequence[bytes] | None = None,
        commitment_message: int | None = None, commitment_channel: int | None = None,
    ) -> HandRecord:
        """Record a new hand (on disk when this returns). Its number is the table's next.

        ``salts`` are the deck commitment's (:mod:`bot.engine.commitment`; fresh
        ones when not given): the root is stored in clear, the salts sealed.
        ``commitment_message``: the id of the message that posted the root, in
        ``commitment_channel`` (the table's commitment thread, or its channel).
        """
        text = dump_json(settings)
        if len(seats) < 2:
            raise HandStateError("a hand needs at least two seats")
        if len({s.seat_no for s in seats}) != len(seats) or len(
            {s.user_id for s in seats}
        ) != len(seats):
            raise HandStateError("a seat or a player appears twice in the hand")
        if len(set(deck)) != len(deck) or not deck:
            raise HandStateError("the deck must hold distinct cards")
        deck = tuple(deck)
        committed = commit(deck, salts)
        if any(len(s) != SALT_BYTES for s in committed.salts):
            raise HandStateError(f"the deck's salts must be {SALT_BYTES} bytes each")
        sealer = self._db.sealer
        now = self._db.clock()

        def job(conn: Conn) -> HandRecord:
            table = load_open_table(conn, table_id)
            if conn.execute(
                "SELECT 1 FROM hands WHERE table_id = ? AND status = 'running'", (table_id,)
            ).fetchone():
                raise HandStateError(f"table {table_id} already has a hand in progress")
            for s in seats:
                row = conn.execute(
                    "SELECT seat_no, stack FROM seats WHERE table_id = ? AND user_id = ?",
                    (table_id, s.user_id),
                ).fetchone()
                if row is None or row[0] != s.seat_no:
                    raise TableRecordError(Phrase(
                        "refuse.store.not_in_seat", player=f"<@{s.user_id}>", seat=str(s.seat_no)))
                if row[1] != s.stack or s.stack <= 0:
                    raise HandStateError(
                        f"seat {s.seat_no} has {row[1]} chips stored, not {s.stack}"
                    )
            number = table.hands_dealt + 1
            conn.execute("UPDATE poker_tables SET hands_dealt = ? WHERE id = ?", (number, table_id))
            sealed = sealer.seal(deck, deck_associated_data(table_id, number))
            sealed_salts = sealer.seal_bytes(
                _pack_salts(committed.salts), salts_associated_data(table_id, number)
            )
            cur = conn.execute(
                "INSERT INTO hands (guild_id, table_id, number, variant, settings, button,"
                " deck_sealed, money, started_at, commitment, salts_sealed, commitment_message,"
                " commitment_channel) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
                (table.guild_id, table_id, number, variant, text, button, sealed,
                 int(table.kind == "cash"), now, committed.root, sealed_salts,
                 commitment_message, commitment_channel),
            )
            hand_id = int(cur.fetchone()[0])
            conn.executemany(
                "INSERT INTO hand_seats (hand_id, seat_no, user_id, start_stack, posts_big_blind,"
                " straddle) VALUES (?,?,?,?,?,?)",
                [(hand_id, s.seat_no, s.user_id, s.stack, int(s.posts_big_blind), int(s.straddle))
                 for s in seats],
            )
            return load_hand(conn, hand_id)

        return await self._db.write(job)

    async def append_action(
        self, hand_id: int, action: Mapping[str, Any], *, seq: int | None = None
    ) -> int:
        """Store the hand's next action; returns its sequence number (0, 1, ...).

        ``seq``, when given, must be the next number (a duplicate or a gap is
        refused, so a retried write cannot store an action twice).
        """
        text = json.dumps(action, sort_keys=True, separators=(",", ":"))
        now = self._db.clock()

        def job(conn: Conn) -> int:
            row = conn.execute("SELECT status FROM hands WHERE id = ?", (hand_id,)).fetchone()
            if row is None or row[0] != "running":
                status = "missing" if row is None else row[0]
                raise HandStateError(f"hand {hand_id} is {status}, not running")
            nxt = conn.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM hand_actions WHERE hand_id = ?", (hand_id,)
            ).fetchone()[0]
            if seq is not None and seq != nxt:
                raise HandStateError(f"hand {hand_id}: action {seq} given, {nxt} expected")
            conn.execute(
                "INSERT INTO hand_actions (hand_id, seq, at, action) VALUES (?,?,?,?)",
                (hand_id, nxt, now, text),
            )
            return int(nxt)

        return await self._db.write(job)

    async def append_shown(self, hand_id: int, seat: int, cards: Sequence[Card]) -> int:
        """Store the cards ``seat`` showed after a finished hand (RULES.md 10 "showing") as
        its next action, of kind ``show`` (the hand's history replays it); returns its
        sequence number. Refused for a hand that is not finished or a seat not in it."""
        text = json.dumps({"seat": seat, "kind": "show", "amount": None,
                           "cards": [str(c) for c in cards], "source": "player"},
                          sort_keys=True, separators=(",", ":"))
        now = self._db.clock()

        def job(conn: Conn) -> int:
            hand = load_hand(conn, hand_id)
            if hand.status != "finished":
                raise HandStateError(f"hand {hand_id} is {hand.status}, not finished")
            if seat not in {s.seat_no for s in load_hand_seats(conn, hand_id)}:
                raise HandStateError(f"hand {hand_id} has no seat {seat}")
            nxt = conn.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM hand_actions WHERE hand_id = ?", (hand_id,)
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO hand_actions (hand_id, seq, at, action) VALUES (?,?,?,?)",
                (hand_id, nxt, now, text),
            )
            return int(nxt)

        return await self._db.write(job)

    async def finish(
        self, hand_id: int, summary: HandSummary, result: Mapping[str, Any] | None = None
    ) -> HandRecord:
        """Settle the hand in one transaction (see the module docstring).

        ``summary`` has one line per seat dealt in; the final stack of each is
        its starting stack plus ``net``. The nets must sum to zero, and what a
        seat put in (``won - net``) cannot exceed its starting stack.
        """
        # the result is display data (board, shown hands, labels): anything not JSON
        # (a Card, an enum) is stored as its text rather than failing the settlement
        result_text = (
            None if result is None else json.dumps(result, separators=(",", ":"), default=str)
        )
        now = self._db.clock()

        def job(conn: Conn) -> HandRecord:
            hand = _running(conn, hand_id)
            seats = {s.seat_no: s for s in load_hand_seats(conn, hand_id)}
            lines = _summary_lines(hand, seats, summary)
            cash = _is_cash(conn, hand_id)
            for seat_no in sorted(seats):
                _settle_seat(conn, hand, seats[seat_no], lines[seat_no], now, cash=cash)
            crashpoint.reached("settle.writing")
            conn.execute(
                "UPDATE hands SET status = 'finished', ended_at = ?, result = ?,"
                " result_pending = 1 WHERE id = ?",
                (now, result_text, hand_id),
            )
            return load_hand(conn, hand_id)

        return await self._db.write(job)

    async def cancel(self, hand_id: int, reason: str = "cancelled") -> HandRecord:
        """Cancel a running hand: no chip moves, every stack is as before the hand."""
        now = self._db.clock()

        def job(conn: Conn) -> HandRecord:
            _running(conn, hand_id)
            conn.execute(
                "UPDATE hands SET status = 'cancelled', ended_at = ?, cancel_reason = ?"
                " WHERE id = ?",
                (now, reason, hand_id),
            )
            return load_hand(conn, hand_id)

        return await self._db.write(job)

    async def mark_resumed(self, hand_id: int) -> HandRecord:
        """Count one more resumption of a running hand (after a restart)."""

        def job(conn: Conn) -> HandRecord:
            _running(conn, hand_id)
            conn.execute("UPDATE hands SET resumed = resumed + 1 WHERE id = ?", (hand_id,))
            return load_hand(conn, hand_id)

        return await self._db.write(job)

    async def list_unfinished(self, table_id: int | None = None) -> list[HandRecord]:
        def q(conn: Conn) -> list[HandRecord]:
            sql = f"SELECT {HAND_COLS} FROM hands WHERE status = 'running'"
            args: tuple[int, ...] = ()
            if table_id is not None:
                sql += " AND table_id = ?"
                args = (table_id,)
            return [hand_record(r) for r in conn.execute(sql + " ORDER BY id", args)]

        return await self._db.read(q)

    async def load_unfinished(self, hand_id: int) -> UnfinishedHandRecord:
        """Settings, seats, deck order and actions of a running hand (to resume it)."""
        sealer = self._db.sealer

        def q(conn: Conn) -> UnfinishedHandRecord:
            conn.execute("BEGIN")
            try:
                hand = _running(conn, hand_id)
                blob, salt_blob = conn.execute(
                    "SELECT deck_sealed, salts_sealed FROM hands WHERE id = ?", (hand_id,)
                ).fetchone()
                seats = load_hand_seats(conn, hand_id)
                actions = load_actions(conn, hand_id)
            finally:
                conn.execute("COMMIT")
            deck = sealer.open(blob, deck_associated_data(hand.table_id, hand.number))
            salts = () if salt_blob is None else _unpack_salts(
                sealer.open_bytes(salt_blob, salts_associated_data(hand.table_id, hand.number))
            )
            return UnfinishedHandRecord(hand, seats, actions, deck, salts)

        return await self._db.read(q)

    async def get(self, hand_id: int) -> HandRecord:
        return await self._db.read(lambda c: load_hand(c, hand_id))

    async def seats(self, hand_id: int) -> tuple[HandSeatRecord, ...]:
        return await self._db.read(lambda c: load_hand_seats(c, hand_id))

    async def actions(self, hand_id: int) -> tuple[Mapping[str, Any], ...]:
        return await self._db.read(lambda c: load_actions(c, hand_id))

    async def reveal_deck(self, hand_id: int) -> tuple[Card, ...]:
        """The deck order of a hand that is over (fairness checks); refused while it runs."""
        sealer = self._db.sealer

        def q(conn: Conn) -> tuple[Card, ...]:
            hand = load_hand(conn, hand_id)
            if hand.status == "running":
                raise HandStateError("the deck of a hand in progress stays sealed")
            blob = conn.execute(
                "SELECT deck_sealed FROM hands WHERE id = ?", (hand_id,)
            ).fetchone()[0]
            return sealer.open(blob, deck_associated_data(hand.table_id, hand.number))

        return await self._db.read(q)

    async def reveal_deal(self, hand_id: int) -> RevealedDeal | None:
        """A finished hand's deck, salts and commitment (to build its players' proofs);
        ``None`` for a hand stored before commitments; refused while the hand runs."""
        deck = await self.reveal_deck(hand_id)
        sealer = self._db.sealer

        def q(conn: Conn) -> RevealedDeal | None:
            hand = load_hand(conn, hand_id)
            blob = conn.execute(
                "SELECT salts_sealed FROM hands WHERE id = ?", (hand_id,)
            ).fetchone()[0]
            if blob is None or hand.commitment is None:
                return None
            plain = sealer.open_bytes(blob, salts_associated_data(hand.table_id, hand.number))
            return RevealedDeal(deck, _unpack_salts(plain), hand.commitment)

        return await self._db.read(q)


def _summary_lines(
    hand: HandRecord, seats: Mapping[int, HandSeatRecord], summary: HandSummary
) -> dict[int, SeatResult]:
    """The summary's line per seat number, once it is checked against the hand as a whole:
    exactly its seats, nets summing to zero, the hand's variant."""
    lines = {line.seat_no: line for line in summary.seats}
    if set(lines) != set(seats) or len(lines) != len(summary.seats):
        raise HandStateError(f"hand {hand.id}: the summary does not list its seats")
    if sum(line.net for line in summary.seats) != 0:
        raise HandStateError(f"hand {hand.id}: the nets do not sum to zero")
    if sum(line.bounty for line in summary.seats) != 0:
        raise HandStateError(f"hand {hand.id}: the bounties do not sum to zero")
    if summary.variant != hand.variant:
        raise HandStateError(f"hand {hand.id} is {hand.variant}, not {summary.variant}")
    return lines


def _settle_seat(
    conn: Conn, hand: HandRecord, seat: HandSeatRecord, line: SeatResult,
    now: float, *, cash: bool,
) -> None:
    """One seat's part of a settlement: check its line, move its chips, store its line and
    add the hand to the player's statistics."""
    put_in = line.won - (line.net - line.bounty)  # into the pots; the bounty apart
    if line.user_id != seat.user_id or line.won < 0 or put_in < 0 or (
        put_in > seat.start_stack or seat.start_stack + line.net < 0
    ):
        raise HandStateError(f"hand {hand.id}: seat {seat.seat_no} does not add up")
    _move_seat_chips(conn, hand, seat, line, put_in, now)
    conn.execute(
        "UPDATE hand_seats SET final_stack = ?, won = ?, net = ?, vpip = ?, pfr = ?,"
        " showdown = ?, won_showdown = ? WHERE hand_id = ? AND seat_no = ?",
        (seat.start_stack + line.net, line.won, line.net, int(line.vpip),
         int(line.pfr), int(line.showdown), int(line.won_showdown), hand.id, seat.seat_no),
    )
    _add_stats(conn, hand.guild_id, seat.user_id, hand.variant, line.won, line.net,
               line.vpip, line.pfr, line.showdown, line.won_showdown,
               cash=cash)


def _move_seat_chips(
    conn: Conn, hand: HandRecord, seat: HandSeatRecord, line: SeatResult,
    put_in: int, now: float,
) -> None:
    """Ledger rows seat -> hand pot for ``put_in`` and pot -> seat for what the seat won
    (and for a 7-2 bounty paid or collected), and the seat's stack changed by its net."""
    pot = hand_account(hand.id)
    account = seat_account(hand.table_id, seat.user_id)
    if put_in:
        record(conn, hand.guild_id, LedgerKind.HAND, put_in, account, pot, now,
               user_id=seat.user_id, table_id=hand.table_id, hand_id=hand.id)
    if line.won:
        record(conn, hand.guild_id, LedgerKind.HAND, line.won, pot, account, now,
               user_id=seat.user_id, table_id=hand.table_id, hand_id=hand.id)
    if line.bounty:  # a 7-2 bounty: paid into the hand's pot, collected from it
        src, dst = (account, pot) if line.bounty < 0 else (pot, account)
        record(conn, hand.guild_id, LedgerKind.HAND, abs(line.bounty), src, dst, now,
               user_id=seat.user_id, table_id=hand.table_id, hand_id=hand.id)
    if line.net:
        cur = conn.execute(
            "UPDATE seats SET stack = stack + ? WHERE table_id = ? AND user_id = ?",
            (line.net, hand.table_id, seat.user_id),
        )
        if cur.rowcount != 1:
            raise HandStateError(f"hand {hand.id}: seat {seat.seat_no} has left the table")


def _is_cash(conn: Conn, hand_id: int) -> bool:
    return bool(conn.execute("SELECT money FROM hands WHERE id = ?", (hand_id,)).fetchone()[0])


def _add_stats(
    conn: Conn, guild_id: int, user_id: int, variant: str, won: int, net: int,
    vpip: bool, pfr: bool, showdown: bool, won_showdown: bool, *, cash: bool,
) -> None:
    """Add one hand to the player's per-variant statistics (tournament chips: counts only)."""
    conn.execute(
        "INSERT INTO player_stats (guild_id, user_id, variant, hands_played, hands_won, net,"
        " biggest_pot, vpip_hands, pfr_hands, showdowns, showdowns_won)"
        " VALUES (?,?,?,1,?,?,?,?,?,?,?)"
        " ON CONFLICT (guild_id, user_id, variant) DO UPDATE SET"
        " hands_played = player_stats.hands_played + 1,"
        " hands_won = player_stats.hands_won + excluded.hands_won,"
        " net = player_stats.net + excluded.net,"
        " biggest_pot = CASE WHEN excluded.biggest_pot > player_stats.biggest_pot"
        " THEN excluded.biggest_pot ELSE player_stats.biggest_pot END,"
        " vpip_hands = player_stats.vpip_hands + excluded.vpip_hands,"
        " pfr_hands = player_stats.pfr_hands + excluded.pfr_hands,"
        " showdowns = player_stats.showdowns + excluded.showdowns,"
        " showdowns_won = player_stats.showdowns_won + excluded.showdowns_won",
        (guild_id, user_id, variant, int(won > 0), net if cash else 0, won if cash else 0,
         int(vpip), int(pfr), int(showdown), int(won_showdown)),
    )
