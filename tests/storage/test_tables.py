"""Tables and seats: buy-in, top-up and cash-out move chips through the ledger."""

from __future__ import annotations

import pytest

from bot.engine.cards import Deck
from bot.storage import (
    BuyInOutOfRange,
    Database,
    HandSeatIn,
    InHand,
    InsufficientChips,
    NoSeatRecord,
    SeatTaken,
    TableRecordError,
    UnknownTable,
)
from tests.storage.helpers import FakeClock

G, CH, ALICE, BOB, CAROL = 1, 500, 101, 102, 103


async def test_one_open_table_per_channel(db: Database) -> None:
    """A second table in the same channel is refused until the first is closed."""
    t = await db.tables.create(G, CH, ALICE, {"variant": "omaha", "big_blind": 20})
    assert t.settings == {"big_blind": 20, "variant": "omaha"} and t.kind == "cash"
    with pytest.raises(TableRecordError):
        await db.tables.create(G, CH, BOB, {})
    assert (await db.tables.by_channel(CH)) == t
    await db.tables.close(t.id)
    assert await db.tables.by_channel(CH) is None
    again = await db.tables.create(G, CH, BOB, {})
    assert again.id != t.id
    assert [x.id for x in await db.tables.list_open(G)] == [again.id]


async def test_buy_in_moves_balance_to_stack(db: Database) -> None:
    """Buying in for 2,000 leaves 8,000 in the wallet and 2,000 on the seat."""
    t = await db.tables.create(G, CH, ALICE, {})
    seat = await db.tables.buy_in(t.id, ALICE, 3, 2_000, min_buy_in=400, max_buy_in=4_000)
    assert (seat.seat_no, seat.stack, seat.user_id) == (3, 2_000, ALICE)
    assert (await db.wallets.open(G, ALICE)).balance == 8_000


async def test_buy_in_refusals_change_nothing(db: Database) -> None:
    """Out of range, over the balance, taken seat, double seat: refused, nothing moves."""
    t = await db.tables.create(G, CH, ALICE, {})
    with pytest.raises(BuyInOutOfRange, match="at least 400 chips"):
        await db.tables.buy_in(t.id, ALICE, 1, 399, min_buy_in=400)
    with pytest.raises(BuyInOutOfRange, match="at most 4,000 chips") as most:
        await db.tables.buy_in(t.id, ALICE, 1, 4_001, max_buy_in=4_000)
    assert most.value.phrase is not None  # worded in the reader's language by the cogs
    assert most.value.phrase.to("pt-BR") == "O buy-in pode ser de no máximo 4.000 fichas."
    with pytest.raises(InsufficientChips):
        await db.tables.buy_in(t.id, ALICE, 1, 10_001)
    await db.tables.buy_in(t.id, ALICE, 1, 1_000)
    with pytest.raises(SeatTaken) as taken:
        await db.tables.buy_in(t.id, BOB, 1, 1_000)
    assert taken.value.phrase is not None
    assert taken.value.phrase.to("it") == "Il posto 1 è occupato."
    with pytest.raises(SeatTaken):
        await db.tables.buy_in(t.id, ALICE, 2, 1_000)
    with pytest.raises(UnknownTable):
        await db.tables.buy_in(t.id + 99, ALICE, 2, 1_000)
    assert (await db.wallets.open(G, ALICE)).balance == 9_000
    assert (await db.wallets.open(G, BOB)).balance == 10_000
    assert [s.user_id for s in await db.tables.seats(t.id)] == [ALICE]


async def test_top_up_never_past_the_maximum(db: Database) -> None:
    """A top-up that would pass the maximum buy-in is refused with the room left."""
    t = await db.tables.create(G, CH, ALICE, {})
    await db.tables.buy_in(t.id, ALICE, 1, 3_000)
    with pytest.raises(BuyInOutOfRange, match="at most 1,000 chips"):
        await db.tables.top_up(t.id, ALICE, 1_500, max_buy_in=4_000)
    seat = await db.tables.top_up(t.id, ALICE, 1_000, max_buy_in=4_000)
    assert seat.stack == 4_000
    assert (await db.wallets.open(G, ALICE)).balance == 6_000
    with pytest.raises(NoSeatRecord):
        await db.tables.top_up(t.id, BOB, 100)


async def test_cash_out_returns_the_whole_stack(db: Database) -> None:
    """Leaving returns the stack to the balance and frees the seat."""
    t = await db.tables.create(G, CH, ALICE, {})
    await db.tables.buy_in(t.id, ALICE, 1, 3_000)
    assert await db.tables.cash_out(t.id, ALICE) == 3_000
    assert (await db.wallets.open(G, ALICE)).balance == 10_000
    assert await db.tables.seats(t.id) == []
    with pytest.raises(NoSeatRecord):
        await db.tables.cash_out(t.id, ALICE)


async def test_players_in_the_running_hand_cannot_leave_or_top_up(db: Database) -> None:
    """Cash-out and top-up wait for the end of the hand; others at the table may."""
    t = await db.tables.create(G, CH, ALICE, {})
    for user, seat in ((ALICE, 1), (BOB, 2), (CAROL, 3)):
        await db.tables.buy_in(t.id, user, seat, 1_000)
    hand = await db.hands.start(
        t.id, variant="omaha", settings={}, button=1,
        seats=[HandSeatIn(1, ALICE, 1_000), HandSeatIn(2, BOB, 1_000)], deck=Deck().order,
    )
    with pytest.raises(InHand):
        await db.tables.cash_out(t.id, ALICE)
    with pytest.raises(InHand):
        await db.tables.top_up(t.id, BOB, 10)
    with pytest.raises(TableRecordError):
        await db.tables.close(t.id)
    assert await db.tables.cash_out(t.id, CAROL) == 1_000  # not dealt in
    await db.hands.cancel(hand.id)
    assert await db.tables.cash_out(t.id, ALICE) == 1_000
    assert await db.tables.cash_out(t.id, BOB) == 1_000


async def test_closing_needs_an_empty_table(db: Database) -> None:
    """A table with seated players cannot be closed."""
    t = await db.tables.create(G, CH, ALICE, {})
    await db.tables.buy_in(t.id, ALICE, 1, 500)
    with pytest.raises(TableRecordError, match="still seated"):
        await db.tables.close(t.id)
    await db.tables.cash_out(t.id, ALICE)
    await db.tables.close(t.id)
    with pytest.raises(UnknownTable):
        await db.tables.buy_in(t.id, ALICE, 1, 500)


async def test_abandoning_cashes_every_seat_out_and_refuses_a_running_hand(
    db: Database,
) -> None:
    """A lost channel's cash table: every stack back and the table closed in one write,
    once its hand was played out; a running hand (it would be refunded) and a tournament's
    table (cancelled by its prize rule) are refused, changing nothing."""
    t = await db.tables.create(G, CH, ALICE, {})
    await db.tables.buy_in(t.id, ALICE, 1, 700)
    await db.tables.buy_in(t.id, BOB, 2, 300)
    hand = await db.hands.start(
        t.id, variant="omaha", settings={}, button=1,
        seats=[HandSeatIn(1, ALICE, 700), HandSeatIn(2, BOB, 300)], deck=Deck().order,
    )
    with pytest.raises(TableRecordError, match="A hand is being played"):
        await db.tables.abandon(t.id)
    assert len(await db.tables.seats(t.id)) == 2 and await db.tables.by_channel(CH) is not None
    await db.hands.cancel(hand.id)  # (a test's shortcut: play ends hands by settling them)
    assert await db.tables.abandon(t.id) == {ALICE: 700, BOB: 300}
    assert await db.tables.by_channel(CH) is None and await db.tables.seats(t.id) == []
    assert (await db.wallets.open(G, ALICE)).balance == (await db.wallets.open(G, BOB)).balance
    sng = await db.tournaments.create(G, CH + 1, ALICE, buy_in=10, starting_stack=100,
                                      settings={})
    table = await db.tables.create(G, CH + 1, ALICE, {}, tournament_id=sng.id)
    with pytest.raises(TableRecordError, match="closes by itself"):
        await db.tables.abandon(table.id)
    assert await db.tables.by_channel(CH + 1) == table


async def test_coming_back_within_the_hour_brings_the_stack_back(
    db: Database, clock: FakeClock
) -> None:
    """RULES.md 7: leave with 3,000 and sit down again within 60 minutes: at least 3,000
    (a smaller buy-in is refused, naming it, and moves nothing); after the hour, any."""
    t = await db.tables.create(G, CH, ALICE, {})
    await db.tables.buy_in(t.id, ALICE, 1, 3_000)
    await db.tables.cash_out(t.id, ALICE)
    assert await db.tables.return_minimum(t.id, ALICE) == 3_000
    assert await db.tables.return_minimum(t.id, BOB) == 0
    clock.advance(59 * 60)
    with pytest.raises(BuyInOutOfRange, match="3,000"):
        await db.tables.buy_in(t.id, ALICE, 1, 400)
    assert (await db.wallets.open(G, ALICE)).balance == 10_000
    await db.tables.buy_in(t.id, ALICE, 1, 3_000)  # came back with it: the rule is spent
    await db.tables.cash_out(t.id, ALICE)
    clock.advance(60 * 60)
    assert await db.tables.return_minimum(t.id, ALICE) == 0
    await db.tables.buy_in(t.id, ALICE, 1, 400)



async def test_a_seat_keeps_its_straddle_choice_until_it_is_left(db: Database) -> None:
    """RULES.md 10: the standing choice to straddle is stored with the seat, read back with
    it, refused without a seat, and gone once the player leaves."""
    t = await db.tables.create(G, CH, ALICE, {})
    await db.tables.buy_in(t.id, ALICE, 1, 1_000)
    await db.tables.buy_in(t.id, BOB, 2, 1_000)
    assert (await db.tables.set_straddle(t.id, ALICE, True)).straddle is True
    assert [s.straddle for s in await db.tables.seats(t.id)] == [True, False]
    with pytest.raises(NoSeatRecord):
        await db.tables.set_straddle(t.id, CAROL, True)
    hand = await db.hands.start(
        t.id, variant="omaha", settings={}, button=1,
        seats=[HandSeatIn(1, ALICE, 1_000, straddle=True), HandSeatIn(2, BOB, 1_000)],
        deck=Deck().order,
    )
    assert [s.straddle for s in await db.hands.seats(hand.id)] == [True, False]
    await db.hands.cancel(hand.id)
    await db.tables.cash_out(t.id, ALICE)
    await db.tables.buy_in(t.id, ALICE, 1, 1_000)
    assert [s.straddle for s in await db.tables.seats(t.id)] == [False, False]


async def test_a_seat_keeps_the_time_bank_it_has_left(db: Database) -> None:
    """RULES.md 8: the seconds of time bank left are stored with the seat (None: the whole
    bank), read back with it, and gone once the player leaves."""
    t = await db.tables.create(G, CH, ALICE, {})
    await db.tables.buy_in(t.id, ALICE, 1, 1_000)
    await db.tables.buy_in(t.id, BOB, 2, 1_000)
    assert [s.time_bank for s in await db.tables.seats(t.id)] == [None, None]
    await db.tables.set_time_bank(t.id, ALICE, 12.5)
    await db.tables.set_time_bank(t.id, CAROL, 3.0)  # no seat: nothing
    assert [s.time_bank for s in await db.tables.seats(t.id)] == [12.5, None]
    await db.tables.cash_out(t.id, ALICE)
    await db.tables.buy_in(t.id, ALICE, 1, 1_000)
    assert [s.time_bank for s in await db.tables.seats(t.id)] == [None, None]
