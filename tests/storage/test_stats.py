"""Statistics counted over some channels only (issue 29): every figure but the balances
takes the channels whose results count; a tournament's hands and results belong to the
tournament's channel (its tables may play in threads of it)."""

from __future__ import annotations

from bot.engine.cards import DECK
from bot.storage import Database, HandSeatIn, HandSummary, Metric, Period, SeatResult

G, A, B, C = 1, 301, 302, 303
POKER, VIP, LOBBY, THREAD = 700, 701, 702, 703


async def _hands(
    db: Database, channel: int, winner: int, loser: int, amount: int, count: int = 1,
    *, table_id: int | None = None,
) -> int:
    """``count`` heads-up hands ``winner`` wins by ``amount`` at a cash table in ``channel``
    (or at table ``table_id``); the table's id."""
    if table_id is None:
        table_id = (await db.tables.create(G, channel, A, {"v": "omaha"})).id
        for seat, user in ((1, winner), (2, loser)):
            await db.tables.buy_in(table_id, user, seat, 1000)
    for _ in range(count):
        seats = {s.user_id: s for s in await db.tables.seats(table_id)}
        w, lo = seats[winner], seats[loser]
        hand = await db.hands.start(
            table_id, variant="omaha", settings={}, button=w.seat_no,
            seats=[HandSeatIn(w.seat_no, w.user_id, w.stack),
                   HandSeatIn(lo.seat_no, lo.user_id, lo.stack)],
            deck=DECK[:13])
        await db.hands.finish(hand.id, HandSummary("omaha", (
            SeatResult(w.seat_no, w.user_id, won=2 * amount, net=amount, vpip=True,
                       showdown=True, won_showdown=True),
            SeatResult(lo.seat_no, lo.user_id, won=0, net=-amount, vpip=True, showdown=True),
        )))
    return table_id


async def _vip(db: Database) -> None:
    """A's hands: #poker -150, -150, +40 against B; #vip +300 x 3 against B."""
    poker = await _hands(db, POKER, B, A, 150, 2)
    await _hands(db, POKER, A, B, 40, table_id=poker)
    await _hands(db, VIP, A, B, 300, 3)


async def _figures(
    db: Database, user: int, *, channels: list[int] | None = None,
    period: Period = Period.ALL_TIME,
) -> tuple[int, ...]:
    s = await db.stats.player(G, user, channels=channels, period=period)
    return (s.hands_played, s.hands_won, s.net, s.biggest_pot, s.showdowns, s.showdowns_won)


async def test_a_players_figures_over_some_channels(db: Database) -> None:
    await _vip(db)
    assert await _figures(db, A) == (6, 4, 640, 600, 6, 4)
    assert await _figures(db, A, channels=[POKER]) == (3, 1, -260, 80, 3, 1)
    assert await _figures(db, A, channels=[VIP]) == (3, 3, 900, 600, 3, 3)
    assert await _figures(db, A, channels=[POKER, VIP]) == await _figures(db, A)
    assert await _figures(db, A, channels=[]) == (0, 0, 0, 0, 0, 0)
    assert await _figures(db, A, channels=[VIP], period=Period.WEEK) == (3, 3, 900, 600, 3, 3)
    nets = await db.stats.hand_nets(G, A, channels=[POKER])
    assert [n.net for n in nets] == [-150, -150, 40]
    assert len(await db.stats.hand_nets(G, A, channels=[POKER, VIP])) == 6
    assert await db.stats.hand_nets(G, A, channels=[]) == []


async def test_the_hands_give_what_the_all_time_figures_give(db: Database) -> None:
    """With a channel left out (here one where only B and C played), A's figures come
    from the hands themselves: the same as the all-time figures kept per player."""
    await _vip(db)
    await _hands(db, LOBBY, C, B, 25, 2)
    every = await db.stats.player(G, A)
    assert await db.stats.player(G, A, channels=[POKER, VIP]) == every
    page = await db.stats.leaderboard(G, Metric.NET_WON, channels=[POKER, VIP])
    assert [(r.user_id, r.value) for r in page.rows] == [(A, 640), (B, -640)]
    page = await db.stats.leaderboard(G, Metric.NET_WON)
    assert [(r.user_id, r.value) for r in page.rows] == [(A, 640), (C, 50), (B, -690)]


async def test_rankings_over_some_channels_but_balances_whole(db: Database) -> None:
    await _vip(db)

    async def board(
        metric: Metric, *, channels: list[int] | None = None, period: Period = Period.ALL_TIME,
    ) -> list[tuple[int, int, int]]:
        page = await db.stats.leaderboard(G, metric, channels=channels, period=period)
        return [(r.rank, r.user_id, r.value) for r in page.rows]

    assert await board(Metric.NET_WON, channels=[POKER]) == [(1, B, 260), (2, A, -260)]
    assert await board(Metric.HANDS_WON, channels=[POKER]) == [(1, B, 2), (2, A, 1)]
    assert await board(Metric.BIGGEST_POT, channels=[VIP], period=Period.MONTH) == [
        (1, A, 600), (2, B, 0)]
    assert await board(Metric.NET_WON, channels=[]) == []
    assert await board(Metric.BALANCE, channels=[]) == await board(Metric.BALANCE)
    assert len(await board(Metric.BALANCE)) == 2


async def test_a_tournament_belongs_to_its_channel_and_its_tables_too(db: Database) -> None:
    """A tournament created in #lobby plays at a table in a thread of it: its hands and
    its result count with #lobby (the thread's hands never on their own)."""
    await _vip(db)
    t = await db.tournaments.create(G, LOBBY, A, buy_in=100, starting_stack=1_500,
                                    settings={"variant": "omaha"})
    for user in (A, B):
        await db.tournaments.enter(t.id, user)
    table = await db.tables.create(G, THREAD, A, {"t": 1}, tournament_id=t.id)
    await db.tournaments.start(t.id, table.id, {A: 1, B: 2})
    await _hands(db, THREAD, A, B, 50, table_id=table.id)
    await db.tournaments.finish(t.id, {A: 1, B: 2}, {A: 200})
    assert await db.stats.channels(G) == [POKER, VIP, LOBBY]
    assert (await db.stats.player(G, A, channels=[LOBBY])).hands_played == 1
    assert (await db.stats.player(G, A, channels=[THREAD])).hands_played == 0
    assert (await db.stats.player(G, A)).hands_played == 7
    assert (await db.stats.tournaments(G, A, channels=[LOBBY])).wins == 1
    assert (await db.stats.tournaments(G, A, channels=[POKER, VIP])).played == 0
    assert [f.prize for f in await db.stats.finishes(G, A, channels=[LOBBY])] == [200]
    assert await db.stats.finishes(G, A, channels=[VIP]) == []
    wins = await db.stats.leaderboard(G, Metric.TOURNAMENT_WINS, channels=[POKER])
    assert wins.total == 0 and wins.rows == ()
    wins = await db.stats.leaderboard(G, Metric.TOURNAMENT_WINS, channels=[LOBBY, POKER])
    assert [(r.user_id, r.value) for r in wins.rows] == [(A, 1), (B, 0)]
