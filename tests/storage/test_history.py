"""Hand-history lookups (bot/storage/history.py) on both backends."""

from __future__ import annotations

from bot.engine.cards import Deck
from bot.storage import Database, HandSeatIn, HandSummary, SeatResult

G, CH, ALICE, BOB = 2, 600, 21, 22


async def _hand(db: Database, table_id: int, stacks: dict[int, int], won: int) -> int:
    """A finished heads-up hand: ALICE wins ``won`` from BOB (negative: BOB wins)."""
    seats = [HandSeatIn(1, ALICE, stacks[ALICE]), HandSeatIn(2, BOB, stacks[BOB])]
    hand = await db.hands.start(table_id, variant="omaha", settings={}, button=1, seats=seats,
                                deck=Deck().order)
    a, b = (2 * won, 0) if won > 0 else (0, -2 * won)
    await db.hands.finish(hand.id, HandSummary("omaha", (
        SeatResult(1, ALICE, won=a, net=won, vpip=True, showdown=True, won_showdown=won > 0),
        SeatResult(2, BOB, won=b, net=-won, vpip=True, showdown=True, won_showdown=won < 0),
    )))
    stacks[ALICE] += won
    stacks[BOB] -= won
    return hand.id


async def test_lookups_by_number_by_player_and_recent(db: Database) -> None:
    """Hand 2 of the channel; ALICE's last two; the server's recent listing with pots,
    winners biggest first and the asked-about player's net."""
    table = await db.tables.create(G, CH, ALICE, {"variant": "omaha"})
    stacks = {ALICE: 1_000, BOB: 1_000}
    for user, seat in ((ALICE, 1), (BOB, 2)):
        await db.tables.buy_in(table.id, user, seat, 1_000)
    first = await _hand(db, table.id, stacks, 100)
    second = await _hand(db, table.id, stacks, -40)
    third = await _hand(db, table.id, stacks, 10)

    found = await db.history.in_channel(CH, 2)
    assert found is not None and (found.id, found.number) == (second, 2)
    assert await db.history.in_channel(CH, 9) is None
    assert [h.id for h in await db.history.last_of(CH, ALICE, 2)] == [third, second]

    listing = await db.history.recent(G, user_id=BOB, limit=2)
    assert [(x.hand.id, x.channel_id, x.pot, x.won, x.net) for x in listing] == [
        (third, CH, 20, ((ALICE, 20),), -10),
        (second, CH, 80, ((BOB, 80),), 40),
    ]
    everyone = await db.history.recent(G)
    assert [x.hand.id for x in everyone] == [third, second, first]
    assert all(x.net is None for x in everyone)


async def test_recent_keeps_to_the_channels_given(db: Database) -> None:
    """The channels where the server dealt hands; the listing of only some of them (the
    ones a member may view), none when no channel is given."""
    hidden = CH + 1
    ids = {}
    for channel in (CH, hidden):
        table = await db.tables.create(G, channel, ALICE, {"variant": "omaha"})
        for user, seat in ((ALICE, 1), (BOB, 2)):
            await db.tables.buy_in(table.id, user, seat, 500)
        ids[channel] = await _hand(db, table.id, {ALICE: 500, BOB: 500}, 10)
    await db.tables.create(G, CH + 2, ALICE, {"variant": "omaha"})  # no hand dealt
    assert await db.history.channels(G) == [CH, hidden]
    assert await db.history.channels(G + 1) == []
    shown = await db.history.recent(G, channel_ids=[CH])
    assert [(x.hand.id, x.channel_id) for x in shown] == [(ids[CH], CH)]
    assert await db.history.recent(G, channel_ids=[]) == []
    assert len(await db.history.recent(G, user_id=BOB, channel_ids=[CH, hidden])) == 2
