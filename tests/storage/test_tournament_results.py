"""Tournament results (migration 0004): stored when a pool is paid out, read by the stats."""

from __future__ import annotations

from bot.storage import Database, Metric, Period

G, A, B, C = 1, 301, 302, 303


async def _paid(
    db: Database, channel: int, buy_in: int, prizes: dict[int, int],
    places: dict[int, int], *, cancel: bool = False, settings: dict[str, object] | None = None,
) -> int:
    """A three-player tournament started and paid out without a hand (chips taken back)."""
    t = await db.tournaments.create(G, channel, A, buy_in=buy_in, starting_stack=1_500,
                                    settings=settings or {"variant": "omaha"})
    for user in (A, B, C):
        await db.tournaments.enter(t.id, user)
    table = await db.tables.create(G, channel, A, {"t": 1}, tournament_id=t.id)
    await db.tournaments.start(t.id, table.id, {A: 1, B: 2, C: 3})
    pay = db.tournaments.cancel_with_prizes if cancel else db.tournaments.finish
    await pay(t.id, places, prizes)
    return t.id


async def test_results_count_wins_cashes_profit_and_roi(db: Database) -> None:
    """A wins a 100 buy-in (300), B cashes a cancelled 200 buy-in pool share (350 of 600):
    wins, cashes, profit and ROI per player; a refund before the start counts nothing."""
    await _paid(db, 700, 100, {A: 300}, {A: 1, B: 2, C: 3})
    await _paid(db, 701, 200, {A: 250, B: 350}, {C: 3}, cancel=True)
    refunded = await db.tournaments.create(G, 702, A, buy_in=50, starting_stack=1_500,
                                           settings={})
    await db.tournaments.enter(refunded.id, A)
    await db.tournaments.cancel(refunded.id)
    a = await db.stats.tournaments(G, A)
    assert (a.played, a.wins, a.cashes, a.buy_ins, a.prizes) == (2, 1, 2, 300, 550)
    assert a.profit == 250 and round(100 * a.roi) == 83
    b = await db.stats.tournaments(G, B)
    assert (b.played, b.wins, b.cashes, b.profit) == (2, 0, 1, 50)
    c = await db.stats.tournaments(G, C)
    assert (c.cashes, c.profit, round(100 * c.roi)) == (0, -300, -100)
    assert (await db.stats.tournaments(G, 999)).played == 0
    audit = await db.audit()
    assert audit and all(line.ok for line in audit)


async def test_leaderboards_rank_the_tournament_metrics(db: Database) -> None:
    """Each tournament metric ranks the players; a variant filter keeps that game only."""
    await _paid(db, 700, 100, {A: 300}, {A: 1, B: 2, C: 3})
    await _paid(db, 701, 100, {B: 200, C: 100}, {B: 1, C: 2, A: 3},
                settings={"variant": "omaha5"})

    async def board(metric: Metric, variant: str | None = None) -> list[tuple[int, int, int]]:
        page = await db.stats.leaderboard(G, metric, period=Period.WEEK, variant=variant)
        return [(r.rank, r.user_id, r.value) for r in page.rows]

    assert await board(Metric.TOURNAMENT_WINS) == [(1, A, 1), (1, B, 1), (3, C, 0)]
    assert await board(Metric.TOURNAMENT_CASHES) == [(1, A, 1), (1, B, 1), (1, C, 1)]
    assert await board(Metric.TOURNAMENT_PROFIT) == [(1, A, 100), (2, B, 0), (3, C, -100)]
    assert await board(Metric.TOURNAMENT_ROI) == [(1, A, 50), (2, B, 0), (3, C, -50)]
    assert await board(Metric.TOURNAMENT_PROFIT, "omaha5") == [(1, B, 100), (2, C, 0),
                                                               (3, A, -100)]


async def test_finishes_are_the_stored_results_in_order(db: Database) -> None:
    """The points of /stats's tournament graph: each paid-out tournament once, oldest
    first, with its place, buy-in and prize as stored; a refund is not one."""
    first = await _paid(db, 710, 100, {A: 300}, {A: 1, B: 2, C: 3})
    second = await _paid(db, 711, 200, {A: 250, B: 350}, {C: 3}, cancel=True)
    a = await db.stats.finishes(G, A)
    assert [(f.tournament_id, f.place, f.buy_in, f.prize) for f in a] == [
        (first, 1, 100, 300), (second, None, 200, 250)]
    c = await db.stats.finishes(G, C)
    assert [(f.place, f.prize, f.entrants) for f in c] == [(3, 0, 3), (3, 0, 3)]
    summary = await db.stats.tournaments(G, A)
    assert sum(f.prize - f.buy_in for f in a) == summary.profit
    assert await db.stats.finishes(G, 999) == []


async def test_a_rotation_counts_under_every_game_together_only(db: Database) -> None:
    """A sit-and-go that rotated its games (RULES.md 11) is no one game's: a game filter
    leaves it out (though its first game is its named variant); no filter counts it."""
    await _paid(db, 720, 100, {A: 300}, {A: 1, B: 2, C: 3},
                settings={"variant": "holdem", "games": ["holdem/no limit", "omaha/pot limit"],
                          "every": 3})
    await _paid(db, 721, 100, {B: 300}, {B: 1, C: 2, A: 3}, settings={"variant": "holdem"})

    async def wins(variant: str | None) -> list[tuple[int, int]]:
        page = await db.stats.leaderboard(G, Metric.TOURNAMENT_WINS, variant=variant)
        return [(r.user_id, r.value) for r in page.rows if r.value]

    assert await wins(None) == [(A, 1), (B, 1)]
    assert await wins("holdem") == [(B, 1)]
    assert await wins("omaha") == []
