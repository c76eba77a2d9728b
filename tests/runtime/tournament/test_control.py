"""Starting early and cancelling after the start: who may, and where the pool goes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.economy import Economy
from bot.engine.variants import Structure
from bot.runtime.clock import FakeClock
from bot.runtime.errors import NotAllowed
from bot.runtime.table.events import Notice
from bot.runtime.tournament.control import Cancelling, cancel, join_late, start_now
from bot.runtime.tournament.payouts import PayoutError, parse_percentages, split_by_stacks
from bot.runtime.tournament.results import cancel_prizes
from bot.runtime.tournament.sit_and_go import Status, TournamentRuleError
from bot.storage import Database
from bot.storage_ports import StoragePorts
from tests.runtime.conftest import stop
from tests.runtime.fakes import Recorder
from tests.runtime.tournament.test_restore import (
    audit_ok,
    shove_to_the_end,
    two_shove_the_rest_fold,
)
from tests.runtime.tournament.test_table_policy import (
    CHANNEL,
    CREATOR,
    GUILD,
    deal,
    service,
    settle,
    sng_of,
)


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    database = await Database.open(":memory:")
    yield database
    await database.close()


def test_a_split_by_stacks_pays_every_chip_biggest_stacks_first() -> None:
    """Proportional, whole chips, the remainder to the biggest stacks, ties in order."""
    assert split_by_stacks(100, [(1, 1), (2, 1), (3, 1)]) == {1: 34, 2: 33, 3: 33}
    assert split_by_stacks(1000, [(1, 500), (2, 2500), (3, 1500)]) == {1: 111, 2: 556, 3: 333}
    assert split_by_stacks(7, [(1, 10), (2, 0)]) == {1: 7, 2: 0}
    with pytest.raises(PayoutError):
        split_by_stacks(5, [(1, 0)])


def test_payout_text_is_read_and_checked() -> None:
    """``50/30/20``, ``60, 40`` and ``100%`` read; sums other than 100 and words refused."""
    assert parse_percentages("50/30/20").percentages == (50, 30, 20)
    assert parse_percentages(" 60, 40 ").percentages == (60, 40)
    assert parse_percentages("100%").percentages == (100,)
    for bad, reason in (("50/30", "add up to 80"), ("half", "whole percentages"),
                        ("30/70", "lower place"), ("٥٠/٥٠", "whole percentages")):
        with pytest.raises(PayoutError, match=reason):
            parse_percentages(bad)


async def test_only_the_creator_starts_early_and_not_below_the_minimum(db: Database) -> None:
    """A stranger is refused, one entrant is too few, the creator starts with two."""
    tours = service(db, FakeClock(), Recorder())
    rt = await sng_of(tours, entrants=6)
    await rt.join(2)
    with pytest.raises(TournamentRuleError, match="at least 2 players"):
        await start_now(rt, CREATOR)
    await rt.join(3)
    with pytest.raises(NotAllowed):
        await start_now(rt, 3)
    await start_now(rt, 99, is_manager=True)
    assert rt.sng.status is Status.RUNNING and rt.table is not None
    assert len(rt.table.seats) == 2
    with pytest.raises(TournamentRuleError, match="already started"):
        await start_now(rt, CREATOR)
    await stop(tours)


async def test_a_cancel_between_hands_keeps_paid_places_and_splits_the_rest(
    db: Database,
) -> None:
    """4th place (paid 10%) is decided; after the start the creator alone may not cancel
    (RULES.md 7), nor the player out; the three still in agree one by one and the last
    agreement cancels between hands: 4th keeps 40 chips, the other 360 go to the three
    left by their stacks; audit holds."""
    clock = FakeClock()
    rec = Recorder()
    tours = service(db, clock, rec)
    economy = Economy(db)
    players = (2, 3, 4, 5)
    before = {u: await economy.balance(GUILD, u) for u in players}
    rt = await sng_of(tours, entrants=4, structure=Structure.NO_LIMIT, payouts=(40, 30, 20, 10),
                      min_entrants=4)
    for user in players:
        await rt.join(user)
    table = rt.table
    assert table is not None
    while not rt.sng.placements:
        await deal(table, clock)
        assert table.current is not None
        await two_shove_the_rest_fold(table, table.current)
        await settle(table)
    assert table.current is None and len(rt.sng.stacks) == 3
    out = next(iter(rt.sng.placements.values()))
    places, prizes = cancel_prizes(rt.sng)
    expected = split_by_stacks(360, rt.sng.standings())
    assert prizes == {out.user_id: 40, **expected} and sum(prizes.values()) == 400
    ports = StoragePorts(db)
    for nobody in (CREATOR, out.user_id):
        with pytest.raises(NotAllowed, match="only a server manager or the players still in"):
            await cancel(rt, ports, nobody)
    first, second, last = rt.sng.alive
    assert await cancel(rt, ports, first) is Cancelling.AGREED
    assert await cancel(rt, ports, first) is Cancelling.AGREED  # once is enough
    assert await cancel(rt, ports, second) is Cancelling.AGREED
    await table.idle()
    told = [e.text for e in rec.of(Notice) if "agree to cancel" in e.text]
    assert told[-1].startswith("2 of 3 players still in agree")
    assert rt.sng.status is Status.RUNNING and not table.closed
    assert await cancel(rt, ports, last) is Cancelling.DONE
    assert table.closed and tours.registry.find(CHANNEL) is None
    stored = await db.tournaments.get(rt.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0
    for u in players:
        assert await economy.balance(GUILD, u) == before[u] - 100 + prizes.get(u, 0)
    assert places == {out.user_id: out.place}
    with pytest.raises(TournamentRuleError, match="already over"):
        await cancel(rt, ports, CREATOR, is_manager=True)
    await audit_ok(db)


async def test_late_registration_seats_a_player_until_the_level_ends(db: Database) -> None:
    """Late registration for level 1: a third player joins after the start (buy-in into
    the pool, starting stack, dealt in once the big blind reaches them); after level 1
    it is closed; the tournament is played out, the pool paid exactly, audit holds."""
    clock = FakeClock()
    tours = service(db, clock, Recorder())
    economy = Economy(db)
    ports = StoragePorts(db)
    rt = await sng_of(tours, entrants=4, structure=Structure.NO_LIMIT, late_levels=1)
    await rt.join(2)
    await rt.join(3)
    await start_now(rt, CREATOR)
    table = rt.table
    assert table is not None and rt.sng.late_open
    bal = await economy.balance(GUILD, 4)
    seat = await join_late(rt, ports, 4, "late")
    assert table.seats[seat].user_id == 4 and rt.sng.stacks[4] == 1500
    assert await economy.balance(GUILD, 4) == bal - 100 and rt.sng.pool == 300
    with pytest.raises(TournamentRuleError, match="already registered"):
        await join_late(rt, ports, 4, "late")
    for _ in range(6):
        await deal(table, clock)
        assert table.current is not None
        await two_shove_the_rest_fold(table, table.current)
        await settle(table)
        if rt.sng.placements or table.closed:
            break
    await clock.advance(5 * 60)  # turbo: level 2 from now on
    assert not rt.sng.late_open
    with pytest.raises(TournamentRuleError, match="closed"):
        await join_late(rt, ports, 5, "too late")
    if not table.closed:
        await shove_to_the_end(table, clock)
    # the late entrant's chips were played: one player holds all 4,500 at the end
    assert sum(rt.sng.prizes.values()) == 300 and rt.sng.finished
    await audit_ok(db)
