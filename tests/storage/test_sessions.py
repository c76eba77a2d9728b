"""The night's ledger (issue 32): a cash table's sessions, read from the chip ledger.

The figures are checked against sources of their own: the seats' stored stacks, the
players' balances (what left and came back), the hands' per-seat nets, and the chip audit;
through a night played by the runtime on the real storage (joins, busts, top-ups, a leave,
a restart in the middle of a hand), and around session markers.
"""

from __future__ import annotations

import random

import pytest

from bot.economy import Economy
from bot.engine.cards import DECK
from bot.engine.events import ActionKind
from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.table.live import Table
from bot.storage import (
    Database,
    HandSeatIn,
    HandSummary,
    SeatResult,
    SessionLedger,
    TableRecordError,
    UnknownTable,
)
from tests.runtime.fakes import Recorder
from tests.test_storage_ports import deal, play_hand, registry

from .helpers import assert_audit_ok

G, CHANNEL, CREATOR = 10, 100, 1
A, B, C = 301, 302, 303


async def _hand(db: Database, table_id: int, winner: int, loser: int, amount: int) -> int:
    """One heads-up hand at ``table_id`` that ``winner`` wins by ``amount``; its id."""
    seats = {s.user_id: s for s in await db.tables.seats(table_id)}
    w, lo = seats[winner], seats[loser]
    hand = await db.hands.start(
        table_id, variant="omaha", settings={}, button=w.seat_no,
        seats=[HandSeatIn(w.seat_no, w.user_id, w.stack),
               HandSeatIn(lo.seat_no, lo.user_id, lo.stack)],
        deck=DECK[:13])
    await db.hands.finish(hand.id, _summary(w.seat_no, winner, lo.seat_no, loser, amount))
    return hand.id


def _summary(w_seat: int, winner: int, l_seat: int, loser: int, amount: int) -> HandSummary:
    return HandSummary("omaha", (
        SeatResult(w_seat, winner, won=2 * amount, net=amount, vpip=True),
        SeatResult(l_seat, loser, won=0, net=-amount, vpip=True),
    ))


def _figures(ledger: SessionLedger) -> dict[int, tuple[int, int, int, int, int]]:
    """``user -> (buy-ins, top-ups, cash-outs, stack, net)``."""
    return {x.user_id: (x.buy_ins, x.top_ups, x.cash_outs, x.stack, x.net) for x in ledger.lines}


async def _hand_nets(db: Database, table_id: int, since_hand: int = 0) -> dict[int, int]:
    """Each player's nets over the table's settled hands numbered above ``since_hand``
    (read from the hands' records, not the ledger)."""
    rows = await db.read(lambda c: c.execute(
        "SELECT s.user_id, SUM(s.net) FROM hand_seats s JOIN hands h ON h.id = s.hand_id"
        " WHERE h.table_id = ? AND h.number > ? AND h.status = 'finished' GROUP BY s.user_id",
        (table_id, since_hand)).fetchall())
    return {int(user): int(net) for user, net in rows}


async def test_a_session_follows_the_ledger_around_its_markers(db: Database) -> None:
    """Session 1 from the opening; a marker starts session 2 with the stacks on the table as
    buy-ins, so the nets start again at zero; a hand running across the marker counts where
    it is settled; the last session ends with the table's close, every stack cashed out."""
    table = (await db.tables.create(G, CHANNEL, CREATOR, {"v": "omaha"})).id
    await db.tables.buy_in(table, A, 1, 1000)
    await db.tables.buy_in(table, B, 2, 500)
    await _hand(db, table, A, B, 100)
    await db.tables.top_up(table, B, 200)
    await _hand(db, table, B, A, 50)
    first = await db.sessions.ledger(table)
    assert first.number == 1 and first.ended_at is None
    assert _figures(first) == {A: (1000, 0, 0, 1050, 50), B: (500, 200, 0, 650, -50)}
    assert [x.user_id for x in first.lines] == [A, B] and first.total == 0

    seats = {s.user_id: s for s in await db.tables.seats(table)}
    running = await db.hands.start(
        table, variant="omaha", settings={}, button=1, deck=DECK[:13],
        seats=[HandSeatIn(1, A, seats[A].stack), HandSeatIn(2, B, seats[B].stack)])
    ended = await db.sessions.begin(table, CREATOR)
    assert _figures(ended) == _figures(first) and ended.ended_at == db.clock()
    await db.hands.finish(running.id, _summary(2, B, 1, A, 30))
    await db.tables.buy_in(table, C, 3, 400)
    await _hand(db, table, C, A, 120)
    await db.tables.cash_out(table, B)
    second = await db.sessions.ledger(table)
    assert second.number == 2 and second.started_at == db.clock()
    assert _figures(second) == {
        A: (1050, 0, 0, 900, -150), B: (650, 0, 680, 0, 30), C: (400, 0, 0, 520, 120)}
    assert second.total == 0

    await db.tables.cash_out(table, A)
    await db.tables.cash_out(table, C)
    await db.tables.close(table)
    closed = await db.sessions.ledger(table)
    assert closed.ended_at is not None and closed.number == 2
    assert _figures(closed) == {
        C: (400, 0, 520, 0, 120), B: (650, 0, 680, 0, 30), A: (1050, 0, 900, 0, -150)}
    assert [x.user_id for x in closed.lines] == [C, B, A]
    assert await db.sessions.newest_table(CHANNEL) == table
    with pytest.raises(UnknownTable):
        await db.sessions.begin(table, CREATOR)
    await assert_audit_ok(db)


async def test_a_player_who_left_before_the_marker_is_not_in_the_new_session(
    db: Database,
) -> None:
    """Only what the seats held at the marker or did after it: a player gone before a new
    session has no line in it; an empty session is empty, its total zero."""
    table = (await db.tables.create(G, CHANNEL, CREATOR, {"v": "omaha"})).id
    await db.tables.buy_in(table, A, 1, 300)
    await db.tables.buy_in(table, B, 2, 300)
    await _hand(db, table, A, B, 300)  # B busts: an empty seat still sits there
    await db.tables.cash_out(table, A)
    await db.sessions.begin(table, CREATOR)
    fresh = await db.sessions.ledger(table)
    assert fresh.lines == () and fresh.total == 0 and fresh.number == 2
    await db.tables.top_up(table, B, 100)
    assert _figures(await db.sessions.ledger(table)) == {B: (0, 100, 0, 100, 0)}


async def test_tournament_tables_keep_no_session(db: Database) -> None:
    """A sit-and-go's table has no night's ledger: refused, with a sentence; unknown
    tables too; a channel without a cash table has none to show."""
    t = await db.tournaments.create(G, CHANNEL, A, buy_in=100, starting_stack=1_500,
                                    settings={"variant": "omaha"})
    table = await db.tables.create(G, CHANNEL, A, {"t": 1}, tournament_id=t.id)
    for call in (db.sessions.ledger(table.id), db.sessions.begin(table.id, A),
                 db.sessions.ledger(9999)):
        with pytest.raises(TableRecordError) as refused:
            await call
        assert refused.value.phrase is not None
    assert await db.sessions.newest_table(CHANNEL) is None


async def _bust_someone(table: Table, clock: FakeClock) -> None:
    """A hand every player dealt in plays all-in: someone busts (or all chop)."""
    await deal(table, clock)
    while table.current is not None:
        user = table.seats[table.current.hand.to_act].user_id
        legal = table.legal_for(user)
        if legal.max_raise_to is not None:
            await table.act(user, ActionKind.RAISE, legal.max_raise_to)
        else:
            await table.act(user, ActionKind.CALL)
    await table.idle()


async def _check(db: Database, table_id: int, spent: dict[int, int], hands_since: int) -> None:
    """The session against the sources: stacks stored, balances spent, hands' nets, audit."""
    ledger = await db.sessions.ledger(table_id)
    stored = {s.user_id: s.stack for s in await db.tables.seats(table_id)}
    nets = await _hand_nets(db, table_id, hands_since)
    assert ledger.total == 0
    for line in ledger.lines:
        assert line.stack == stored.get(line.user_id, 0)
        assert line.net == nets.get(line.user_id, 0)
        if line.user_id in spent:  # a player present from the opening
            assert line.buy_ins + line.top_ups - line.cash_outs == spent[line.user_id]
    assert {x.user_id for x in ledger.lines} >= set(stored)
    await assert_audit_ok(db)


async def test_the_ledger_equals_the_chip_ledger_through_a_night(db: Database) -> None:
    """Joins, all-in busts and top-ups, a leave and a come-back, a restart in the middle of
    a hand, a new session, then the close: at every step each line's stack is the seat's
    stored stack, its net the sum of its hands' nets, what it put in minus what it took out
    is what left its balance, the total is zero and the chip audit holds."""
    clock, rng = FakeClock(), random.Random(7)
    economy = Economy(db)
    reg = registry(db, clock, Recorder())
    table = await reg.create(guild_id=G, channel_id=CHANNEL, creator_id=CREATOR,
                             config=TableConfig.create(big_blind=2, min_buyin=40))
    users = (2, 3, 4)
    start = {u: await economy.balance(G, u) for u in users}

    async def spent() -> dict[int, int]:
        return {u: start[u] - await economy.balance(G, u) for u in users}

    for u in users:
        await table.join(u, f"p{u}", 40 + 20 * u)
    busted = 0
    for _ in range(4):
        await _bust_someone(table, clock)
        for s in list(table.seats.values()):
            if s.stack == 0:
                busted += 1
                await table.top_up(s.user_id, 60)
                await table.sit_in(s.user_id)
        await _check(db, table.table_id, await spent(), 0)
    assert busted
    await table.leave(3)
    await play_hand(table, clock, rng)
    await table.join(3, "p3", max(60, await db.tables.return_minimum(table.table_id, 3)))
    await _check(db, table.table_id, await spent(), 0)

    await deal(table, clock)  # a restart in the middle of a hand
    assert table.current is not None
    await table.shutdown()
    reg = registry(db, clock, Recorder())
    [table] = await reg.restore()
    await play_hand(table, clock, rng)
    await _check(db, table.table_id, await spent(), 0)

    first = await economy.session_ledger(table.table_id)
    hands_before = table.hands_dealt
    await economy.new_session(table.table_id, CREATOR)
    for _ in range(3):
        await play_hand(table, clock, rng)
    second = await economy.session_ledger(table.table_id)
    assert second.number == 2
    assert {x.user_id: x.buy_ins for x in second.lines} == {
        x.user_id: x.stack for x in first.lines if x.stack}
    await _check(db, table.table_id, {}, hands_before)
    await table.close(CREATOR)
    closed = await economy.session_ledger(table.table_id)
    assert closed.ended_at is not None and all(x.stack == 0 for x in closed.lines)
    assert [(x.user_id, x.net) for x in closed.lines] == [
        (x.user_id, x.net) for x in second.lines]
    await _check(db, table.table_id, {}, hands_before)
