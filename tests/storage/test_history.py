"""Hand-history lookups (bot/storage/history.py) on both backends."""

from __future__ import annotations

from bot.engine.cards import Deck
from bot.runtime.config import TableConfig
from bot.storage import Database, HandSeatIn, HandSummary, Metric, Period, SeatResult

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


async def _game_hand(db: Database, table_id: int, variant: str, structure: str, won: int,
                     stacks: dict[int, int]) -> int:
    """A finished heads-up hand of ``variant`` (ALICE wins ``won`` from BOB), stored with
    its own game's settings as a mixed table stores each hand."""
    seats = [HandSeatIn(1, ALICE, stacks[ALICE]), HandSeatIn(2, BOB, stacks[BOB])]
    stacks[ALICE], stacks[BOB] = stacks[ALICE] + won, stacks[BOB] - won
    hand = await db.hands.start(table_id, variant=variant, button=1, seats=seats,
                                settings={"variant_key": variant, "structure": structure},
                                deck=Deck().order)
    await db.hands.finish(hand.id, HandSummary(variant, (
        SeatResult(1, ALICE, won=2 * won, net=won, vpip=True),
        SeatResult(2, BOB, won=0, net=-won, vpip=True),
    )))
    return hand.id


async def test_section_11_each_hand_counts_under_its_own_game(db: Database) -> None:
    """A mixed table deals Hold'em, Omaha and Omaha Hi-Lo: the hand list, the statistics
    (all time, from the running totals, and this week, from the hands) and the leaderboard
    filter each hand under the game it was dealt; no filter counts them all."""
    table = await db.tables.create(G, CH, ALICE, {"variant_key": "holdem", "mix": {
        "games": ["holdem/no limit", "omaha/pot limit", "omaha_hilo/fixed limit"],
        "mode": "rotation", "every": 2}})
    for user, seat in ((ALICE, 1), (BOB, 2)):
        await db.tables.buy_in(table.id, user, seat, 1_000)
    ids: dict[str, list[int]] = {}
    stacks = {ALICE: 1_000, BOB: 1_000}
    for variant, structure, won in (("holdem", "no limit", 10), ("omaha", "pot limit", 20),
                                    ("holdem", "no limit", 30), ("omaha_hilo", "fixed limit", 40)):
        ids.setdefault(variant, []).append(
            await _game_hand(db, table.id, variant, structure, won, stacks))
    listed = await db.history.recent(G, variant="holdem")
    assert [x.hand.id for x in listed] == ids["holdem"][::-1]
    assert [x.hand.id for x in await db.history.recent(G, variant="omaha_hilo")] == ids[
        "omaha_hilo"]
    assert len(await db.history.recent(G)) == 4
    for period in (Period.ALL_TIME, Period.WEEK):
        holdem = await db.stats.player(G, ALICE, variant="holdem", period=period)
        assert (holdem.hands_played, holdem.net) == (2, 40)
        everything = await db.stats.player(G, ALICE, period=period)
        assert (everything.hands_played, everything.net) == (4, 100)
        board = await db.stats.leaderboard(G, Metric.NET_WON, period=period, variant="omaha")
        assert [(r.user_id, r.value) for r in board.rows] == [(ALICE, 20), (BOB, -20)]
    nets = await db.stats.hand_nets(G, ALICE, variant="omaha_hilo")
    assert [n.net for n in nets] == [40]


async def test_an_old_database_keeps_every_hand_under_its_omaha_game(db: Database) -> None:
    """Hands stored before mixed tables (their table's settings without a list of games)
    read as before: each under its Omaha game, their settings a one-game table's, and the
    Hold'em filter finds none of them. No migration is needed: a hand has always stored
    its own variant (``hands.variant``, ``player_stats.variant``)."""
    old = {"variant_key": "omaha_hilo", "structure": "pot limit", "small_blind": 1,
           "big_blind": 2, "ante": 0, "min_buyin": 40, "max_buyin": 200, "seats": 6,
           "clock": 30, "time_bank": 60}
    table = await db.tables.create(G, CH, ALICE, old)
    for user, seat in ((ALICE, 1), (BOB, 2)):
        await db.tables.buy_in(table.id, user, seat, 1_000)
    seats = [HandSeatIn(1, ALICE, 1_000), HandSeatIn(2, BOB, 1_000)]
    hand = await db.hands.start(table.id, variant="omaha_hilo", settings=old, button=1,
                                seats=seats, deck=Deck().order)
    await db.hands.finish(hand.id, HandSummary("omaha_hilo", (
        SeatResult(1, ALICE, won=20, net=10), SeatResult(2, BOB, won=0, net=-10))))
    config = TableConfig.from_dict(dict((await db.history.in_channel(CH, 1)).settings))
    assert (config.variant_key, config.mix, config.game_key) == (
        "omaha_hilo", None, "omaha_hilo/pot limit@1/2")
    assert [x.hand.id for x in await db.history.recent(G, variant="omaha_hilo")] == [hand.id]
    assert await db.history.recent(G, variant="holdem") == []
    assert (await db.stats.player(G, ALICE, variant="omaha_hilo")).net == 10
    assert (await db.stats.player(G, ALICE, variant="holdem")).hands_played == 0
