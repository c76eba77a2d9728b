"""Seasons (issue 32): named stretches of time one after the other; a season's standings
are the results that ended within it, over the channels that count."""

from __future__ import annotations

import pytest

from bot.storage import Database, EconomyError, Metric, Period

from .helpers import FakeClock
from .test_stats import _hands
from .test_tournament_results import _paid

G, A, B, C = 1, 301, 302, 303
POKER, VIP = 700, 701


async def _board(db: Database, metric: Metric, **kw: object) -> list[tuple[int, int]]:
    page = await db.stats.leaderboard(G, metric, **kw)  # type: ignore[arg-type]
    return [(r.user_id, r.value) for r in page.rows]


async def test_a_season_boundary_splits_a_players_results(
    db: Database, clock: FakeClock,
) -> None:
    """A loses 150 twice before Spring starts and wins 40 and a sit-and-go in it; Summer
    ends Spring, and what A does then counts in Summer only: Spring's standings are final
    and stay readable; all time still counts everything; balances are not seasonal."""
    table = await _hands(db, POKER, B, A, 150, 2)
    await _paid(db, 800, 100, {B: 300}, {B: 1, A: 2, C: 3})
    clock.advance(60)
    spring, ended = await db.seasons.start(G, "Spring 2027", A)
    assert ended is None and spring.running and spring.started_at == clock.now
    clock.advance(60)
    await _hands(db, POKER, A, B, 40, table_id=table)
    await _paid(db, 801, 100, {A: 300}, {A: 1, B: 2, C: 3})
    during = {m: await _board(db, m, season=spring)
              for m in (Metric.NET_WON, Metric.HANDS_WON, Metric.TOURNAMENT_PROFIT)}
    assert during == {Metric.NET_WON: [(A, 40), (B, -40)],
                      Metric.HANDS_WON: [(A, 1), (B, 0)],
                      Metric.TOURNAMENT_PROFIT: [(A, 200), (B, -100), (C, -100)]}

    clock.advance(60)
    summer, ended = await db.seasons.start(G, "Summer", B)
    assert ended is not None and ended.id == spring.id and ended.ended_at == clock.now
    clock.advance(60)
    await _hands(db, POKER, A, B, 500, table_id=table)
    await _paid(db, 802, 100, {C: 300}, {C: 1, A: 2, B: 3})
    spring = await db.seasons.named(G, "spring 2027")
    assert spring is not None and not spring.running
    assert {m: await _board(db, m, season=spring) for m in during} == during
    assert await _board(db, Metric.NET_WON, season=summer) == [(A, 500), (B, -500)]
    assert await _board(db, Metric.TOURNAMENT_WINS, season=summer) == [(C, 1), (A, 0), (B, 0)]
    assert await _board(db, Metric.NET_WON) == [(A, 240), (B, -240)]
    assert await _board(db, Metric.NET_WON, period=Period.WEEK) == [(A, 240), (B, -240)]
    assert await _board(db, Metric.BALANCE, season=spring) == await _board(db, Metric.BALANCE)

    nets = await db.stats.hand_nets(G, A, season=spring)
    assert [n.net for n in nets] == [40]
    assert [n.net for n in await db.stats.hand_nets(G, A)] == [-150, -150, 40, 500]
    assert [(f.place, f.prize) for f in await db.stats.finishes(G, A, season=spring)] == [
        (1, 300)]
    assert [f.place for f in await db.stats.finishes(G, A, season=summer)] == [2]


async def test_a_seasons_standings_count_only_the_channels_that_count(
    db: Database, clock: FakeClock,
) -> None:
    """The channel filter of issue 29 holds within a season as within a period."""
    season, _ = await db.seasons.start(G, "Autumn", A)
    clock.advance(1)
    await _hands(db, POKER, A, B, 100)
    await _hands(db, VIP, B, A, 300)
    assert await _board(db, Metric.NET_WON, season=season) == [(B, 200), (A, -200)]
    assert await _board(db, Metric.NET_WON, season=season, channels=[POKER]) == [
        (A, 100), (B, -100)]
    assert await _board(db, Metric.NET_WON, season=season, channels=[]) == []


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "two\nlines", "tab\there"])
async def test_a_bad_season_name_is_refused_and_changes_nothing(
    db: Database, name: str,
) -> None:
    await db.seasons.start(G, "First", A)
    with pytest.raises(EconomyError) as refused:
        await db.seasons.start(G, name, A)
    assert refused.value.phrase is not None
    [only] = await db.seasons.listed(G)
    assert only.name == "First" and only.running


async def test_season_names_are_one_per_server_in_any_case(
    db: Database, clock: FakeClock,
) -> None:
    """A name used before, in any case, is refused (the running season goes on); another
    server may use it; spaces are tidied; the list is newest first."""
    first, _ = await db.seasons.start(G, "  Winter   League ", A)
    assert first.name == "Winter League"
    clock.advance(5)
    with pytest.raises(EconomyError):
        await db.seasons.start(G, "WINTER league", B)
    assert await db.seasons.running(G) == first
    other, _ = await db.seasons.start(G + 1, "Winter League", B)
    assert other.guild_id == G + 1 and await db.seasons.running(G) == first
    clock.advance(5)
    second, ended = await db.seasons.start(G, "Spring", B)
    assert ended is not None and ended.id == first.id
    assert [s.name for s in await db.seasons.listed(G)] == ["Spring", "Winter League"]
    assert await db.seasons.named(G, "winter LEAGUE") == ended
    assert await db.seasons.named(G, "nothing") is None
    assert await db.seasons.running(G) == second
